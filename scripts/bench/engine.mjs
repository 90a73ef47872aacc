// The engine's speed, one workload (scenarios.mjs) at a time, in three engines:
//
//   native            `sendpath bench FILE --json`: a warm-up run, then the measured run, whose
//                     thread's CPU time it reports (/proc/thread-self/schedstat);
//   wasm in Node      the site's module (web/src/engine/pkg/sendpath_wasm), instantiated in this
//                     process; the run goes through `WasmSession` as the site's worker drives
//                     it (no trace, no samples); CPU time from process.cpuUsage();
//   wasm in Chromium  the same module and code in a page of Debian's Chromium (Playwright); CPU
//                     time of the page's main thread from the DevTools protocol
//                     (Performance.getMetrics' ThreadTime).
//
// CPU time, not wall time: on a machine shared with other jobs a run's wall time says more
// about the others than about the engine (a page measured 0.32 s of CPU in 1.37 s of wall
// time). The repetitions are interleaved (native, Node, Chromium, then again) so that a busy
// moment falls on all three, and the fastest of each is kept: a run is only ever slowed by the
// machine. Wall times are kept beside.
//
// All three run the same scenario text, variant and sets; each reports the events it ran, and
// a run whose count differs from the native one is an error (the ratio would compare unequal
// work).

/* global document */

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT, UserError } from '../lib.mjs';

/** The site's wasm-bindgen output, unless `benchEngines` is given another (`--pkg`). */
const SITE_PKG = join(ROOT, 'web', 'src', 'engine', 'pkg');

/** One `sendpath bench` process: `{ cpu_s, wall_s, events, skbs }`. */
export function runNative(bin, sc) {
  const args = ['bench', join(ROOT, sc.path), '--json'];
  if (sc.variant) args.push('--variant', sc.variant);
  for (const set of sc.sets) args.push('--set', set);
  const res = spawnSync(bin, args, { encoding: 'utf8' });
  if (res.status !== 0)
    throw new UserError(`${bin} ${args.join(' ')} failed: ${res.stderr || res.error}`);
  const r = JSON.parse(res.stdout);
  return { cpu_s: r.cpu_s ?? r.wall_s, wall_s: r.wall_s, events: r.events, skbs: r.skbs };
}

/**
 * Runs one workload through `WasmSession` in whatever realm this function is called in (Node,
 * or a page: it is handed to page.evaluate, so it uses nothing from around it): `{ wall_s,
 * events }`.
 */
export function runInWasm(wasm, sc) {
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
  return { wall_s: (performance.now() - t0) / 1000, events };
}

/** The site's wasm module in this Node process: `run(sc)` gives `{ cpu_s, wall_s, events }`. */
export async function wasmInNode(pkg) {
  const wasm = await import(join(pkg, 'sendpath_wasm.js'));
  wasm.initSync({ module: readFileSync(join(pkg, 'sendpath_wasm_bg.wasm')) });
  return {
    run: (sc) => {
      const c0 = process.cpuUsage();
      const r = runInWasm(wasm, sc);
      const c = process.cpuUsage(c0);
      return { ...r, cpu_s: (c.user + c.system) / 1e6 };
    },
  };
}

/**
 * A page of `browser` with the site's wasm module instantiated as the worker does (streaming
 * compile of the fetched .wasm), served from web/src/engine/pkg/ by Playwright's routing.
 * `run(sc)` runs `runInWasm` in the page: `{ cpu_s, wall_s, events }`.
 */
export async function wasmInChromium(browser, pkg) {
  const page = await browser.newPage();
  const origin = 'http://sendpath-bench.invalid';
  await page.route(`${origin}/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === '') return route.fulfill({ contentType: 'text/html', body: '<!doctype html>' });
    const type = name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    return route.fulfill({ contentType: type, body: readFileSync(join(pkg, name)) });
  });
  await page.goto(`${origin}/`);
  await page.evaluate(async (origin) => {
    const wasm = await import(`${origin}/sendpath_wasm.js`);
    await wasm.default({ module_or_path: `${origin}/sendpath_wasm_bg.wasm` });
    document.wasm = wasm;
  }, origin);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')
      ?.value ?? NaN;
  const source = `(${runInWasm.toString()})`;
  return {
    run: async (sc) => {
      const t0 = await threadTime();
      const r = await page.evaluate(({ source, sc }) => (0, eval)(source)(document.wasm, sc), {
        source,
        sc,
      });
      const cpu = (await threadTime()) - t0;
      return { ...r, cpu_s: Number.isNaN(cpu) ? r.wall_s : cpu };
    },
    close: () => page.close(),
  };
}

const fastest = (runs, key) => Math.min(...runs.map((r) => r[key]));

/**
 * Every workload in the three engines: `[{ name, what, events, skbs, native_s, wasm_node_s,
 * wasm_chromium_s, wall: {...} }]` (CPU seconds, the fastest of `reps`). `log` gets a line per
 * workload.
 */
export async function benchEngines({ bin, pkg = SITE_PKG, scenarios, reps, browser, log }) {
  const node = await wasmInNode(pkg);
  const chromium = browser ? await wasmInChromium(browser, pkg) : null;
  const out = [];
  try {
    for (const sc of scenarios) {
      // A warm-up run in each wasm engine (the native one warms up in its own process).
      node.run(sc);
      if (chromium) await chromium.run(sc);
      const runs = { native: [], node: [], chrome: [] };
      for (let i = 0; i < reps; i++) {
        runs.native.push(runNative(bin, sc));
        runs.node.push(node.run(sc));
        if (chromium) runs.chrome.push(await chromium.run(sc));
      }
      const events = runs.native[0].events;
      for (const [who, list] of [
        ['wasm in Node', runs.node],
        ['wasm in Chromium', runs.chrome],
      ]) {
        const bad = list.find((r) => r.events !== events);
        if (bad)
          throw new UserError(
            `${sc.name}: ${who} ran ${bad.events} events, native ${events}: the engines ` +
              'differ (is web/src/engine/pkg/ built from this engine? `npm run build:wasm`)',
          );
      }
      const row = {
        name: sc.name,
        what: sc.what,
        events,
        skbs: runs.native[0].skbs,
        native_s: fastest(runs.native, 'cpu_s'),
        wasm_node_s: fastest(runs.node, 'cpu_s'),
        wasm_chromium_s: chromium ? fastest(runs.chrome, 'cpu_s') : null,
        wall: {
          native_s: fastest(runs.native, 'wall_s'),
          wasm_node_s: fastest(runs.node, 'wall_s'),
          wasm_chromium_s: chromium ? fastest(runs.chrome, 'wall_s') : null,
        },
      };
      log(
        `${sc.name}: ${events} events; CPU s: native ${row.native_s.toFixed(3)}, wasm in Node ` +
          `${row.wasm_node_s.toFixed(3)}` +
          (chromium ? `, wasm in Chromium ${row.wasm_chromium_s.toFixed(3)}` : ''),
      );
      out.push(row);
    }
  } finally {
    await chromium?.close();
  }
  return out;
}
