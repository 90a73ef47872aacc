// The pipeline at one instant: which skbs sit in each socket's write queue and in what state,
// which packets are in the qdisc, the NIC TX ring, on the wire or coming back as ACKs, which
// delayed-ACK timers run, and which events just happened (drawn as fading pulses). Pure data,
// computed per animation frame from the run model; the canvas drawer only paints it.

import type { KindCodes, TraceSchema } from './catalog';
import { fieldIndex, kindCodes } from './catalog';
import { APP_IDLE, bucketAt, lastAtOrBefore, PKT_ACK, SKB_SENT, type RunModel } from './derive';
import { rowAtOrBefore, type TraceColumns } from './trace';

/** One socket that sends data, and where its bytes go. */
export interface Lane {
  sk: number;
  peer: number;
  flow: number;
}

/** Per-run facts the scene needs, computed once. */
export interface SceneContext {
  model: RunModel;
  /** The host whose send path the pipeline shows. */
  host: number;
  /** The other host (the same on loopback). */
  peerHost: number;
  lanes: Lane[];
  /** Lane of each socket (its own lane, or its peer's for a receiver), -1 none. */
  laneOfSk: Int32Array;
  /** The qdisc keeps a queue per flow (fq, fq_codel). */
  perFlowQdisc: boolean;
  loopback: boolean;
  /** Rows of the shown host's device state events (ring_post, tx_completion, stop, wake). */
  devRows: Uint32Array;
  codes: ReturnType<typeof kindCodes>;
  f: {
    ringUsed: number;
    ringSize: number;
    bqlInflight: number;
    bqlLimit: number;
    completionLimit: number;
    stopGate: number;
    wfreeTsq: number;
    autocorkCounted: number;
    throttleUntil: number;
  };
}

/** Most lanes drawn; more sockets are summarised in the last. */
export const MAX_LANES = 64;

export function sceneContext(model: RunModel, schema: TraceSchema, qdisc: string): SceneContext {
  const sockets = model.summary.result.sockets;
  const codes = kindCodes(schema);
  const senders = sockets
    .map((s, sk) => ({ sk, s }))
    .filter(({ sk }) => model.socks.sends[sk] === 1);
  const host = senders[0]?.s.host ?? 0;
  const nHost = model.summary.result.host_names.length;
  const peerHost = nHost > 1 ? (host + 1) % nHost : host;
  const lanes: Lane[] = senders
    .filter(({ s }) => s.host === host || nHost === 1)
    .slice(0, MAX_LANES)
    .map(({ sk, s }) => ({ sk, peer: s.peer, flow: s.flow }));
  const laneOfSk = new Int32Array(sockets.length).fill(-1);
  lanes.forEach((l, i) => {
    laneOfSk[l.sk] = i;
    if (laneOfSk[l.peer] === -1) laneOfSk[l.peer] = i;
  });
  return {
    model,
    host,
    peerHost,
    lanes,
    laneOfSk,
    perFlowQdisc: qdisc === 'fq' || qdisc === 'fq_codel',
    loopback: nHost === 1,
    devRows: deviceRows(model.cols, host, codes),
    codes,
    f: {
      ringUsed: fieldIndex(schema, 'ring_post', 'ring_used'),
      ringSize: fieldIndex(schema, 'ring_post', 'ring_size'),
      bqlInflight: fieldIndex(schema, 'ring_post', 'bql_inflight'),
      bqlLimit: fieldIndex(schema, 'ring_post', 'bql_limit'),
      completionLimit: fieldIndex(schema, 'tx_completion', 'bql_limit'),
      stopGate: fieldIndex(schema, 'queue_stop', 'gate'),
      wfreeTsq: fieldIndex(schema, 'tcp_wfree', 'tsq_queued'),
      autocorkCounted: fieldIndex(schema, 'autocork', 'counted'),
      throttleUntil: fieldIndex(schema, 'qdisc_throttle', 'until_ns'),
    },
  };
}

/**
 * The rows of `host`'s device (ring posts, completions, queue stops and wakes). A function of
 * its own: as a loop inside sceneContext, V8 optimized the loop on the fly and threw that code
 * away at the object built after it, on every run.
 */
function deviceRows(c: TraceColumns, host: number, codes: KindCodes): Uint32Array {
  const dev: number[] = [];
  for (let r = 0; r < c.t.length; r++) {
    const k = c.kind[r]!;
    if (
      c.host[r] === host &&
      (k === codes.ring_post ||
        k === codes.tx_completion ||
        k === codes.queue_stop ||
        k === codes.queue_wake)
    ) {
      dev.push(r);
    }
  }
  return Uint32Array.from(dev);
}

/** An event that just happened, drawn as a pulse that fades over `pulseNs`. */
export interface Pulse {
  kind:
    | 'send'
    | 'autocork'
    | 'hold'
    | 'xmit'
    | 'completion'
    | 'tsq'
    | 'rcv'
    | 'ack_sent'
    | 'ack_rcvd'
    | 'throttle'
    /** A packet of the lane died: in the qdisc (`qdisc_drop`) or on the path (`drop`). */
    | 'drop_qdisc'
    | 'drop_path'
    /** The lane's socket sent a segment again (`retransmit`). */
    | 'retransmit';
  /** Lane, or -1 for the device. */
  lane: number;
  /** 0 = just now, 1 = `pulseNs` ago. */
  age: number;
  row: number;
}

export interface Scene {
  t: number;
  /** Per lane: APP_* state of the writer. */
  app: number[];
  /** Per lane: skb indexes in the write queue (unsent and sent-unacked), by sequence. */
  skbs: number[][];
  /** Packets of the shown host in its qdisc, in enqueue order. */
  qdisc: number[];
  /** Packets of the shown host posted to the TX ring and not completed, in post order. */
  ring: number[];
  /** Packets of the shown host on the wire (or on loopback). */
  wire: number[];
  /** Packets of the peer host on their way back (qdisc, ring or wire): mostly ACKs. */
  back: number[];
  /** Per lane: when the receiver's delayed-ACK timer fires, null if not pending. */
  delack: (number | null)[];
  /** Per lane: fq throttled the flow until this instant, null if not throttled. */
  throttledUntil: (number | null)[];
  pulses: Pulse[];
  /** The shown host's device: ring and BQL after the last event, and a stopped queue. */
  dev: {
    ringUsed: number;
    ringSize: number;
    bqlInflight: number;
    bqlLimit: number;
    /** Gate code of a stopped TX queue (bql / ring_full), -1 when running. */
    stopped: number;
  };
  /** The row of the last event at or before `t` (-1 before the first). */
  row: number;
}

/** The state and length of skb `i` at `t`: the last event that touched it decides. */
export function skbStateAt(m: RunModel, i: number, t: number): { state: number; len: number } {
  const s = m.skbs;
  const a = s.evOff[i]!;
  const b = s.evOff[i + 1]!;
  let lo = a;
  let hi = b;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (m.cols.t[s.evRow[mid]!]! <= t) lo = mid + 1;
    else hi = mid;
  }
  const e = lo - 1;
  if (e < a) return { state: 0, len: 0 };
  return { state: s.evState[e]!, len: s.evLen[e]! };
}

/** Whether the skb's data has left TCP at `t` (its last event was a transmission). */
export function skbSentAt(m: RunModel, i: number, t: number): boolean {
  return skbStateAt(m, i, t).state === SKB_SENT;
}

export function sceneAt(ctx: SceneContext, t: number, pulseNs: number): Scene {
  const m = ctx.model;
  const P = m.packets;
  const nLanes = ctx.lanes.length;
  const scene: Scene = {
    t,
    app: new Array<number>(nLanes).fill(APP_IDLE),
    skbs: Array.from({ length: nLanes }, () => []),
    qdisc: [],
    ring: [],
    wire: [],
    back: [],
    delack: new Array<number | null>(nLanes).fill(null),
    throttledUntil: new Array<number | null>(nLanes).fill(null),
    pulses: [],
    dev: { ringUsed: 0, ringSize: 0, bqlInflight: 0, bqlLimit: 0, stopped: -1 },
    row: rowAtOrBefore(m.cols.t, t),
  };
  // Applications.
  ctx.lanes.forEach((lane, i) => {
    const a = lastAtOrBefore(m.socks.app, lane.sk, t);
    if (a >= 0) scene.app[i] = m.socks.app.v[a]!;
    const d = lastAtOrBefore(m.socks.delack, lane.peer, t);
    if (d >= 0 && t < m.socks.delack.v[d * 2]!) scene.delack[i] = m.socks.delack.v[d * 2 + 1]!;
  });
  // skbs alive at t: created, not yet freed by an ACK.
  for (const i of bucketAt(m.skbIndex, t)) {
    if (m.skbs.tCreate[i]! > t) continue;
    const freed = m.skbs.tFreed[i]!;
    if (freed <= t) continue;
    const lane = ctx.laneOfSk[m.skbs.sk[i]!]!;
    if (lane < 0 || ctx.lanes[lane]!.sk !== m.skbs.sk[i]) continue;
    // A split's source keeps only the bytes it sent; its rest lives on in the new skb.
    scene.skbs[lane]!.push(i);
  }
  for (const list of scene.skbs) list.sort((x, y) => m.skbs.seqStart[x]! - m.skbs.seqStart[y]!);
  // Packets.
  for (const p of bucketAt(m.pktIndex, t)) {
    if (P.tStart[p]! > t || P.tEnd[p]! <= t) continue;
    const mine = P.host[p] === ctx.host;
    const inQdisc =
      P.tEnq[p]! <= t && !(P.tDeq[p]! <= t) && !(P.dropped[p] === 1 && P.tDone[p]! <= t);
    const inRing = P.tRing[p]! <= t && !(P.tDone[p]! <= t);
    const onWire = P.tWire[p]! <= t && !(P.tRx[p]! <= t);
    if (!mine || (ctx.loopback && P.type[p] === PKT_ACK)) {
      if (inQdisc || inRing || onWire) scene.back.push(p);
      continue;
    }
    if (inQdisc) scene.qdisc.push(p);
    else if (onWire) scene.wire.push(p);
    if (inRing) scene.ring.push(p);
  }
  scene.qdisc.sort((x, y) => P.tEnq[x]! - P.tEnq[y]!);
  scene.ring.sort((x, y) => P.tRing[x]! - P.tRing[y]!);
  // Device state after the last event at or before t.
  const c = m.cols;
  const dr = ctx.devRows;
  const j = upperBoundRows(dr, c.t, t) - 1;
  let gotRing = false;
  let gotLimit = false;
  let gotStop = false;
  for (let k = j; k >= 0 && !(gotRing && gotLimit && gotStop); k--) {
    const r = dr[k]!;
    const kind = c.kind[r]!;
    const base = r * c.stride;
    if (kind === ctx.codes.ring_post && !gotRing) {
      scene.dev.ringUsed = c.values[base + ctx.f.ringUsed]!;
      scene.dev.ringSize = c.values[base + ctx.f.ringSize]!;
      scene.dev.bqlInflight = c.values[base + ctx.f.bqlInflight]!;
      if (!gotLimit) {
        scene.dev.bqlLimit = c.values[base + ctx.f.bqlLimit]!;
        gotLimit = true;
      }
      gotRing = true;
    } else if (kind === ctx.codes.tx_completion && !gotLimit) {
      scene.dev.bqlLimit = c.values[base + ctx.f.completionLimit]!;
      gotLimit = true;
    } else if (kind === ctx.codes.queue_stop && !gotStop) {
      scene.dev.stopped = c.values[base + ctx.f.stopGate]!;
      gotStop = true;
    } else if (kind === ctx.codes.queue_wake && !gotStop) {
      gotStop = true;
    }
  }
  if (scene.dev.ringSize === 0) scene.dev.ringUsed = scene.ring.length;
  // What just happened: events in (t - pulseNs, t], at most the last 600.
  const last = scene.row;
  const first = Math.max(rowAtOrBefore(c.t, t - pulseNs) + 1, last - 600);
  const K = ctx.codes;
  for (let r = Math.max(0, first); r <= last; r++) {
    const kind = c.kind[r]!;
    const sk = c.sk[r]!;
    const lane = sk < ctx.laneOfSk.length ? ctx.laneOfSk[sk]! : -1;
    const age = pulseNs > 0 ? (t - c.t[r]!) / pulseNs : 0;
    let pk: Pulse['kind'] | null = null;
    if (kind === K.sendmsg || (m.recording && kind === K.sendmsg_copy)) pk = 'send';
    else if (kind === K.autocork) pk = 'autocork';
    else if (kind === K.xmit_hold) pk = 'hold';
    else if (kind === K.xmit) pk = 'xmit';
    else if (kind === K.tx_completion && c.host[r] === ctx.host) pk = 'completion';
    else if (kind === K.tsq_handler) pk = 'tsq';
    else if (kind === K.tcp_wfree && c.values[r * c.stride + ctx.f.wfreeTsq] === 1) pk = 'tsq';
    else if (kind === K.rcv_data) pk = 'rcv';
    else if (kind === K.ack_xmit) pk = 'ack_sent';
    else if (kind === K.ack_rcvd) pk = 'ack_rcvd';
    else if (kind === K.qdisc_drop) pk = 'drop_qdisc';
    else if (kind === K.drop) pk = 'drop_path';
    else if (kind === K.retransmit) pk = 'retransmit';
    else if (kind === K.qdisc_throttle) {
      pk = 'throttle';
      if (lane >= 0) scene.throttledUntil[lane] = c.values[r * c.stride + ctx.f.throttleUntil]!;
    }
    if (pk) scene.pulses.push({ kind: pk, lane: pk === 'completion' ? -1 : lane, age, row: r });
  }
  return scene;
}

/** First k with t[rows[k]] > time. */
function upperBoundRows(rows: Uint32Array, t: Float64Array, time: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[rows[mid]!]! <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
