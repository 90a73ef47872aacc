// Everything the page shows about one run, derived once (in the engine's worker) from the
// trace columns, the run's summary and its counter samples: the life of every packet and skb,
// each socket's state changes, the gate spans of "Why is it waiting?" with their totals, the
// chart series and the per-row helpers of the decision log. Only typed arrays and plain data,
// so the whole model crosses to the main thread by transfer.
//
// Nothing here decides anything about TCP: every number is read from an engine event. Where a
// number is inferred (which packets a TX completion freed: the ring is a FIFO; a packet's
// qdisc bytes: the backlog's growth at its enqueue), the rule is stated where it is applied.

import type { InFlight } from '../engine/generated/InFlight';
import type { Queued } from '../engine/generated/Queued';
import type { SessionSummary } from '../engine/generated/SessionSummary';
import { fieldIndex, gateCode, kindCodes, type TraceSchema } from './catalog';
import { lowerBound, type TraceColumns } from './trace';

// ---- packets ----

export const PKT_DATA = 0;
export const PKT_ACK = 1;
/** Handshake and other connection control packets (no `xmit` / `ack_xmit` event). */
export const PKT_CTL = 2;

/** The life of every packet (a clone leaving TCP), one entry per packet, NaN when unseen. */
export interface Packets {
  n: number;
  /** The engine's packet id (`pkt`). */
  id: Float64Array;
  /** Sending host. */
  host: Uint16Array;
  /** Sending socket, or -1. */
  sk: Int32Array;
  type: Uint8Array;
  /** skb id of a data packet, else -1. */
  skb: Float64Array;
  seq: Float64Array;
  endSeq: Float64Array;
  /** Cumulative ACK carried by a pure ACK. */
  ack: Float64Array;
  segs: Float64Array;
  /** Bytes as the qdisc counts them (`skb->len` with headers). */
  len: Float64Array;
  truesize: Float64Array;
  tXmit: Float64Array;
  tEnq: Float64Array;
  tDeq: Float64Array;
  tRing: Float64Array;
  tWire: Float64Array;
  tWireEnd: Float64Array;
  tRx: Float64Array;
  /** TX completion freed its descriptor (or `tcp_wfree`, or a drop). */
  tDone: Float64Array;
  /** A data packet: the ACK covering its last byte reached the sender. */
  tAcked: Float64Array;
  dropped: Uint8Array;
  /** First and last instant the packet exists somewhere on the path. */
  tStart: Float64Array;
  tEnd: Float64Array;
}

// ---- skbs ----

/** States of an skb in the write queue, from the last event that touched it. */
export const SKB_FILLING = 0;
export const SKB_FULL = 1;
export const SKB_AUTOCORKED = 2;
export const SKB_SENT = 3;
export const SKB_SPLIT = 4;
/** `SKB_HELD + gate`: held by `tcp_write_xmit` at that gate. */
export const SKB_HELD = 16;

export interface Skbs {
  n: number;
  id: Float64Array;
  sk: Int32Array;
  seqStart: Float64Array;
  /** Final end (after any split). */
  seqEnd: Float64Array;
  sizeGoal: Float64Array;
  /** The `send()` call whose bytes started it (or the split source's). */
  tWrite: Float64Array;
  tCreate: Float64Array;
  tSent: Float64Array;
  /** The ACK covering its last byte reached the sender (the skb is freed). */
  tFreed: Float64Array;
  /** Index of the skb it was split from, or -1. */
  parent: Int32Array;
  /** CSR: events of skb i are evRow[evOff[i] .. evOff[i+1]]. */
  evOff: Uint32Array;
  evRow: Uint32Array;
  evState: Uint8Array;
  /** skb length after the event. */
  evLen: Float64Array;
}

// ---- sockets ----

/** App states of a socket's application, from its system calls. */
export const APP_IDLE = 0;
export const APP_WRITING = 1;
/** `APP_SLEEPING + gate`: asleep in `sk_stream_wait_memory` (sndbuf or notsent_lowat). */
export const APP_SLEEPING = 16;

/** Per-socket series, CSR by socket index (`off[s] .. off[s+1]`). */
export interface Series {
  off: Uint32Array;
  t: Float64Array;
  /** `width` numbers per entry. */
  v: Float64Array;
  width: number;
}

export interface Sockets {
  n: number;
  /** `tcp_ack`: ack, cwnd, ssthresh, srtt_us, pacing_rate (B/s, Infinity = unlimited), packets_out, acked. */
  acks: Series;
  /** Data transmissions: seq, end_seq, segs, len. */
  xmits: Series;
  /** `tcp_sendmsg_locked` copies: seq, end_seq (write_seq after). */
  copies: Series;
  /** `sk_wmem_alloc` after each change (TCP Small Queues' measure). */
  wmem: Series;
  /**
   * The write queue's two parts after each change: unsent bytes (`write_seq - snd_nxt`, what
   * TCP_NOTSENT_LOWAT limits: `tcp_notsent_bytes`... `tcp_stream_memory_free`) and bytes in
   * flight (`snd_nxt - snd_una`). The first entry is the socket at the window's start.
   */
  notsent: Series;
  /**
   * `sk_pacing_rate` (B/s, Infinity = unlimited) after each change the trace shows: the rate
   * `tcp_init_transfer` set at `established`, then each ACK's.
   */
  pacing: Series;
  /** App state changes: state (APP_*). */
  app: Series;
  /** Delayed-ACK timer: scheduled at t, pending until v[0], due at v[1]. */
  delack: Series;
  /** Receive side: rcv_data end_seq after each in-order arrival. */
  rcv: Series;
  /** Whether the socket's application ever wrote data. */
  sends: Uint8Array;
  /** MSS from `established` (0 unseen). */
  mss: Float64Array;
}

// ---- spans ----

/** Span kinds beyond the engine's gates (which keep their codes 0..gates-1). */
export const SPAN_FILLING = 32;
export const SPAN_TX_RING = 33;

/** "Why is it waiting?": spans of skb i at spanOff[i] .. spanOff[i+1]. */
export interface Spans {
  off: Uint32Array;
  gate: Uint8Array;
  t0: Float64Array;
  t1: Float64Array;
  /** Packet index of a packet's span, -1 for the skb before it left TCP. */
  pkt: Int32Array;
  /** Total span time per span kind (index = gate code or SPAN_*), ns. */
  totals: Float64Array;
}

// ---- charts ----

export interface Charts {
  from: number;
  binNs: number;
  bins: number;
  /** Bytes newly acknowledged per bin, per socket (`bins` per socket). */
  ackedBytes: Float64Array;
  /** Bytes newly acknowledged per bin, per sending host (`ackedBytes` summed by host). */
  ackedHostBytes: Float64Array;
  /**
   * When the bytes acknowledged in a bin went on the wire, per host: the earliest start and the
   * latest end of serialization of the data packets they belong to (NaN when none is in the
   * window). A rate divides by at least this span (model/rates.ts).
   */
  ackedSentFrom: Float64Array;
  ackedSentTo: Float64Array;
  /**
   * Bytes on the wire (incl. framing) per bin, per host, spread over each packet's serialization
   * (`wire_tx` to its `end_ns`): a bin never holds more than the link carries in it.
   */
  wireBytes: Float64Array;
  /** Each host's link rate, bit/s, from its largest packet's serialization time (NaN: none). */
  linkBps: Float64Array;
  /** Each host's longest serialization of one packet, ns (0: none). */
  serializeMaxNs: Float64Array;
  /** Max bytes in the qdisc per bin, per host. */
  qdiscBytes: Float64Array;
  /** Max bytes posted to the NIC ring and not yet completed per bin, per host. */
  nicBytes: Float64Array;
  /** Max `sk_wmem_alloc` per bin, per socket. */
  wmemMax: Float64Array;
  /** Max unsent bytes (`write_seq - snd_nxt`) per bin, per socket. */
  notsentMax: Float64Array;
  /** Max bytes in flight (`snd_nxt - snd_una`) per bin, per socket. */
  inflightMax: Float64Array;
  /** TSQ limits seen in `tcp_small_queue_check` holds (max per bin, per socket; NaN none). */
  tsqLimit: Float64Array;
  /** Segments per data packet: count of packets with 1..64 (index 64 = 64 or more). */
  segsHist: Float64Array;
  /** Data packet sizes: counts per bin of `LEN_EDGES`. */
  lenHist: Float64Array;
}

/** Bin edges of the packet size histogram, bytes. */
export const LEN_EDGES = [0, 128, 256, 512, 1024, 1515, 3029, 6057, 12113, 24225, 48449, 65536];

/**
 * Which items live at an instant, without scanning them all: the window is cut in buckets,
 * and bucket b lists every item whose [start, end) overlaps it (items[off[b] .. off[b+1]]).
 */
export interface IntervalIndex {
  from: number;
  bucketNs: number;
  off: Uint32Array;
  items: Uint32Array;
}

export interface RunModel {
  summary: SessionSummary;
  cols: TraceColumns;
  samples: Float64Array;
  packets: Packets;
  skbs: Skbs;
  socks: Sockets;
  spans: Spans;
  charts: Charts;
  /** Per row: gate code (holds, waits, stops), 100 + ACK reason (ACKs), else -1. */
  rowReason: Int16Array;
  /** Per row: the flow of its socket, -1 for device events. */
  rowFlow: Int32Array;
  /** Packets by lifetime [tStart, tEnd). */
  pktIndex: IntervalIndex;
  /** skbs by lifetime [tCreate, tFreed). */
  skbIndex: IntervalIndex;
  /** Where the worker spent its time on this run, ms (set by the worker; 0 elsewhere). */
  timing: { runMs: number; columnsMs: number; deriveMs: number };
  /** Set when the run is a replayed recording rather than a simulation (capture/replay.ts). */
  recording?: RecordingFacts;
}

/** The pipeline's stages, as a recording covers them. */
export type RecordedStage = 'app' | 'wq' | 'qdisc' | 'ring' | 'wire' | 'rx' | 'acks';

/**
 * What a replayed recording adds to its run model. Its rows are the recorded events, one row
 * each, under the engine kind closest to the tracepoint that recorded them (`schema` renames
 * those kinds to their tracepoints and adds the kinds only recordings have); what the recording
 * cannot show is listed per stage, never filled in.
 */
export interface RecordingFacts {
  /** The file's name. */
  name: string;
  /** Its format (capture/model.ts CaptureFormat). */
  format: string;
  /** `uname -r` of the recording host, when recorded. */
  kernel: string | null;
  /** The schema of this model's rows (use it instead of the engine's for this model). */
  schema: TraceSchema;
  /** Per stage of the pipeline: whether the recording shows it, and why (not). */
  stages: Record<RecordedStage, { recorded: boolean; reason: string }>;
  /** What the replay infers rather than reads, each in a sentence. */
  inferred: string[];
  /** Events of the recording in this window, and in all. */
  events: number;
  totalEvents: number;
  /** Time 0 of the replay on the recording's own axis (ns since the capture's t0). */
  anchorNs: number;
  /** The recording's span on the replay's axis: [startNs, endNs]. */
  startNs: number;
  endNs: number;
  /** The first write or packet of the window (where the replay starts to show something). */
  activityNs: number;
}

/** How deriveRun reads rows that are not the engine's own. */
export interface DeriveOptions {
  /**
   * The rows are a recording (capture/replay.ts): `sendmsg_copy` rows are the iterations of
   * the application's calls (their socket sends); a packet's path below its `ring_post` (the
   * recorded `net_dev_start_xmit`) is not recorded: it counts as on its way from its xmit
   * until the ACK covering its last byte (data), or as gone at its xmit (ACKs, and data whose
   * bytes are not known); with no TX completion recorded the socket's memory is freed at xmit,
   * as veth and lo do.
   */
  recording?: boolean;
}

/** Most bucket entries an interval index may hold (long-lived items repeat in each bucket). */
const INDEX_BUDGET = 4_000_000;

/** Build an interval index over items [start[i], end[i]) within [from, to). */
export function buildIntervalIndex(
  start: Float64Array,
  end: Float64Array,
  from: number,
  to: number,
  wantBuckets = 2048,
): IntervalIndex {
  const n = start.length;
  const span = Math.max(1, to - from);
  let buckets = wantBuckets;
  const bucketRange = (i: number, bucketNs: number): [number, number] => {
    const a = Math.max(0, Math.floor((start[i]! - from) / bucketNs));
    const e = Number.isFinite(end[i]!) ? end[i]! : to;
    const b = Math.min(buckets - 1, Math.floor((Math.max(e, start[i]!) - from) / bucketNs));
    return [a, b];
  };
  // Fewer buckets when long-lived items would repeat past the budget.
  for (;;) {
    const bucketNs = span / buckets;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const [a, b] = bucketRange(i, bucketNs);
      if (b >= a) total += b - a + 1;
    }
    if (total <= INDEX_BUDGET || buckets <= 16) break;
    buckets = Math.max(16, buckets >> 1);
  }
  const bucketNs = span / buckets;
  const off = new Uint32Array(buckets + 1);
  for (let i = 0; i < n; i++) {
    const [a, b] = bucketRange(i, bucketNs);
    for (let k = a; k <= b; k++) off[k + 1]!++;
  }
  for (let k = 0; k < buckets; k++) off[k + 1]! += off[k]!;
  const fill = off.slice(0, buckets);
  const items = new Uint32Array(off[buckets]!);
  for (let i = 0; i < n; i++) {
    const [a, b] = bucketRange(i, bucketNs);
    for (let k = a; k <= b; k++) items[fill[k]!++] = i;
  }
  return { from, bucketNs, off, items };
}

/** Items of the bucket holding `t` (a superset of the items alive at `t`). */
export function bucketAt(ix: IntervalIndex, t: number): Uint32Array {
  const buckets = ix.off.length - 1;
  const b = Math.min(buckets - 1, Math.max(0, Math.floor((t - ix.from) / ix.bucketNs)));
  return ix.items.subarray(ix.off[b]!, ix.off[b + 1]!);
}

/** A growable float column (amortised doubling), without per-push allocation. */
class Column {
  a: Float64Array;
  n = 0;
  constructor(cap = 256) {
    this.a = new Float64Array(cap);
  }
  push(x: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
  }
  done(): Float64Array {
    return this.a.slice(0, this.n);
  }
}

/**
 * Entries (group, t, values...) collected in any order of groups, laid out CSR by group. Each
 * group grows its own columns, so that the layout is a copy per group, not a sort of every entry.
 */
class Grouped {
  private readonly t: Column[];
  private readonly v: Column[];
  constructor(
    readonly groups: number,
    readonly width: number,
  ) {
    this.t = Array.from({ length: groups }, () => new Column(64));
    this.v = Array.from({ length: groups }, () => new Column(64 * Math.max(1, width)));
  }
  push(
    group: number,
    t: number,
    a = NaN,
    b = NaN,
    c = NaN,
    d = NaN,
    e = NaN,
    f = NaN,
    g = NaN,
  ): void {
    this.t[group]!.push(t);
    const v = this.v[group]!;
    const w = this.width;
    v.push(a);
    if (w > 1) v.push(b);
    if (w > 2) v.push(c);
    if (w > 3) v.push(d);
    if (w > 4) v.push(e);
    if (w > 5) v.push(f);
    if (w > 6) v.push(g);
  }
  done(): Series {
    const off = new Uint32Array(this.groups + 1);
    for (let s = 0; s < this.groups; s++) off[s + 1] = off[s]! + this.t[s]!.n;
    const n = off[this.groups]!;
    const t = new Float64Array(n);
    const v = new Float64Array(n * this.width);
    for (let s = 0; s < this.groups; s++) {
      const ts = this.t[s]!;
      t.set(ts.a.subarray(0, ts.n), off[s]);
      v.set(this.v[s]!.a.subarray(0, ts.n * this.width), off[s]! * this.width);
    }
    return { off, t, v, width: this.width };
  }
}

/** Entries of one group of a Series: [start, end) indexes. */
export function groupRange(s: Series, group: number): [number, number] {
  return [s.off[group] ?? 0, s.off[group + 1] ?? 0];
}

/** The last entry of `group` at or before `time`, or -1. */
export function lastAtOrBefore(s: Series, group: number, time: number): number {
  const [a, b] = groupRange(s, group);
  let lo = a;
  let hi = b;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.t[mid]! <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1 >= a ? lo - 1 : -1;
}

const nan = (n: number) => new Float64Array(n).fill(NaN);

/*
 * The small records the row pass collects. Their times start as doubles (NaN), so that V8 gives
 * every field a double representation from the first record on: as object literals, a first
 * time that happened to fit a small integer made the field a Smi, the next run's larger time
 * generalized it, and the optimized derivation (a TurboFan compile of hundreds of ms in the
 * worker) was thrown away and rebuilt for it, on a reader's change.
 */

/** An interval of a socket (a qdisc throttle, a wait for the CPU). */
class SkInterval {
  t0 = NaN;
  t1 = NaN;
  constructor(
    readonly sk: number,
    t0: number,
    t1: number,
  ) {
    this.t0 = t0;
    this.t1 = t1;
  }
}

/** A stop of a host's queue (BQL, ring full) and its gate. */
class QueueStop {
  t0 = NaN;
  t1 = NaN;
  gate = NaN;
  constructor(
    readonly host: number,
    t0: number,
    t1: number,
    gate: number,
  ) {
    this.t0 = t0;
    this.t1 = t1;
    this.gate = gate;
  }
}

/** A delayed ACK scheduled, until it is sent or rescheduled (`end`). */
class DelackRow {
  t = NaN;
  due = NaN;
  end = NaN;
  constructor(
    readonly sk: number,
    t: number,
    due: number,
  ) {
    this.t = t;
    this.due = due;
    this.end = due;
  }
}

/** A packet in a TX ring, with the descriptors it still holds. */
class RingEntry {
  descs = NaN;
  constructor(
    readonly pkt: number,
    descs: number,
  ) {
    this.descs = descs;
  }
}

/** Indexes of the fields the row pass reads in `cols.values`, by kind. */
function rowFields(schema: TraceSchema) {
  const F = (kind: string, field: string) => fieldIndex(schema, kind, field);
  const K = kindCodes(schema);
  return {
    copy: {
      skb: F('sendmsg_copy', 'skb'),
      seq: F('sendmsg_copy', 'seq'),
      end: F('sendmsg_copy', 'end_seq'),
      len: F('sendmsg_copy', 'skb_len'),
      goal: F('sendmsg_copy', 'size_goal'),
    },
    cork: {
      skb: F('autocork', 'skb'),
      len: F('autocork', 'skb_len'),
      wmem: F('autocork', 'wmem_alloc'),
    },
    hold: {
      skb: F('xmit_hold', 'skb'),
      seq: F('xmit_hold', 'seq'),
      end: F('xmit_hold', 'end_seq'),
      gate: F('xmit_hold', 'gate'),
      b: F('xmit_hold', 'b'),
    },
    frag: {
      skb: F('fragment', 'skb'),
      newSkb: F('fragment', 'new_skb'),
      len: F('fragment', 'len'),
      rest: F('fragment', 'rest'),
    },
    xmit: {
      skb: F('xmit', 'skb'),
      pkt: F('xmit', 'pkt'),
      seq: F('xmit', 'seq'),
      end: F('xmit', 'end_seq'),
      segs: F('xmit', 'segs'),
      len: F('xmit', 'len'),
      truesize: F('xmit', 'truesize'),
    },
    ackX: {
      pkt: F('ack_xmit', 'pkt'),
      ack: F('ack_xmit', 'ack'),
      reason: F('ack_xmit', 'reason'),
    },
    enq: { pkt: F('qdisc_enqueue', 'pkt'), backlog: F('qdisc_enqueue', 'backlog') },
    ring: { pkt: F('ring_post', 'pkt'), used: F('ring_post', 'ring_used') },
    wire: {
      pkt: F('wire_tx', 'pkt'),
      bytes: F('wire_tx', 'wire_bytes'),
      segs: F('wire_tx', 'segs'),
      end: F('wire_tx', 'end_ns'),
    },
    compDescs: F('tx_completion', 'descs'),
    wfree: { pkt: F('tcp_wfree', 'pkt'), wmem: F('tcp_wfree', 'wmem_alloc') },
    ack: {
      ack: F('ack_rcvd', 'ack'),
      acked: F('ack_rcvd', 'acked'),
      cwnd: F('ack_rcvd', 'cwnd'),
      ssthresh: F('ack_rcvd', 'ssthresh'),
      srtt: F('ack_rcvd', 'srtt_us'),
      pacing: F('ack_rcvd', 'pacing_rate'),
      out: F('ack_rcvd', 'packets_out'),
    },
    waitGate: F('sendmsg_wait', 'gate'),
    stopGate: F('queue_stop', 'gate'),
    wakeGate: F('queue_wake', 'gate'),
    delackTimeout: F('delack_sched', 'timeout_ns'),
    rcvEnd: F('rcv_data', 'end_seq'),
    throttleUntil: F('qdisc_throttle', 'until_ns'),
    est: { mss: F('established', 'mss'), pacing: F('established', 'pacing_rate') },
    deqPkt: F('qdisc_dequeue', 'pkt'),
    qdropPkt: F('qdisc_drop', 'pkt'),
    rxPkt: F('wire_rx', 'pkt'),
    dropPkt: F('drop', 'pkt'),
    bypassPkt: K.qdisc_bypass >= 0 ? F('qdisc_bypass', 'pkt') : -1,
    requeuePkt: K.requeue >= 0 ? F('requeue', 'pkt') : -1,
  };
}

type RowFields = ReturnType<typeof rowFields>;

/** The kinds the row pass handles, as small constants: a jump table, not a chain of compares. */
const OPS = [
  'sendmsg',
  'sendmsg_wait',
  'write_space',
  'sendmsg_done',
  'cpu_wait',
  'sendmsg_copy',
  'autocork',
  'xmit_hold',
  'fragment',
  'xmit',
  'ack_xmit',
  'qdisc_enqueue',
  'qdisc_dequeue',
  'qdisc_bypass',
  'requeue',
  'qdisc_drop',
  'drop',
  'qdisc_throttle',
  'ring_post',
  'tx_completion',
  'queue_stop',
  'queue_wake',
  'wire_tx',
  'wire_rx',
  'tcp_wfree',
  'ack_rcvd',
  'delack_sched',
  'rcv_data',
  'established',
] as const;

/**
 * The first pass over the trace rows: the packets, the skbs and the per-socket series, one
 * small method per event kind. As one function of several hundred lines, the derivation took
 * TurboFan hundreds of ms to compile in the worker, ran slowly meanwhile, and each
 * deoptimization threw all of it away: the reader's first changes waited on it. Small methods
 * are optimized one by one, soon, and a deoptimization costs one of them.
 */
class RowPass {
  readonly P = {
    id: new Column(),
    host: new Column(),
    sk: new Column(),
    type: new Column(),
    skb: new Column(),
    seq: new Column(),
    endSeq: new Column(),
    ack: new Column(),
    segs: new Column(),
    len: new Column(),
    truesize: new Column(),
    tXmit: new Column(),
    tEnq: new Column(),
    tDeq: new Column(),
    tRing: new Column(),
    tWire: new Column(),
    tWireEnd: new Column(),
    tRx: new Column(),
    tDone: new Column(),
    dropped: new Column(),
  };
  readonly pktById = new Map<number, number>();
  readonly S = {
    id: new Column(),
    sk: new Column(),
    seqStart: new Column(),
    seqEnd: new Column(),
    sizeGoal: new Column(),
    tWrite: new Column(),
    tCreate: new Column(),
    tSent: new Column(),
    parent: new Column(),
  };
  readonly skbById = new Map<number, number>();
  /** Events of the skbs, in row order. */
  readonly skbEv = { skb: new Column(), row: new Column(), state: new Column(), len: new Column() };

  readonly acks: Grouped;
  readonly xmits: Grouped;
  readonly copies: Grouped;
  readonly wmem: Grouped;
  readonly notsent: Grouped;
  readonly pacing: Grouped;
  readonly app: Grouped;
  readonly delack: Grouped;
  readonly rcv: Grouped;
  readonly sends: Uint8Array;
  readonly mss: Float64Array;
  readonly wmemNow: Float64Array;
  // write_seq, snd_nxt and snd_una: the snapshot at the window's start, then moved by the copies
  // (write_seq is the end of the last copy), the transmissions (snd_nxt the highest end sent: a
  // retransmission ends below it) and the ACKs.
  readonly writeSeq: Float64Array;
  readonly sndNxt: Float64Array;
  readonly sndUna: Float64Array;
  readonly lastCall: Float64Array;
  readonly pendingDelack: Int32Array;
  readonly delackRows: DelackRow[] = [];

  readonly ringFifo: RingEntry[][];
  readonly ringHead: Int32Array;
  readonly ringUsed: Float64Array;
  readonly qBacklog: Float64Array;
  readonly qLen = new Map<number, number>();
  readonly stops: QueueStop[] = [];
  readonly openStop: (number | null)[];
  readonly openStopGate: Float64Array;
  readonly throttles: SkInterval[] = [];
  readonly cpuWaits: SkInterval[] = [];

  readonly rowReason: Int16Array;
  readonly rowFlow: Int32Array;
  private readonly flowOf: Int32Array;
  /** Per kind code: its index in OPS, 255 for the kinds this pass skips. */
  private readonly op: Uint8Array;
  private readonly V: Float64Array;
  private readonly noSock: number;
  private readonly nSock: number;
  private readonly nHost: number;

  constructor(
    private readonly cols: TraceColumns,
    private readonly summary: SessionSummary,
    schema: TraceSchema,
    private readonly f: RowFields,
    private readonly recording: boolean,
  ) {
    const nSock = summary.result.sockets.length;
    const nHost = summary.result.host_names.length;
    this.V = cols.values;
    this.noSock = schema.noSock;
    this.nSock = nSock;
    this.nHost = nHost;
    this.acks = new Grouped(nSock, 7);
    this.xmits = new Grouped(nSock, 4);
    this.copies = new Grouped(nSock, 2);
    this.wmem = new Grouped(nSock, 1);
    this.notsent = new Grouped(nSock, 2);
    this.pacing = new Grouped(nSock, 1);
    this.app = new Grouped(nSock, 1);
    this.delack = new Grouped(nSock, 2);
    this.rcv = new Grouped(nSock, 1);
    this.sends = new Uint8Array(nSock);
    this.mss = new Float64Array(nSock);
    this.wmemNow = new Float64Array(nSock);
    this.writeSeq = new Float64Array(nSock);
    this.sndNxt = new Float64Array(nSock);
    this.sndUna = new Float64Array(nSock);
    this.lastCall = nan(nSock);
    this.pendingDelack = new Int32Array(nSock).fill(-1);
    this.ringFifo = Array.from({ length: nHost }, () => []);
    this.ringHead = new Int32Array(nHost);
    this.ringUsed = new Float64Array(nHost);
    this.qBacklog = new Float64Array(nHost).fill(NaN);
    this.openStop = new Array<number | null>(nHost).fill(null);
    this.openStopGate = new Float64Array(nHost);
    const rows = cols.t.length;
    this.rowReason = new Int16Array(rows).fill(-1);
    this.rowFlow = new Int32Array(rows).fill(-1);
    this.flowOf = Int32Array.from(summary.result.sockets, (s) => s.flow);
    const K = kindCodes(schema);
    this.op = new Uint8Array(schema.kinds.length).fill(255);
    OPS.forEach((name, i) => {
      const code = K[name];
      if (code >= 0) this.op[code] = i;
    });
    this.packetsAtStart();
    this.socketsAtStart();
    this.queuesAtStart();
  }

  /** The packets the engine listed at the window's start (on a wire, or in a qdisc or TX ring). */
  private packetsAtStart(): void {
    const { summary, P } = this;
    // Packets already on a wire when the window opened: their earlier events are not in the
    // trace, the engine listed them (the instant their last bit left, and where they go).
    for (const f of summary.inFlightAtStart) {
      const i = this.listed(f, f.src_host);
      P.tWire.a[i] = f.left_ns;
      P.tWireEnd.a[i] = f.left_ns;
    }
    // Packets in a qdisc or a TX ring when the window opened (the engine listed them): they
    // entered before it, so the queues they are in hold them from its first instant.
    for (const q of summary.queuedAtStart) {
      const i = this.pktById.get(q.pkt) ?? this.listed(q, q.host);
      if (q.in_ring) P.tRing.a[i] = summary.fromNs;
      else P.tEnq.a[i] = summary.fromNs;
    }
  }

  /** Each socket's memory and sequence numbers at the window's start. */
  private socketsAtStart(): void {
    const from = this.summary.fromNs;
    for (let s = 0; s < this.nSock; s++) {
      const snap = this.summary.socketsAtStart[s];
      this.wmemNow[s] = snap ? snap.sk_wmem_alloc : 0;
      if (snap?.established) this.mss[s] = snap.mss_cache;
      if (snap) {
        this.writeSeq[s] = snap.write_seq;
        this.sndNxt[s] = snap.snd_nxt;
        this.sndUna[s] = snap.snd_una;
      }
      this.pushNotsent(s, from);
      // sk_wmem_alloc from the window's first instant, not from the first event that moves it.
      if (snap) this.wmem.push(s, from, this.wmemNow[s]!);
    }
  }

  /**
   * The qdisc and TX ring at the window's start (the ring oldest first, one descriptor per
   * packet as the engine's): the window's first completions free these first.
   */
  private queuesAtStart(): void {
    for (const q of this.summary.queuedAtStart) {
      if (q.host >= this.nHost) continue;
      if (!q.in_ring) {
        this.qLen.set(this.pktById.get(q.pkt)!, q.len);
        continue;
      }
      this.ringFifo[q.host]!.push(new RingEntry(this.pktById.get(q.pkt) ?? -1, 1));
      this.ringUsed[q.host]!++;
    }
  }

  /** Every row, then the intervals still open at the window's end. */
  run(): void {
    const { cols, f } = this;
    const stride = cols.stride;
    const rows = cols.t.length;
    for (let r = 0; r < rows; r++) {
      const t = cols.t[r]!;
      const h = cols.host[r]!;
      const rawSk = cols.sk[r]!;
      const sk = rawSk === this.noSock ? -1 : rawSk;
      const base = r * stride;
      if (sk >= 0) this.rowFlow[r] = this.flowOf[sk] ?? -1;
      switch (this.op[cols.kind[r]!]) {
        case 0 /* sendmsg */:
          this.sendmsg(t, sk);
          break;
        case 1 /* sendmsg_wait */:
          this.sendmsgWait(r, t, sk, base);
          break;
        case 2 /* write_space */:
          if (sk >= 0) this.app.push(sk, t, APP_WRITING);
          break;
        case 3 /* sendmsg_done */:
          if (sk >= 0) this.app.push(sk, t, APP_IDLE);
          break;
        case 4 /* cpu_wait */:
          if (sk >= 0) this.cpuWaits.push(new SkInterval(sk, t, t + this.V[base]!));
          break;
        case 5 /* sendmsg_copy */:
          this.copy(r, t, sk, base);
          break;
        case 6 /* autocork */:
          this.autocork(r, t, sk, base);
          break;
        case 7 /* xmit_hold */:
          this.hold(r, t, sk, base);
          break;
        case 8 /* fragment */:
          this.fragment(r, t, base);
          break;
        case 9 /* xmit */:
          this.xmit(r, t, sk, base);
          break;
        case 10 /* ack_xmit */:
          this.ackXmit(r, t, sk, base);
          break;
        case 11 /* qdisc_enqueue */:
          this.enqueue(r, t, h, base);
          break;
        case 12 /* qdisc_dequeue */:
          this.dequeue(r, t, h, base);
          break;
        case 13 /* qdisc_bypass */:
          this.bypass(r, t, base);
          break;
        case 14 /* requeue */:
          this.requeue(r, h, base);
          break;
        case 15 /* qdisc_drop */:
          this.drop(r, t, h, this.V[base + f.qdropPkt]!, true);
          break;
        case 16 /* drop */:
          this.drop(r, t, h, this.V[base + f.dropPkt]!, false);
          break;
        case 17 /* qdisc_throttle */:
          if (sk >= 0) this.throttles.push(new SkInterval(sk, t, this.V[base + f.throttleUntil]!));
          break;
        case 18 /* ring_post */:
          this.ringPost(r, t, h, base);
          break;
        case 19 /* tx_completion */:
          this.txCompletion(t, h, base);
          break;
        case 20 /* queue_stop */:
          this.queueStop(r, t, h, base);
          break;
        case 21 /* queue_wake */:
          this.queueWake(r, t, h, base);
          break;
        case 22 /* wire_tx */:
          this.wireTx(r, t, base);
          break;
        case 23 /* wire_rx */: {
          // The packet first: a new one may grow (reallocate) the column.
          const p = this.pkt(this.V[base + f.rxPkt]!, r);
          this.P.tRx.a[p] = t;
          break;
        }
        case 24 /* tcp_wfree */:
          this.wfree(r, t, sk, base);
          break;
        case 25 /* ack_rcvd */:
          if (sk >= 0) this.ackRcvd(t, sk, base);
          break;
        case 26 /* delack_sched */:
          if (sk >= 0) this.delackSched(t, sk, base);
          break;
        case 27 /* rcv_data */:
          if (sk >= 0) this.rcv.push(sk, t, this.V[base + f.rcvEnd]!);
          break;
        case 28 /* established */:
          if (sk >= 0) {
            this.mss[sk] = this.V[base + f.est.mss]!;
            this.pacing.push(sk, t, this.V[base + f.est.pacing]!);
          }
          break;
        default:
          break;
      }
    }
    const to = this.summary.toNs;
    for (let h = 0; h < this.nHost; h++) {
      const open = this.openStop[h] ?? null;
      if (open !== null) this.stops.push(new QueueStop(h, open, to, this.openStopGate[h]!));
    }
    for (const d of this.delackRows) this.delack.push(d.sk, d.t, d.end, d.due);
  }

  /** The per-socket series, CSR by socket (after `run`). */
  sockets(): Sockets {
    return {
      n: this.nSock,
      acks: this.acks.done(),
      xmits: this.xmits.done(),
      copies: this.copies.done(),
      wmem: this.wmem.done(),
      notsent: this.notsent.done(),
      pacing: this.pacing.done(),
      app: this.app.done(),
      delack: this.delack.done(),
      rcv: this.rcv.done(),
      sends: this.sends,
      mss: this.mss,
    };
  }

  private newPkt(id: number, row: number, type: number): number {
    const { P, cols } = this;
    const i = P.id.n;
    this.pktById.set(id, i);
    P.id.push(id);
    P.host.push(cols.host[row] ?? 0);
    const sk = cols.sk[row] ?? this.noSock;
    P.sk.push(sk === this.noSock ? -1 : sk);
    P.type.push(type);
    P.skb.push(NaN);
    P.seq.push(NaN);
    P.endSeq.push(NaN);
    P.ack.push(NaN);
    P.segs.push(1);
    P.len.push(NaN);
    P.truesize.push(0);
    P.tXmit.push(NaN);
    P.tEnq.push(NaN);
    P.tDeq.push(NaN);
    P.tRing.push(NaN);
    P.tWire.push(NaN);
    P.tWireEnd.push(NaN);
    P.tRx.push(NaN);
    P.tDone.push(NaN);
    P.dropped.push(0);
    return i;
  }

  private pkt(id: number, row: number): number {
    return this.pktById.get(id) ?? this.newPkt(id, row, PKT_CTL);
  }

  /** A packet the engine listed at the window's start: its header into the columns. */
  private listed(p: Queued | InFlight, host: number): number {
    const P = this.P;
    const i = this.newPkt(p.pkt, 0, p.pure_ack ? PKT_ACK : p.end_seq > p.seq ? PKT_DATA : PKT_CTL);
    P.host.a[i] = host;
    P.sk.a[i] = p.sk ?? -1;
    P.seq.a[i] = p.seq;
    P.endSeq.a[i] = p.end_seq;
    P.ack.a[i] = p.ack_seq;
    P.len.a[i] = p.len;
    P.segs.a[i] = p.gso_segs;
    P.skb.a[i] = p.orig_skb > 0 ? p.orig_skb : NaN;
    return i;
  }

  private newSkb(id: number, sk: number, t: number, tWrite: number, parent: number): number {
    const S = this.S;
    const i = S.id.n;
    this.skbById.set(id, i);
    S.id.push(id);
    S.sk.push(sk);
    S.seqStart.push(NaN);
    S.seqEnd.push(NaN);
    S.sizeGoal.push(NaN);
    S.tWrite.push(tWrite);
    S.tCreate.push(t);
    S.tSent.push(NaN);
    S.parent.push(parent);
    return i;
  }

  private skbEvent(i: number, row: number, state: number, len: number): void {
    this.skbEv.skb.push(i);
    this.skbEv.row.push(row);
    this.skbEv.state.push(state);
    this.skbEv.len.push(len);
  }

  private pushNotsent(sk: number, t: number): void {
    this.notsent.push(
      sk,
      t,
      Math.max(0, this.writeSeq[sk]! - this.sndNxt[sk]!),
      Math.max(0, this.sndNxt[sk]! - this.sndUna[sk]!),
    );
  }

  private sendmsg(t: number, sk: number): void {
    if (sk < 0) return;
    this.lastCall[sk] = t;
    this.sends[sk] = 1;
    // A recording has no sendmsg_done: whether the writer is in send() is not recorded.
    if (!this.recording) this.app.push(sk, t, APP_WRITING);
  }

  private sendmsgWait(r: number, t: number, sk: number, base: number): void {
    const gate = this.V[base + this.f.waitGate]!;
    this.rowReason[r] = gate;
    if (sk >= 0) this.app.push(sk, t, APP_SLEEPING + gate);
  }

  private copy(r: number, t: number, sk: number, base: number): void {
    const { V, S, lastCall } = this;
    const f = this.f.copy;
    if (this.recording && sk >= 0) {
      // A recorded iteration of tcp_sendmsg_locked: its socket sends (no sendmsg row).
      this.sends[sk] = 1;
      lastCall[sk] = t;
    }
    const id = V[base + f.skb]!;
    let i = this.skbById.get(id);
    if (i === undefined) {
      i = this.newSkb(id, sk, t, Number.isNaN(lastCall[sk] ?? NaN) ? t : lastCall[sk]!, -1);
      S.seqStart.a[i] = V[base + f.seq]!;
    }
    S.seqEnd.a[i] = V[base + f.end]!;
    S.sizeGoal.a[i] = V[base + f.goal]!;
    const len = V[base + f.len]!;
    this.skbEvent(i, r, len >= V[base + f.goal]! ? SKB_FULL : SKB_FILLING, len);
    if (sk >= 0) {
      this.copies.push(sk, t, V[base + f.seq]!, V[base + f.end]!);
      if (V[base + f.end]! > this.writeSeq[sk]!) {
        this.writeSeq[sk] = V[base + f.end]!;
        this.pushNotsent(sk, t);
      }
    }
  }

  private autocork(r: number, t: number, sk: number, base: number): void {
    const f = this.f.cork;
    const i = this.skbById.get(this.V[base + f.skb]!);
    if (i !== undefined) this.skbEvent(i, r, SKB_AUTOCORKED, this.V[base + f.len]!);
    if (sk >= 0) {
      this.wmemNow[sk] = this.V[base + f.wmem]!;
      this.wmem.push(sk, t, this.wmemNow[sk]!);
    }
  }

  private hold(r: number, t: number, sk: number, base: number): void {
    const { V, S } = this;
    const f = this.f.hold;
    const gate = V[base + f.gate]!;
    this.rowReason[r] = gate;
    const id = V[base + f.skb]!;
    let i = this.skbById.get(id);
    if (i === undefined && sk >= 0) {
      // An skb made before the trace window opened.
      i = this.newSkb(id, sk, t, t, -1);
      S.seqStart.a[i] = V[base + f.seq]!;
      S.seqEnd.a[i] = V[base + f.end]!;
    }
    if (i !== undefined) {
      this.skbEvent(i, r, SKB_HELD + gate, V[base + f.end]! - V[base + f.seq]!);
    }
  }

  private fragment(r: number, t: number, base: number): void {
    const { V, S } = this;
    const f = this.f.frag;
    const i = this.skbById.get(V[base + f.skb]!);
    if (i === undefined) return;
    const len = V[base + f.len]!;
    const rest = V[base + f.rest]!;
    const start = S.seqStart.a[i]!;
    this.skbEvent(i, r, SKB_SPLIT, len);
    const j = this.newSkb(V[base + f.newSkb]!, S.sk.a[i]!, t, S.tWrite.a[i]!, i);
    S.seqStart.a[j] = start + len;
    S.seqEnd.a[j] = start + len + rest;
    S.sizeGoal.a[j] = S.sizeGoal.a[i]!;
    S.seqEnd.a[i] = start + len;
    this.skbEvent(j, r, SKB_FILLING, rest);
  }

  private xmit(r: number, t: number, sk: number, base: number): void {
    const { V, P, S } = this;
    const f = this.f.xmit;
    const p = this.newPkt(V[base + f.pkt]!, r, PKT_DATA);
    const seq = V[base + f.seq]!;
    const end = V[base + f.end]!;
    const skbId = V[base + f.skb]!;
    P.skb.a[p] = skbId;
    P.seq.a[p] = seq;
    P.endSeq.a[p] = end;
    P.segs.a[p] = V[base + f.segs]!;
    P.len.a[p] = V[base + f.len]!;
    P.truesize.a[p] = V[base + f.truesize]!;
    P.tXmit.a[p] = t;
    let i = this.skbById.get(skbId);
    if (i === undefined && sk >= 0) {
      i = this.newSkb(skbId, sk, t, t, -1);
      S.seqStart.a[i] = seq;
      S.seqEnd.a[i] = end;
    }
    if (i !== undefined) {
      this.skbEvent(i, r, SKB_SENT, end - seq);
      if (Number.isNaN(S.tSent.a[i]!)) S.tSent.a[i] = t;
    }
    if (sk >= 0) {
      this.xmits.push(sk, t, seq, end, V[base + f.segs]!, V[base + f.len]!);
      this.wmemNow[sk] = this.wmemNow[sk]! + V[base + f.truesize]!;
      this.wmem.push(sk, t, this.wmemNow[sk]!);
      if (end > this.sndNxt[sk]!) {
        this.sndNxt[sk] = end;
        this.pushNotsent(sk, t);
      }
    }
  }

  private ackXmit(r: number, t: number, sk: number, base: number): void {
    const f = this.f.ackX;
    this.rowReason[r] = 100 + this.V[base + f.reason]!;
    const p = this.newPkt(this.V[base + f.pkt]!, r, PKT_ACK);
    this.P.ack.a[p] = this.V[base + f.ack]!;
    this.P.tXmit.a[p] = t;
    if (sk >= 0 && this.pendingDelack[sk]! >= 0) {
      // Sending an ACK clears the delayed-ACK timer (inet_csk_clear_xmit_timer).
      this.delackRows[this.pendingDelack[sk]!]!.end = t;
      this.pendingDelack[sk] = -1;
    }
  }

  private enqueue(r: number, t: number, h: number, base: number): void {
    const P = this.P;
    const f = this.f.enq;
    const p = this.pkt(this.V[base + f.pkt]!, r);
    if (Number.isNaN(P.tEnq.a[p]!)) P.tEnq.a[p] = t;
    P.tDeq.a[p] = NaN;
    const backlog = this.V[base + f.backlog]!;
    // The packet's qdisc bytes: the backlog's growth at its enqueue.
    const grown = backlog - this.qBacklog[h]!;
    const bytes = Number.isNaN(grown) ? P.len.a[p]! : grown;
    this.qLen.set(p, bytes);
    if (Number.isNaN(P.len.a[p]!)) P.len.a[p] = bytes;
    this.qBacklog[h] = backlog;
  }

  private dequeue(r: number, t: number, h: number, base: number): void {
    const p = this.pkt(this.V[base + this.f.deqPkt]!, r);
    this.P.tDeq.a[p] = t;
    const q = this.qBacklog;
    if (!Number.isNaN(q[h]!)) q[h] = q[h]! - (this.qLen.get(p) ?? 0);
  }

  private bypass(r: number, t: number, base: number): void {
    const p = this.pkt(this.V[base + this.f.bypassPkt]!, r);
    this.P.tEnq.a[p] = t;
    this.P.tDeq.a[p] = t;
  }

  private requeue(r: number, h: number, base: number): void {
    const p = this.pkt(this.V[base + this.f.requeuePkt]!, r);
    this.P.tDeq.a[p] = NaN;
    const q = this.qBacklog;
    if (!Number.isNaN(q[h]!)) q[h] = q[h]! + (this.qLen.get(p) ?? 0);
  }

  /** A packet dropped (by the qdisc, whose backlog it leaves, or elsewhere). */
  private drop(r: number, t: number, h: number, id: number, inQdisc: boolean): void {
    const p = this.pkt(id, r);
    this.P.dropped.a[p] = 1;
    this.P.tDone.a[p] = t;
    const q = this.qBacklog;
    if (inQdisc && !Number.isNaN(q[h]!)) q[h] = q[h]! - (this.qLen.get(p) ?? 0);
  }

  private ringPost(r: number, t: number, h: number, base: number): void {
    const f = this.f.ring;
    const p = this.pkt(this.V[base + f.pkt]!, r);
    if (Number.isNaN(this.P.tRing.a[p]!)) this.P.tRing.a[p] = t;
    const used = this.V[base + f.used]!;
    this.ringFifo[h]!.push(new RingEntry(p, Math.max(1, used - this.ringUsed[h]!)));
    this.ringUsed[h] = used;
  }

  private txCompletion(t: number, h: number, base: number): void {
    const done = this.P.tDone.a;
    // The TX ring completes in order: the oldest `descs` descriptors are the ones freed.
    let descs = this.V[base + this.f.compDescs]!;
    this.ringUsed[h] = Math.max(0, this.ringUsed[h]! - descs);
    const fifo = this.ringFifo[h]!;
    while (descs > 0 && this.ringHead[h]! < fifo.length) {
      const head = fifo[this.ringHead[h]!]!;
      if (head.descs <= descs) {
        descs -= head.descs;
        if (Number.isNaN(done[head.pkt]!)) done[head.pkt] = t;
        this.ringHead[h]!++;
      } else {
        head.descs -= descs;
        descs = 0;
      }
    }
  }

  private queueStop(r: number, t: number, h: number, base: number): void {
    const gate = this.V[base + this.f.stopGate]!;
    this.rowReason[r] = gate;
    if (this.openStop[h] === null) {
      this.openStop[h] = t;
      this.openStopGate[h] = gate;
    }
  }

  private queueWake(r: number, t: number, h: number, base: number): void {
    this.rowReason[r] = this.V[base + this.f.wakeGate]!;
    const open = this.openStop[h] ?? null;
    if (open !== null) {
      this.stops.push(new QueueStop(h, open, t, this.openStopGate[h]!));
      this.openStop[h] = null;
    }
  }

  private wireTx(r: number, t: number, base: number): void {
    const { V, P } = this;
    const f = this.f.wire;
    const p = this.pkt(V[base + f.pkt]!, r);
    if (Number.isNaN(P.tWire.a[p]!)) P.tWire.a[p] = t;
    const end = V[base + f.end]!;
    if (!(P.tWireEnd.a[p]! >= end)) P.tWireEnd.a[p] = end;
    P.segs.a[p] = Math.max(P.segs.a[p]!, V[base + f.segs]!);
  }

  private wfree(r: number, t: number, sk: number, base: number): void {
    const f = this.f.wfree;
    const p = this.pkt(this.V[base + f.pkt]!, r);
    if (Number.isNaN(this.P.tDone.a[p]!)) this.P.tDone.a[p] = t;
    if (sk >= 0) {
      this.wmemNow[sk] = this.V[base + f.wmem]!;
      this.wmem.push(sk, t, this.wmemNow[sk]!);
    }
  }

  private ackRcvd(t: number, sk: number, base: number): void {
    const V = this.V;
    const f = this.f.ack;
    this.acks.push(
      sk,
      t,
      V[base + f.ack]!,
      V[base + f.cwnd]!,
      V[base + f.ssthresh]!,
      V[base + f.srtt]!,
      V[base + f.pacing]!,
      V[base + f.out]!,
      V[base + f.acked]!,
    );
    this.pacing.push(sk, t, V[base + f.pacing]!);
    if (V[base + f.ack]! > this.sndUna[sk]!) {
      this.sndUna[sk] = V[base + f.ack]!;
      this.pushNotsent(sk, t);
    }
  }

  private delackSched(t: number, sk: number, base: number): void {
    const due = this.V[base + this.f.delackTimeout]!;
    const pending = this.pendingDelack[sk]!;
    if (pending >= 0) {
      const prev = this.delackRows[pending]!;
      prev.end = Math.min(prev.end, t);
    }
    this.pendingDelack[sk] = this.delackRows.length;
    this.delackRows.push(new DelackRow(sk, t, due));
  }
}

/** The time of the first ACK of socket `sk` at or past `endSeq`, or NaN. */
function ackedAt(acks: Series, sk: number, endSeq: number): number {
  // ACKs of one socket are cumulative and in time order.
  const [a, b] = groupRange(acks, sk);
  let lo = a;
  let hi = b;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (acks.v[mid * 7]! < endSeq) lo = mid + 1;
    else hi = mid;
  }
  return lo < b ? acks.t[lo]! : NaN;
}

/** The packets of the row pass, each with its acknowledgement, start and end. */
function packetsOf(pass: RowPass, acks: Series, from: number, recording: boolean): Packets {
  const P = pass.P;
  const nPkt = P.id.n;
  const packets: Packets = {
    n: nPkt,
    id: P.id.done(),
    host: Uint16Array.from(P.host.done()),
    sk: Int32Array.from(P.sk.done()),
    type: Uint8Array.from(P.type.done()),
    skb: P.skb.done(),
    seq: P.seq.done(),
    endSeq: P.endSeq.done(),
    ack: P.ack.done(),
    segs: P.segs.done(),
    len: P.len.done(),
    truesize: P.truesize.done(),
    tXmit: P.tXmit.done(),
    tEnq: P.tEnq.done(),
    tDeq: P.tDeq.done(),
    tRing: P.tRing.done(),
    tWire: P.tWire.done(),
    tWireEnd: P.tWireEnd.done(),
    tRx: P.tRx.done(),
    tDone: P.tDone.done(),
    tAcked: nan(nPkt),
    dropped: Uint8Array.from(P.dropped.done()),
    tStart: nan(nPkt),
    tEnd: nan(nPkt),
  };
  for (let p = 0; p < nPkt; p++) {
    if (packets.type[p] === PKT_DATA && packets.sk[p]! >= 0) {
      packets.tAcked[p] = ackedAt(acks, packets.sk[p]!, packets.endSeq[p]!);
    }
    if (recording) recordedPath(packets, p);
    const start = least(packets.tXmit[p]!, packets.tEnq[p]!, packets.tRing[p]!, packets.tWire[p]!);
    let end = greatest(packets.tRx[p]!, packets.tDone[p]!, packets.tWireEnd[p]!);
    const lost = packets.dropped[p] === 1;
    if (!lost && Number.isNaN(packets.tRx[p]!)) end = Infinity; // still on its way at the end
    packets.tStart[p] = start === Infinity ? from : start;
    packets.tEnd[p] = end === -Infinity ? Infinity : end;
  }
  return packets;
}

/** The least of the four that are not NaN (Infinity when all are). */
function least(a: number, b: number, c: number, d: number): number {
  let m = Infinity;
  if (a < m) m = a;
  if (b < m) m = b;
  if (c < m) m = c;
  if (d < m) m = d;
  return m;
}

/** The greatest of the three that are not NaN (-Infinity when all are). */
function greatest(a: number, b: number, c: number): number {
  let m = -Infinity;
  if (a > m) m = a;
  if (b > m) m = b;
  if (c > m) m = c;
  return m;
}

/** The skbs of the row pass, their events CSR by skb, each with the ACK that freed it. */
function skbsOf(pass: RowPass, acks: Series): Skbs {
  const { S, skbEv } = pass;
  const nSkb = S.id.n;
  const evN = skbEv.skb.n;
  const evOff = new Uint32Array(nSkb + 1);
  for (let e = 0; e < evN; e++) evOff[skbEv.skb.a[e]! + 1]!++;
  for (let i = 0; i < nSkb; i++) evOff[i + 1]! += evOff[i]!;
  const fill = evOff.slice(0, nSkb);
  const evRow = new Uint32Array(evN);
  const evState = new Uint8Array(evN);
  const evLen = new Float64Array(evN);
  for (let e = 0; e < evN; e++) {
    const j = fill[skbEv.skb.a[e]!]!++;
    evRow[j] = skbEv.row.a[e]!;
    evState[j] = skbEv.state.a[e]!;
    evLen[j] = skbEv.len.a[e]!;
  }
  const skbs: Skbs = {
    n: nSkb,
    id: S.id.done(),
    sk: Int32Array.from(S.sk.done()),
    seqStart: S.seqStart.done(),
    seqEnd: S.seqEnd.done(),
    sizeGoal: S.sizeGoal.done(),
    tWrite: S.tWrite.done(),
    tCreate: S.tCreate.done(),
    tSent: S.tSent.done(),
    tFreed: nan(nSkb),
    parent: Int32Array.from(S.parent.done()),
    evOff,
    evRow,
    evState,
    evLen,
  };
  for (let i = 0; i < nSkb; i++) {
    if (skbs.sk[i]! >= 0 && !Number.isNaN(skbs.tSent[i]!)) {
      skbs.tFreed[i] = ackedAt(acks, skbs.sk[i]!, skbs.seqEnd[i]!);
    }
  }
  return skbs;
}

/** Derive the run model. `cols` and `samples` are kept (not copied) in the result. */
export function deriveRun(
  cols: TraceColumns,
  summary: SessionSummary,
  samples: Float64Array,
  schema: TraceSchema,
  options: DeriveOptions = {},
): RunModel {
  const recording = options.recording === true;
  const from = summary.fromNs;
  const to = summary.toNs;
  const f = rowFields(schema);
  const pass = new RowPass(cols, summary, schema, f, recording);
  pass.run();
  const socks = pass.sockets();
  const packets = packetsOf(pass, socks.acks, from, recording);
  const skbs = skbsOf(pass, socks.acks);

  const spans = deriveSpans({
    skbs,
    packets,
    cols,
    to,
    stops: pass.stops,
    throttles: pass.throttles,
    cpuWaits: pass.cpuWaits,
    appSeries: socks.app,
    gates: {
      pacing: gateCode(schema, 'pacing'),
      qdisc: gateCode(schema, 'qdisc'),
      wire: gateCode(schema, 'wire'),
      peerAck: gateCode(schema, 'peer_ack'),
      cpu: gateCode(schema, 'cpu'),
    },
    nGates: schema.gates.length,
  });

  const charts = deriveCharts({
    cols,
    K: kindCodes(schema),
    packets,
    socks,
    summary,
    fAcked: f.ack.acked,
    fAck: f.ack.ack,
    fWireBytes: f.wire.bytes,
    fWireEnd: f.wire.end,
    fHoldB: f.hold.b,
    fHoldGate: f.hold.gate,
    gateTsq: gateCode(schema, 'tsq'),
  });

  const skbEnd = new Float64Array(skbs.n);
  for (let i = 0; i < skbs.n; i++) {
    skbEnd[i] = Number.isNaN(skbs.tFreed[i]!) ? Infinity : skbs.tFreed[i]!;
  }
  const pktIndex = buildIntervalIndex(packets.tStart, packets.tEnd, from, to);
  const skbIndex = buildIntervalIndex(skbs.tCreate, skbEnd, from, to);

  return {
    summary,
    cols,
    samples,
    packets,
    skbs,
    socks,
    spans,
    charts,
    rowReason: pass.rowReason,
    rowFlow: pass.rowFlow,
    pktIndex,
    skbIndex,
    timing: { runMs: 0, columnsMs: 0, deriveMs: 0 },
  };
}

/**
 * A recorded packet below its xmit (DeriveOptions.recording): left the qdisc by its xmit if its
 * dequeue was not recorded (a batch names only its first skb), freed at xmit without a recorded
 * TX completion, and on its way until the ACK of its last byte (data of a known socket and
 * bytes) or gone.
 */
function recordedPath(P: Packets, p: number): void {
  const x = P.tRing[p]!;
  if (Number.isNaN(x)) {
    // Its exit was not recorded: it had left by the ACK of its last byte, at the latest.
    const acked = P.tAcked[p]!;
    if (Number.isFinite(acked)) {
      if (!Number.isNaN(P.tEnq[p]!) && Number.isNaN(P.tDeq[p]!)) P.tDeq[p] = acked;
      if (Number.isNaN(P.tDone[p]!)) P.tDone[p] = acked;
      P.tRx[p] = acked;
    }
    return;
  }
  if (!Number.isNaN(P.tEnq[p]!) && Number.isNaN(P.tDeq[p]!)) P.tDeq[p] = x;
  if (Number.isNaN(P.tDone[p]!)) P.tDone[p] = x;
  P.tWire[p] = x;
  P.tWireEnd[p] = x;
  const known = P.type[p] === PKT_DATA && P.sk[p]! >= 0 && Number.isFinite(P.endSeq[p]!);
  // Not yet acknowledged at the window's end: still on its way (NaN), like a simulated packet.
  P.tRx[p] = known ? (P.tAcked[p]! >= x ? P.tAcked[p]! : NaN) : x;
}

interface SpanInput {
  skbs: Skbs;
  packets: Packets;
  cols: TraceColumns;
  to: number;
  stops: { host: number; t0: number; t1: number; gate: number }[];
  throttles: { sk: number; t0: number; t1: number }[];
  cpuWaits: { sk: number; t0: number; t1: number }[];
  appSeries: Series;
  gates: { pacing: number; qdisc: number; wire: number; peerAck: number; cpu: number };
  nGates: number;
}

/** The gate an skb waits at after an event that left it in `state`. */
function gateOfState(state: number): number {
  if (state >= SKB_HELD) return state - SKB_HELD;
  if (state === SKB_AUTOCORKED) return -2; // resolved by the caller to the autocork gate
  return SPAN_FILLING;
}

function deriveSpans(inp: SpanInput): Spans {
  const { skbs, packets, cols, to, gates } = inp;
  const gOut = new Column();
  const t0Out = new Column();
  const t1Out = new Column();
  const pktOut = new Column();
  const off = new Uint32Array(skbs.n + 1);
  const totals = new Float64Array(64);
  const autocorkGate = 0; // Gate::Autocork = 0 in sendpath_core::trace
  const emit = (gate: number, a: number, b: number, pkt: number) => {
    if (!(b > a)) return;
    const n = gOut.n;
    if (n > 0 && gOut.a[n - 1] === gate && pktOut.a[n - 1] === pkt && t1Out.a[n - 1] === a) {
      t1Out.a[n - 1] = b;
    } else {
      gOut.push(gate);
      t0Out.push(a);
      t1Out.push(b);
      pktOut.push(pkt);
    }
    totals[gate] = totals[gate]! + (b - a);
  };

  // Packets of each skb, by skb id.
  const pktsOfSkb = new Map<number, number[]>();
  for (let p = 0; p < packets.n; p++) {
    if (packets.type[p] !== PKT_DATA) continue;
    const id = packets.skb[p]!;
    const list = pktsOfSkb.get(id);
    if (list) list.push(p);
    else pktsOfSkb.set(id, [p]);
  }
  const stopsByHost = new Map<number, { t0: number; t1: number; gate: number }[]>();
  for (const s of inp.stops) {
    const l = stopsByHost.get(s.host) ?? [];
    l.push(s);
    stopsByHost.set(s.host, l);
  }
  const cpuWaitsBySk = new Map<number, number[]>();
  for (const w of inp.cpuWaits) {
    const l = cpuWaitsBySk.get(w.sk) ?? [];
    l.push(w.t0);
    cpuWaitsBySk.set(w.sk, l);
  }
  const throttlesBySk = new Map<number, { t0: number; t1: number }[]>();
  for (const s of inp.throttles) {
    const l = throttlesBySk.get(s.sk) ?? [];
    l.push(s);
    throttlesBySk.set(s.sk, l);
  }

  /** Split [a, b) in the qdisc: queue stopped (BQL / ring full), fq pacing, else qdisc. */
  const qdiscSpans = (a: number, b: number, host: number, sk: number, p: number) => {
    const cuts: { t0: number; t1: number; gate: number }[] = [];
    for (const s of stopsByHost.get(host) ?? []) {
      if (s.t1 > a && s.t0 < b)
        cuts.push({ t0: Math.max(a, s.t0), t1: Math.min(b, s.t1), gate: s.gate });
    }
    for (const s of throttlesBySk.get(sk) ?? []) {
      if (s.t1 > a && s.t0 < b) {
        cuts.push({ t0: Math.max(a, s.t0), t1: Math.min(b, s.t1), gate: gates.pacing });
      }
    }
    cuts.sort((x, y) => x.t0 - y.t0);
    let at = a;
    for (const c of cuts) {
      if (c.t1 <= at) continue;
      if (c.t0 > at) emit(gates.qdisc, at, c.t0, p);
      emit(c.gate, Math.max(at, c.t0), c.t1, p);
      at = c.t1;
    }
    emit(gates.qdisc, at, b, p);
  };

  for (let i = 0; i < skbs.n; i++) {
    off[i] = gOut.n;
    const sk = skbs.sk[i]!;
    const e0 = skbs.evOff[i]!;
    const e1 = skbs.evOff[i + 1]!;
    // From the write() that brought its first bytes to the skb's creation: asleep, or waiting
    // for a CPU, or copying.
    const tWrite = skbs.tWrite[i]!;
    const tCreate = skbs.tCreate[i]!;
    if (skbs.parent[i]! < 0 && tCreate > tWrite && sk >= 0) {
      let gate = SPAN_FILLING;
      const [a, b] = groupRange(inp.appSeries, sk);
      for (let j = a; j < b; j++) {
        const tt = inp.appSeries.t[j]!;
        if (tt >= tWrite && tt < tCreate && inp.appSeries.v[j]! >= APP_SLEEPING) {
          gate = inp.appSeries.v[j]! - APP_SLEEPING;
        }
      }
      if (
        gate === SPAN_FILLING &&
        inp.cpuWaits.some((w) => w.sk === sk && w.t0 >= tWrite && w.t0 < tCreate)
      ) {
        gate = gates.cpu;
      }
      emit(gate, tWrite, tCreate, -1);
    }
    // In the write queue: the state each event left it in, until the next event.
    const end = Number.isNaN(skbs.tSent[i]!) ? to : skbs.tSent[i]!;
    for (let e = e0; e < e1; e++) {
      const state = skbs.evState[e]!;
      if (state === SKB_SENT) break;
      const a = cols.t[skbs.evRow[e]!]!;
      const b = e + 1 < e1 ? cols.t[skbs.evRow[e + 1]!]! : end;
      let gate = gateOfState(state);
      if (gate === -2) gate = autocorkGate;
      emit(gate, a, Math.min(b, end), -1);
    }
    // Each packet carrying its bytes: qdisc, TX ring, wire, then the peer's ACK.
    for (const p of pktsOfSkb.get(skbs.id[i]!) ?? []) {
      const cap = (x: number) => (Number.isNaN(x) ? to : Math.min(x, to));
      const tEnq = packets.tEnq[p]!;
      const tDeq = cap(packets.tDeq[p]!);
      const tRing = packets.tRing[p]!;
      const tWire = packets.tWire[p]!;
      const tRx = packets.tRx[p]!;
      if (!Number.isNaN(tEnq)) qdiscSpans(tEnq, tDeq, packets.host[p]!, sk, p);
      if (!Number.isNaN(tRing)) emit(SPAN_TX_RING, tRing, cap(tWire), p);
      if (!Number.isNaN(tWire)) emit(gates.wire, tWire, cap(tRx), p);
      if (!Number.isNaN(tRx)) emit(gates.peerAck, tRx, cap(packets.tAcked[p]!), p);
    }
  }
  off[skbs.n] = gOut.n;
  void inp.nGates;
  return {
    off,
    gate: Uint8Array.from(gOut.done()),
    t0: t0Out.done(),
    t1: t1Out.done(),
    pkt: Int32Array.from(pktOut.done()),
    totals,
  };
}

interface ChartInput {
  cols: TraceColumns;
  K: ReturnType<typeof kindCodes>;
  packets: Packets;
  socks: Sockets;
  summary: SessionSummary;
  fAcked: number;
  fAck: number;
  fWireBytes: number;
  fWireEnd: number;
  fHoldB: number;
  fHoldGate: number;
  gateTsq: number;
}

/** Number of bins of the time charts. */
export const CHART_BINS = 400;

/** Add `value` held over [a, b) into per-bin maxima. */
function maxOver(
  out: Float64Array,
  base: number,
  from: number,
  binNs: number,
  bins: number,
  a: number,
  b: number,
  value: number,
) {
  const i0 = Math.max(0, Math.floor((a - from) / binNs));
  const i1 = Math.min(
    bins - 1,
    Math.floor((Math.min(b, from + bins * binNs) - from - 1e-9) / binNs),
  );
  for (let i = i0; i <= i1; i++) {
    if (value > out[base + i]!) out[base + i] = value;
  }
}

/**
 * Add `bytes` sent over [a, b) into per-bin sums, in proportion to the time the interval spends
 * in each bin (all of it into `a`'s bin when the interval is empty).
 */
function spreadOver(
  out: Float64Array,
  base: number,
  from: number,
  binNs: number,
  bins: number,
  a: number,
  b: number,
  bytes: number,
) {
  const end = from + bins * binNs;
  if (!(b > a)) {
    if (a >= from && a < end) out[base + Math.floor((a - from) / binNs)]! += bytes;
    return;
  }
  const perNs = bytes / (b - a);
  const lo = Math.max(a, from);
  const hi = Math.min(b, end);
  for (let i = Math.floor((lo - from) / binNs); i < bins && from + i * binNs < hi; i++) {
    const t0 = Math.max(lo, from + i * binNs);
    const t1 = Math.min(hi, from + (i + 1) * binNs);
    if (t1 > t0) out[base + i]! += (t1 - t0) * perNs;
  }
}

/**
 * Each socket's data packets in order of their end sequence number, to find when the bytes an
 * ACK covers were serialized.
 */
function sentBySeq(packets: Packets, nSock: number) {
  const bySock: number[][] = Array.from({ length: nSock }, () => []);
  for (let p = 0; p < packets.n; p++) {
    const sk = packets.sk[p]!;
    if (packets.type[p] === PKT_DATA && sk >= 0 && sk < nSock && packets.tWire[p]! >= 0)
      bySock[sk]!.push(p);
  }
  for (const list of bySock)
    list.sort(
      (x, y) => packets.endSeq[x]! - packets.endSeq[y]! || packets.seq[x]! - packets.seq[y]!,
    );
  return {
    /** Calls `fn` with the serialization of every packet of `sk` holding bytes of [lo, hi). */
    span(sk: number, lo: number, hi: number, fn: (t0: number, t1: number) => void) {
      const list = bySock[sk]!;
      let a = 0;
      let b = list.length;
      while (a < b) {
        const m = (a + b) >> 1;
        if (packets.endSeq[list[m]!]! <= lo) a = m + 1;
        else b = m;
      }
      for (let j = a; j < list.length; j++) {
        const p = list[j]!;
        if (packets.seq[p]! >= hi) break;
        const t0 = packets.tWire[p]!;
        const t1 = packets.tWireEnd[p]!;
        fn(t0, t1 >= t0 ? t1 : t0);
      }
    },
  };
}

/** The time charts' bins over the run's window. */
interface ChartBins {
  from: number;
  to: number;
  bins: number;
  binNs: number;
}

/*
 * The charts' series, each pass a function of its own: V8 optimizes each by itself, rather than
 * compile one long function's first loop on the fly and throw that code away after it.
 */
function deriveCharts(c: ChartInput): Charts {
  const { packets, socks, summary } = c;
  const from = summary.fromNs;
  const to = summary.toNs;
  const bins = CHART_BINS;
  const binNs = Math.max(1, (to - from) / bins);
  const b: ChartBins = { from, to, bins, binNs };
  const rows = chartRows(c, b);
  const queues = queueOccupancy(packets, summary.result.host_names.length, b);
  const sockets = socketMaxima(socks, b);
  const sizes = sizeHistograms(packets);
  return {
    from,
    binNs,
    bins,
    ackedBytes: rows.ackedBytes,
    ackedHostBytes: rows.ackedHostBytes,
    ackedSentFrom: rows.ackedSentFrom,
    ackedSentTo: rows.ackedSentTo,
    wireBytes: rows.wireBytes,
    linkBps: rows.linkBps,
    serializeMaxNs: rows.serializeMaxNs,
    qdiscBytes: queues.qdiscBytes,
    nicBytes: queues.nicBytes,
    wmemMax: sockets.wmemMax,
    notsentMax: sockets.notsentMax,
    inflightMax: sockets.inflightMax,
    tsqLimit: rows.tsqLimit,
    segsHist: sizes.segsHist,
    lenHist: sizes.lenHist,
  };
}

/** What the charts read from the rows: bytes acknowledged and serialized, TSQ limits. */
function chartRows(c: ChartInput, { from, bins, binNs }: ChartBins) {
  const { cols, K, packets, socks, summary } = c;
  const nSock = socks.n;
  const nHost = summary.result.host_names.length;
  const ackedBytes = new Float64Array(nSock * bins);
  const ackedHostBytes = new Float64Array(nHost * bins);
  const ackedSentFrom = new Float64Array(nHost * bins).fill(NaN);
  const ackedSentTo = new Float64Array(nHost * bins).fill(NaN);
  const wireBytes = new Float64Array(nHost * bins);
  const linkBps = new Float64Array(nHost).fill(NaN);
  const serializeMaxNs = new Float64Array(nHost);
  const linkFromBytes = new Float64Array(nHost);
  const sent = sentBySeq(packets, nSock);
  const tsqLimit = new Float64Array(nSock * bins).fill(NaN);
  const binOf = (t: number) => Math.min(bins - 1, Math.max(0, Math.floor((t - from) / binNs)));
  const stride = cols.stride;
  for (let r = 0; r < cols.t.length; r++) {
    const k = cols.kind[r]!;
    const sk = cols.sk[r]!;
    if (k === K.ack_rcvd && sk < nSock) {
      const acked = cols.values[r * stride + c.fAcked]!;
      const bin = binOf(cols.t[r]!);
      ackedBytes[sk * bins + bin]! += acked;
      const i = cols.host[r]! * bins + bin;
      ackedHostBytes[i]! += acked;
      if (acked > 0) {
        const ack = cols.values[r * stride + c.fAck]!;
        sent.span(sk, ack - acked, ack, (t0, t1) => {
          if (!(ackedSentFrom[i]! <= t0)) ackedSentFrom[i] = t0;
          if (!(ackedSentTo[i]! >= t1)) ackedSentTo[i] = t1;
        });
      }
    } else if (k === K.wire_tx) {
      const h = cols.host[r]!;
      const bytes = cols.values[r * stride + c.fWireBytes]!;
      const t0 = cols.t[r]!;
      const t1 = cols.values[r * stride + c.fWireEnd]!;
      spreadOver(wireBytes, h * bins, from, binNs, bins, t0, t1, bytes);
      if (t1 > t0) {
        serializeMaxNs[h] = Math.max(serializeMaxNs[h]!, t1 - t0);
        // The largest packet gives the rate with the least rounding of its integer duration.
        if (bytes > linkFromBytes[h]!) {
          linkFromBytes[h] = bytes;
          linkBps[h] = (bytes * 8e9) / (t1 - t0);
        }
      }
    } else if (
      k === K.xmit_hold &&
      sk < nSock &&
      cols.values[r * stride + c.fHoldGate] === c.gateTsq
    ) {
      const i = sk * bins + binOf(cols.t[r]!);
      const limit = cols.values[r * stride + c.fHoldB]!;
      if (!(tsqLimit[i]! >= limit)) tsqLimit[i] = limit;
    }
  }
  return {
    ackedBytes,
    ackedHostBytes,
    ackedSentFrom,
    ackedSentTo,
    wireBytes,
    linkBps,
    serializeMaxNs,
    tsqLimit,
  };
}

/** Max bytes in each host's qdisc and NIC TX ring per bin. */
function queueOccupancy(packets: Packets, nHost: number, b: ChartBins) {
  const qdiscBytes = new Float64Array(nHost * b.bins);
  const nicBytes = new Float64Array(nHost * b.bins);
  const qLeave = new Float64Array(packets.n);
  for (let p = 0; p < packets.n; p++) {
    const d = packets.tDeq[p]!;
    qLeave[p] = Number.isNaN(d) && packets.dropped[p] === 1 ? packets.tDone[p]! : d;
  }
  for (let h = 0; h < nHost; h++) {
    occupancy(qdiscBytes, packets, h, packets.tEnq, qLeave, b);
    occupancy(nicBytes, packets, h, packets.tRing, packets.tDone, b);
  }
  return { qdiscBytes, nicBytes };
}

/**
 * The bytes of `host`'s packets between their `enter` and `leave`, max per bin into `out`: a sum
 * that changes at each packet's entry and exit, as a sorted list of steps.
 */
function occupancy(
  out: Float64Array,
  packets: Packets,
  host: number,
  enter: Float64Array,
  leave: Float64Array,
  { from, to, bins, binNs }: ChartBins,
): void {
  const steps: [number, number][] = [];
  for (let p = 0; p < packets.n; p++) {
    if (packets.host[p] !== host || Number.isNaN(enter[p]!)) continue;
    const bytes = packets.len[p]!;
    if (!(bytes > 0)) continue;
    steps.push([enter[p]!, bytes]);
    const l = Number.isNaN(leave[p]!) ? Infinity : leave[p]!;
    if (l !== Infinity) steps.push([l, -bytes]);
  }
  steps.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let level = 0;
  for (let i = 0; i < steps.length; i++) {
    level += steps[i]![1];
    const a = steps[i]![0];
    const b = i + 1 < steps.length ? steps[i + 1]![0] : to;
    maxOver(out, host * bins, from, binNs, bins, a, b, level);
  }
}

/** Each socket's max memory, unsent bytes and bytes in flight per bin. */
function socketMaxima(socks: Sockets, { from, to, bins, binNs }: ChartBins) {
  const nSock = socks.n;
  const wmemMax = new Float64Array(nSock * bins);
  const notsentMax = new Float64Array(nSock * bins);
  const inflightMax = new Float64Array(nSock * bins);
  for (let s = 0; s < nSock; s++) {
    const [a, b] = groupRange(socks.wmem, s);
    for (let j = a; j < b; j++) {
      const t0 = socks.wmem.t[j]!;
      const t1 = j + 1 < b ? socks.wmem.t[j + 1]! : to;
      maxOver(wmemMax, s * bins, from, binNs, bins, t0, t1, socks.wmem.v[j]!);
    }
    const N = socks.notsent;
    const [na, nb] = groupRange(N, s);
    for (let j = na; j < nb; j++) {
      const t0 = N.t[j]!;
      const t1 = j + 1 < nb ? N.t[j + 1]! : to;
      maxOver(notsentMax, s * bins, from, binNs, bins, t0, t1, N.v[j * 2]!);
      maxOver(inflightMax, s * bins, from, binNs, bins, t0, t1, N.v[j * 2 + 1]!);
    }
  }
  return { wmemMax, notsentMax, inflightMax };
}

/** Data packets by segments (1..64) and by size (`LEN_EDGES`). */
function sizeHistograms(packets: Packets) {
  const segsHist = new Float64Array(65);
  const lenHist = new Float64Array(LEN_EDGES.length - 1);
  for (let p = 0; p < packets.n; p++) {
    if (packets.type[p] !== PKT_DATA) continue;
    segsHist[Math.min(64, packets.segs[p]!)]!++;
    const len = packets.len[p]!;
    let bin = lowerBound(LEN_EDGES, len + 1) - 1;
    bin = Math.min(lenHist.length - 1, Math.max(0, bin));
    lenHist[bin]!++;
  }
  return { segsHist, lenHist };
}
