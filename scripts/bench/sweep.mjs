// Issue 19's sweep figures: 50 points over the autocorking scenario (autocorking off and on,
// 25 write sizes from 128 B to 3,200 B, each run to the scenario's end), timed in the CLI
// (`sendpath sweep`, one thread per core) and in the site (the sweep panel, one Web Worker per
// core). Wall time: a sweep is judged by how long its reader waits for it.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { ROOT, UserError } from '../lib.mjs';

/** The grid: `--vary` of each key, and the metrics read. */
export const SWEEP = {
  scenario: 'scenarios/autocorking.toml',
  vary: ['net.ipv4.tcp_autocorking=0..1', 'app.write_size_bytes=128..3200:128'],
  metrics: ['throughput_mbit', 'cpu_per_byte_ns'],
  points: 50,
};

/** `--quick`: 4 points of 2 simulated ms (checks that it runs). */
const QUICK_SETS = ['sim.duration_ms=2'];
const QUICK_VARY = ['net.ipv4.tcp_autocorking=0..1', 'app.write_size_bytes=128..256:128'];

/** `sendpath sweep` of the grid: `{ wall_s, points, threads }`. */
export function cliSweep(bin, { quick = false } = {}) {
  const args = ['sweep', join(ROOT, SWEEP.scenario)];
  for (const v of quick ? QUICK_VARY : SWEEP.vary) args.push('--vary', v);
  for (const s of quick ? QUICK_SETS : []) args.push('--set', s);
  args.push('--metric', ...SWEEP.metrics, '--json');
  const res = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (res.status !== 0)
    throw new UserError(`${bin} ${args.join(' ')} failed: ${res.stderr || res.error}`);
  const r = JSON.parse(res.stdout);
  return { wall_s: r.wall_s, points: r.points.length, threads: r.threads };
}

/**
 * The same sweep in the site, opened from its link (it runs once the page is ready): the wall
 * time the page measured from the start of the sweep (its grid checked, a worker started per
 * core) to its last point, and the workers it used. `{ wall_s, points, workers }`.
 */
export async function siteSweep(browser, base, { quick = false } = {}) {
  const q = new URLSearchParams({ s: 'autocorking', v: '' });
  for (const s of quick ? QUICK_SETS : []) q.append('set', s);
  for (const v of quick ? QUICK_VARY : SWEEP.vary) q.append('sweep', v);
  for (const m of SWEEP.metrics) q.append('metric', m);
  const page = await browser.newPage();
  try {
    await page.goto(`${base}?${q}`);
    await page.locator('[data-run-state="ready"]').waitFor({ timeout: 60_000 });
    const region = page.getByRole('region', { name: 'Parameter sweep' });
    // The panel loads when scrolled near (Deferred.tsx); its link's sweep then starts.
    for (let i = 0; i < 20 && !(await region.count()); i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(200);
    }
    await region.scrollIntoViewIfNeeded();
    const done = region.locator('[data-testid="sweep-progress"][data-ms]');
    await done.waitFor({ timeout: 120_000 });
    const ms = Number(await done.getAttribute('data-ms'));
    const text = await done.innerText();
    const points = Number(/(\d+) points/.exec(text)?.[1] ?? NaN);
    const workers = await page.evaluate(() => navigator.hardwareConcurrency);
    return { wall_s: ms / 1000, points, workers };
  } finally {
    await page.close();
  }
}
