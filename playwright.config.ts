import { availableParallelism } from 'node:os';

import { defineConfig } from '@playwright/test';

import chromium from './scripts/chromium.json' with { type: 'json' };

// scripts/test.mjs picks free ports; these defaults serve a direct `npx playwright test`.
const previewPort = Number(process.env.SENDPATH_PREVIEW_PORT ?? 4173);
const subpathPort = Number(process.env.SENDPATH_SUBPATH_PORT ?? 4180);
// The embed's own origin, and the origin of the page that embeds it (e2e/embed.spec.ts).
const embedPort = Number(process.env.SENDPATH_EMBED_PORT ?? 4181);
const hostPort = Number(process.env.SENDPATH_HOST_PORT ?? 4182);
// The dev server, as `npm start` serves the site (e2e/devserver.spec.ts).
const devPort = Number(process.env.SENDPATH_DEV_PORT ?? 4183);

/** Where the dev server listens (e2e/devserver.spec.ts): the suite's other tests use the build. */
export const DEV_URL = `http://127.0.0.1:${devPort}/`;

/** Where the sub-path server mounts dist/ (e2e/subpath.spec.ts). */
export const SUBPATH_PREFIX = '/courses/networking/sendpath/';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  forbidOnly: !!process.env.CI,
  // A failing test runs once more, traced; the run still fails if the retry passes
  // (failOnFlakyTests), so a flaky test is never hidden. Tracing every first attempt instead
  // ('retain-on-failure') cost 500 CPU-seconds per suite instead of 305 on the 2-core CI machine.
  retries: 1,
  failOnFlakyTests: true,
  // Two browsers at a time where there are two cores or more (the suite takes 3 minutes instead
  // of 4 on the 2-core CI machine); SENDPATH_E2E_WORKERS=1 on a machine that others share.
  workers: Number(process.env.SENDPATH_E2E_WORKERS ?? Math.min(2, availableParallelism())),
  // The default scenario runs for seconds in wasm; a test that waits on it gets 90 s.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${previewPort}/`,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    browserName: 'chromium',
    // Debian's Chromium and its flags (scripts/chromium.json, shared with the benchmarks):
    // Playwright's own browser download does not work on these machines.
    launchOptions: chromium,
  },
  webServer: [
    {
      // The production build (dist/, made by `vite build` just before), as `vite preview` serves it.
      command: `node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port ${previewPort} --strictPort`,
      url: `http://127.0.0.1:${previewPort}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The same build under a sub-path of a plain static server.
      command: `node scripts/serve-static.mjs --port ${subpathPort} --prefix ${SUBPATH_PREFIX}`,
      url: `http://127.0.0.1:${subpathPort}${SUBPATH_PREFIX}`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The build on a second origin for the embed, with CORS as GitHub Pages answers.
      command: `node scripts/serve-static.mjs --port ${embedPort} --prefix / --cors`,
      url: `http://127.0.0.1:${embedPort}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // A third origin: the blog post that embeds the player (e2e/host/).
      command: `node scripts/serve-static.mjs --port ${hostPort} --prefix / --dir e2e/host`,
      url: `http://127.0.0.1:${hostPort}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The dev server: what `npm start` runs once the engine is built (`vite`, the same config,
      // React in development mode with StrictMode's double effects, modules and the worker
      // served unbundled). Only e2e/devserver.spec.ts visits it.
      command: `node node_modules/vite/bin/vite.js --host 127.0.0.1 --port ${devPort} --strictPort`,
      url: DEV_URL,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
