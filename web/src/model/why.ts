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

/** Per-gate totals of the whole run, largest first, with their share of all waiting. */
export function gateTotals(
  m: RunModel,
  schema: TraceSchema,
): { gate: number; name: string; ns: number; share: number }[] {
  const t = m.spans.totals;
  let sum = 0;
  for (const x of t) sum += x;
  const out: { gate: number; name: string; ns: number; share: number }[] = [];
  t.forEach((ns, gate) => {
    if (ns > 0) out.push({ gate, name: spanName(schema, gate), ns, share: sum > 0 ? ns / sum : 0 });
  });
  return out.sort((a, b) => b.ns - a.ns);
}
