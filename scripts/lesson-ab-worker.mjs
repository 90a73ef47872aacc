// A worker thread of scripts/vite-plugin-lesson-ab.ts: runs its share of the lessons' A/B sides
// (`workerData.sides`, model/lessonAb.ts's `abSides` with each scenario's text) in this build's
// wasm engine, with the `experiment` verb the page would call (engine/serve.ts), and posts their
// metrics by key.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

import { runnerImport } from 'vite';

const SRC = new URL('../web/src/', import.meta.url);
const load = async (name) =>
  (await runnerImport(fileURLToPath(new URL(name, SRC)), { configFile: false, logLevel: 'warn' }))
    .module;

const { siteHandlers } = await load('engine/serve.ts');
const glue = await load('engine/pkg/sendpath_wasm.js');
glue.initSync({ module: readFileSync(new URL('engine/pkg/sendpath_wasm_bg.wasm', SRC)) });
const out = {};
for (const side of workerData.sides) {
  const result = await siteHandlers.experiment(
    glue,
    { progress: () => {} },
    { source: side.source, file: side.file, variant: side.variant, sets: side.sets },
    side.metrics,
  );
  out[side.key] = result.metrics;
}
parentPort.postMessage(out);
