// The site's speed, measured in Debian's Chromium (Playwright) against the production build in
// dist/ (served by `vite preview`), with the page's own performance marks (web/src/app/perf.ts):
//
//   firstLoad   every JS, wasm, CSS and binary data (.bin: the landing page's prerendered first
//               run, web/src/engine/firstRun.ts) response a fresh page fetches until its first
//               run is interactive (the mark sp:interactive), gzip -9 of each; time to
//               interactive.
//   controls    a control change -> the charts painted with its run (the measure sp:update), on
//               the autocorking scenario, for four kinds of control: a number
//               (net.ipv4.tcp_limit_output_bytes), a toggle (net.ipv4.tcp_autocorking), the
//               kernel version and the qdisc (tc.qdisc); p50 and p95 of each.
//   ab          an A/B comparison on screen: on the landing page (the first visit's default
//               scenario), from the click on its first "Compare with" button to both runs
//               ready; and the autocorking lesson's last step, from navigation to its A/B
//               table of full runs done.
//   playback    frames per second over a few seconds of playback with more than 5,000 packets
//               on screen (a long fat path), unthrottled and with Chromium's CPU throttled 4x
//               (the DevTools protocol's Emulation.setCPUThrottlingRate).
//   capture     a recording of `mb` MB opened with the file picker: its size over the time from
//               the mark sp:capture-start to sp:capture-loaded (the replay on the page).
//
// Also the longest main-thread task during re-runs and playback (PerformanceObserver
// 'longtask'), for context.

/* global window, document, requestAnimationFrame */

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { ROOT } from '../lib.mjs';

export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

/** Records long tasks and long animation frames from the start of the page. */
function observeLongTasks() {
  window.__long = [];
  for (const type of ['longtask', 'long-animation-frame']) {
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          window.__long.push({ type, start: e.startTime, duration: e.duration });
        }
      }).observe({ type, buffered: true });
    } catch {
      /* not supported */
    }
  }
}

const longest = (list) =>
  Math.max(0, ...list.filter((e) => e.type === 'longtask').map((e) => e.duration));

/** First load: `{ files: [{path, raw, gzip}], gzipBytes, ttiMs: [..], swFiles, swGzipBytes }`. */
export async function firstLoad(browser, base, loads) {
  const ttis = [];
  let files = null;
  let swFiles = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const urls = new Set();
    const swUrls = new Set();
    // The page's own requests, and those the service worker (offline use) makes to precache
    // the site: reported apart.
    context.on('response', (r) => (r.request().serviceWorker() ? swUrls : urls).add(r.url()));
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForFunction(
      () => performance.getEntriesByName('sp:interactive').length > 0,
      null,
      {
        timeout: 60_000,
      },
    );
    ttis.push(
      await page.evaluate(() => performance.getEntriesByName('sp:interactive')[0].startTime),
    );
    if (!files) {
      const sized = (set) =>
        [...set]
          .map((u) => new URL(u).pathname)
          .filter((p) => /\.(js|wasm|css|bin)$/.test(p))
          .map((p) => {
            const bytes = readFileSync(join(ROOT, 'dist', decodeURIComponent(p)));
            return { path: p, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
          });
      files = sized(urls);
      const own = new Set(files.map((f) => f.path));
      swFiles = sized(swUrls).filter((f) => !own.has(f.path));
    }
    await context.close();
  }
  const sum = (fs) => fs.reduce((a, f) => a + f.gzip, 0);
  return { files, gzipBytes: sum(files), ttiMs: ttis, swFiles, swGzipBytes: sum(swFiles) };
}

/** Opens every group of controls of side A (their keys are inside <details>). */
async function openControls(page) {
  const summaries = page.locator('.controls details:not([open]) > summary');
  for (let n = await summaries.count(); n > 0; n = await summaries.count()) {
    await summaries.first().click();
  }
}

/**
 * The autocorking scenario (variant on) in a new context of `height` px, its run ready and its
 * charts loaded (they load when scrolled near: retried): `{ context, page }`.
 */
export async function openWithCharts(browser, base, height) {
  const context = await browser.newContext({ viewport: { width: 1280, height } });
  await context.addInitScript(observeLongTasks);
  const page = await context.newPage();
  await page.goto(`${base}?s=autocorking&v=on`);
  await page.locator('[data-run-state="ready"]').waitFor({ timeout: 60_000 });
  for (let i = 0; i < 20 && !(await page.getByRole('figure').count()); i++) {
    await page
      .getByRole('region', { name: 'Charts' })
      .first()
      .scrollIntoViewIfNeeded({ timeout: 2000 })
      .catch(() => {});
    await page.waitForTimeout(200);
  }
  await page.getByRole('figure').first().waitFor();
  return { context, page };
}

/**
 * Control change -> charts painted, `runs` times for each kind: `{ number: [ms], toggle,
 * kernel, qdisc, split: {engine, render, runMs, deriveMs}, longTaskMs }`.
 */
export async function controls(browser, base, runs) {
  const { context, page } = await openWithCharts(browser, base, 2400);
  await page.locator('.controls').first().scrollIntoViewIfNeeded();
  await openControls(page);
  const key = (name) => page.locator('.controls').getByLabel(name, { exact: true }).first();
  const kinds = {
    number: async (i) => {
      const input = key('net.ipv4.tcp_limit_output_bytes');
      await input.fill(String(i % 2 ? 131072 : 262144));
      await input.press('Enter');
    },
    toggle: async () => key('net.ipv4.tcp_autocorking').dispatchEvent('click'),
    kernel: async (i) => key('kernel').selectOption(i % 2 ? '3.14' : '4.4'),
    qdisc: async (i) => key('tc.qdisc').selectOption(i % 2 ? 'pfifo_fast' : 'fq'),
  };
  const longBefore = await page.evaluate(() => window.__long.length);
  const out = { split: [] };
  for (const [kind, act] of Object.entries(kinds)) {
    out[kind] = [];
    // One unmeasured change first: the first kernel or qdisc change loads what it needs.
    for (let i = -1; i < runs; i++) {
      await page.evaluate(() => {
        for (const m of ['sp:update', 'sp:engine', 'sp:render']) performance.clearMeasures(m);
      });
      await act(i + 1);
      await page.waitForFunction(() => performance.getEntriesByName('sp:update').length > 0, null, {
        timeout: 30_000,
      });
      const split = await page.evaluate(() => {
        const ms = (name) => performance.getEntriesByName(name)[0]?.duration ?? NaN;
        const model = performance.getEntriesByName('sp:model').at(-1)?.detail ?? {};
        return {
          update: ms('sp:update'),
          engine: ms('sp:engine'),
          render: ms('sp:render'),
          ...model,
        };
      });
      if (i >= 0) {
        out[kind].push(split.update);
        out.split.push(split);
      }
      await page.waitForTimeout(100);
    }
  }
  out.longTaskMs = longest(await page.evaluate((n) => window.__long.slice(n), longBefore));
  await context.close();
  return out;
}

/** Time (ms) from `start` until `ready` holds in the page, polled every animation frame. */
async function until(page, ready, arg, timeout) {
  const handle = await page.waitForFunction(ready, arg, { polling: 'raf', timeout });
  return handle.jsonValue();
}

/** A/B on screen: `{ landingMs, lessonMs }` (lessonMs null when `lesson` is false). */
export async function ab(browser, base, { lesson }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(base);
  await page.locator('[data-run-state="ready"]').waitFor({ timeout: 60_000 });
  const button = page.getByRole('button', { name: /^Compare with/ }).first();
  await button.scrollIntoViewIfNeeded();
  const t0 = await page.evaluate(() => performance.now());
  await button.click();
  const t1 = await until(
    page,
    () =>
      document.querySelector('[aria-label^="Animated pipeline of run B"]') &&
      document.querySelector('[data-run-state="ready"]')
        ? performance.now()
        : false,
    null,
    120_000,
  );
  const landingMs = t1 - t0;
  let lessonMs = null;
  if (lesson) {
    await page.goto(`${base}?lesson=autocorking&step=99&lang=en`);
    lessonMs = await until(
      page,
      () =>
        document.querySelector('[data-testid="ab-table"][data-phase="done"]')
          ? performance.now()
          : false,
      null,
      300_000,
    );
  }
  await context.close();
  return { landingMs, lessonMs };
}

export const FPS_URL =
  './?s=tso-autosizing&v=after&set=sender%3ASO_SNDBUF%3D16000000&set=receiver%3ASO_RCVBUF%3D16000000' +
  '&set=app.bytes%3D400000000&set=ethtool.tso%3D0&set=ethtool.gso%3D0&from=538000000&to=542000000' +
  '&t=540000000&speed=50000';

/**
 * Playback with > 5,000 packets on screen for `seconds`, with the CPU throttled `throttle`x:
 * `{ fps, minPackets, worstFrameMs, paintMs, longTaskMs }`.
 */
export async function playback(browser, base, { throttle, seconds }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(observeLongTasks);
  const page = await context.newPage();
  await page.goto(new URL(FPS_URL, base).href);
  await page.locator('[data-run-state="ready"]').waitFor({ timeout: 180_000 });
  await page.getByRole('img', { name: /^Animated pipeline of run A/ }).scrollIntoViewIfNeeded();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const longBefore = await page.evaluate(() => window.__long.length);
  const paintBefore = await page.evaluate(() => window.__sendpath ?? { draws: 0, paintMs: 0 });
  await page.getByRole('button', { name: 'Play' }).click();
  const play = await page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        const frames = [];
        const packets = [];
        const t0 = performance.now();
        const tick = (t) => {
          frames.push(t);
          packets.push(window.__sendpath?.packets ?? 0);
          if (t - t0 < ms) requestAnimationFrame(tick);
          else resolve({ frames, packets });
        };
        requestAnimationFrame(tick);
      }),
    seconds * 1000,
  );
  const long = await page.evaluate((n) => window.__long.slice(n), longBefore);
  const paintAfter = await page.evaluate(() => window.__sendpath);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await context.close();
  const span = (play.frames.at(-1) - play.frames[0]) / 1000;
  const gaps = play.frames.slice(1).map((t, i) => t - play.frames[i]);
  return {
    throttle,
    fps: (play.frames.length - 1) / span,
    minPackets: Math.min(...play.packets.slice(2)),
    worstFrameMs: Math.max(...gaps),
    paintMs: (paintAfter.paintMs - paintBefore.paintMs) / (paintAfter.draws - paintBefore.draws),
    longTaskMs: longest(long),
  };
}

/** A capture of about `target` bytes: a real header and records, then real events repeated. */
export function makeCapture(target) {
  const sample = readFileSync(join(ROOT, 'public/samples/autocork-on.jsonl'), 'utf8').split('\n');
  const head = sample.filter(
    (l) => l && !l.includes('"type": "printf"') && !/"type":"end"/.test(l),
  );
  const events = sample.filter((l) => l.includes('"type": "printf"') && / t=\d+ /.test(l));
  // Each repetition is the same connection going on: 5 s later, its sequence numbers on by the
  // bytes the workload wrote (so that ACKs keep acknowledging the packets of their round).
  const bytes = Number(
    /\\"bytes\\":(\d+)/.exec(sample.find((l) => l.includes('"type":"workload"')))[1],
  );
  const chunks = [head.join('\n') + '\n'];
  let size = Buffer.byteLength(chunks[0]);
  let round = 0;
  while (size < target) {
    const shift = BigInt(round) * 5_000_000_000n;
    const seqShift = round++ * bytes;
    const seq = (_, name, v) => ` ${name}=${(Number(v) + seqShift) % 2 ** 32}`;
    let chunk = '';
    for (const e of events)
      chunk +=
        e
          .replace(/ t=(\d+) /, (_, t) => ` t=${BigInt(t) + shift} `)
          .replace(/ (snd_nxt|snd_una)=(\d+)/g, seq) + '\n';
    chunks.push(chunk);
    size += Buffer.byteLength(chunk);
  }
  chunks.push(
    `{"type":"end","t_ns":${round * 5e9},"samples":1,"event_lines":0,"bpftrace_exit_status":0,"stopped_by":"command"}\n`,
  );
  return chunks.join('');
}

/**
 * A recording of about `mb` MB (the real event lines of public/samples/autocork-on.jsonl
 * repeated with later times) opened with the file picker, `runs` times: `{ mb, mbPerS: [..],
 * parseMbPerS: [..] }` (the whole load, and the worker's reading and parsing alone).
 */
export async function capture(browser, base, { mb, runs }) {
  const dir = mkdtempSync(join(tmpdir(), 'sendpath-bench-'));
  const file = join(dir, 'capture-bench.jsonl');
  try {
    writeFileSync(file, makeCapture(mb * 1024 * 1024));
    const size = statSync(file).size / (1024 * 1024);
    const out = { mb: size, mbPerS: [], parseMbPerS: [] };
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      await page.goto(`${base}?s=autocorking&v=on`);
      await page.locator('[data-run-state="ready"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('capture-file').setInputFiles(file);
      await page
        .getByRole('heading', { level: 2, name: 'Recording: capture-bench.jsonl' })
        .waitFor({ timeout: 300_000 });
      const load = await page.evaluate(() => {
        const start = performance.getEntriesByName('sp:capture-start').at(-1).startTime;
        const loaded = performance.getEntriesByName('sp:capture-loaded').at(-1);
        return { ms: loaded.startTime - start, parseMs: loaded.detail?.parseMs ?? NaN };
      });
      out.mbPerS.push(size / (load.ms / 1000));
      out.parseMbPerS.push(size / (load.parseMs / 1000));
      await context.close();
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
