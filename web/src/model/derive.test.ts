// The run model against the engine's own events: real runs of the scenario files in the real
// wasm engine (built by scripts/build-wasm.mjs).

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import { fieldIndex, kindCodes } from './catalog';
import {
  bucketAt,
  buildIntervalIndex,
  groupRange,
  PKT_DATA,
  SPAN_FILLING,
  type RunModel,
} from './derive';
import { catalogOf, runWindow } from './testkit';

let on: RunModel;
let off: RunModel;
beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
  on = runWindow(wasm, 'autocorking.toml', { variant: 'on', toNs: 2_000_000 });
  off = runWindow(wasm, 'autocorking.toml', { variant: 'off', toNs: 2_000_000 });
});

describe('packets', () => {
  test('a data packet goes through the qdisc, the TX ring and the wire in that order', () => {
    const P = on.packets;
    let checked = 0;
    for (let p = 0; p < P.n; p++) {
      if (P.type[p] !== PKT_DATA || Number.isNaN(P.tRx[p]!)) continue;
      const steps = [P.tXmit[p]!, P.tEnq[p]!, P.tDeq[p]!, P.tRing[p]!, P.tWire[p]!, P.tRx[p]!];
      for (let i = 1; i < steps.length; i++)
        expect(steps[i]!).toBeGreaterThanOrEqual(steps[i - 1]!);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  test("the TX ring is completed in order: the inferred completion is the engine's tcp_wfree", () => {
    const c = on.cols;
    const schema = catalogOf(wasm).trace;
    const K = kindCodes(schema);
    const fPkt = fieldIndex(schema, 'tcp_wfree', 'pkt');
    const byId = new Map<number, number>();
    for (let p = 0; p < on.packets.n; p++) byId.set(on.packets.id[p]!, p);
    let checked = 0;
    for (let r = 0; r < c.t.length; r++) {
      if (c.kind[r] !== K.tcp_wfree) continue;
      const p = byId.get(c.values[r * c.stride + fPkt]!)!;
      expect(on.packets.tDone[p]).toBe(c.t[r]);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  test('a data packet is acknowledged by the first ACK covering its last byte', () => {
    const P = on.packets;
    const A = on.socks.acks;
    let checked = 0;
    for (let p = 0; p < P.n; p++) {
      if (P.type[p] !== PKT_DATA || Number.isNaN(P.tAcked[p]!)) continue;
      const [a, b] = groupRange(A, P.sk[p]!);
      const first = Array.from({ length: b - a }, (_, i) => a + i).find(
        (j) => A.v[j * A.width]! >= P.endSeq[p]!,
      );
      expect(A.t[first!]).toBe(P.tAcked[p]);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('skbs and their gates', () => {
  test('an skb is freed after it was sent, by an ACK at or past its end', () => {
    const S = on.skbs;
    let checked = 0;
    for (let i = 0; i < S.n; i++) {
      if (Number.isNaN(S.tFreed[i]!)) continue;
      expect(S.tFreed[i]!).toBeGreaterThanOrEqual(S.tSent[i]!);
      expect(S.seqEnd[i]!).toBeGreaterThan(S.seqStart[i]!);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  test('the spans of an skb never overlap within a row and add up to the totals', () => {
    const s = on.spans;
    let sum = 0;
    for (let i = 0; i < on.skbs.n; i++) {
      for (let k = s.off[i]! + 1; k < s.off[i + 1]!; k++) {
        if (s.pkt[k] === s.pkt[k - 1]) expect(s.t0[k]!).toBeGreaterThanOrEqual(s.t1[k - 1]!);
      }
    }
    for (let k = 0; k < s.gate.length; k++) sum += s.t1[k]! - s.t0[k]!;
    const totals = Array.from(s.totals).reduce((a, b) => a + b, 0);
    expect(totals).toBeCloseTo(sum, 0);
  });

  test('autocorking holds skbs only when it is on; without it, tails wait at Nagle', () => {
    const gates = catalogOf(wasm).trace.gates;
    const autocork = gates.indexOf('autocork');
    expect(on.spans.totals[autocork]).toBeGreaterThan(0);
    expect(off.spans.totals[autocork]).toBe(0);
    expect(off.spans.totals[gates.indexOf('nagle')]).toBeGreaterThan(0);
    expect(SPAN_FILLING).toBeGreaterThanOrEqual(gates.length);
  });

  test('without autocorking the same bytes leave in more, smaller packets', () => {
    // Per byte, not per window: with autocorking on, the CPU-bound senders also move more bytes
    // in the same window (a tcp_write_xmit call per write costs CPU), so they can send more
    // packets in it while each packet is bigger.
    const dataBytes = (m: RunModel) => {
      let b = 0;
      for (let p = 0; p < m.packets.n; p++)
        if (m.packets.type[p] === PKT_DATA) b += m.packets.len[p]!;
      return b;
    };
    const count = (m: RunModel) =>
      Array.from(m.packets.type).filter((t) => t === PKT_DATA).length / dataBytes(m);
    const bytes = (m: RunModel) => {
      let b = 0;
      let n = 0;
      for (let p = 0; p < m.packets.n; p++) {
        if (m.packets.type[p] === PKT_DATA) {
          b += m.packets.len[p]!;
          n++;
        }
      }
      return b / n;
    };
    expect(count(off)).toBeGreaterThan(count(on));
    expect(bytes(off)).toBeLessThan(bytes(on));
  });
});

describe('interval index', () => {
  test('the bucket of an instant holds every item alive at that instant', () => {
    const start = Float64Array.from([0, 5, 10, 50, 90]);
    const end = Float64Array.from([20, 6, Infinity, 51, 100]);
    const ix = buildIntervalIndex(start, end, 0, 100, 16);
    for (let t = 0; t < 100; t += 0.5) {
      const alive = [0, 1, 2, 3, 4].filter((i) => start[i]! <= t && t < end[i]!);
      const got = new Set(bucketAt(ix, t));
      for (const i of alive) expect(got.has(i)).toBe(true);
    }
  });
});

describe('the write queue: unsent bytes and bytes in flight', () => {
  // TCP_NOTSENT_LOWAT's lesson (steps 1 and 2): the unsent bytes it limits, write_seq - snd_nxt.
  test("unsent bytes equal the kernel's at every writer sleep and wake-up", () => {
    const m = runWindow(wasm, 'notsent-lowat.toml', {
      variant: 'single_on',
      fromNs: 100_000_000,
      toNs: 100_300_000,
    });
    const schema = catalogOf(wasm).trace;
    const K = kindCodes(schema);
    const fields = [
      [K.sendmsg_wait, fieldIndex(schema, 'sendmsg_wait', 'notsent')],
      [K.write_space, fieldIndex(schema, 'write_space', 'notsent')],
    ] as const;
    const N = m.socks.notsent;
    const c = m.cols;
    let checked = 0;
    for (let r = 0; r < c.t.length; r++) {
      const f = fields.find(([k]) => k === c.kind[r]);
      if (!f) continue;
      const sk = c.sk[r]!;
      const [a, b] = groupRange(N, sk);
      // The last change at or before the row (a change at the same instant may be the row's).
      let j = a;
      while (j + 1 < b && N.t[j + 1]! <= c.t[r]!) j++;
      const want = c.values[r * c.stride + f[1]]!;
      // Changes at the row's instant after it are not the row's: find one that matches.
      let k = j;
      while (k > a && N.t[k]! === c.t[r]! && N.v[k * 2]! !== want) k--;
      expect(N.v[k * 2], `row ${r} at ${c.t[r]} ns`).toBe(want);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
    // The chart: unsent bytes reach the limit (131072 B) and pass it by at most one 64 KB skb:
    // tcp_sendmsg asks sk_stream_memory_free only before it starts a new skb.
    const sk = Array.from(m.socks.sends).indexOf(1);
    const u = m.charts.notsentMax.subarray(sk * m.charts.bins, (sk + 1) * m.charts.bins);
    expect(Math.max(...u)).toBeGreaterThan(100_000);
    expect(Math.max(...u)).toBeLessThanOrEqual(131_072 + 65_536);
    const f = m.charts.inflightMax.subarray(sk * m.charts.bins, (sk + 1) * m.charts.bins);
    expect(Math.max(...f)).toBeGreaterThan(0);
  });

  test('without the limit the unsent bytes are megabytes', () => {
    const m = runWindow(wasm, 'notsent-lowat.toml', {
      variant: 'single_off',
      fromNs: 100_000_000,
      toNs: 100_300_000,
    });
    const sk = Array.from(m.socks.sends).indexOf(1);
    const u = m.charts.notsentMax.subarray(sk * m.charts.bins, (sk + 1) * m.charts.bins);
    // From the window's first bin: the snapshot at its start.
    expect(u[0]).toBeGreaterThan(1_000_000);
  });
});

describe('the queues at the window start', () => {
  // TCP Small Queues step 1 (no TSQ): the qdisc holds about 1.4 MB from before the window; its
  // chart started the qdisc and NIC lines at 0 and kept the NIC at 0 for 12 ms while the wire
  // was busy, because the packets enqueued and posted before the window were not counted.
  test("the qdisc, the TX ring and sk_wmem_alloc are full from the window's first bin", () => {
    const m = runWindow(wasm, 'tcp-small-queues.toml', {
      variant: 'off',
      fromNs: 300_000_000,
      toNs: 320_000_000,
    });
    const c = m.charts;
    const sk = Array.from(m.socks.sends).indexOf(1);
    const host = m.summary.result.sockets[sk]!.host;
    const queued = m.summary.queuedAtStart.filter((q) => q.host === host);
    const inQdisc = queued.filter((q) => !q.in_ring).reduce((a, q) => a + q.len, 0);
    const inRing = queued.filter((q) => q.in_ring).reduce((a, q) => a + q.len, 0);
    expect(inQdisc).toBeGreaterThan(1_000_000);
    expect(inRing).toBeGreaterThan(0);
    expect(c.qdiscBytes[host * c.bins]).toBeGreaterThanOrEqual(inQdisc);
    expect(c.nicBytes[host * c.bins]).toBeGreaterThanOrEqual(inRing);
    expect(c.wmemMax[sk * c.bins]).toBeGreaterThanOrEqual(
      m.summary.socketsAtStart[sk]!.sk_wmem_alloc,
    );
    // The NIC ring is never empty while the wire is busy (every bin of the window).
    for (let b = 0; b < c.bins; b++)
      expect(c.nicBytes[host * c.bins + b], `bin ${b}`).toBeGreaterThan(0);
  });
});
