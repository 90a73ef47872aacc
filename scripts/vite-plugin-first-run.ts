// `vite build`: makes the landing page's prerendered first run (web/src/engine/firstRun.ts)
// from the wasm engine of this build (web/src/engine/pkg/, scripts/build-wasm.mjs) and the
// scenario file, so that the asset cannot go stale: it is the engine's own output, made anew by
// every build. The page reads its URL from the module `virtual:sendpath-first-run`, which is
// the emitted asset's URL in a build and null in the dev server, where the engine rebuilds on
// every save of a Rust file and a prerendered run would lag behind (the page then runs it live).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { runnerImport, type Plugin } from 'vite';

import type * as FirstRunModule from '../web/src/engine/firstRun.ts';
import type * as ServeModule from '../web/src/engine/serve.ts';

const ID = 'virtual:sendpath-first-run';
const RESOLVED = `\0${ID}`;
const ENGINE = new URL('../web/src/engine/', import.meta.url);

/** A module of web/src/engine/, loaded by Vite's module runner (the config does not bundle it). */
async function engineModule<T>(name: string): Promise<T> {
  const path = fileURLToPath(new URL(name, ENGINE));
  return (await runnerImport<T>(path, { configFile: false, logLevel: 'warn' })).module;
}

/** The asset's bytes: the first run, encoded and gzipped (the page unzips it). */
export async function firstRunAsset(): Promise<Uint8Array> {
  // Loaded at build time, not when the config loads: a fresh clone has no pkg/ until
  // build-wasm.mjs has run, and the dev server must start without it.
  const { encodeFirstRun, FIRST_RUN_SCENARIO, firstRunRequest } =
    await engineModule<typeof FirstRunModule>('firstRun.ts');
  const { firstRunOf } = await engineModule<typeof ServeModule>('serve.ts');
  const glue =
    await engineModule<typeof import('../web/src/engine/pkg/sendpath_wasm.js')>(
      'pkg/sendpath_wasm.js',
    );
  glue.initSync({ module: readFileSync(new URL('pkg/sendpath_wasm_bg.wasm', ENGINE)) });
  const source = readFileSync(
    new URL(`../scenarios/${FIRST_RUN_SCENARIO}.toml`, import.meta.url),
    'utf8',
  );
  const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 });
  // Each stream of the trace's values keeps the predictor that gzips smallest.
  const run = firstRunOf(glue, firstRunRequest(source));
  return gzip(encodeFirstRun(run, (bytes) => gzip(bytes).length));
}

export function firstRun(): Plugin {
  let build = false;
  return {
    name: 'sendpath-first-run',
    configResolved(config) {
      build = config.command === 'build' && !process.env.VITEST;
    },
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      if (!build) return 'export default null;';
      const ref = this.emitFile({
        type: 'asset',
        name: 'first-run.bin',
        source: await firstRunAsset(),
      });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}
