// `npm run bench:capture-web`: the detail behind `npm run bench`'s capture figure. A 100 MB recording opened in the real browser (Debian's
// Chromium, driven by Playwright) against the production build in dist/, the way a user opens
// one: the file picker. Prints what it measured and how:
//
//   - throughput: the file's size over the time from the marks `sp:capture-start` (the store
//     asks the capture worker to read the File) to `sp:capture-loaded` (the first window's run
//     model is on the page), in MB/s; the worker's own reading-and-parsing time beside it;
//   - the longest main-thread task while it loads, and then while the replay plays for 3 s
//     (PerformanceObserver 'longtask', tasks over 50 ms, and 'long-animation-frame'), and the
//     longest gap between two animation frames while it loads (the page never freezes).
//
// The capture is made as `npm run bench:capture` makes it: the real event lines of
// public/samples/autocork-on.jsonl repeated with later times (and sequence numbers), behind its
// real header and records, so the mix of events is a real one. Options: --mb N (default 100),
// --runs N (3).

// Functions passed to page.evaluate run in the page: browser globals.
/* global window, requestAnimationFrame */

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { chromium } from '@playwright/test';

import { makeCapture } from './bench/site.mjs';
import { CHROMIUM_LAUNCH, runMain, startPreview } from './lib.mjs';

const { values } = parseArgs({
  options: { mb: { type: 'string', default: '100' }, runs: { type: 'string', default: '3' } },
});
const TARGET_BYTES = Number(values.mb) * 1024 * 1024;
const RUNS = Number(values.runs);

/** Records long tasks, long animation frames and animation-frame gaps from the start. */
function observe() {
  window.__long = [];
  for (const type of ['longtask', 'long-animation-frame']) {
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          window.__long.push({ type, start: e.startTime, duration: e.duration });
      }).observe({ type, buffered: true });
    } catch {
      /* not supported */
    }
  }
  window.__frames = [];
  const frame = (t) => {
    window.__frames.push(t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const f1 = (x) => x.toFixed(1);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sendpath-bench-'));
  const file = join(dir, 'capture-100mb.jsonl');
  writeFileSync(file, makeCapture(TARGET_BYTES));
  const bytes = statSync(file).size;
  const mb = bytes / (1024 * 1024);
  const { base, server } = await startPreview();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  console.log(
    `A ${f1(mb)} MB capture (${bytes} bytes), opened with the file picker, ${RUNS} runs:`,
  );
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      await context.addInitScript(observe);
      const page = await context.newPage();
      await page.goto(`${base}?s=autocorking&v=on`);
      await page.locator('[data-run-state="ready"]').waitFor({ timeout: 60_000 });
      const longBefore = await page.evaluate(() => window.__long.length);
      const framesBefore = await page.evaluate(() => window.__frames.length);
      await page.getByTestId('capture-file').setInputFiles(file);
      await page
        .getByRole('heading', { level: 2, name: 'Recording: capture-100mb.jsonl' })
        .waitFor({ timeout: 300_000 });
      const load = await page.evaluate(
        ({ longBefore, framesBefore }) => {
          const start = performance.getEntriesByName('sp:capture-start').at(-1).startTime;
          const loaded = performance.getEntriesByName('sp:capture-loaded').at(-1);
          const end = loaded.startTime;
          const long = window.__long.slice(longBefore).filter((e) => e.start >= start - 1);
          const frames = window.__frames.slice(framesBefore).filter((t) => t >= start && t <= end);
          let gap = 0;
          for (let i = 1; i < frames.length; i++) gap = Math.max(gap, frames[i] - frames[i - 1]);
          const byType = (type) =>
            Math.max(0, ...long.filter((e) => e.type === type).map((e) => e.duration));
          return {
            ms: end - start,
            parseMs: loaded.detail?.parseMs ?? NaN,
            replayMs: loaded.detail?.replayMs ?? NaN,
            longTask: byType('longtask'),
            longFrame: byType('long-animation-frame'),
            frameGap: gap,
            frames: frames.length,
          };
        },
        { longBefore, framesBefore },
      );
      const events = await page.getByTestId('capture-line').innerText();
      const load1 = loadavg()[0];
      // Then the replay plays for 3 s.
      const longPlay = await page.evaluate(() => window.__long.length);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForTimeout(3000);
      const play = await page.evaluate((n) => {
        const long = window.__long.slice(n);
        const byType = (type) =>
          Math.max(0, ...long.filter((e) => e.type === type).map((e) => e.duration));
        return { longTask: byType('longtask'), longFrame: byType('long-animation-frame') };
      }, longPlay);
      console.log(
        `  run ${run + 1}: ${f1(load.ms)} ms to the replay on screen = ${f1(mb / (load.ms / 1000))} MB/s ` +
          `(worker: reading and parsing ${f1(load.parseMs)} ms = ${f1(mb / (load.parseMs / 1000))} MB/s, run model of the first window ${f1(load.replayMs)} ms); ` +
          `longest main-thread task while loading ${f1(load.longTask)} ms (long animation frame ${f1(load.longFrame)} ms), ` +
          `longest gap between frames ${f1(load.frameGap)} ms over ${load.frames} frames; ` +
          `playing 3 s: longest task ${f1(play.longTask)} ms (frame ${f1(play.longFrame)} ms). ` +
          `[${events}; load average ${f1(load1)} on ${cpus().length} CPUs]`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

runMain('bench:capture-web', main);
