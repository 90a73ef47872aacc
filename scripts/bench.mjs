// `npm run bench`: the speed of the engine and of the site, every figure of issue 16's table,
// measured in one run on this machine and printed as a table (see scripts/bench/*.mjs for how
// each is measured).
//
//   npm run bench                      build (native CLI, wasm, site), measure everything
//   npm run bench -- --json FILE       also write the figures as JSON (the shape below)
//   npm run bench -- --quick           tiny workloads, one of each measure: checks that the
//                                      benchmark runs (npm test runs it); its figures mean nothing
//   npm run bench -- --check           the engine's workloads only, their ratios (wasm/native,
//                                      events per skb) against scripts/bench/baseline.json:
//                                      says what moved; exits 1 when a ratio got worse
//   npm run bench -- --update-baseline the engine's workloads, written as the new baseline
//   --only engine|site                 one half; --reps N engine repetitions (default 5);
//                                      --runs N control changes of each kind (default 20);
//                                      --no-build use the builds there are; --native BIN and
//                                      --pkg DIR measure another native build and another
//                                      wasm-bindgen output (to compare builds)
//
// The JSON: { scenarios: [{ name, native_s, wasm_node_s, wasm_chromium_s, events, skbs }],
// control_ms: { number: {p50, p95}, toggle, kernel, qdisc }, ab_s, first_load_gzip_bytes,
// sweep_cli: { wall_s, points, threads }, sweep_site: { wall_s, points, workers },
// playback_fps, capture_mb_s, events_per_s, cpu_per_packet_us, ... }. The engine's times are
// CPU seconds (the fastest of --reps interleaved runs; wall seconds beside, under `wall`), the
// wasm/native ratios taken within the run (see scripts/bench/engine.mjs).
//
// Benchmarks are not tests: nothing here fails on a time, only --check on a ratio that moved.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { chromium } from '@playwright/test';

import { benchEngines } from './bench/engine.mjs';
import { benchScenarios } from './bench/scenarios.mjs';
import * as site from './bench/site.mjs';
import { cliSweep, siteSweep, SWEEP } from './bench/sweep.mjs';
import {
  CHROMIUM_LAUNCH,
  ENGINE,
  ROOT,
  UserError,
  run,
  runMain,
  say,
  startPreview,
} from './lib.mjs';

const WHO = 'bench';
const BASELINE = join(ROOT, 'scripts', 'bench', 'baseline.json');
/**
 * How far a ratio may move from the baseline before --check reports it: CPU-time ratios came
 * back within 3 % of each other at load averages from 7 to 15 on this 2-CPU machine.
 */
const TOLERANCE = { wasm_ratio: 0.15, events_per_skb: 0.02 };

const { values: opt } = parseArgs({
  options: {
    json: { type: 'string' },
    quick: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    'update-baseline': { type: 'boolean', default: false },
    only: { type: 'string' },
    reps: { type: 'string' },
    runs: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    native: { type: 'string' },
    pkg: { type: 'string' },
  },
});
const engineOnly = opt.check || opt['update-baseline'] || opt.only === 'engine';
const siteOnly = opt.only === 'site';
if (opt.only && !['engine', 'site'].includes(opt.only))
  throw new UserError(`--only takes engine or site, not ${opt.only}`);
const REPS = Number(opt.reps ?? (opt.quick ? 1 : 5));
const RUNS = Number(opt.runs ?? (opt.quick ? 2 : 20));

/** A figure with `d` decimals, or a dash (a quick run's 0 s makes ratios infinite). */
const f = (x, d = 1) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : '—');
const pp = (xs) => ({ p50: site.pct(xs, 50), p95: site.pct(xs, 95) });

function build() {
  if (opt['no-build']) return;
  const profile = opt.quick ? [] : ['--release'];
  run('cargo', ['build', '--quiet', ...profile, '-p', 'sendpath-cli'], { cwd: ENGINE });
  if (!siteOnly || !existsSync(join(ROOT, 'web/src/engine/pkg/sendpath_wasm_bg.wasm')))
    run(process.execPath, ['scripts/build-wasm.mjs', '--no-types']);
  // The quick check runs after npm test's own `vite build`: it uses that build.
  const needSite = !engineOnly && !(opt.quick && existsSync(join(ROOT, 'dist', 'index.html')));
  if (needSite)
    run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn']);
}

/** The engine ratios of a run, by workload (what the baseline holds). */
function ratios(scenarios) {
  return Object.fromEntries(
    scenarios.map((s) => [
      s.name,
      {
        wasm_node_ratio: s.wasm_node_s / s.native_s,
        wasm_chromium_ratio: s.wasm_chromium_s === null ? null : s.wasm_chromium_s / s.native_s,
        events_per_skb: s.events / s.skbs,
      },
    ]),
  );
}

/** --check: each ratio against the baseline; returns the lines that got worse. */
function check(now) {
  const base = JSON.parse(readFileSync(BASELINE, 'utf8'));
  const worse = [];
  console.log(`\nagainst ${BASELINE.replace(`${ROOT}/`, '')} (${base.recorded}):`);
  console.log(
    `${'workload'.padEnd(20)} ${'ratio'.padEnd(22)} ${'baseline'.padStart(9)} ${'now'.padStart(9)}  change`,
  );
  for (const [name, b] of Object.entries(base.scenarios)) {
    const n = now[name];
    if (!n) {
      console.log(`${name.padEnd(20)} (not run: no longer a workload?)`);
      continue;
    }
    for (const key of Object.keys(b)) {
      if (b[key] === null || n[key] === null) continue;
      const change = n[key] / b[key] - 1;
      const tol = key === 'events_per_skb' ? TOLERANCE.events_per_skb : TOLERANCE.wasm_ratio;
      const moved = Math.abs(change) > tol;
      const verdict = !moved ? 'ok' : change > 0 ? 'MOVED (worse)' : 'moved (better)';
      if (moved && change > 0) worse.push(`${name} ${key}`);
      console.log(
        `${name.padEnd(20)} ${key.padEnd(22)} ${f(b[key], 2).padStart(9)} ${f(n[key], 2).padStart(9)}  ${(change * 100).toFixed(1).padStart(6)} %  ${verdict}`,
      );
    }
  }
  console.log(
    `(tolerance: wasm/native ±${TOLERANCE.wasm_ratio * 100} %, events per skb ±${TOLERANCE.events_per_skb * 100} %; ` +
      'a model change that moves events per skb on purpose: npm run bench -- --update-baseline)',
  );
  return worse;
}

function printTable(r) {
  const rows = [];
  const add = (measure, now, goal) => rows.push([measure, now, goal]);
  const sc = Object.fromEntries((r.scenarios ?? []).map((s) => [s.name, s]));
  if (r.scenarios) {
    add(
      'engine events/s, native, bulk 10 Gbit/s (sendpath bench)',
      `${f(r.events_per_s / 1e6)} M`,
      '>= 30 M',
    );
    const off = sc['bulk-10g-tso-off'];
    if (off)
      add(
        'CPU per delivered packet, native, 10 Gbit/s, TSO/GSO off, 1 s',
        `${f(r.cpu_per_packet_us, 3)} µs`,
        "< htsim's 0.20 µs",
      );
    for (const s of r.scenarios)
      add(
        `wasm/native, ${s.name} (Node / Chromium)`,
        `${f(s.wasm_node_s / s.native_s, 2)} / ${f(s.wasm_chromium_s / s.native_s, 2)}`,
        /bulk|notsent/.test(s.name) ? '<= 1.5' : '<= 2',
      );
    if (r.sweep_cli)
      add(
        `sweep, ${r.sweep_cli.points} points, autocorking, CLI (${r.sweep_cli.threads} threads, wall)`,
        `${f(r.sweep_cli.wall_s, 2)} s`,
        '< 5 s',
      );
    const many = sc['notsent-lowat-200'];
    if (many)
      add(
        '200 flows, 1 simulated s, wasm in Chromium',
        `${f(many.wasm_chromium_s, 2)} s`,
        '<= 0.5 s',
      );
  }
  if (r.control_ms) {
    for (const k of ['number', 'toggle', 'kernel', 'qdisc'])
      add(
        `control change -> charts painted, ${k}, p50 / p95`,
        `${f(r.control_ms[k].p50, 0)} / ${f(r.control_ms[k].p95, 0)} ms`,
        k === 'number' || k === 'toggle' ? 'p95 <= 50 ms' : 'p95 <= 100 ms',
      );
    add(
      'A/B on screen: landing page / autocorking lesson last step',
      `${f(r.ab.landing_s, 2)} / ${f(r.ab.lesson_s, 2)} s`,
      '< 1 s',
    );
    add('first load, gzip', `${f(r.first_load_gzip_bytes / 1000)} kB`, '<= 200 kB');
    if (r.sweep_site)
      add(
        `sweep, ${r.sweep_site.points} points, autocorking, Chromium (${r.sweep_site.workers} workers, wall)`,
        `${f(r.sweep_site.wall_s, 2)} s`,
        '< 10 s',
      );
    add(
      `playback fps, >= 5,000 packets, CPU throttled 4x (unthrottled)`,
      `${f(r.playback_fps)} (${f(r.playback.unthrottled.fps)})`,
      '60',
    );
    add(
      `capture parse, ${f(r.capture.mb, 0)} MB file (worker parse alone)`,
      `${f(r.capture_mb_s)} (${f(r.capture.parse_mb_s)}) MB/s`,
      '>= 100 MB/s',
    );
  }
  const w = [0, 1, 2].map((i) =>
    Math.max(...rows.map((x) => x[i].length), ['measure', 'now', 'goal'][i].length),
  );
  const line = (x) => `| ${x.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  console.log(
    `\n${line(['measure', 'now', 'goal'])}\n|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`,
  );
  for (const x of rows) console.log(line(x));
  if (r.scenarios) {
    console.log(
      "\nworkloads (CPU s, fastest of each; events per skb: every host's IpOutRequests):",
    );
    for (const s of r.scenarios)
      console.log(
        `  ${s.name.padEnd(18)} ${String(s.events).padStart(9)} events  ${f(s.events / s.skbs, 2).padStart(6)} ev/skb  ` +
          `native ${f(s.native_s, 3)} s  Node ${f(s.wasm_node_s, 3)} s  Chromium ${f(s.wasm_chromium_s, 3)} s  (${s.what})`,
      );
  }
}

async function main() {
  build();
  const bin = opt.native ?? join(ENGINE, 'target', opt.quick ? 'debug' : 'release', 'sendpath');
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const r = {
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '?', quick: opt.quick },
  };
  try {
    if (!siteOnly) {
      say(WHO, `engine: ${REPS} measured runs of each workload in each engine`);
      const workloads = benchScenarios({ quick: opt.quick });
      r.scenarios = await benchEngines({
        bin,
        pkg: opt.pkg,
        scenarios: workloads,
        reps: REPS,
        browser,
        log: (m) => say(WHO, m),
      });
      say(WHO, `engine: a sweep of ${opt.quick ? 4 : SWEEP.points} points (sendpath sweep)`);
      r.sweep_cli = cliSweep(bin, { quick: opt.quick });
      const bulk = r.scenarios.find((s) => s.name === 'bulk-10g');
      r.events_per_s = bulk.events / bulk.native_s;
      const off = r.scenarios.find((s) => s.name === 'bulk-10g-tso-off');
      // Delivered packets: the receiver's data segments are the sender's skbs less the ACKs;
      // `sendpath run` gives them exactly, as the receiver's TcpInSegs.
      r.cpu_per_packet_us = off
        ? (off.native_s * 1e6) /
          deliveredPackets(
            bin,
            workloads.find((w) => w.name === off.name),
          )
        : null;
    }
    if (!engineOnly) {
      const { base, server } = await startPreview();
      try {
        say(WHO, 'site: first load');
        const load = await site.firstLoad(browser, base, opt.quick ? 1 : 5);
        say(WHO, `site: control changes, ${RUNS} of each kind`);
        const ctl = await site.controls(browser, base, RUNS);
        say(WHO, 'site: A/B on screen');
        const ab = await site.ab(browser, base, { lesson: !opt.quick });
        say(WHO, 'site: playback, unthrottled and CPU throttled 4x');
        const seconds = opt.quick ? 1 : 4;
        const unthrottled = await site.playback(browser, base, { throttle: 1, seconds });
        const throttled = await site.playback(browser, base, { throttle: 4, seconds });
        say(WHO, `site: a sweep of ${opt.quick ? 4 : SWEEP.points} points on the page's workers`);
        r.sweep_site = await siteSweep(browser, base, { quick: opt.quick });
        say(WHO, 'site: opening a recording');
        const cap = await site.capture(
          browser,
          base,
          opt.quick ? { mb: 1, runs: 1 } : { mb: 100, runs: 2 },
        );
        r.control_ms = Object.fromEntries(
          ['number', 'toggle', 'kernel', 'qdisc'].map((k) => [k, pp(ctl[k])]),
        );
        r.ab = {
          landing_s: ab.landingMs / 1000,
          lesson_s: ab.lessonMs === null ? null : ab.lessonMs / 1000,
        };
        r.ab_s = Math.max(r.ab.landing_s, r.ab.lesson_s ?? 0);
        r.first_load_gzip_bytes = load.gzipBytes;
        r.first_load = {
          files: load.files,
          tti_ms: pp(load.ttiMs),
          service_worker_precache_gzip_bytes: load.swGzipBytes,
        };
        r.playback_fps = throttled.fps;
        r.playback = { throttled, unthrottled };
        r.capture_mb_s = site.pct(cap.mbPerS, 50);
        r.capture = { mb: cap.mb, parse_mb_s: site.pct(cap.parseMbPerS, 50) };
        r.long_task_ms = { reruns: ctl.longTaskMs, playback: throttled.longTaskMs };
        console.log('\nfirst load (gzip -9 of each file the page fetched):');
        for (const file of load.files)
          console.log(`  ${f(file.gzip / 1000).padStart(7)} kB  ${file.path}`);
      } finally {
        server.kill();
      }
    }
  } finally {
    await browser.close();
  }
  r.machine.load_average = loadavg();
  printTable(r);
  console.log(
    `\nmachine: ${r.machine.cpus} CPUs (${r.machine.model}), load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}${opt.quick ? '; --quick: tiny workloads, the figures mean nothing' : ''}`,
  );
  if (opt.json) {
    writeFileSync(opt.json, `${JSON.stringify(r, null, 2)}\n`);
    say(WHO, `wrote ${opt.json}`);
  }
  if (opt['update-baseline']) {
    const baseline = {
      recorded: `${new Date().toISOString().slice(0, 10)}, ${r.machine.cpus} CPUs, ${r.machine.model}`,
      scenarios: ratios(r.scenarios),
    };
    writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
    say(WHO, `wrote ${BASELINE.replace(`${ROOT}/`, '')}`);
  }
  if (opt.check) {
    const worse = check(ratios(r.scenarios));
    if (worse.length) throw new UserError(`moved the wrong way: ${worse.join(', ')}`);
  }
}

/** The receiver's data segments in a run of `sc` (`sendpath run --json`). */
function deliveredPackets(bin, sc) {
  const args = ['run', join(ROOT, sc.path), '--json'];
  for (const set of sc.sets) args.push('--set', set);
  const res = JSON.parse(spawnJson(bin, args));
  return res.hosts.receiver.counters.TcpInSegs;
}

function spawnJson(bin, args) {
  const res = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (res.status !== 0) throw new UserError(`${bin} ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

runMain(WHO, main);
