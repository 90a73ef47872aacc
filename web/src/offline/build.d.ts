/** This build's version: `<package.json version> (<git commit>)`, set by vite.config.ts. */
declare const __SENDPATH_VERSION__: string;
/**
 * Scenario name -> how many conformance experiments of scenarios/conformance/ mirror it, set by
 * vite.config.ts (`conformScenarios`) at build time.
 */
declare const __SENDPATH_CONFORM__: Record<string, number>;
