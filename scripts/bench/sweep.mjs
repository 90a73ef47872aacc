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
