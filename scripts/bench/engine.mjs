// The engine's speed, one workload (scenarios.mjs) at a time, in three engines:
//
//   native          `sendpath bench FILE --json` (a warm-up run, then the measured run's wall
//                   time); the fastest of `reps` processes.
//   wasm in Node    the site's module (web/src/engine/pkg/sendpath_wasm), instantiated in this
//                   process; the run goes through `WasmSession` as the site's worker drives
//                   it (no trace, no samples), one warm-up run then the fastest of `reps`.
//   wasm in Chromium  the same module and code in a page of Debian's Chromium (Playwright).
//
// The fastest run, not the median: on a machine shared with other jobs, a run only ever gets
// slower than the engine is, and the fastest is the one least disturbed.
//
// All three run the same scenario text, variant and sets; each reports the events it ran, and
// a run whose count differs from the native one is an error (the ratio would compare unequal
// work).

/* global document */

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT, UserError } from '../lib.mjs';

const PKG = join(ROOT, 'web', 'src', 'engine', 'pkg');

/** `sendpath bench` of one workload, `reps` times: `{ s, events, skbs }` (s: the fastest wall s). */
export function runNative(bin, sc, reps) {
  const args = ['bench', join(ROOT, sc.path), '--json'];
  if (sc.variant) args.push('--variant', sc.variant);
  for (const set of sc.sets) args.push('--set', set);
  const runs = [];
  for (let i = 0; i < reps; i++) {
    const res = spawnSync(bin, args, { encoding: 'utf8' });
    if (res.status !== 0)
      throw new UserError(`${bin} ${args.join(' ')} failed: ${res.stderr || res.error}`);
    runs.push(JSON.parse(res.stdout));
  }
  // Wall time, as for the wasm runs: the thread's CPU time (/proc/thread-self/schedstat) is
  // only updated at scheduler ticks, too coarse for runs of a tenth of a second.
  return { s: Math.min(...runs.map((r) => r.wall_s)), events: runs[0].events, skbs: runs[0].skbs };
}

/**
 * Runs one workload through `WasmSession` in whatever realm this function is called in (Node,
 * or a page: it is handed to page.evaluate, so it uses nothing from around it). Returns the
 * fastest seconds of `reps` runs after one warm-up run, and the events each ran.
 */
export function runInWasm(wasm, sc, reps) {
  const once = () => {
    const t0 = performance.now();
    const session = new wasm.WasmSession(
      sc.source,
      sc.path,
      sc.variant ?? undefined,
      sc.sets,
      false,
      0,
      undefined,
      undefined,
      0,
      0,
      0,
    );
    while (!session.advance(1_000_000)) {
      /* the site's worker reports progress here */
    }
    const events = JSON.parse(session.summary()).result.events;
    session.free();
    return { ms: performance.now() - t0, events };
  };
  const warm = once();
  const ms = [];
  for (let i = 0; i < reps; i++) ms.push(once().ms);
  return { s: Math.min(...ms) / 1000, events: warm.events };
}

/** The site's wasm module, instantiated in this Node process. */
export async function wasmInNode() {
  const wasm = await import(join(PKG, 'sendpath_wasm.js'));
  wasm.initSync({ module: readFileSync(join(PKG, 'sendpath_wasm_bg.wasm')) });
  return wasm;
}

/**
 * A page of `browser` with the site's wasm module instantiated as the worker does (streaming
 * compile of the fetched .wasm), served from web/src/engine/pkg/ by Playwright's routing.
 * Returns `run(sc, reps)`, which runs `runInWasm` in the page.
 */
export async function wasmInChromium(browser) {
  const page = await browser.newPage();
  const origin = 'http://sendpath-bench.invalid';
  await page.route(`${origin}/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === '') return route.fulfill({ contentType: 'text/html', body: '<!doctype html>' });
    const type = name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    return route.fulfill({ contentType: type, body: readFileSync(join(PKG, name)) });
  });
  await page.goto(`${origin}/`);
  await page.evaluate(async (origin) => {
    const wasm = await import(`${origin}/sendpath_wasm.js`);
    await wasm.default({ module_or_path: `${origin}/sendpath_wasm_bg.wasm` });
    document.wasm = wasm;
  }, origin);
  const source = `(${runInWasm.toString()})`;
  return {
    run: (sc, reps) =>
      page.evaluate(({ source, sc, reps }) => (0, eval)(source)(document.wasm, sc, reps), {
        source,
        sc,
        reps,
      }),
    close: () => page.close(),
  };
}

/**
 * Every workload in the three engines: `[{ name, what, events, skbs, native_s, wasm_node_s,
 * wasm_chromium_s }]`. `log` gets a line per measurement.
 */
export async function benchEngines({ bin, scenarios, reps, browser, log }) {
  const wasm = await wasmInNode();
  const chromium = browser ? await wasmInChromium(browser) : null;
  const out = [];
  try {
    for (const sc of scenarios) {
      const native = runNative(bin, sc, reps);
      const node = runInWasm(wasm, sc, reps);
      const chrome = chromium ? await chromium.run(sc, reps) : null;
      for (const [who, r] of [
        ['wasm in Node', node],
        ['wasm in Chromium', chrome],
      ]) {
        if (r && r.events !== native.events)
          throw new UserError(
            `${sc.name}: ${who} ran ${r.events} events, native ${native.events}: the engines ` +
              'differ (is web/src/engine/pkg/ built from this engine? `npm run build:wasm`)',
          );
      }
      const row = {
        name: sc.name,
        what: sc.what,
        events: native.events,
        skbs: native.skbs,
        native_s: native.s,
        wasm_node_s: node.s,
        wasm_chromium_s: chrome ? chrome.s : null,
      };
      log(
        `${sc.name}: ${row.events} events; native ${row.native_s.toFixed(3)} s, wasm in Node ` +
          `${row.wasm_node_s.toFixed(3)} s` +
          (chrome ? `, wasm in Chromium ${row.wasm_chromium_s.toFixed(3)} s` : ''),
      );
      out.push(row);
    }
  } finally {
    await chromium?.close();
  }
  return out;
}
