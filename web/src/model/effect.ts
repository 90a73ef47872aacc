// The landing page's A/B figures (issue 17): what a sysctl changes in two whole runs of one
// scenario, read from the engine's results (never typed in). Each figure names the counter or
// metric it comes from; only the figures that differ between the runs are shown.

import type { RunResult } from '../engine/generated/RunResult';

/** The figures, in the order the page shows them. */
export const EFFECT_FIGURES = [
  'packets',
  'bytesPerPacket',
  'cpuPerMB',
  'throughput',
  'autocorks',
] as const;

export type EffectFigure = (typeof EFFECT_FIGURES)[number];

/** The engine metrics (`sendpath compare`'s names) a run must report for the figures. */
export const EFFECT_METRICS = ['throughput_mbit', 'cpu_per_byte_ns'] as const;

/** One run's values, null where the run has nothing to say (no sender, no packet). */
export type EffectValues = Record<EffectFigure, number | null>;

/** Where each figure comes from (shown beside its name). */
export const EFFECT_SOURCES: Record<EffectFigure, string> = {
  packets: 'IpOutRequests',
  bytesPerPacket: 'IpExtOutOctets / IpOutRequests',
  cpuPerMB: 'cpu_per_byte_ns',
  throughput: 'throughput_mbit',
  autocorks: 'TcpExtTCPAutoCorking',
};

/**
 * A run's figures: the counters of the host whose application writes (`tcp_stream`), and the
 * engine's `throughput_mbit` (Mbit/s) and `cpu_per_byte_ns` (ns per byte written, which is
 * also ms per MB).
 */
export function effectValues(r: RunResult, metrics: Record<string, number | null>): EffectValues {
  const sender = r.apps.find((a) => a.kind === 'tcp_stream')?.host;
  const counters = sender === undefined ? undefined : r.hosts[sender]?.counters;
  const counter = (name: string) => (counters ? (counters[name] ?? 0) : null);
  const packets = counter('IpOutRequests');
  const octets = counter('IpExtOutOctets');
  return {
    packets,
    bytesPerPacket: packets && octets !== null ? octets / packets : null,
    cpuPerMB: metrics.cpu_per_byte_ns ?? null,
    throughput: metrics.throughput_mbit ?? null,
    autocorks: counter('TcpExtTCPAutoCorking'),
  };
}

/** Two values differ when they are more than 2 % apart (of the larger). */
export function differs(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return false;
  const big = Math.max(Math.abs(a), Math.abs(b));
  return big > 0 && Math.abs(a - b) > 0.02 * big;
}

/** The figures that differ between run A and run B, in the page's order. */
export function differingFigures(a: EffectValues, b: EffectValues): EffectFigure[] {
  return EFFECT_FIGURES.filter((f) => differs(a[f], b[f]));
}

/**
 * What the caption says about A against B, for the figures that differ: how many times fewer
 * (or more) packets A sends, and by what share A's CPU per MB and throughput are below or above
 * B's (percent, rounded).
 */
export interface EffectSummary {
  packets: { fewer: boolean; times: number } | null;
  cpuPerMB: { less: boolean; pct: number } | null;
  throughput: { more: boolean; pct: number } | null;
}

export function effectSummary(a: EffectValues, b: EffectValues): EffectSummary {
  const shown = new Set(differingFigures(a, b));
  const pct = (x: number, y: number) => Math.round((Math.abs(x - y) / y) * 100);
  const pa = a.packets;
  const pb = b.packets;
  const ca = a.cpuPerMB;
  const cb = b.cpuPerMB;
  const ta = a.throughput;
  const tb = b.throughput;
  return {
    packets:
      shown.has('packets') && pa && pb
        ? { fewer: pa < pb, times: pa < pb ? pb / pa : pa / pb }
        : null,
    cpuPerMB:
      shown.has('cpuPerMB') && ca !== null && cb ? { less: ca < cb, pct: pct(ca, cb) } : null,
    throughput:
      shown.has('throughput') && ta !== null && tb ? { more: ta > tb, pct: pct(ta, tb) } : null,
  };
}
