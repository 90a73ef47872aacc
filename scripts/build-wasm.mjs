// Builds the engine to WebAssembly for the site, and keeps the generated TypeScript types current.
//
//   node scripts/build-wasm.mjs            wasm (when stale), then types (when stale)
//   node scripts/build-wasm.mjs --no-types wasm only (npm test checks the types on its own)
//   node scripts/build-wasm.mjs --types    regenerate the types now (`npm run types`)
//
// wasm: three modules of engine/wasm, each `cargo build --profile wasm --target
// wasm32-unknown-unknown -p sendpath-wasm` with its features, then `wasm-bindgen --target web
// --remove-name-section --out-name NAME` into web/src/engine/pkg/ (gitignored), then binaryen's
// `wasm-opt -O3` (the npm package `binaryen`, a build of it that runs in Node) over the module:
//   sendpath_wasm     the default features (`site`): what every page loads (engine/worker.ts);
//   sendpath_conform  `--no-default-features --features conform`: "Model vs Linux"'s exports,
//                     loaded only by that view's worker (engine/conformWorker.ts), so that the
//                     first load does not carry them;
//   sendpath_jobs     `--features jobs`: the site's exports and those of parameter sweeps and
//                     pcap downloads, loaded only by those jobs' workers (engine/jobsWorker.ts).
// Each is skipped when its output is newer than every engine source (.rs, Cargo.toml,
// Cargo.lock, .cargo/config.toml). All are the same cargo artifact (target/.../sendpath_wasm.wasm)
// built with other features, so each is handed to wasm-bindgen right after its own cargo build,
// and its glue must have an export only it has (a concurrent build fails loudly, not silently).
//
// types: the test engine/wasm/tests/typescript_types.rs with SENDPATH_UPDATE_TYPES=1 rewrites
// web/src/engine/generated/ (committed) from the Rust types. Skipped when the stamp
// engine/target/typescript-types.stamp is newer than every engine source. A fresh clone has no
// stamp: the committed types are taken as current (npm test fails if they are not) and the stamp
// is written, so the first `npm start` does not spend a native build on them.

import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  ENGINE,
  UserError,
  ROOT,
  nodeBin,
  mtimeMs,
  newestEngineSourceMs,
  run,
  runMain,
  say,
  wasmBindgenExe,
} from './lib.mjs';

const WHO = 'build-wasm';
const TARGET = 'wasm32-unknown-unknown';
const PROFILE = 'wasm';
const PKG_DIR = join(ROOT, 'web', 'src', 'engine', 'pkg');
const CARGO_WASM = join(ENGINE, 'target', TARGET, PROFILE, 'sendpath_wasm.wasm');
const TYPES_STAMP = join(ENGINE, 'target', 'typescript-types.stamp');
/**
 * The wasm features of the modules: those rustc's wasm32-unknown-unknown target uses (Rust 1.82
 * and later), and 128-bit SIMD, which engine/.cargo/config.toml enables for that target.
 */
const WASM_FEATURES = [
  'bulk-memory',
  'sign-ext',
  'nontrapping-float-to-int',
  'mutable-globals',
  'reference-types',
  'multivalue',
  'simd',
];

/**
 * The site's wasm modules: the output name, the cargo features and an export that only this
 * module has (checked in the glue, see buildWasm) of each (see the top).
 */
const MODULES = [
  { name: 'sendpath_wasm', features: [], own: 'class WasmSession' },
  {
    name: 'sendpath_conform',
    features: ['--no-default-features', '--features', 'conform'],
    own: 'function conform_rows',
  },
  { name: 'sendpath_jobs', features: ['--features', 'jobs'], own: 'function sweep_grid' },
];

function buildWasm(module, newestSourceMs) {
  const pkgWasm = join(PKG_DIR, `${module.name}_bg.wasm`);
  if (mtimeMs(pkgWasm) > newestSourceMs) {
    say(WHO, `wasm: ${module.name} is newer than every engine source, nothing to do`);
    return;
  }
  const started = Date.now();
  const cargoArgs = ['build', '--profile', PROFILE, '--target', TARGET, '-p', 'sendpath-wasm'];
  cargoArgs.push(...module.features);
  say(WHO, `wasm: ${module.name}: cargo ${cargoArgs.join(' ')}`);
  run('cargo', cargoArgs, { cwd: ENGINE });
  // The function-name section is a fifth of the module and only helps debuggers: drop it.
  say(WHO, `wasm: ${module.name}: wasm-bindgen --target web --remove-name-section`);
  run(wasmBindgenExe(), [
    '--target',
    'web',
    '--remove-name-section',
    '--remove-producers-section',
    '--out-name',
    module.name,
    '--out-dir',
    PKG_DIR,
    CARGO_WASM,
  ]);
  // binaryen's optimizer after LLVM's: a few per cent faster and a little smaller (issue 16).
  // The features are those the module is built with (WASM_FEATURES).
  say(WHO, `wasm: ${module.name}: wasm-opt -O3`);
  run(nodeBin('wasm-opt'), [
    '-O3',
    ...WASM_FEATURES.map((f) => `--enable-${f}`),
    pkgWasm,
    '-o',
    pkgWasm,
  ]);
  // Both modules come from one cargo artifact: a build of the other module that ran at the same
  // time (a second `npm start` in this checkout) may have replaced it before wasm-bindgen read it.
  if (!readFileSync(join(PKG_DIR, `${module.name}.js`), 'utf8').includes(`export ${module.own}`)) {
    rmSync(pkgWasm, { force: true });
    throw new UserError(
      `${module.name}: the module built lacks its own export \`${module.own}\`: another wasm ` +
        'build ran at the same time in this checkout; run this one again',
    );
  }
  // Date the output by the build's start: a source saved during the build is newer, and the
  // next run rebuilds.
  utimesSync(pkgWasm, new Date(started), new Date(started));
  say(WHO, `wasm: ${module.name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Writes the types stamp, dated `at` (a source saved after `at` makes the types stale). */
function writeStamp(at = new Date()) {
  mkdirSync(join(ENGINE, 'target'), { recursive: true });
  writeFileSync(TYPES_STAMP, `${at.toISOString()}\n`);
  utimesSync(TYPES_STAMP, at, at);
}

function exportTypes() {
  const started = new Date();
  say(WHO, 'types: regenerating web/src/engine/generated/ from the Rust types');
  run(
    'cargo',
    ['test', '-p', 'sendpath-wasm', '--features', 'ts', '--test', 'typescript_types', '--quiet'],
    { cwd: ENGINE, env: { SENDPATH_UPDATE_TYPES: '1' } },
  );
  writeStamp(started);
}

function updateTypesIfStale(newestSourceMs) {
  const stampMs = mtimeMs(TYPES_STAMP);
  if (stampMs < 0) {
    say(WHO, 'types: first build in this clone, taking the committed types as current');
    writeStamp();
  } else if (stampMs > newestSourceMs) {
    say(WHO, 'types: up to date');
  } else {
    exportTypes();
  }
}

function main() {
  const args = process.argv.slice(2);
  if (args.includes('--types')) {
    exportTypes();
    return;
  }
  const newest = newestEngineSourceMs();
  for (const module of MODULES) buildWasm(module, newest);
  if (!args.includes('--no-types')) updateTypesIfStale(newest);
}

runMain(WHO, main);
