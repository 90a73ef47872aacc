import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { TraceSchema } from './catalog';
import type { RunModel } from './derive';
import { catalogOf, runWindow } from './testkit';
import { gateWaits, skbOfByte, skbsInRange, spanName, whyRows } from './why';

let m: RunModel;
let schema: TraceSchema;
beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
  m = runWindow(wasm, 'autocorking.toml', { variant: 'on', toNs: 2_000_000 });
  schema = catalogOf(wasm).trace;
});

describe('why is it waiting', () => {
  test('a freed skb is followed from its write to the ACK that freed it', () => {
    const S = m.skbs;
    const i = Array.from({ length: S.n }, (_, k) => k).find(
      (k) => !Number.isNaN(S.tFreed[k]!) && S.parent[k]! < 0 && S.tCreate[k]! > 200_000,
    )!;
    const rows = whyRows(m, i);
    expect(rows[0]!.pkt).toBe(-1);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const all = rows.flatMap((r) => r.spans);
    expect(Math.min(...all.map((s) => s.t0))).toBe(S.tWrite[i]);
    expect(Math.max(...all.map((s) => s.t1))).toBe(S.tFreed[i]);
    // Its last packet's last span is the wait for the peer's ACK.
    const last = rows[rows.length - 1]!.spans.at(-1)!;
    expect(spanName(schema, last.gate)).toBe('peer_ack');
  });

  test('a byte range selects every skb holding any of its bytes, by sequence', () => {
    const S = m.skbs;
    const sk = S.sk[0]!;
    const list = skbsInRange(m, sk, 1, 20_000);
    expect(list.length).toBeGreaterThan(1);
    for (let k = 1; k < list.length; k++) {
      expect(S.seqStart[list[k]!]!).toBeGreaterThanOrEqual(S.seqStart[list[k - 1]!]!);
    }
    expect(skbOfByte(m, sk, 1)).toBe(list[0]);
  });

  test("the window's per-gate table says what a reader can check, never more time than the window", () => {
    // Issue 17: the table summed every skb's wait (103 s of waiting in a 340 ms window).
    const waits = gateWaits(m, schema);
    expect(waits.map((t) => t.name)).toContain('autocork');
    const window = m.summary.toNs - m.summary.fromNs;
    for (const g of waits) {
      expect(g.held).toBeGreaterThan(0);
      expect(g.medianNs).toBeLessThanOrEqual(g.maxNs);
      expect(g.maxNs).toBeLessThanOrEqual(window);
      expect(g.busy).toBeGreaterThan(0);
      expect(g.busy).toBeLessThanOrEqual(1);
    }
    // The same figures from the spans directly: the longest autocork hold of one skb, and the
    // time some skb was autocorked.
    const g = schema.gates.indexOf('autocork');
    const s = m.spans;
    let longest = 0;
    const marks: [number, number][] = [];
    for (let i = 0; i + 1 < s.off.length; i++) {
      let mine = 0;
      for (let j = s.off[i]!; j < s.off[i + 1]!; j++) {
        if (s.gate[j] !== g || s.pkt[j]! >= 0) continue;
        mine += s.t1[j]! - s.t0[j]!;
        marks.push([s.t0[j]!, s.t1[j]!]);
      }
      longest = Math.max(longest, mine);
    }
    const autocork = waits.find((w) => w.name === 'autocork')!;
    expect(autocork.maxNs).toBeCloseTo(longest, 0);
    // Busy time: sweep the instants.
    const edges = marks.flatMap(([a, b]) => [[a, 1] as const, [b, -1] as const]);
    edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let level = 0;
    let busy = 0;
    let last = 0;
    for (const [t, d] of edges) {
      if (level > 0) busy += t - last;
      level += d;
      last = t;
    }
    expect(autocork.busy).toBeCloseTo(busy / window, 6);
  });
});
