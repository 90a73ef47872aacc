// nstat at the time cursor: each host's counters from the run's samples (the engine samples
// every host's counters every few events; the last sample is the end of the run), with the
// change over the preceding interval, as `nstat` shows the change since its last call.

import type { SampleLayout } from '../engine/generated/SampleLayout';
import { upperBound } from './trace';

export interface CounterRow {
  name: string;
  value: number;
  /** Change since the sample `deltaNs` before. */
  delta: number;
}

/** Times of the samples (the first number of each). */
export function sampleTimes(samples: Float64Array, stride: number): Float64Array {
  const n = Math.floor(samples.length / stride);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = samples[i * stride]!;
  return t;
}

/** The index of the last sample at or before `t` (0 when none is). */
export function sampleAt(times: Float64Array, t: number): number {
  return Math.max(0, upperBound(times, t) - 1);
}

/** Offset of host `h`'s first counter within a sample. */
export function hostOffset(layout: SampleLayout, h: number): number {
  return 1 + h * (layout.counters.length + 1);
}

/**
 * Host `h`'s nonzero counters at `t` (as `nstat` lists them: zero ones left out), each with
 * its change since `t - deltaNs`.
 */
export function countersAt(
  samples: Float64Array,
  layout: SampleLayout,
  times: Float64Array,
  h: number,
  t: number,
  deltaNs: number,
): CounterRow[] {
  const stride = layout.stride;
  const i = sampleAt(times, t);
  const j = sampleAt(times, t - deltaNs);
  const before = t - deltaNs < (times[0] ?? 0) ? -1 : j;
  const off = hostOffset(layout, h);
  const rows: CounterRow[] = [];
  layout.counters.forEach((name, c) => {
    const value = samples[i * stride + off + c]!;
    if (value === 0) return;
    const prev = before < 0 ? 0 : samples[before * stride + off + c]!;
    rows.push({ name, value, delta: value - prev });
  });
  return rows;
}

/** Host `h`'s value of counter `name` in the last sample (the end of the run). */
export function finalCounter(
  samples: Float64Array,
  layout: SampleLayout,
  h: number,
  name: string,
): number {
  const c = layout.counters.indexOf(name);
  const n = Math.floor(samples.length / layout.stride);
  if (c < 0 || n === 0) return 0;
  return samples[(n - 1) * layout.stride + hostOffset(layout, h) + c]!;
}

/** One row of an A/B counter table. */
export interface DiffRow {
  host: string;
  name: string;
  a: number;
  b: number;
}

/** Every counter nonzero on either side, per host, A and B side by side. */
export function counterDiff(
  a: Record<string, Record<string, number>>,
  b: Record<string, Record<string, number>>,
  order: readonly string[],
): DiffRow[] {
  const rows: DiffRow[] = [];
  const hosts = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const host of hosts) {
    const ca = a[host] ?? {};
    const cb = b[host] ?? {};
    const names = new Set([...Object.keys(ca), ...Object.keys(cb)]);
    const sorted = [...names].sort((x, y) => rank(order, x) - rank(order, y) || x.localeCompare(y));
    for (const name of sorted) rows.push({ host, name, a: ca[name] ?? 0, b: cb[name] ?? 0 });
  }
  return rows;
}

function rank(order: readonly string[], name: string): number {
  const i = order.indexOf(name);
  return i < 0 ? order.length : i;
}
