// `npm test`: every check of the project, in order, stopping at the first failure.
//
// Bootstrap (with the test tools: rustfmt, clippy, Chromium), then the engine (format, lint,
// native tests, generated-types freshness), the wasm build, then the site (types, lint, format,
// unit tests, production build, a quick run of `npm run bench`) and the end-to-end suite in
// Chromium against that build.
// Each step prints its command; a failing step names itself and what to do. Node built-ins only.

import { join } from 'node:path';

import { ENGINE, ROOT, UserError, freePort, run, say } from './lib.mjs';

const WHO = 'test';
const ESLINT_CACHE = [
  '--cache',
  '--cache-location',
  'node_modules/.cache/eslint/',
  '--cache-strategy',
  'content',
];
const PRETTIER_CACHE = ['--cache', '--cache-strategy', 'content'];
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

async function main() {
  // Ports for the end-to-end web servers: free ones, so that several checkouts on one machine
  // can run `npm test` at the same time.
  const previewPort = await freePort();
  const subpathPort = await freePort();
  const embedPort = await freePort();
  const hostPort = await freePort();
  const devPort = await freePort();
  const e2eEnv = {
    SENDPATH_PREVIEW_PORT: String(previewPort),
    SENDPATH_SUBPATH_PORT: String(subpathPort),
    SENDPATH_EMBED_PORT: String(embedPort),
    SENDPATH_HOST_PORT: String(hostPort),
    SENDPATH_DEV_PORT: String(devPort),
  };

  const steps = [
    {
      name: 'bootstrap',
      cmd: process.execPath,
      args: ['scripts/bootstrap.mjs', '--test'],
      hint: 'see the bootstrap message above',
    },
    {
      name: 'cargo fmt --check',
      cmd: 'cargo',
      args: ['fmt', '--all', '--check'],
      cwd: ENGINE,
      hint: 'run `cargo fmt` in engine/',
    },
    {
      name: 'cargo clippy',
      cmd: 'cargo',
      args: ['clippy', '--workspace', '--all-targets', '--all-features', '--', '-D', 'warnings'],
      cwd: ENGINE,
      hint: 'fix the clippy warnings above (run from engine/)',
    },
    {
      name: 'cargo test',
      cmd: 'cargo',
      args: ['test', '--workspace'],
      cwd: ENGINE,
      hint: 'a Rust test failed (run `cargo test` in engine/)',
    },
    {
      name: 'sendpath conform (model vs recordings of a real kernel)',
      cmd: 'cargo',
      args: ['run', '--quiet', '-p', 'sendpath-cli', '--', 'conform', '../scenarios/conformance'],
      cwd: ENGINE,
      hint: 'a value misses the real kernel without a known_failure, or a known_failure is stale: see the MISS and IN BAND rows above and scenarios/conformance/known-failures.toml',
    },
    {
      name: 'generated TypeScript types are current',
      cmd: 'cargo',
      args: ['test', '-p', 'sendpath-wasm', '--features', 'ts', '--test', 'typescript_types'],
      cwd: ENGINE,
      hint: 'run `npm run types` and commit web/src/engine/generated/',
    },
    {
      name: 'build the wasm engine',
      cmd: process.execPath,
      args: ['scripts/build-wasm.mjs', '--no-types'],
      hint: 'see the build error above',
    },
    {
      name: 'tsc --noEmit (site)',
      cmd: bin('tsc'),
      args: ['--noEmit', '-p', 'tsconfig.json'],
      hint: 'fix the TypeScript errors above',
    },
    {
      name: 'tsc --noEmit (tooling, tests)',
      cmd: bin('tsc'),
      args: ['--noEmit', '-p', 'tsconfig.node.json'],
      hint: 'fix the TypeScript errors above',
    },
    {
      name: 'eslint',
      cmd: bin('eslint'),
      // The caches (keyed by file content, under node_modules/.cache) let a second run re-check
      // only the files that changed.
      args: ['--max-warnings', '0', ...ESLINT_CACHE, '.'],
      hint: 'fix the lint errors above (`npx eslint --fix .` fixes some)',
    },
    {
      name: 'prettier --check',
      cmd: bin('prettier'),
      args: ['--check', ...PRETTIER_CACHE, '.'],
      hint: 'run `npm run format`',
    },
    {
      name: 'vitest',
      cmd: bin('vitest'),
      args: ['run'],
      hint: 'a unit test failed (`npm run test:unit`)',
    },
    {
      name: 'vite build',
      cmd: bin('vite'),
      args: ['build'],
      hint: 'the production build failed',
    },
    {
      name: 'the benchmark still runs (tiny workloads, no timings checked)',
      cmd: process.execPath,
      args: ['scripts/bench.mjs', '--quick'],
      hint: 'npm run bench -- --quick failed: see its error above',
    },
    {
      name: 'playwright (end to end, production build and dev server)',
      cmd: bin('playwright'),
      args: ['test'],
      env: e2eEnv,
      hint: 'an end-to-end test failed; its retry left a trace in test-results/*-retry1/ (`npx playwright show-trace`)',
    },
  ];

  const started = Date.now();
  const timings = [];
  for (const [i, step] of steps.entries()) {
    const shown = [step.cmd === process.execPath ? 'node' : step.cmd, ...step.args]
      .join(' ')
      .replace(`${ROOT}/`, '');
    say(WHO, `[${i + 1}/${steps.length}] ${step.name}: ${shown}`);
    const t0 = Date.now();
    try {
      run(step.cmd, step.args, { cwd: step.cwd ?? ROOT, env: step.env });
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      console.error(
        `\n[${WHO}] FAILED at step ${i + 1}/${steps.length}, ${step.name}: ${err.message}`,
      );
      console.error(`[${WHO}] what to do: ${step.hint}`);
      console.error(`steps: ${i} passed, 1 failed`);
      process.exit(1);
    }
    timings.push([step.name, (Date.now() - t0) / 1000]);
  }

  say(WHO, 'time per step:');
  for (const [name, s] of timings) say(WHO, `  ${s.toFixed(1).padStart(6)} s  ${name}`);
  say(WHO, `all ${steps.length} steps passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`steps: ${steps.length} passed, 0 failed`);
}

main().catch((err) => {
  console.error(`[${WHO}] ${err instanceof UserError ? err.message : err.stack}`);
  process.exit(1);
});
