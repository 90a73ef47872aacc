// A recording as a run model: the recorded events become the rows of the same trace columns a
// simulation produces, so the pipeline, the time controls, the decision log, the counters and
// the charts replay it with the code that shows a simulation (model/derive.ts does the rest,
// with DeriveOptions.recording). Runs in the capture worker (serve.ts), never on the page.
//
// One recorded event is one row, under the engine kind closest to the tracepoint that recorded
// it (the model's schema renames those kinds to their tracepoints; `state`, `retrans` and the
// delayed-ACK timer's expiry get kinds of their own). What the tracepoints do not show stays
// empty and is listed per stage in RecordingFacts.stages: no push decision (autocork, Nagle,
// TSQ, cwnd) is ever made up. Three things are inferred, each stated in RecordingFacts.inferred:
//
//   - Bytes: a write's copy per iteration is the drop of msg_left to the next iteration of the
//     same thread (all of msg_left on its last), the skb it fills is the tail skb the tracepoint
//     names (a new one when there is none or it is at size_goal); a packet carries the bytes of
//     its skb's paged data (data_len at net_dev_start_xmit: TCP puts a write's bytes in page
//     fragments, headers in the linear part). Counting them gives every write, skb and packet a
//     byte range, aligned with tcp_probe's snd_una/snd_nxt at the first probe.
//   - Which socket: tracepoints on the device and in tcp_sendmsg_locked name no socket. With one
//     writing thread and one connection in the recording, everything is that connection's;
//     otherwise writes stay per thread, packets belong to no socket, and skbs are not drawn.
//   - Time 0 is the recording's first event.

import type { AppResult } from '../engine/generated/AppResult';
import type { HostResult } from '../engine/generated/HostResult';
import type { SessionSummary } from '../engine/generated/SessionSummary';
import type { SockInfo } from '../engine/generated/SockInfo';
import { fieldIndex, type KindInfo, type TraceSchema } from '../model/catalog';
import {
  buildIntervalIndex,
  deriveRun,
  groupRange,
  type RecordedStage,
  type RecordingFacts,
  type RunModel,
} from '../model/derive';
import { formatBytes, formatNs } from '../model/format';
import type { TraceColumns } from '../model/trace';
import { EVENT_KINDS, type EventKind, type ReplayModel, type StageCoverage } from './model';
import { eventRow } from './query';

/**
 * Most recorded events one replay window holds: as many as a simulation's window aims at
 * (app/store.ts CALIBRATE_EVENTS), so a replay opens as fast and plays as smoothly.
 */
export const REPLAY_EVENT_LIMIT = 25_000;

/** Headers of a TCP/IPv4 packet with timestamps on Ethernet, bytes: until an xmit tells. */
const DEFAULT_HEADER_BYTES = 66;

/** Kinds only recordings have (appended to the engine's schema). */
const RECORDED_ONLY: KindInfo[] = [
  {
    name: 'rec_set_state',
    func: 'sock:inet_sock_set_state',
    fields: ['sport', 'dport', 'oldstate', 'newstate'],
    recorded: 'state',
  },
  {
    name: 'rec_retransmit',
    func: 'tcp:tcp_retransmit_skb',
    fields: ['sport', 'dport', 'state'],
    recorded: 'retrans',
  },
  {
    name: 'rec_delack_fire',
    func: 'timer:timer_expire_entry',
    fields: ['timer'],
    recorded: 'delack_fire',
  },
  {
    name: 'rec_free',
    func: 'skb:consume_skb',
    fields: ['pkt', 'lat_ns'],
    recorded: 'free',
  },
];

/** The engine kind a recorded kind's rows take, and the tracepoint that recorded it. */
const TRACEPOINT: Record<EventKind, string> = {
  sendmsg: 'tcp:tcp_sendmsg_locked',
  queue: 'net:net_dev_queue',
  enqueue: 'qdisc:qdisc_enqueue',
  dequeue: 'qdisc:qdisc_dequeue',
  xmit: 'net:net_dev_start_xmit',
  free: 'skb:consume_skb',
  drop: 'skb:kfree_skb',
  probe: 'tcp:tcp_probe',
  retrans: 'tcp:tcp_retransmit_skb',
  state: 'sock:inet_sock_set_state',
  delack_start: 'timer:timer_start',
  delack_fire: 'timer:timer_expire_entry',
};

/** Engine kinds recorded rows use, with the recorded kind they stand for. */
const ENGINE_KIND_OF: Record<string, EventKind> = {
  sendmsg: 'sendmsg',
  sendmsg_copy: 'sendmsg',
  xmit: 'queue',
  ack_xmit: 'queue',
  qdisc_enqueue: 'enqueue',
  qdisc_dequeue: 'dequeue',
  ring_post: 'xmit',
  tcp_wfree: 'free',
  drop: 'drop',
  ack_rcvd: 'probe',
  delack_sched: 'delack_start',
};

/** The schema of a recording's rows: the engine's, renamed where recorded, plus its own kinds. */
export function recordingSchema(engine: TraceSchema): TraceSchema {
  const kinds = engine.kinds.map((k) => {
    const rec = ENGINE_KIND_OF[k.name];
    return rec ? { ...k, func: TRACEPOINT[rec], recorded: rec } : { ...k };
  });
  return { ...engine, kinds: [...kinds, ...RECORDED_ONLY] };
}

export interface ReplayWindow {
  /** Replay axis, ns (time 0 = the recording's first event). */
  fromNs: number;
  toNs: number;
}

/** Where each row came from, to describe it (kept by the worker beside the model). */
export interface ReplayRows {
  kind: Uint8Array;
  tableRow: Uint32Array;
  anchorNs: number;
}

export interface Replay {
  model: RunModel;
  rows: ReplayRows;
}

/** The sockets of a recording, and which events belong to which. */
interface Sockets {
  info: SockInfo[];
  /** One writing thread and one connection: everything is that connection's. */
  attributed: boolean;
  /** Socket of each writing thread. */
  byTid: Map<number, number>;
  /** Socket of each connection, by "sport>dport". */
  byFlow: Map<number, number>;
  /** The socket delayed-ACK timers go to, and the connections' peer. */
  peer: number;
  loopback: boolean;
  hostNames: string[];
  /** Connections (pairs of ends) seen. */
  connections: number;
}

/** A socket end by its ports (a number: no string per event). */
function flowKey(sport: number, dport: number): number {
  return sport * 65536 + dport;
}

function endName(key: number): string {
  return `port ${Math.floor(key / 65536)} > ${key % 65536}`;
}

function findSockets(m: ReplayModel): Sockets {
  const { tables } = m.events;
  const tids: number[] = [];
  {
    const col = tables.sendmsg.columns['tid']!;
    const seen = new Set<number>();
    for (let i = 0, last = NaN; i < tables.sendmsg.count; i++) {
      const tid = col[i]!;
      if (tid === last) continue;
      last = tid;
      if (!seen.has(tid)) {
        seen.add(tid);
        tids.push(tid);
      }
    }
  }
  // Socket ends ("sport>dport") in order of appearance, and how far each one's snd_nxt moved.
  const ends: number[] = [];
  const sent = new Map<number, { first: number; last: number }>();
  for (const kind of ['state', 'probe', 'retrans'] as const) {
    const t = tables[kind];
    const sports = t.columns['sport']!;
    const dports = t.columns['dport']!;
    const newstate = kind === 'state' ? t.columns['newstate']! : null;
    const sndNxt = kind === 'probe' ? t.columns['snd_nxt']! : null;
    // The end of the previous event, and its entry (runs of events of one end are common).
    let lastKey = NaN;
    let s: { first: number; last: number } | undefined;
    for (let i = 0; i < t.count; i++) {
      const sport = sports[i]!;
      const dport = dports[i]!;
      if (!(sport > 0) || !(dport > 0)) continue;
      if (newstate && newstate[i] === 10) continue; // TCP_LISTEN
      const key = flowKey(sport, dport);
      if (key !== lastKey) {
        lastKey = key;
        s = sent.get(key);
        if (!s) {
          ends.push(key);
          s = { first: NaN, last: NaN };
          sent.set(key, s);
        }
      }
      if (sndNxt) {
        const nxt = sndNxt[i]!;
        if (Number.isNaN(s!.first)) s!.first = nxt;
        s!.last = nxt;
      }
    }
  }
  const connection = (end: number) => {
    const a = Math.floor(end / 65536);
    const b = end % 65536;
    return Math.min(a, b) * 65536 + Math.max(a, b);
  };
  const connections = [...new Set(ends.map(connection))];
  const dev = m.config.filters?.dev ?? m.config.devices[0]?.dev ?? null;
  const loopback = dev === 'lo';
  const hostNames = loopback ? ['localhost'] : ['sender', 'receiver'];
  const remote = loopback ? 0 : 1;
  const attributed = tids.length <= 1 && connections.length === 1;
  const info: SockInfo[] = [];
  const byTid = new Map<number, number>();
  const byFlow = new Map<number, number>();
  if (attributed) {
    // The end that sent the most bytes (snd_nxt moved furthest) is the writer's.
    const moved = (e: number) => {
      const s = sent.get(e)!;
      return Number.isNaN(s.first) ? -1 : (s.last - s.first) >>> 0;
    };
    const mine = [...ends].sort((x, y) => moved(y) - moved(x))[0]!;
    info.push({
      host: 0,
      peer: 1,
      flow: 0,
      app: tids[0] !== undefined ? `tid ${tids[0]}` : endName(mine),
      // A recording does not say which end connected: the recorded end is taken as the
      // connecting one (what the trace's function names follow), the peer as the passive one.
      active: true,
    });
    info.push({ host: remote, peer: 0, flow: 0, app: 'peer', active: false });
    if (tids[0] !== undefined) byTid.set(tids[0], 0);
    for (const e of ends) byFlow.set(e, e === mine ? 0 : 1);
    return { info, attributed, byTid, byFlow, peer: 1, loopback, hostNames, connections: 1 };
  }
  const peer = tids.length + ends.length;
  tids.forEach((tid, i) => {
    byTid.set(tid, info.length);
    info.push({ host: 0, peer, flow: i, app: `tid ${tid}`, active: true });
  });
  ends.forEach((f) => {
    byFlow.set(f, info.length);
    info.push({
      host: 0,
      peer,
      flow: tids.length + connections.indexOf(connection(f)),
      app: endName(f),
      active: true,
    });
  });
  info.push({ host: remote, peer: 0, flow: -1, app: 'not attributed', active: false });
  return {
    info,
    attributed,
    byTid,
    byFlow,
    peer,
    loopback,
    hostNames,
    connections: connections.length,
  };
}

/** Per packet (one per net_dev_queue, or per xmit without one): its events and its bytes. */
interface PacketFacts {
  /** Packet index of each row of queue/enqueue/dequeue/xmit/free/drop (-1 none). */
  of: Record<'queue' | 'enqueue' | 'dequeue' | 'xmit' | 'free' | 'drop', Int32Array>;
  n: number;
  len: Float64Array;
  /** Payload bytes (NaN unknown), segments. */
  payload: Float64Array;
  segs: Float64Array;
  /** Relative byte range [seq, endSeq) of a data packet (NaN unknown). */
  seq: Float64Array;
  /** Time the packet entered dev_queue_xmit (or its xmit), recording axis. */
  t: Float64Array;
}

function pairPackets(m: ReplayModel): PacketFacts {
  const { tables, timelineKind, timelineRow } = m.events;
  const of = {
    queue: new Int32Array(tables.queue.count).fill(-1),
    enqueue: new Int32Array(tables.enqueue.count).fill(-1),
    dequeue: new Int32Array(tables.dequeue.count).fill(-1),
    xmit: new Int32Array(tables.xmit.count).fill(-1),
    free: new Int32Array(tables.free.count).fill(-1),
    drop: new Int32Array(tables.drop.count).fill(-1),
  };
  // Each event makes at most one packet: the columns of the packets are allocated once.
  const bound = Object.values(of).reduce((a, c) => a + c.length, 0);
  const len = new Float64Array(bound);
  const dataLen = new Float64Array(bound);
  const segs = new Float64Array(bound);
  const times = new Float64Array(bound);
  const xmitData = new Float64Array(bound);
  const retrans = new Uint8Array(bound);
  const reached = new Uint8Array(bound);
  let n = 0;
  let lastHeader = DEFAULT_HEADER_BYTES;
  // The packet an skb address names now: addresses are reused once an skb is freed, so each
  // net_dev_queue starts a new packet under its address.
  const byAddr = new AddressMap(m.events.addressCount);
  // Packets queued and not yet at the driver, oldest first: a qdisc that segments a GSO skb
  // (tbf does, for skbs over its burst) hands the driver segments under new addresses, which
  // belong to the oldest packet still waiting.
  const waiting = new Int32Array(tables.queue.count);
  let waitingEnd = 0;
  let waitingHead = 0;
  let pendingRetrans = 0;
  // Per kind (the index in EVENT_KINDS) of the timeline: its packet column, its addresses and
  // times; null for kinds without packets (one lookup per event, not a name's).
  const K = (k: EventKind) => EVENT_KINDS.indexOf(k);
  const kQueue = K('queue');
  const kXmit = K('xmit');
  const kDequeue = K('dequeue');
  const kRetrans = K('retrans');
  const kFree = K('free');
  const kDrop = K('drop');
  const ofK: (Int32Array | null)[] = EVENT_KINDS.map((k) =>
    k in of ? of[k as keyof typeof of] : null,
  );
  const addrK = EVENT_KINDS.map((k) => (k in of ? tables[k].columns['skbaddr']! : null));
  const tK = EVENT_KINDS.map((k) => tables[k].t_ns);
  const queueLen = tables.queue.columns['len']!;
  const xc = tables.xmit.columns;
  const xLen = xc['len']!;
  const xData = xc['data_len']!;
  const xSegs = xc['gso_segs']!;
  const newPacket = (addr: number, t: number, l: number): number => {
    const p = n++;
    len[p] = l;
    dataLen[p] = NaN;
    times[p] = t;
    if (pendingRetrans > 0) {
      retrans[p] = 1;
      pendingRetrans--;
    }
    if (addr > 0) byAddr.set(addr, p);
    return p;
  };
  for (let i = 0; i < timelineKind.length; i++) {
    const k = timelineKind[i]!;
    if (k === kRetrans) {
      pendingRetrans++;
      continue;
    }
    const col = ofK[k];
    if (!col) continue;
    const row = timelineRow[i]!;
    const addr = addrK[k]![row]!;
    const t = tK[k]![row]!;
    if (k === kQueue) {
      const p = newPacket(addr, t, queueLen[row]!);
      col[row] = p;
      waiting[waitingEnd++] = p;
      continue;
    }
    let p = addr > 0 ? byAddr.get(addr) : -1;
    let segment = false;
    if (p < 0 && (k === kXmit || k === kDequeue) && waitingHead < waitingEnd) {
      // A segment: of the oldest packet still waiting (the qdisc is a FIFO, see below).
      const q = waiting[waitingHead]!;
      const data = k === kXmit ? xData[row]! : 0;
      if (len[q]! - lastHeader - xmitData[q]! >= data) {
        p = q;
        segment = true;
      }
    }
    if (p < 0) {
      // A packet queued before the recording began (or whose net_dev_queue was not traced).
      p = newPacket(addr, t, k === kXmit ? xLen[row]! : NaN);
    }
    col[row] = p;
    if (k === kXmit) {
      const data = xData[row]!;
      xmitData[p] = xmitData[p]! + data;
      segs[p] = segs[p]! + Math.max(1, xSegs[row]! || 1);
      if (!segment) {
        dataLen[p] = data;
        len[p] = xLen[row]!;
        reached[p] = 1;
        // Packets queued before this one and still waiting left unseen (a FIFO qdisc sends in
        // order): none of the segments that follow is theirs.
        for (let w = waitingHead; w < waitingEnd && waiting[w]! < p; w++) reached[waiting[w]!] = 1;
        // At the driver the skb's address is done with this packet: a later skb may reuse it
        // (its consume_skb may not be traced).
        if (addr > 0) byAddr.delete(addr);
      } else if (xmitData[p]! >= len[p]! - lastHeader) {
        // Every byte of the segmented skb has reached the driver.
        dataLen[p] = xmitData[p]!;
        reached[p] = 1;
      }
      if (!segment && data > 0) lastHeader = xLen[row]! - data;
    }
    if (k === kDrop) reached[p] = 1;
    while (waitingHead < waitingEnd && reached[waiting[waitingHead]!]) waitingHead++;
    if (k === kFree || k === kDrop) byAddr.delete(addr);
  }
  for (let p = 0; p < n; p++) {
    if (segs[p] === 0) segs[p] = 1;
    // Segments reached the driver, but not all of them within the recording.
    if (Number.isNaN(dataLen[p]!) && xmitData[p]! > 0) dataLen[p] = xmitData[p]!;
  }
  const payload = new Float64Array(n);
  let header = DEFAULT_HEADER_BYTES;
  for (let p = 0; p < n; p++) {
    if (!Number.isNaN(dataLen[p]!)) {
      payload[p] = dataLen[p]!;
      if (dataLen[p]! > 0) header = len[p]! - dataLen[p]!;
    } else payload[p] = NaN;
  }
  // Packets whose xmit is not in the file (still queued, dropped): the headers of the last data
  // packet seen decide.
  for (let p = 0; p < n; p++)
    if (Number.isNaN(payload[p]!) && !Number.isNaN(len[p]!))
      payload[p] = Math.max(0, len[p]! - header);
  const seq = new Float64Array(n).fill(NaN);
  let next = 0;
  let known = true;
  for (let p = 0; p < n; p++) {
    if (!(payload[p]! > 0)) continue;
    if (retrans[p]) {
      // A retransmission resends bytes already counted: where they start is not recorded.
      continue;
    }
    if (known) seq[p] = next;
    next += payload[p]!;
    if (!Number.isFinite(next)) known = false;
  }
  return {
    of,
    n,
    len: len.slice(0, n),
    payload,
    segs: segs.slice(0, n),
    seq,
    t: times.slice(0, n),
  };
}

/**
 * Packet indexes by skb address id (the parser's interned ids, 1 to `count`: a typed array),
 * or by any other number (a Map), -1 for none.
 */
class AddressMap {
  private readonly ids: Int32Array;
  private readonly other = new Map<number, number>();
  constructor(count: number) {
    this.ids = new Int32Array(Math.max(0, Math.min(count, 1 << 24)) + 1).fill(-1);
  }
  private inRange(addr: number): boolean {
    return addr < this.ids.length && Number.isInteger(addr);
  }
  get(addr: number): number {
    return this.inRange(addr) ? this.ids[addr]! : (this.other.get(addr) ?? -1);
  }
  set(addr: number, p: number): void {
    if (this.inRange(addr)) this.ids[addr] = p;
    else this.other.set(addr, p);
  }
  delete(addr: number): void {
    if (this.inRange(addr)) this.ids[addr] = -1;
    else this.other.delete(addr);
  }
}

/** One write-queue skb as the writes fill it. */
interface WriteFacts {
  /** Per sendmsg row: skb id (NaN none), relative seq before and after the copy, skb length after. */
  skb: Float64Array;
  seq: Float64Array;
  end: Float64Array;
  skbLen: Float64Array;
  isNew: Uint8Array;
  /** The skbs in sequence order: id, first byte, end. */
  skbIds: number[];
  skbStart: number[];
  skbEnd: number[];
}

function fillWrites(m: ReplayModel): WriteFacts {
  const t = m.events.tables.sendmsg;
  const c = t.columns;
  const n = t.count;
  const tids = c['tid']!;
  const addrs = c['skbaddr']!;
  const lens = c['skb_len']!;
  const lefts = c['msg_left']!;
  const goals = c['size_goal']!;
  const skb = new Float64Array(n).fill(NaN);
  const seq = new Float64Array(n);
  const end = new Float64Array(n);
  const skbLen = new Float64Array(n);
  const isNew = new Uint8Array(n);
  const skbIds: number[] = [];
  const skbStart: number[] = [];
  const skbEnd: number[] = [];
  // The next iteration of the same thread, to read each iteration's copy from msg_left.
  const nextOfTid = new Int32Array(n).fill(-1);
  const last = new Map<number, number>();
  for (let i = n - 1; i >= 0; i--) {
    const tid = tids[i]!;
    nextOfTid[i] = last.get(tid) ?? -1;
    last.set(tid, i);
  }
  let writeSeq = 0;
  // The thread's tail skb: our id, its address once an event names it, its length.
  const tails = new Map<number, { id: number; addr: number; len: number }>();
  for (let i = 0; i < n; i++) {
    const tid = tids[i]!;
    const addr = addrs[i]!;
    const len = lens[i]!;
    const left = lefts[i]!;
    const goal = goals[i]!;
    const j = nextOfTid[i]!;
    const nextLeft = j >= 0 ? lefts[j]! : NaN;
    // The next iteration of the same call shows what this one copied. The same tail skb, length
    // and msg_left again: this one copied nothing and waited for memory (sk_stream_wait_memory).
    const waited = j >= 0 && addr > 0 && addrs[j] === addr && lens[j] === len && nextLeft === left;
    const copy = waited ? 0 : nextLeft < left && nextLeft >= 0 ? left - nextLeft : left;
    let tail = tails.get(tid);
    const fresh = !(addr > 0) || !(len < goal);
    if (fresh) {
      tail = { id: skbIds.length + 1, addr: 0, len: 0 };
      skbIds.push(tail.id);
      skbStart.push(writeSeq);
      skbEnd.push(writeSeq);
      tails.set(tid, tail);
    } else if (!tail || !(tail.addr === addr || (tail.addr === 0 && tail.len === len))) {
      // Another tail than ours: the rest of ours after tso_fragment sent its head, or one filled
      // before the recording began. Its `len` last bytes are its own; ours ends before them.
      const start = Math.max(writeSeq - len, tail ? skbStart[tail.id - 1]! : 0);
      if (tail) skbEnd[tail.id - 1] = start;
      tail = { id: skbIds.length + 1, addr, len };
      skbIds.push(tail.id);
      skbStart.push(start);
      skbEnd.push(writeSeq);
      tails.set(tid, tail);
    }
    tail.addr = fresh ? 0 : addr;
    skb[i] = tail.id;
    isNew[i] = fresh ? 1 : 0;
    seq[i] = writeSeq;
    writeSeq += Number.isFinite(copy) ? Math.max(0, copy) : 0;
    end[i] = writeSeq;
    tail.len = (fresh ? 0 : len) + (end[i]! - seq[i]!);
    skbLen[i] = tail.len;
    skbEnd[tail.id - 1] = writeSeq;
  }
  return { skb, seq, end, skbLen, isNew, skbIds, skbStart, skbEnd };
}

/** Index of the skb whose bytes include `byte` (binary search, skbs in sequence order), or -1. */
function skbIndexHolding(w: WriteFacts, byte: number): number {
  let lo = 0;
  let hi = w.skbIds.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (w.skbEnd[mid]! <= byte) lo = mid + 1;
    else hi = mid;
  }
  return lo < w.skbIds.length && w.skbStart[lo]! <= byte ? lo : -1;
}

/**
 * Joins the skbs one packet carried bytes of: since Linux 6.10 tcp_write_xmit grows an skb with
 * the head of the next one (tcp_grow_skb), so a packet may hold the bytes of several skbs the
 * writes filled. Returns, per skb index, the skb it became part of (itself when none).
 */
function joinGrownSkbs(w: WriteFacts, pk: PacketFacts): Int32Array {
  const root = new Int32Array(w.skbIds.length);
  for (let k = 0; k < root.length; k++) root[k] = k;
  for (let p = 0; p < pk.n; p++) {
    const seq = pk.seq[p]!;
    if (!(pk.payload[p]! > 0) || !Number.isFinite(seq)) continue;
    const a = skbIndexHolding(w, seq);
    const b = skbIndexHolding(w, seq + pk.payload[p]! - 1);
    if (a < 0 || b <= a) continue;
    const r = root[a]!;
    for (let k = a + 1; k <= b; k++) root[k] = r;
  }
  // Joins chain (k joined into k-1 joined into k-2): every skb points at the first.
  for (let k = 1; k < root.length; k++) root[k] = root[root[k]!]!;
  return root;
}

/** Stage coverage of the model, by stage. */
function coverageOf(m: ReplayModel, stage: StageCoverage['stage']): StageCoverage | undefined {
  return m.coverage.find((c) => c.stage === stage);
}

function stagesOf(
  m: ReplayModel,
  s: Sockets,
  writes: boolean,
  virtualDev: boolean,
): RecordingFacts['stages'] {
  const n = (k: EventKind) => m.events.tables[k].count;
  const reason = (stage: StageCoverage['stage']) => coverageOf(m, stage)?.reason ?? '';
  const unattributed = `not attributable: ${s.byTid.size} writing threads and ${s.connections} connections share these tracepoints, which name no socket`;
  const stages: Record<RecordedStage, { recorded: boolean; reason: string }> = {
    app: {
      recorded: n('sendmsg') > 0,
      reason:
        n('sendmsg') > 0
          ? `${reason('app_writes')}; whether a writer sleeps (sndbuf, notsent_lowat) is not recorded`
          : reason('app_writes'),
    },
    wq: {
      recorded: false,
      reason: !writes
        ? `not recorded: ${reason('app_writes')}`
        : s.attributed
          ? 'inferred: the skbs the writes fill (tail skb and size_goal of tcp_sendmsg_locked) and the packets that carried their bytes; why an skb waits (autocork, Nagle, cork, TSQ, cwnd, pacing) is not recorded: no tracepoint shows tcp_push or tcp_write_xmit'
          : unattributed,
    },
    qdisc: {
      recorded: n('enqueue') + n('dequeue') > 0,
      reason:
        n('enqueue') + n('dequeue') > 0
          ? reason('qdisc')
          : (m.qdiscs[0]?.text ?? '').includes('noqueue')
            ? 'no qdisc on this device (noqueue): packets go straight to the driver'
            : reason('qdisc'),
    },
    ring: {
      recorded: !virtualDev && n('free') > 0,
      reason: reason('tx_completion'),
    },
    wire: {
      recorded: false,
      reason: s.attributed
        ? 'not recorded: the path after net_dev_start_xmit (link, forwarder, peer) is not traced; data is shown on its way from its xmit until the tcp_probe that acknowledged its last byte'
        : 'not recorded: the path after net_dev_start_xmit is not traced',
    },
    rx: {
      recorded: false,
      reason:
        n('delack_start') > 0
          ? 'the receiver is not recorded; delayed-ACK timers are (timer:timer_start of tcp_delack_timer), without the socket they belong to'
          : 'not recorded: the receiver is another host or namespace, or its events were not traced',
    },
    acks: { recorded: n('probe') > 0, reason: reason('acks_in') },
  };
  return stages;
}

/** Counter samples of the recording on the replay's axis, in the engine's sample layout. */
function samplesOf(
  m: ReplayModel,
  anchorNs: number,
  hostOfNetns: (netns: string) => string,
  hosts: string[],
): {
  samples: Float64Array;
  layout: SessionSummary['samples'];
  totals: Record<string, Record<string, number>>;
} {
  const names: string[] = [];
  const index = new Map<string, number>();
  for (const s of m.counters)
    for (const name of Object.keys(s.values))
      if (!index.has(name)) {
        index.set(name, names.length);
        names.push(name);
      }
  const C = names.length;
  const stride = 1 + hosts.length * (C + 1);
  // Time-less samples (a plain nstat output) are placed 1 s apart.
  const timed = m.counters.map((s, i) => ({ s, t: s.t_ns ?? i * 1e9 }));
  timed.sort((x, y) => x.t - y.t);
  const cur = hosts.map(() => new Float64Array(C));
  const base: (Float64Array | null)[] = hosts.map(() => null);
  const rows: Float64Array[] = [];
  for (const { s, t } of timed) {
    const h = hosts.indexOf(hostOfNetns(s.netns));
    if (h < 0) continue;
    const values = cur[h]!;
    if (s.kind === 'delta') {
      for (const [name, v] of Object.entries(s.values)) values[index.get(name)!]! += v;
    } else {
      // Absolute values (or a plain output, absolute on its first run): relative to the first.
      if (!base[h]) {
        base[h] = new Float64Array(C);
        for (const [name, v] of Object.entries(s.values)) base[h]![index.get(name)!] = v;
      }
      for (const [name, v] of Object.entries(s.values))
        values[index.get(name)!] = v - base[h]![index.get(name)!]!;
    }
    const row = new Float64Array(stride);
    row[0] = t - anchorNs;
    hosts.forEach((_, k) => row.set(cur[k]!, 1 + k * (C + 1)));
    rows.push(row);
  }
  const samples = new Float64Array(rows.length * stride);
  rows.forEach((r, i) => samples.set(r, i * stride));
  const totals: Record<string, Record<string, number>> = {};
  hosts.forEach((h, k) => {
    const out: Record<string, number> = {};
    names.forEach((name, c) => {
      if (cur[k]![c]! !== 0) out[name] = cur[k]![c]!;
    });
    totals[h] = out;
  });
  return { samples, layout: { hosts, counters: names, apps: 0, stride }, totals };
}

/**
 * The run model of a recording's window (default: from its first event, at most
 * REPLAY_EVENT_LIMIT events). `engine` is the engine's trace schema (catalog.trace).
 */
export function replayRun(
  m: ReplayModel,
  engine: TraceSchema,
  name: string,
  window: ReplayWindow | null = null,
): Replay {
  const schema = recordingSchema(engine);
  const { tables, timelineKind, timelineRow } = m.events;
  const total = timelineKind.length;
  const tOf = (i: number) => tables[EVENT_KINDS[timelineKind[i]!]!].t_ns[timelineRow[i]!]!;
  const anchorNs = total > 0 ? tOf(0) : 0;
  const endNs = Math.max(total > 0 ? tOf(total - 1) : 0, m.durationNs) - anchorNs;
  let fromNs = window?.fromNs ?? 0;
  let toNs =
    window?.toNs ?? (total > REPLAY_EVENT_LIMIT ? tOf(REPLAY_EVENT_LIMIT - 1) - anchorNs : endNs);
  fromNs = Math.max(fromNs, Math.min(0, -anchorNs));
  if (!(toNs > fromNs)) toNs = fromNs + 1;

  const socks = findSockets(m);
  const packets = pairPackets(m);
  const writes = fillWrites(m);
  const devName = m.config.filters?.dev ?? m.config.devices[0]?.dev ?? null;
  const driver = m.config.devices.find((d) => d.dev === devName)?.driver?.['driver'] ?? null;
  const virtualDev = socks.loopback || driver === 'veth';
  const hasWrites = tables.sendmsg.count > 0;
  const joined = joinGrownSkbs(writes, packets);
  const skbIdOf = (k: number) => writes.skbIds[joined[k]!]!;

  // Align the bytes: the first tcp_probe of the connection names snd_nxt, and the packets
  // queued before it carried that many bytes since the first.
  const absBase = new Map<number, number>();
  {
    const p = tables.probe;
    const sport = p.columns['sport']!;
    const dport = p.columns['dport']!;
    // Once every socket has its first probe, the rest of the file has nothing to add.
    const sockets = new Set(socks.byFlow.values()).size;
    for (let i = 0; i < p.count && absBase.size < sockets; i++) {
      const sk = socks.byFlow.get(flowKey(sport[i]!, dport[i]!));
      if (sk === undefined || absBase.has(sk)) continue;
      if (socks.attributed && sk === 0) {
        let sent = 0;
        for (let q = 0; q < packets.n && packets.t[q]! <= p.t_ns[i]!; q++)
          if (packets.payload[q]! > 0 && !Number.isNaN(packets.seq[q]!))
            sent += packets.payload[q]!;
        absBase.set(sk, p.columns['snd_nxt']![i]! - sent);
      } else absBase.set(sk, p.columns['snd_una']![i]!);
    }
  }
  const rel = (sk: number, seq: number) => {
    const b = absBase.get(sk);
    return b === undefined ? NaN : (seq - b) | 0;
  };

  // Rows.
  const K = (name: string) => schema.kinds.findIndex((k) => k.name === name);
  const F = (kind: string, field: string) => fieldIndex(schema, kind, field);
  const stride = schema.maxFields;
  const noSock = schema.noSock;
  const first = lowerTime(tOf, total, fromNs + anchorNs);
  const last = upperTime(tOf, total, toNs + anchorNs);
  const nRows = Math.max(0, last - first);
  const cols: TraceColumns = {
    t: new Float64Array(nRows),
    host: new Uint16Array(nRows),
    sk: new Uint32Array(nRows).fill(noSock),
    kind: new Uint16Array(nRows),
    values: new Float64Array(nRows * stride).fill(NaN),
    stride,
  };
  const rowKind = new Uint8Array(nRows);
  const rowTable = new Uint32Array(nRows);
  const hz = m.config.host?.configHz ?? 250;
  const lastAck = new Map<number, number>();
  // Acks before the window count for "acked" (bytes newly acknowledged).
  {
    const p = tables.probe;
    for (let i = 0; i < p.count && p.t_ns[i]! < fromNs + anchorNs; i++) {
      const sk = socks.byFlow.get(flowKey(p.columns['sport']![i]!, p.columns['dport']![i]!));
      if (sk !== undefined) lastAck.set(sk, rel(sk, p.columns['snd_una']![i]!));
    }
  }
  const kinds = {
    sendmsg: K('sendmsg'),
    sendmsg_copy: K('sendmsg_copy'),
    xmit: K('xmit'),
    ack_xmit: K('ack_xmit'),
    qdisc_enqueue: K('qdisc_enqueue'),
    qdisc_dequeue: K('qdisc_dequeue'),
    ring_post: K('ring_post'),
    tcp_wfree: K('tcp_wfree'),
    rec_free: K('rec_free'),
    drop: K('drop'),
    ack_rcvd: K('ack_rcvd'),
    delack_sched: K('delack_sched'),
    rec_delack_fire: K('rec_delack_fire'),
    rec_set_state: K('rec_set_state'),
    rec_retransmit: K('rec_retransmit'),
  };
  const flowSocket = (sport: number, dport: number): number => {
    const sk = socks.byFlow.get(flowKey(sport, dport));
    if (sk !== undefined) return sk;
    // A connect before its port is bound (SYN_SENT): the one connection to that port.
    if (sport === 0) {
      const matches = [...socks.byFlow.entries()].filter(([f]) => f % 65536 === dport);
      if (matches.length === 1) return matches[0]![1];
    }
    return -1;
  };
  // Field positions by kind and name, looked up once (a row is written field by field).
  const FX: Record<string, Record<string, number>> = {};
  for (const k of schema.kinds) {
    FX[k.name] = {};
    for (const f of k.fields) FX[k.name]![f] = F(k.name, f);
  }
  let base = 0;
  const set = (k: string, field: string, v: number) => {
    cols.values[base + FX[k]![field]!] = v;
  };
  for (let r = 0; r < nRows; r++) {
    const i = first + r;
    const kindIdx = timelineKind[i]!;
    const kind = EVENT_KINDS[kindIdx]!;
    const row = timelineRow[i]!;
    const table = tables[kind];
    const c = table.columns;
    const t = table.t_ns[row]! - anchorNs;
    cols.t[r] = t;
    rowKind[r] = kindIdx;
    rowTable[r] = row;
    base = r * stride;
    let code: number;
    let sk = -1;
    switch (kind) {
      case 'sendmsg': {
        sk = socks.byTid.get(c['tid']![row]!) ?? -1;
        if (socks.attributed) {
          code = kinds.sendmsg_copy;
          set('sendmsg_copy', 'skb', skbIdOf(writes.skb[row]! - 1));
          set('sendmsg_copy', 'seq', writes.seq[row]!);
          set('sendmsg_copy', 'end_seq', writes.end[row]!);
          set('sendmsg_copy', 'skb_len', writes.skbLen[row]!);
          set('sendmsg_copy', 'size_goal', c['size_goal']![row]!);
          set('sendmsg_copy', 'new_skb', writes.isNew[row]!);
        } else {
          code = kinds.sendmsg;
          set('sendmsg', 'size', c['msg_left']![row]!);
        }
        break;
      }
      case 'queue': {
        const p = packets.of.queue[row]!;
        const data = packets.payload[p]! > 0;
        if (data) {
          code = kinds.xmit;
          const seq = packets.seq[p]!;
          const known = socks.attributed && Number.isFinite(seq);
          let skbId = NaN;
          if (known) {
            sk = 0;
            const holding = hasWrites ? skbIndexHolding(writes, seq + packets.payload[p]! - 1) : -1;
            skbId = holding >= 0 ? skbIdOf(holding) : -1 - p; // no write recorded: its own skb
          }
          set('xmit', 'skb', skbId);
          set('xmit', 'pkt', p);
          set('xmit', 'seq', known ? seq : NaN);
          set('xmit', 'end_seq', known ? seq + packets.payload[p]! : NaN);
          set('xmit', 'segs', packets.segs[p]!);
          set('xmit', 'len', packets.len[p]!);
          set('xmit', 'truesize', 0);
        } else {
          code = kinds.ack_xmit;
          set('ack_xmit', 'pkt', p);
        }
        break;
      }
      case 'enqueue':
      case 'dequeue': {
        const k = kind === 'enqueue' ? 'qdisc_enqueue' : 'qdisc_dequeue';
        code = kinds[k];
        set(k, 'pkt', packets.of[kind][row]!);
        break;
      }
      case 'xmit': {
        const p = packets.of.xmit[row]!;
        code = kinds.ring_post;
        set('ring_post', 'pkt', p);
        for (const f of ['ring_used', 'ring_size', 'bql_inflight', 'bql_limit'])
          set('ring_post', f, 0);
        break;
      }
      case 'free': {
        const p = packets.of.free[row]!;
        if (!virtualDev) {
          // TX completion: the driver freed the skb (consume_skb paired with its xmit).
          code = kinds.tcp_wfree;
          set('tcp_wfree', 'pkt', p);
          set('tcp_wfree', 'tsq_queued', 0);
        } else {
          code = kinds.rec_free;
          set('rec_free', 'pkt', p);
          set('rec_free', 'lat_ns', c['lat_ns']![row]!);
        }
        break;
      }
      case 'drop': {
        code = kinds.drop;
        set('drop', 'pkt', packets.of.drop[row]!);
        break;
      }
      case 'probe': {
        code = kinds.ack_rcvd;
        sk = flowSocket(c['sport']![row]!, c['dport']![row]!);
        const ack = sk >= 0 ? rel(sk, c['snd_una']![row]!) : NaN;
        const prev = sk >= 0 ? lastAck.get(sk) : undefined;
        if (sk >= 0) lastAck.set(sk, ack);
        set('ack_rcvd', 'ack', ack);
        set('ack_rcvd', 'acked', prev === undefined ? 0 : Math.max(0, ack - prev));
        set('ack_rcvd', 'cwnd', c['snd_cwnd']![row]!);
        set('ack_rcvd', 'ssthresh', c['ssthresh']![row]!);
        set('ack_rcvd', 'srtt_us', c['srtt']![row]!);
        break;
      }
      case 'delack_start': {
        code = kinds.delack_sched;
        sk = socks.attributed ? -1 : socks.peer;
        const ticks = c['expires']![row]! - c['now']![row]!;
        set('delack_sched', 'timeout_ns', t + (ticks * 1e9) / hz);
        break;
      }
      case 'delack_fire':
        code = kinds.rec_delack_fire;
        break;
      case 'state':
        code = kinds.rec_set_state;
        sk = flowSocket(c['sport']![row]!, c['dport']![row]!);
        set('rec_set_state', 'sport', c['sport']![row]!);
        set('rec_set_state', 'dport', c['dport']![row]!);
        set('rec_set_state', 'oldstate', c['oldstate']![row]!);
        set('rec_set_state', 'newstate', c['newstate']![row]!);
        break;
      case 'retrans':
        code = kinds.rec_retransmit;
        sk = flowSocket(c['sport']![row]!, c['dport']![row]!);
        set('rec_retransmit', 'sport', c['sport']![row]!);
        set('rec_retransmit', 'dport', c['dport']![row]!);
        set('rec_retransmit', 'state', c['state']![row]!);
        break;
    }
    cols.kind[r] = code;
    if (sk >= 0) cols.sk[r] = sk;
  }

  // Counters: the recording's own samples.
  const otherNetns = [...new Set(m.counters.map((s) => s.netns).filter((n) => n !== ''))];
  const hosts = socks.loopback
    ? ['localhost', ...otherNetns]
    : [
        'sender',
        ...otherNetns.map((n, i) => (otherNetns.length === 1 && i === 0 ? 'receiver' : n)),
      ];
  const hostOfNetns = (netns: string) =>
    netns === '' ? hosts[0]! : hosts[1 + otherNetns.indexOf(netns)]!;
  const { samples, layout, totals } = samplesOf(m, anchorNs, hostOfNetns, hosts);

  const hostResult = (counters: Record<string, number>): HostResult => ({
    counters,
    tcp_mem_pages: 0,
    tcp_mem_pages_avg: 0,
    qdisc: null,
    nic: null,
    cpus_utilized: 0,
  });
  const w = m.workload;
  const apps: AppResult[] = [];
  const summary: SessionSummary = {
    result: {
      elapsed_s: w ? (w.end_t_ns - w.t_ns) / 1e9 : endNs / 1e9,
      kernel: m.config.host?.kernelRelease ?? 'unknown',
      variant: null,
      hosts: Object.fromEntries(hosts.map((h) => [h, hostResult(totals[h] ?? {})])),
      host_names: socks.hostNames,
      sockets: socks.info,
      apps,
      events: nRows,
      warnings: [],
    },
    fromNs,
    toNs,
    cut: false,
    truncated: last < total || first > 0,
    samples: layout,
    socketsAtStart: [],
    countersAtStart: [],
    inFlightAtStart: [],
    queuedAtStart: [],
  };
  const model = deriveRun(cols, summary, samples, schema, { recording: true });
  // The one connection sends, whether or not its writes were traced.
  if (socks.attributed) model.socks.sends[0] = 1;
  // No decision was recorded: no row carries a reason (an ACK's reason, a gate).
  model.rowReason.fill(-1);
  // Bytes on the wire per bin, from the packets (no wire event is recorded).
  {
    const ch = model.charts;
    ch.wireBytes.fill(0);
    const P = model.packets;
    for (let p = 0; p < P.n; p++) {
      const x = P.tWire[p]!;
      if (!(x >= ch.from) || P.host[p]! >= socks.hostNames.length) continue;
      const bin = Math.min(ch.bins - 1, Math.floor((x - ch.from) / ch.binNs));
      ch.wireBytes[P.host[p]! * ch.bins + bin]! += P.len[p]! || 0;
    }
  }
  // Where the connection's life starts: its first state change or write (a device also carries
  // other packets, ARP for one, long before), else the first packet.
  let activityNs = NaN;
  {
    const connection = [EVENT_KINDS.indexOf('state'), EVENT_KINDS.indexOf('sendmsg')];
    const queue = EVENT_KINDS.indexOf('queue');
    let firstPacket = NaN;
    for (let r = 0; r < nRows && Number.isNaN(activityNs); r++) {
      if (connection.includes(rowKind[r]!)) activityNs = cols.t[r]!;
      else if (rowKind[r] === queue && Number.isNaN(firstPacket)) firstPacket = cols.t[r]!;
    }
    if (Number.isNaN(activityNs)) activityNs = Number.isNaN(firstPacket) ? fromNs : firstPacket;
  }
  const facts: RecordingFacts = {
    name,
    format: m.format,
    kernel: m.config.host?.kernelRelease ?? null,
    schema,
    stages: stagesOf(m, socks, hasWrites, virtualDev),
    inferred: inferredNotes(socks, hasWrites, packets.n > 0),
    events: nRows,
    totalEvents: total,
    anchorNs,
    startNs: Math.min(0, -anchorNs),
    endNs,
    activityNs,
  };
  if (socks.attributed && hasWrites) fixSkbRanges(model, writes, joined);
  model.recording = facts;
  return {
    model,
    rows: { kind: rowKind, tableRow: rowTable, anchorNs },
  };
}

/**
 * The skbs' byte ranges as the writes filled them, split (tso_fragment) and joined
 * (tcp_grow_skb): deriveRun read them from the copies, which do not show the splits. With the
 * ranges, when each skb is freed (the ACK of its last byte) and the index of skbs alive.
 */
function fixSkbRanges(model: RunModel, w: WriteFacts, joined: Int32Array): void {
  // Joined skbs are runs of neighbours: a run starts at its first skb and ends at its last's end.
  const n = w.skbIds.length;
  const end = new Float64Array(n).fill(-Infinity);
  for (let k = 0; k < n; k++) {
    const r = joined[k]!;
    if (w.skbEnd[k]! > end[r]!) end[r] = w.skbEnd[k]!;
  }
  const S = model.skbs;
  const acks = model.socks.acks;
  const [a, b] = groupRange(acks, 0);
  const ackedAt = (seq: number): number => {
    let lo = a;
    let hi = b;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (acks.v[mid * acks.width]! < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo < b ? acks.t[lo]! : NaN;
  };
  const alive = new Float64Array(S.n);
  for (let i = 0; i < S.n; i++) {
    // Ids of the writes' skbs are their index + 1 (a packet's own skb has a negative id).
    const k = S.id[i]! - 1;
    if (k >= 0 && k < n && joined[k] === k) {
      S.seqStart[i] = w.skbStart[k]!;
      S.seqEnd[i] = end[k]!;
    }
    if (S.sk[i] === 0 && !Number.isNaN(S.tSent[i]!)) S.tFreed[i] = ackedAt(S.seqEnd[i]!);
    alive[i] = Number.isNaN(S.tFreed[i]!) ? Infinity : S.tFreed[i]!;
  }
  model.skbIndex = buildIntervalIndex(S.tCreate, alive, model.summary.fromNs, model.summary.toNs);
}

function inferredNotes(s: Sockets, writes: boolean, packets: boolean): string[] {
  const notes = ["Time 0 is the recording's first event; counters count from its first sample."];
  if (s.attributed && writes)
    notes.push(
      "Each write's bytes per iteration are the drop of msg_left to the thread's next iteration; the skb it fills is tcp_sendmsg_locked's tail skb, or a new one when there is none or it holds size_goal.",
    );
  if (s.attributed && packets)
    notes.push(
      "A packet's bytes are its paged data at net_dev_start_xmit (data_len); counting them from the first gives byte ranges, aligned with snd_nxt at the connection's first tcp_probe. Retransmissions are not placed.",
    );
  if (!s.attributed)
    notes.push(
      `The tracepoints name no socket and this recording holds ${s.byTid.size} writing threads and ${s.connections} connections: writes are shown per thread and packets belong to none.`,
    );
  return notes;
}

function lowerTime(tOf: (i: number) => number, n: number, t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tOf(mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperTime(tOf: (i: number) => number, n: number, t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tOf(mid) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const TCP_STATES = [
  '',
  'ESTABLISHED',
  'SYN_SENT',
  'SYN_RECV',
  'FIN_WAIT1',
  'FIN_WAIT2',
  'TIME_WAIT',
  'CLOSE',
  'CLOSE_WAIT',
  'LAST_ACK',
  'LISTEN',
  'CLOSING',
  'NEW_SYN_RECV',
];

/**
 * What row `r` of a replay recorded, with its names resolved (the tracepoint, the device, the
 * TCP states, the drop reason, the recording host's HZ): what its words are made of, in any
 * language. Null for a row of no recorded kind.
 */
export interface RecordedFacts {
  kind: EventKind;
  /** The tracepoint that recorded it (`tcp:tcp_probe`). */
  tp: string;
  /** The event's numeric fields (NaN when absent). */
  n: Record<string, number>;
  /** Names: `dev`, `oldstate`, `newstate`, `reason` (as the recording or the kernel spells them). */
  s: Record<string, string>;
}

/** Rows in words (a recording's, or a simulated run's through the engine's `describe`): the English text of each, and what each recorded (null: a simulated row). */
export interface DescribedRows {
  texts: string[];
  facts: (RecordedFacts | null)[];
  /** A simulated run's: the running `TcpExtTCPAutoCorking` count of each counted autocork. */
  autocorking?: (number | null)[];
}

export function replayRowFacts(m: ReplayModel, rows: ReplayRows, r: number): RecordedFacts | null {
  const kind = EVENT_KINDS[rows.kind[r]!];
  if (!kind) return null;
  const e = eventRow(m, kind, rows.tableRow[r]!);
  const n: Record<string, number> = {};
  const s: Record<string, string> = {};
  for (const [k, v] of Object.entries(e)) if (typeof v === 'number') n[k] = v;
  const names = m.config.symbols;
  const stateName = (v: number, field: string) =>
    names?.[`sock:inet_sock_set_state:${field}`]?.[String(v)] ?? `TCP_${TCP_STATES[v] ?? v}`;
  if (kind === 'queue' || kind === 'xmit') s['dev'] = String(e['dev'] ?? '?');
  if (kind === 'state') {
    s['oldstate'] = stateName(n['oldstate'] ?? NaN, 'oldstate');
    s['newstate'] = stateName(n['newstate'] ?? NaN, 'newstate');
  }
  if (kind === 'drop')
    s['reason'] =
      names?.['skb:kfree_skb:reason']?.[String(n['reason'] ?? NaN)] ?? String(n['reason'] ?? NaN);
  if (kind === 'delack_start') n['hz'] = m.config.host?.configHz ?? 250;
  return { kind, tp: TRACEPOINT[kind], n, s };
}

/** Row `r` of a replay in words: "<tracepoint>: <what it recorded>", in the engine's manner. */
export function describeReplayRow(m: ReplayModel, rows: ReplayRows, r: number): string {
  const f = replayRowFacts(m, rows, r);
  return f ? describeRecorded(f) : '';
}

/** A recorded event in English words (i18n/log.zh-CN.ts has them in Chinese). */
export function describeRecorded(f: RecordedFacts): string {
  const n = (k: string) => f.n[k] ?? NaN;
  const tp = f.tp;
  switch (f.kind) {
    case 'sendmsg':
      return `${tp}: tid ${n('tid')} copies into ${n('skbaddr') > 0 ? `the tail skb (${formatBytes(n('skb_len'))} of size_goal ${formatBytes(n('size_goal'))})` : 'a new skb (no tail skb)'}, ${formatBytes(n('msg_left'))} of the call left`;
    case 'queue':
      return `${tp}: an skb of ${formatBytes(n('len'))} enters dev_queue_xmit on ${f.s['dev']}`;
    case 'enqueue':
      return `${tp}: the qdisc ${hex(n('handle'))} accepted the skb`;
    case 'dequeue':
      return `${tp}: the qdisc ${hex(n('handle'))} released ${n('packets')} skb${n('packets') === 1 ? '' : 's'}${n('txq_state') ? ` (txq_state ${hex(n('txq_state'))}: queue stopped)` : ''}`;
    case 'xmit':
      return `${tp}: to the driver of ${f.s['dev']}: ${formatBytes(n('len'))}, ${n('gso_segs') > 1 ? `${n('gso_segs')} segments of ${formatBytes(n('gso_size'))} (TSO/GSO)` : 'one segment'}, ${formatBytes(n('data_len'))} of data in page fragments`;
    case 'free':
      return `${tp}: the skb was freed ${formatNs(n('lat_ns'))} after its xmit`;
    case 'drop':
      return `${tp}: the skb was dropped (${f.s['reason']}) after its xmit`;
    case 'probe':
      return `${tp}: port ${n('sport')} received ${n('data_len') > 0 ? `${formatBytes(n('data_len'))} of data` : 'an ACK'}: snd_una ${n('snd_una')}, snd_nxt ${n('snd_nxt')}, cwnd ${n('snd_cwnd')}, srtt ${formatNs(n('srtt') * 1000)}, snd_wnd ${formatBytes(n('snd_wnd'))}`;
    case 'retrans':
      return `${tp}: port ${n('sport')} > ${n('dport')} retransmits an skb`;
    case 'state':
      return `${tp}: port ${n('sport')} > ${n('dport')}: ${f.s['oldstate']} → ${f.s['newstate']}`;
    case 'delack_start': {
      const hz = n('hz');
      const ticks = n('expires') - n('now');
      return `${tp} (tcp_delack_timer): a delayed ACK is due in ${ticks} jiffies (${formatNs((ticks * 1e9) / hz)} at HZ ${hz})`;
    }
    case 'delack_fire':
      return `${tp} (tcp_delack_timer): the delayed-ACK timer fired`;
  }
}

function hex(v: number): string {
  return Number.isFinite(v) ? `0x${v.toString(16)}` : '?';
}
