// `ss -ti` at the time cursor: the state of one socket, from its state at the window's start
// (the engine's snapshot) and every event of the window up to the cursor.

import type { SockSnapshot } from '../engine/generated/SockSnapshot';
import { lastAtOrBefore, type RunModel } from './derive';

export interface SockState {
  established: boolean;
  mss: number;
  cwnd: number;
  /** `null` when still infinite (no loss yet: 2147483647 in the kernel). */
  ssthresh: number | null;
  srttUs: number;
  /** Bytes per second; null = unlimited. */
  pacingRate: number | null;
  packetsOut: number;
  sndUna: number;
  sndNxt: number;
  writeSeq: number;
  /** `snd_nxt - snd_una`. */
  bytesInFlight: number;
  /** `write_seq - snd_nxt`: bytes written but not sent (TCP_NOTSENT_LOWAT's measure). */
  notsent: number;
  /** `sk_wmem_alloc`: bytes below TCP (TCP Small Queues' measure). */
  wmemAlloc: number;
  /** A delayed ACK is pending: due at this instant; null none. */
  delackDueNs: number | null;
}

const INFINITE_SSTHRESH = 0x7fffffff;

export function sockStateAt(m: RunModel, sk: number, t: number): SockState {
  const s0: SockSnapshot | undefined = m.summary.socketsAtStart[sk];
  const st: SockState = {
    established: s0?.established ?? false,
    mss: s0?.mss_cache ?? 0,
    cwnd: s0?.snd_cwnd ?? 0,
    ssthresh: s0 && s0.snd_ssthresh < INFINITE_SSTHRESH ? s0.snd_ssthresh : null,
    srttUs: s0 ? s0.srtt_us / 8 : 0,
    pacingRate: s0?.sk_pacing_rate ?? null,
    packetsOut: s0?.packets_out ?? 0,
    sndUna: s0?.snd_una ?? 0,
    sndNxt: s0?.snd_nxt ?? 0,
    writeSeq: s0?.write_seq ?? 0,
    bytesInFlight: 0,
    notsent: 0,
    wmemAlloc: s0?.sk_wmem_alloc ?? 0,
    delackDueNs: null,
  };
  const so = m.socks;
  if (so.mss[sk]! > 0 && t >= m.summary.fromNs) {
    st.mss = so.mss[sk]!;
  }
  const a = lastAtOrBefore(so.acks, sk, t);
  if (a >= 0) {
    const v = so.acks.v;
    const w = so.acks.width;
    st.established = true;
    st.sndUna = v[a * w]!;
    st.cwnd = v[a * w + 1]!;
    const ss = v[a * w + 2]!;
    st.ssthresh = ss >= INFINITE_SSTHRESH ? null : ss;
    st.srttUs = v[a * w + 3]!;
    st.packetsOut = v[a * w + 5]!;
  }
  // The rate set at the connection's start, then each ACK's.
  const p = lastAtOrBefore(so.pacing, sk, t);
  if (p >= 0) {
    const pacing = so.pacing.v[p]!;
    st.pacingRate = Number.isFinite(pacing) ? pacing : null;
  }
  const x = lastAtOrBefore(so.xmits, sk, t);
  if (x >= 0) st.sndNxt = Math.max(st.sndNxt, so.xmits.v[x * so.xmits.width + 1]!);
  const c = lastAtOrBefore(so.copies, sk, t);
  if (c >= 0) st.writeSeq = Math.max(st.writeSeq, so.copies.v[c * so.copies.width + 1]!);
  const wm = lastAtOrBefore(so.wmem, sk, t);
  if (wm >= 0) st.wmemAlloc = so.wmem.v[wm]!;
  const d = lastAtOrBefore(so.delack, sk, t);
  if (d >= 0 && t < so.delack.v[d * 2]!) st.delackDueNs = so.delack.v[d * 2 + 1]!;
  st.sndNxt = Math.max(st.sndNxt, st.sndUna);
  st.writeSeq = Math.max(st.writeSeq, st.sndNxt);
  st.bytesInFlight = st.sndNxt - st.sndUna;
  st.notsent = st.writeSeq - st.sndNxt;
  return st;
}
