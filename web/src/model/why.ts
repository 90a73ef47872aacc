// "Why is it waiting?": the gates that held an skb's bytes, from the write() that brought them
// to the ACK that freed them, one row for the skb in TCP and one per packet that carried it.

import type { TraceSchema } from './catalog';
import { SPAN_FILLING, SPAN_TX_RING, type RunModel } from './derive';

export interface WhySpan {
  gate: number;
  t0: number;
  t1: number;
}

export interface WhyRow {
  /** -1: the skb before it left TCP; else the packet index. */
  pkt: number;
  spans: WhySpan[];
}

/** Name of a span kind: the engine's gate names, and the two kinds the site adds. */
export function spanName(schema: TraceSchema, gate: number): string {
  if (gate === SPAN_FILLING) return 'filling';
  if (gate === SPAN_TX_RING) return 'tx_ring';
  return schema.gates[gate] ?? `gate ${gate}`;
}

/** Rows of skb `i`: its time in TCP, then each packet carrying its bytes. */
export function whyRows(m: RunModel, i: number): WhyRow[] {
  const s = m.spans;
  const rows: WhyRow[] = [];
  const byPkt = new Map<number, WhyRow>();
  for (let k = s.off[i]!; k < s.off[i + 1]!; k++) {
    const pkt = s.pkt[k]!;
    let row = byPkt.get(pkt);
    if (!row) {
      row = { pkt, spans: [] };
      byPkt.set(pkt, row);
      rows.push(row);
    }
    row.spans.push({ gate: s.gate[k]!, t0: s.t0[k]!, t1: s.t1[k]! });
  }
  rows.sort((a, b) => a.pkt - b.pkt);
  return rows;
}

/** Total time per gate over the spans of skb `i`. */
export function skbTotals(m: RunModel, i: number): Map<number, number> {
  const out = new Map<number, number>();
  const s = m.spans;
  for (let k = s.off[i]!; k < s.off[i + 1]!; k++) {
    out.set(s.gate[k]!, (out.get(s.gate[k]!) ?? 0) + s.t1[k]! - s.t0[k]!);
  }
  return out;
}

/** The skbs of socket `sk` holding any byte of [seqFrom, seqTo), by sequence. */
export function skbsInRange(m: RunModel, sk: number, seqFrom: number, seqTo: number): number[] {
  const out: number[] = [];
  const s = m.skbs;
  for (let i = 0; i < s.n; i++) {
    if (s.sk[i] !== sk) continue;
    if (s.seqEnd[i]! > seqFrom && s.seqStart[i]! < seqTo) out.push(i);
  }
  return out.sort((a, b) => s.seqStart[a]! - s.seqStart[b]!);
}

/** The skb holding byte `seq` of socket `sk`, or -1. */
export function skbOfByte(m: RunModel, sk: number, seq: number): number {
  return skbsInRange(m, sk, seq, seq + 1)[0] ?? -1;
}

/** One gate's waits over the recorded window (`gateWaits`). */
export interface GateWaits {
  gate: number;
  name: string;
  /** skbs (in TCP) and packets (below it) held there at least once. */
  held: number;
  /** The median and the longest of their waits there (each one's spans added up), ns. */
  medianNs: number;
  maxNs: number;
  /** The share of the window during which at least one of them waited there, 0..1. */
  busy: number;
}

/**
 * Per gate, over the recorded window, what a reader can check against the time line: how many
 * skbs or packets waited there, the median and longest wait of one, and the share of the
 * window during which one waited at all. (Adding the waits up counts time once per waiting
 * skb: 103 s of waiting in a 340 ms window.) Longest total first.
 */
export function gateWaits(m: RunModel, schema: TraceSchema): GateWaits[] {
  const s = m.spans;
  const from = m.summary.fromNs;
  const to = m.summary.toNs;
  // Each skb's (or packet's) time at each gate, and each gate's spans clipped to the window.
  const waits = new Map<number, Map<string, number>>();
  const spans = new Map<number, [number, number][]>();
  for (let i = 0; i + 1 < s.off.length; i++) {
    for (let j = s.off[i]!; j < s.off[i + 1]!; j++) {
      const a = Math.max(s.t0[j]!, from);
      const b = Math.min(s.t1[j]!, to);
      if (!(b > a)) continue;
      const g = s.gate[j]!;
      const who = s.pkt[j]! >= 0 ? `p${s.pkt[j]}` : `s${i}`;
      const w = waits.get(g) ?? new Map<string, number>();
      waits.set(g, w);
      w.set(who, (w.get(who) ?? 0) + (b - a));
      const list = spans.get(g) ?? [];
      spans.set(g, list);
      list.push([a, b]);
    }
  }
  const out: GateWaits[] = [];
  const total = new Map<number, number>();
  for (const [gate, w] of waits) {
    const each = [...w.values()].sort((x, y) => x - y);
    const list = spans.get(gate)!.sort((x, y) => x[0] - y[0]);
    let busyNs = 0;
    let end = -Infinity;
    for (const [a, b] of list) {
      if (b <= end) continue;
      busyNs += b - Math.max(a, end);
      end = b;
    }
    out.push({
      gate,
      name: spanName(schema, gate),
      held: each.length,
      medianNs: each[(each.length - 1) >> 1]!,
      maxNs: each[each.length - 1]!,
      busy: to > from ? busyNs / (to - from) : 0,
    });
    total.set(
      gate,
      each.reduce((x, y) => x + y, 0),
    );
  }
  return out.sort((a, b) => total.get(b.gate)! - total.get(a.gate)!);
}
