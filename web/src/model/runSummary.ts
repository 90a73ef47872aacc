// The run summary panel's logic (app/RunSummary.tsx): `sendpath run`'s summary as the page
// shows it, with the figures printed as the CLI prints them (engine/cli/src/summary.rs), the
// names of its CSV downloads, and whether a kernel switch fired in each run (`sendpath diff`).

import type { FlowSummary } from '../engine/generated/FlowSummary';
import type { LevelSummary } from '../engine/generated/LevelSummary';
import type { Summary } from '../engine/generated/Summary';

/** Mbit/s with two decimals, as `sendpath run` prints a flow's throughput: `2449.82`. */
export function mbit(bps: number): string {
  return (bps / 1e6).toFixed(2);
}

/** ns as µs with one decimal, as `sendpath run` prints hold times: `37.3`. */
export function usOf(ns: number): string {
  return (ns / 1e3).toFixed(1);
}

/**
 * The power-of-two buckets of a TSO histogram (`[segments, skbs]` pairs in increasing
 * segments): `1`, `2-3`, `4-7`, ... with their skbs, up to the bucket of the largest.
 */
export function tsoBuckets(hist: readonly (readonly [number, number])[]): [string, number][] {
  const out: [string, number][] = [];
  const max = hist.length > 0 ? hist[hist.length - 1]![0] : 0;
  for (let lo = 1; lo <= Math.max(max, 1); lo *= 2) {
    const hi = lo * 2 - 1;
    let n = 0;
    for (const [segs, skbs] of hist) if (segs >= lo && segs <= hi) n += skbs;
    out.push([lo === hi ? String(lo) : `${lo}-${hi}`, n]);
  }
  return out;
}

/** `min/avg/max` with the average to `digits` decimals: `11/113.9/216`. */
export function minAvgMax(
  m: { min: number; avg: number; max: number } | null | undefined,
  digits = 1,
): string {
  return m ? `${m.min}/${m.avg.toFixed(digits)}/${m.max}` : '–';
}

/** The rows of a device's backlog table: what queued, and its level over the run. */
export function deviceRows(
  d: Summary['devices'][number],
): { queue: DeviceQueue; level: LevelSummary }[] {
  const rows: [DeviceQueue, LevelSummary | null | undefined][] = [
    ['qdiscBytes', d.qdisc_bytes],
    ['qdiscPackets', d.qdisc_packets],
    ['ringDescs', d.ring_descs],
    ['bqlBytes', d.bql_inflight_bytes],
  ];
  return rows.flatMap(([queue, level]) => (level ? [{ queue, level }] : []));
}

export type DeviceQueue = 'qdiscBytes' | 'qdiscPackets' | 'ringDescs' | 'bqlBytes';

/** A flow's name as `sendpath run` prints it: `flow 0 sender:sk0`. */
export function flowName(f: FlowSummary): string {
  return `flow ${f.flow} ${f.host}:sk${f.sk}`;
}

/** Data rows of a CSV text (its lines less the header and a trailing empty line). */
export function csvRows(text: string): number {
  const lines = text.split('\n').filter((l) => l !== '');
  return Math.max(0, lines.length - 1);
}

/**
 * The file name of a CSV download, as `sendpath run --csv PREFIX` names it: `PREFIX.flows.csv`,
 * the prefix being the scenario's name, the side in an A/B view and the interval.
 */
export function csvName(
  scenario: string,
  side: 'a' | 'b' | null,
  intervalNs: number,
  what: 'flows' | 'devices',
): string {
  const base = scenario.replace(/\.toml$/, '').replace(/[^\w.-]+/g, '_');
  const step = `${intervalNs / 1e6}ms`;
  return `${base}${side ? `-${side.toUpperCase()}` : ''}-${step}.${what}.csv`;
}

/** Whether a switch's code path showed in run A, run B, both or neither; null when no event shows it. */
export type Fired = 'a' | 'b' | 'both' | 'neither';
export function fired(a: number | null | undefined, b: number | null | undefined): Fired | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (a > 0 && b > 0) return 'both';
  if (a > 0) return 'a';
  if (b > 0) return 'b';
  return 'neither';
}

/** The intervals the CSV's time series may be sampled at, ns (`--interval`). */
export const CSV_INTERVALS_NS = [100_000, 1_000_000, 10_000_000, 100_000_000] as const;
