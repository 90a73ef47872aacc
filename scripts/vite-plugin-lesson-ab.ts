// `vite build`: runs the A/B steps of the bundled lessons (model/lessonAb.ts) in the wasm engine
// of this build (web/src/engine/pkg/, scripts/build-wasm.mjs), with the `experiment` verb the
// page would call (engine/serve.ts), so that a lesson's A/B table is on screen at once instead
// of after two full runs. The page reads the metrics from the module
// `virtual:sendpath-lesson-ab`: every side's metrics in a build, null in the dev server (where
// the engine rebuilds on every save and the page runs the A/B live) and in unit tests. Each
// build makes them anew from its own engine and scenario files: they cannot go stale.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { runnerImport, type Plugin } from 'vite';

import type * as LessonAbModule from '../web/src/model/lessonAb.ts';
import type * as LessonsModule from '../web/src/model/lessons.ts';

const ID = 'virtual:sendpath-lesson-ab';
const RESOLVED = `\0${ID}`;
const SRC = new URL('../web/src/', import.meta.url);
const SCENARIOS = new URL('../scenarios/', import.meta.url);
const WORKER = new URL('./lesson-ab-worker.mjs', import.meta.url);
/** Where the last build's values are kept. */
const CACHE = new URL('../node_modules/.cache/sendpath/', import.meta.url);

/** A module of web/src/, loaded by Vite's module runner (the config does not bundle it). */
async function siteModule<T>(name: string): Promise<T> {
  const path = fileURLToPath(new URL(name, SRC));
  return (await runnerImport<T>(path, { configFile: false, logLevel: 'warn' })).module;
}

/** The metrics of every side of every bundled lesson's A/B steps, by `abSideKey`. */
export async function lessonAbValues(): Promise<LessonAbModule.PrerenderedAb> {
  const { loadLessons, lessonFolders, scenarioMetas } =
    await siteModule<typeof LessonsModule>('model/lessons.ts');
  const { abSides } = await siteModule<typeof LessonAbModule>('model/lessonAb.ts');
  // The files as the page bundles them (model/lessons.ts), keyed by the same relative paths.
  const texts = (dir: URL, rel: string, pick: (name: string) => boolean) =>
    Object.fromEntries(
      readdirSync(dir)
        .filter(pick)
        .map((n) => [`${rel}${n}`, readFileSync(new URL(n, dir), 'utf8')]),
    );
  const scenarioTexts = texts(SCENARIOS, '../../../scenarios/', (n) => n.endsWith('.toml'));
  const lessonTexts: Record<string, string> = {};
  const lessonsDir = new URL('lessons/', SCENARIOS);
  for (const id of readdirSync(lessonsDir))
    Object.assign(
      lessonTexts,
      texts(
        new URL(`${id}/`, lessonsDir),
        `../../../scenarios/lessons/${id}/`,
        (n) => n === 'lesson.toml' || n.endsWith('.md'),
      ),
    );
  // The runs depend on nothing else than the engine, the files and the code that runs them:
  // a build with the same ones reuses the last build's values (the engine is deterministic).
  const hash = createHash('sha256');
  for (const f of [
    'engine/pkg/sendpath_wasm_bg.wasm',
    'engine/pkg/sendpath_wasm.js',
    'engine/serve.ts',
    'model/lessonAb.ts',
  ])
    hash.update(readFileSync(new URL(f, SRC)));
  hash.update(readFileSync(WORKER));
  hash.update(JSON.stringify([scenarioTexts, lessonTexts]));
  const cached = new URL(`lesson-ab-${hash.digest('hex').slice(0, 32)}.json`, CACHE);
  if (existsSync(cached))
    return JSON.parse(readFileSync(cached, 'utf8')) as LessonAbModule.PrerenderedAb;
  const { lessons } = loadLessons(lessonFolders(lessonTexts), scenarioMetas(scenarioTexts));
  const sides = abSides(lessons).map((side) => {
    const file = `scenarios/${side.scenario}.toml`;
    return { ...side, file, source: scenarioTexts[`../../../${file}`]! };
  });
  // The sides shared among worker threads, one per core: the runs take seconds in all.
  const threads = Math.max(1, Math.min(availableParallelism(), 4, sides.length));
  const shares = await Promise.all(
    Array.from(
      { length: threads },
      (_, i) =>
        new Promise<LessonAbModule.PrerenderedAb>((resolve, reject) => {
          const worker = new Worker(WORKER, {
            workerData: { sides: sides.filter((_, k) => k % threads === i) },
          });
          worker.once('message', (share: LessonAbModule.PrerenderedAb) => {
            resolve(share);
            void worker.terminate();
          });
          worker.once('error', reject);
          worker.once('exit', (code) => reject(new Error(`lesson-ab-worker exited with ${code}`)));
        }),
    ),
  );
  const out: LessonAbModule.PrerenderedAb = {};
  for (const share of shares)
    for (const [key, metrics] of Object.entries(share))
      // JSON keeps finite numbers exactly; a side with any other value runs live on the page.
      if (Object.values(metrics).every((v) => v === null || Number.isFinite(v))) out[key] = metrics;
  mkdirSync(CACHE, { recursive: true });
  for (const old of readdirSync(CACHE))
    if (old.startsWith('lesson-ab-')) rmSync(new URL(old, CACHE));
  writeFileSync(cached, JSON.stringify(out));
  return out;
}

export function lessonAb(): Plugin {
  let build = false;
  let values: Promise<string> | null = null;
  return {
    name: 'sendpath-lesson-ab',
    configResolved(config) {
      build = config.command === 'build' && !process.env.VITEST;
    },
    buildStart() {
      // Started with the build, not when the module is first imported: the runs overlap the
      // bundling of everything else.
      if (!build) return;
      values = lessonAbValues().then((v) => JSON.stringify(v));
      values.catch(() => {}); // reported by load()
    },
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      if (!build || !values) return 'export default null;';
      return `export default JSON.parse(${JSON.stringify(await values)});`;
    },
  };
}
