// Rates for the throughput chart, over windows that make physical sense (issue 17).
//
// A rate is bytes divided by a time. Over a bin shorter than one packet's serialization, a
// 64 KB TSO packet counted in the bin where it starts reads as 20 Gbit/s on a 10 Gbit/s link, and
// a stretch ACK covering 45 segments sent over 50 µs reads as 47 Gbit/s when it lands in a 1 µs
// bin. So:
//
// - the window is never shorter than the longest serialization of one packet on the host
//   (rounded up to whole bins), and it trails the instant it is drawn at;
// - bytes on the wire are spread over their serialization (model/derive.ts), so a window never
//   holds more than the link carries in it;
// - bytes acknowledged are divided by the longer of the window and the time their packets took
//   to go on the wire, as Linux's delivery-rate samples are (`tcp_rate_gen` in
//   net/ipv4/tcp_rate.c takes the longer of the send and the ACK intervals "to avoid
//   underestimating the interval" when ACKs are compressed); bytes sent before the window's
//   trace began count at least their serialization at the link rate.
//
// Neither can exceed the link rate: what the link carried over a time is at most rate × time.

import type { Charts } from './derive';

export interface Rates {
  /** The trailing window each value is measured over, ns (a whole number of bins). */
  windowNs: number;
  /** Goodput of the host's sockets (bytes newly acknowledged), bit/s per bin. */
  goodputBps: Float64Array;
  /** Bytes the host put on the wire (framing included), bit/s per bin. */
  wireBps: Float64Array;
  /** The host's link rate, bit/s (NaN: it sent nothing in the window). */
  linkBps: number;
}

/** The throughput of `host` in `c`, bin by bin, each over the trailing window. */
export function hostRates(c: Charts, host: number): Rates {
  const { bins, binNs } = c;
  const base = host * bins;
  const linkBps = c.linkBps[host] ?? NaN;
  const k = Math.max(1, Math.ceil((c.serializeMaxNs[host] ?? 0) / binNs - 1e-9));
  const goodputBps = new Float64Array(bins);
  const wireBps = new Float64Array(bins);
  for (let i = 0; i < bins; i++) {
    const first = Math.max(0, i - k + 1);
    const windowNs = (i - first + 1) * binNs;
    let wire = 0;
    let acked = 0;
    let sentFrom = Infinity;
    let sentTo = -Infinity;
    for (let j = first; j <= i; j++) {
      wire += c.wireBytes[base + j]!;
      acked += c.ackedHostBytes[base + j]!;
      const a = c.ackedSentFrom[base + j]!;
      const b = c.ackedSentTo[base + j]!;
      if (a < sentFrom) sentFrom = a;
      if (b > sentTo) sentTo = b;
    }
    wireBps[i] = (wire * 8e9) / windowNs;
    const sentNs = sentTo > sentFrom ? sentTo - sentFrom : 0;
    const serializeNs = linkBps > 0 ? (acked * 8e9) / linkBps : 0;
    goodputBps[i] = acked > 0 ? (acked * 8e9) / Math.max(windowNs, sentNs, serializeNs) : 0;
  }
  return { windowNs: k * binNs, goodputBps, wireBps, linkBps };
}
