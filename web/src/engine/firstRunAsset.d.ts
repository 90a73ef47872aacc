/**
 * The URL of the landing page's prerendered first run (engine/firstRun.ts), emitted by
 * scripts/vite-plugin-first-run.ts in a build; null in the dev server and in unit tests.
 */
declare module 'virtual:sendpath-first-run' {
  const url: string | null;
  export default url;
}
