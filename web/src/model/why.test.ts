import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { TraceSchema } from './catalog';
import type { RunModel } from './derive';
import { catalogOf, runWindow } from './testkit';
import { gateTotals, skbOfByte, skbsInRange, spanName, whyRows } from './why';

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

  test('run totals name every gate that held time and add up to all of it', () => {
    const totals = gateTotals(m, schema);
    expect(totals.map((t) => t.name)).toContain('autocork');
    expect(totals.reduce((a, t) => a + t.share, 0)).toBeCloseTo(1, 6);
  });
});
