/// <reference types="vitest/config" />
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { csp } from './scripts/vite-plugin-csp.ts';
import { engineRebuild } from './scripts/vite-plugin-engine.ts';
import { firstRun } from './scripts/vite-plugin-first-run.ts';
import { lessonAb } from './scripts/vite-plugin-lesson-ab.ts';
import { offline } from './scripts/vite-plugin-offline.ts';

// Port of `vite preview` (Playwright's web server). scripts/test.mjs picks a free one so that
// several checkouts on one machine can run their end-to-end tests at once.
const previewPort = Number(process.env.SENDPATH_PREVIEW_PORT ?? 4173);

/** This build's version as the page shows it: package.json's version and the git commit. */
function buildVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  let commit = 'unknown commit';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // Not a git checkout (a source tarball): the version alone.
  }
  return `${pkg.version} (${commit})`;
}

/**
 * How many conformance experiments (scenarios/conformance/*.toml, issue 14) mirror each scenario,
 * by the scenario's path relative to scenarios/ without `.toml` (`nagle-delayed-ack`): the simulator links a scenario that has some to
 * the "Model vs Linux" view without loading the files on the first load. Only each file's
 * `scenario = "..."` line is read here; the engine parses the files in the view, and
 * model/conform.test.ts checks that both agree.
 */
function conformScenarios(): Record<string, number> {
  const dir = new URL('./scenarios/conformance/', import.meta.url);
  const out: Record<string, number> = {};
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.toml') && n !== 'known-failures.toml');
  } catch {
    return out; // No recordings in this checkout.
  }
  for (const n of names.sort()) {
    const m = /^scenario\s*=\s*"([^"]+)"/m.exec(readFileSync(new URL(n, dir), 'utf8'));
    const name = m?.[1]?.replace(/\.toml$/, '');
    if (name) out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  publicDir: '../public',
  // Relative asset URLs: dist/ works from any static host and under any sub-path.
  base: './',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every browser of the es2022 target supports <link rel=modulepreload>: no polyfill.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The site, the embed (/embed/, docs/embedding.md) and the web component's one script,
      // which keeps a stable name beside index.html (sendpath-player.js).
      input: {
        main: fileURLToPath(new URL('./web/index.html', import.meta.url)),
        embed: fileURLToPath(new URL('./web/embed/index.html', import.meta.url)),
        'sendpath-player': fileURLToPath(
          new URL('./web/src/embed/player-element.ts', import.meta.url),
        ),
      },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'sendpath-player' ? 'sendpath-player.js' : 'assets/[name]-[hash].js',
      },
    },
  },
  worker: {
    format: 'es',
    rolldownOptions: { output: { entryFileNames: 'assets/[name]-[hash].js' } },
  },
  define: {
    __SENDPATH_VERSION__: JSON.stringify(buildVersion()),
    __SENDPATH_CONFORM__: JSON.stringify(conformScenarios()),
  },
  plugins: [react(), engineRebuild(), firstRun(), lessonAb(), csp(), offline()],
  server: {
    port: 5173,
    watch: {
      // The engine's build output, and the wasm-bindgen output that engineRebuild() replaces
      // itself (reloading the page once the whole package is written).
      ignored: ['**/engine/target/**', '**/web/src/engine/pkg/**'],
    },
  },
  preview: { port: previewPort, strictPort: true },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // One test file per core. Vitest's default (one core fewer) runs the files one at a time on a
    // 2-core machine, though the capture kit's tests spend their time waiting on real traffic:
    // 20 s instead of 29-33 s there.
    maxWorkers: availableParallelism(),
    // Worker threads start faster than the default child processes: 15 s instead of 18-20 s.
    pool: 'threads',
  },
});
