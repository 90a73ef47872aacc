/** This build's version: `<package.json version> (<git commit>)`, set by vite.config.ts. */
declare const __SENDPATH_VERSION__: string;
