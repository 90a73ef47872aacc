// The replay of the real samples: the recorded events as a run model, read back through the
// site's own derivations (packets, skbs, sockets, counters), against what the files say.

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { Catalog } from '../model/catalog';
import { groupRange, PKT_DATA, type RunModel } from '../model/derive';
import { countersAt, sampleTimes } from '../model/counters';
import type { ReplayModel } from './model';
import { counterIncrements } from './query';
import { describeReplayRow, replayRun, type Replay } from './replay';
import { modelOf, SAMPLE_NAMES, SAMPLES } from './testing';

/** The samples with one writer and one connection. */
const ONE_FLOW = ['autocork-on', 'autocork-off', 'bulk-40ms'] as const;

let catalog: Catalog;
const recorded: Record<string, ReplayModel> = {};
const replays: Record<string, Replay> = {};

beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
  catalog = JSON.parse(wasm.engine_catalog()) as Catalog;
  for (const n of SAMPLE_NAMES) {
    recorded[n] = modelOf(new URL(`${n}.jsonl`, SAMPLES));
    replays[n] = replayRun(recorded[n], catalog.trace, `${n}.jsonl`);
  }
});

/** Bytes the lab's workload says it wrote (its JSON line on stdout). */
function workloadBytes(m: ReplayModel): number {
  return (JSON.parse(m.workload!.stdout) as { bytes: number }).bytes;
}

function dataPackets(model: RunModel): number[] {
  const out: number[] = [];
  for (let p = 0; p < model.packets.n; p++) if (model.packets.type[p] === PKT_DATA) out.push(p);
  return out;
}

describe('a recording as a run model', () => {
  test('each recorded event is one row, in time order, from time 0', () => {
    for (const n of SAMPLE_NAMES) {
      const { model } = replays[n]!;
      expect(model.cols.t.length, n).toBe(recorded[n]!.events.timelineKind.length);
      expect(model.cols.t[0], n).toBe(0);
      for (let i = 1; i < model.cols.t.length; i++)
        expect(model.cols.t[i]!).toBeGreaterThanOrEqual(model.cols.t[i - 1]!);
      expect(model.recording!.events).toBe(model.cols.t.length);
    }
  });

  test('the bytes the writes copied are the bytes the workload wrote, and the packets carried them all', () => {
    for (const n of ONE_FLOW) {
      const { model } = replays[n]!;
      const bytes = workloadBytes(recorded[n]!);
      const c = model.socks.copies;
      const [, last] = groupRange(c, 0);
      expect(c.v[(last - 1) * c.width + 1], `${n}: written`).toBe(bytes);
      let carried = 0;
      for (const p of dataPackets(model))
        carried += model.packets.endSeq[p]! - model.packets.seq[p]!;
      expect(carried, `${n}: carried`).toBe(bytes);
    }
  });

  test('every data packet lies within one skb, and the skbs share no byte', () => {
    for (const n of ONE_FLOW) {
      const { model } = replays[n]!;
      const S = model.skbs;
      const order = Array.from({ length: S.n }, (_, i) => i).sort(
        (a, b) => S.seqStart[a]! - S.seqStart[b]!,
      );
      for (let k = 1; k < order.length; k++)
        expect(S.seqStart[order[k]!]!, n).toBeGreaterThanOrEqual(S.seqEnd[order[k - 1]!]!);
      for (const p of dataPackets(model)) {
        const skb = model.packets.skb[p]!;
        const i = Array.from(S.id).indexOf(skb);
        expect(i, `${n}: packet ${p} has an skb`).toBeGreaterThanOrEqual(0);
        expect(model.packets.seq[p]!).toBeGreaterThanOrEqual(S.seqStart[i]!);
        expect(model.packets.endSeq[p]!).toBeLessThanOrEqual(S.seqEnd[i]!);
      }
    }
  });

  test('with autocorking on, fewer skbs carry the same bytes as with it off', () => {
    const on = replays['autocork-on']!.model.skbs.n;
    const off = replays['autocork-off']!.model.skbs.n;
    expect(on).toBeLessThan(off * 0.8);
  });

  test('a data packet is on its way from its xmit until the tcp_probe that acknowledged its last byte', () => {
    for (const n of ONE_FLOW) {
      const { model } = replays[n]!;
      const P = model.packets;
      let acked = 0;
      for (const p of dataPackets(model)) {
        if (Number.isNaN(P.tRing[p]!)) continue; // its xmit was not recorded
        expect(P.tWire[p], n).toBe(P.tRing[p]);
        if (Number.isNaN(P.tAcked[p]!)) continue;
        acked++;
        expect(P.tAcked[p]!).toBeGreaterThanOrEqual(P.tRing[p]!);
        expect(P.tRx[p]).toBe(P.tAcked[p]);
      }
      expect(acked, n).toBeGreaterThan(dataPackets(model).length / 2);
    }
  });

  test('no row carries a decision the recording does not show, and the write queue says why', () => {
    for (const n of SAMPLE_NAMES) {
      const { model } = replays[n]!;
      expect(
        model.rowReason.every((r) => r === -1),
        n,
      ).toBe(true);
      const stages = model.recording!.stages;
      expect(stages.wq.recorded).toBe(false);
      expect(stages.wire.recorded).toBe(false);
      expect(stages.wq.reason.length).toBeGreaterThan(20);
    }
    expect(replays['autocork-on']!.model.recording!.stages.wq.reason).toMatch(/tcp_push/);
    expect(replays['autocork-on']!.model.recording!.stages.qdisc.recorded).toBe(true);
    expect(replays['bulk-40ms']!.model.recording!.stages.qdisc.recorded).toBe(false);
  });

  test('with two writing threads on one connection, writes stay per thread and no packet belongs to a socket', () => {
    for (const n of ['pingpong-default', 'pingpong-nodelay'] as const) {
      const { model } = replays[n]!;
      expect(model.skbs.n, n).toBe(0);
      expect(
        Array.from(model.packets.sk).every((s) => s === -1),
        n,
      ).toBe(true);
      const writers = model.summary.result.sockets.filter((s) => s.app.startsWith('tid '));
      expect(writers.length, n).toBe(2);
      expect(Array.from(model.socks.sends).filter((s) => s === 1).length, n).toBe(2);
      expect(model.recording!.stages.wq.reason).toMatch(/not attributable/);
    }
  });

  test('the delayed-ACK timers of the ping-pong are pending 40 ms at HZ 250', () => {
    const { model } = replays['pingpong-default']!;
    const d = model.socks.delack;
    const peer = model.summary.result.sockets.findIndex((s) => s.app === 'not attributed');
    const [a, b] = groupRange(d, peer);
    expect(b - a).toBeGreaterThan(10);
    // v = [end, due]: due - armed, in ticks of 4 ms; the article's 40 ms is 10 ticks.
    const delays = new Set<number>();
    for (let j = a; j < b; j++) delays.add(Math.round((d.v[j * 2 + 1]! - d.t[j]!) / 4e6));
    expect(delays.has(10)).toBe(true);
  });

  test("nstat at the window's end shows the sums of the recording's delta samples", () => {
    for (const n of SAMPLE_NAMES) {
      const { model } = replays[n]!;
      const m = recorded[n]!;
      const layout = model.summary.samples;
      const times = sampleTimes(model.samples, layout.stride);
      const rows = countersAt(model.samples, layout, times, 0, Infinity, 1e9);
      const shown = Object.fromEntries(rows.map((r) => [r.name, r.value]));
      const sums = counterIncrements(m, '');
      for (const name of ['IpOutRequests', 'TcpOutSegs'])
        expect(shown[name], `${n} ${name}`).toBe(sums[name]);
      expect(model.summary.result.hosts[layout.hosts[0]!]!.counters['TcpOutSegs']).toBe(
        sums['TcpOutSegs'],
      );
    }
    // docs/capture.md's measurements of the samples.
    const on = replays['autocork-on']!.model.summary.result.hosts['sender']!.counters;
    expect(on['IpOutRequests']).toBe(518);
    expect(on['TcpExtTCPAutoCorking']).toBe(50);
  });

  test('a row in words names the tracepoint that recorded it', () => {
    const { model, rows } = replays['autocork-on']!;
    const schema = model.recording!.schema;
    const seen = new Set<string>();
    for (let r = 0; r < model.cols.t.length; r++) {
      const text = describeReplayRow(recorded['autocork-on']!, rows, r);
      const func = schema.kinds[model.cols.kind[r]!]!.func;
      expect(text.startsWith(`${func}`), text).toBe(true);
      seen.add(func);
    }
    expect([...seen].sort()).toEqual([
      'net:net_dev_queue',
      'net:net_dev_start_xmit',
      'qdisc:qdisc_dequeue',
      'qdisc:qdisc_enqueue',
      'sock:inet_sock_set_state',
      'tcp:tcp_probe',
      'tcp:tcp_sendmsg_locked',
    ]);
  });

  test('a window holds only the events within it', () => {
    const m = recorded['autocork-off']!;
    const whole = replays['autocork-off']!.model;
    const toNs = whole.summary.toNs / 4;
    const { model } = replayRun(m, catalog.trace, 'x', { fromNs: 0, toNs });
    expect(model.cols.t.length).toBeLessThan(whole.cols.t.length);
    expect(model.cols.t[model.cols.t.length - 1]!).toBeLessThanOrEqual(toNs);
    expect(model.summary.truncated).toBe(true);
    expect(model.recording!.totalEvents).toBe(whole.cols.t.length);
  });
});
