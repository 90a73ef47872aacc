// The test a lesson step's moment made, with the numbers it used: the trace row's own fields,
// and the inputs of the rule as the socket had them then (its pacing rate and MSS, from the
// ACKs before the row; the sysctls of the run). No React: classroom/StepStage.tsx words it.
//
// The rules are the kernel's, quoted where each is built; the result shown is always the
// engine's (the trace row's), the arithmetic beside it only says where it came from.

import type { TraceSchema } from './catalog';
import type { RunModel } from './derive';
import { notsentLowat } from './charts';
import { simRow } from './logRow';
import { sockStateAt } from './sockstate';

/** What the run's configuration says (the engine's ScenarioInfo, in the shape read here). */
export interface FormulaInfo {
  kernel: string;
  keys: Record<string, { values: string[]; absent: boolean } | undefined>;
}

export type Formula =
  | { kind: 'autocork'; len: number; goal: number; wmem: number; truesize: number }
  | { kind: 'nagle'; sml: number; una: number }
  | { kind: 'notsent'; notsent: number; lowat: number }
  /**
   * `tcp_small_queue_check`: 3.6 .. 3.18 `max(tcp_limit_output_bytes, sk_pacing_rate >> 10)`
   * (`rule` max), 3.19+ `min(max(2 * skb->truesize, sk_pacing_rate >> 10), the sysctl)` (minmax;
   * 6.x drops the min for a paced flow, which the limit shown, the engine's, says).
   * `rate` null: unlimited.
   */
  | {
      kind: 'tsq';
      rule: 'max' | 'minmax';
      wmem: number;
      limit: number;
      sysctl: number;
      rate: number | null;
      perMs: number | null;
    }
  /**
   * `tcp_xmit_size_goal` as 3.12 .. 3.18 size a new skb at sendmsg time:
   * `max(sk_pacing_rate / 2000, tcp_min_tso_segs * mss_now)`, below 64 KB and half the peer's
   * window, in whole MSS; `goal` is the engine's.
   */
  | {
      kind: 'sizeGoal';
      rate: number | null;
      perHalfMs: number | null;
      minSegs: number;
      mss: number;
      goal: number;
    }
  /**
   * `tcp_tso_autosize` (3.19 .. 5.17): `max(min(sk_pacing_rate >> 10, 64 KB - headers) / mss_now,
   * tcp_min_tso_segs)` segments per TSO packet; `len` and `rest` are the engine's cut.
   */
  | {
      kind: 'autosize';
      rate: number | null;
      perMs: number | null;
      mss: number;
      minSegs: number;
      segs: number;
      len: number;
      rest: number;
    };

/** `3.18` >= `3.19`? */
export function kernelAtLeast(kernel: string, major: number, minor: number): boolean {
  const [a, b] = kernel.split('.').map(Number) as [number, number];
  return a > major || (a === major && (b ?? 0) >= minor);
}

/** A sysctl's value on `host` (NaN when the run has no such key). */
function key(info: FormulaInfo, name: string, host: number): number {
  const k = info.keys[name];
  if (!k || k.absent) return NaN;
  return Number(k.values[host] ?? k.values[0]);
}

/** The formula of trace row `row`, or null when the row's kind has none here. */
export function momentFormula(
  m: RunModel,
  schema: TraceSchema,
  row: number,
  info: FormulaInfo | null,
): Formula | null {
  const r = simRow(schema, m.cols, row, null);
  if (!r) return null;
  const f = (k: string) => r.f[k] ?? NaN;
  const sk = m.cols.sk[row]!;
  const host = m.summary.result.sockets[sk]?.host ?? 0;
  const gate = r.gates[f('gate')];
  if (r.kind === 'autocork')
    return {
      kind: 'autocork',
      len: f('skb_len'),
      goal: f('size_goal'),
      wmem: f('wmem_alloc'),
      truesize: f('truesize'),
    };
  if (r.kind === 'xmit_hold' && gate === 'nagle')
    return { kind: 'nagle', sml: f('a'), una: f('b') };
  if (!info || sk >= m.socks.n) return null;
  if (r.kind === 'sendmsg_wait' && gate === 'notsent_lowat') {
    const lowat = notsentLowat(info, host);
    return lowat === null ? null : { kind: 'notsent', notsent: f('notsent'), lowat };
  }
  // The socket as it was at the row: the pacing rate of the last ACK before it, its MSS.
  const st = sockStateAt(m, sk, m.cols.t[row]!);
  const rate = st.pacingRate;
  const minSegs = key(info, 'net.ipv4.tcp_min_tso_segs', host);
  if (r.kind === 'xmit_hold' && gate === 'tsq') {
    // sk_pacing_rate >> 10: sk_pacing_shift (4.17+) is 10 unless a driver lowers it.
    return {
      kind: 'tsq',
      rule: kernelAtLeast(info.kernel, 3, 19) ? 'minmax' : 'max',
      wmem: f('a'),
      limit: f('b'),
      sysctl: key(info, 'net.ipv4.tcp_limit_output_bytes', host),
      rate,
      perMs: rate === null ? null : Math.floor(rate / 1024),
    };
  }
  if (r.kind === 'sendmsg_copy' && !kernelAtLeast(info.kernel, 3, 19)) {
    if (!(st.mss > 0)) return null;
    return {
      kind: 'sizeGoal',
      rate,
      perHalfMs: rate === null ? null : Math.floor(rate / 2000),
      minSegs,
      mss: st.mss,
      goal: f('size_goal'),
    };
  }
  if (
    r.kind === 'fragment' &&
    kernelAtLeast(info.kernel, 3, 19) &&
    !kernelAtLeast(info.kernel, 5, 18)
  ) {
    if (!(st.mss > 0)) return null;
    const perMs = rate === null ? null : Math.floor(rate / 1024);
    // 605ad7f1: min(sk_pacing_rate >> 10, sk_gso_max_size - 1 - MAX_TCP_HEADER).
    const bytes = Math.min(perMs ?? Infinity, 65536 - 1 - 304);
    return {
      kind: 'autosize',
      rate,
      perMs,
      mss: st.mss,
      minSegs,
      segs: Math.max(Math.floor(bytes / st.mss), minSegs),
      len: f('len'),
      rest: f('rest'),
    };
  }
  return null;
}
