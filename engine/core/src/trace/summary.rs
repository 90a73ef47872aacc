//! What a run's event stream adds up to, for the reader who asks "how big were the TSO packets,
//! how deep was the qdisc, how long did skbs wait at TSQ": `sendpath run`'s summary, its
//! `--json` (`summary`) and its `--csv` time series.
//!
//! The [`Collector`] reads the same stream as `sendpath trace` ([`super::Trace::emit`] hands it
//! every event, recorded or not), so every figure here can be recomputed from the event log:
//!
//! - per flow (each socket that sent data): IP bytes sent (`xmit` `len`, retransmissions
//!   included) and bytes the peer application read (`recvmsg` on the peer), over the run's
//!   elapsed time as throughput and goodput; `srtt_us` and `cwnd` of each `ack_rcvd`, time
//!   weighted (a value holds until the next ACK) for the mean; segments per transmitted skb
//!   (`xmit` `segs`) as a histogram and percentiles.
//! - per device: the qdisc's backlog in bytes and packets and the TX ring's descriptors and BQL
//!   bytes in flight as step functions of time from t = 0 to the end of the run; the mean and
//!   the percentiles are time weighted ("the backlog was at most p99 for 99 % of the run").
//!   The qdisc backlog is the absolute value `qdisc_enqueue` carries, less each packet's bytes
//!   (its backlog growth at enqueue) when it is dequeued or dropped, plus them when requeued;
//!   the ring is `ring_post`'s `ring_used`/`bql_inflight` less `tx_completion`'s
//!   `descs`/`bytes` (the site's pipeline view derives them the same way).
//! - holds, per skb: from the first `autocork` or `xmit_hold` naming the skb to its `xmit`, split
//!   where the reason changes (an skb autocorked then held by Nagle counts once at each gate);
//!   an autocork ends at the socket's next `tcp_write_xmit` (its next `xmit` or `xmit_hold`),
//!   which is where the kernel reconsiders it;
//!   per packet: `qdisc_dequeue`'s `sojourn_ns`, and from `ring_post` to `wire_tx` (the ring).
//!   Only the skb at the head of the write queue is held by `tcp_write_xmit`; those behind it
//!   wait without a hold of their own. A hold still open when the run ends counts up to the end.
//!
//! Percentiles of samples are nearest-rank: the smallest sample with at least p % of the samples
//! at or below it.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Ev, Gate};
use crate::include::linux::skbuff::{SockId, NO_SOCK};

/// The gates a hold is reported for, in the order the summary lists them: the skb gates of
/// `tcp_push`/`tcp_write_xmit`, then the packet's waits below TCP.
pub const HOLD_GATES: [&str; 10] = [
    "autocork",
    "nagle",
    "cork",
    "tso_defer",
    "tsq",
    "cwnd",
    "rwnd",
    "pacing",
    "qdisc",
    "ring",
];

/// The index in [`HOLD_GATES`] of a gate `tcp_push`/`tcp_write_xmit` holds an skb at.
fn hold_index(g: Gate) -> Option<usize> {
    HOLD_GATES[..QDISC_HOLD].iter().position(|n| *n == g.name())
}

const QDISC_HOLD: usize = 8;
const RING_HOLD: usize = 9;

/// A value that holds from one event to the next, with the time it spent at each value.
#[derive(Clone, Debug, Default)]
pub struct Level {
    pub value: u64,
    since_ns: u64,
    /// Nanoseconds spent at each value (from t = 0 or the first sample).
    time_at: BTreeMap<u64, u64>,
    max: u64,
}

impl Level {
    /// The value becomes `v` at `t_ns` (a time before the last change counts as the same
    /// instant: the stream is in time order but for `wire_tx`, stamped when its frame starts).
    pub fn set(&mut self, t_ns: u64, v: u64) {
        let t = t_ns.max(self.since_ns);
        if t > self.since_ns {
            *self.time_at.entry(self.value).or_default() += t - self.since_ns;
        }
        self.since_ns = t;
        self.value = v;
        self.max = self.max.max(v);
    }

    /// The distribution up to `end_ns`.
    pub fn finish(mut self, end_ns: u64) -> LevelSummary {
        self.set(end_ns, self.value);
        let total: u64 = self.time_at.values().sum();
        let pct = |p: u64| -> u64 {
            let mut cum = 0u64;
            for (&v, &ns) in &self.time_at {
                cum += ns;
                if cum as u128 * 100 >= p as u128 * total as u128 {
                    return v;
                }
            }
            self.value
        };
        let weighted: u128 = self
            .time_at
            .iter()
            .map(|(&v, &ns)| v as u128 * ns as u128)
            .sum();
        LevelSummary {
            avg: if total > 0 {
                weighted as f64 / total as f64
            } else {
                self.value as f64
            },
            p50: pct(50),
            p99: pct(99),
            max: self.max,
        }
    }
}

/// A value over time: its mean weighted by time, p50, p99 and maximum.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LevelSummary {
    pub avg: f64,
    pub p50: u64,
    pub p99: u64,
    pub max: u64,
}

/// Minimum, time-weighted mean and maximum of a value sampled at events.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MinAvgMax {
    pub min: u64,
    pub avg: f64,
    pub max: u64,
}

/// A sample distribution: count, mean, nearest-rank percentiles, maximum.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Distribution {
    pub count: u64,
    pub mean: f64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
}

impl Distribution {
    /// The distribution of `samples` (sorted here).
    pub fn of(samples: &mut [u64]) -> Distribution {
        samples.sort_unstable();
        Distribution::of_sorted(samples.iter().map(|&v| (v, 1)))
    }

    /// The distribution of a histogram: `(value, count)` pairs in increasing value order.
    pub fn of_sorted(hist: impl Iterator<Item = (u64, u64)> + Clone) -> Distribution {
        let count: u64 = hist.clone().map(|(_, n)| n).sum();
        if count == 0 {
            return Distribution::default();
        }
        let sum: u128 = hist.clone().map(|(v, n)| v as u128 * n as u128).sum();
        let pct = |p: u64| {
            // nearest rank: ceil(p/100 * count)
            let rank = (p * count).div_ceil(100).max(1);
            let mut cum = 0;
            for (v, n) in hist.clone() {
                cum += n;
                if cum >= rank {
                    return v;
                }
            }
            unreachable!("rank {rank} beyond {count} samples")
        };
        Distribution {
            count,
            mean: sum as f64 / count as f64,
            p50: pct(50),
            p90: pct(90),
            p99: pct(99),
            max: hist.clone().last().map_or(0, |(v, _)| v),
        }
    }
}

/// A socket's running state, as the stream tells it.
#[derive(Clone, Debug, Default)]
struct SockAcc {
    host: u16,
    sent_bytes: u64,
    retrans_bytes: u64,
    max_end_seq: u64,
    acked_bytes: u64,
    read_bytes: u64,
    segs: BTreeMap<u64, u64>,
    /// (first ACK time, min, max, last value, since, integral) of srtt and cwnd.
    srtt: Option<Stepper>,
    cwnd: Option<Stepper>,
    packets_out: u64,
}

#[derive(Clone, Debug)]
struct Stepper {
    first_ns: u64,
    since_ns: u64,
    value: u64,
    min: u64,
    max: u64,
    integral: u128,
}

impl Stepper {
    fn new(t: u64, v: u64) -> Stepper {
        Stepper {
            first_ns: t,
            since_ns: t,
            value: v,
            min: v,
            max: v,
            integral: 0,
        }
    }

    fn set(&mut self, t: u64, v: u64) {
        let t = t.max(self.since_ns);
        self.integral += self.value as u128 * (t - self.since_ns) as u128;
        self.since_ns = t;
        self.value = v;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    fn finish(mut self, end_ns: u64) -> MinAvgMax {
        self.set(end_ns, self.value);
        let span = self.since_ns - self.first_ns;
        MinAvgMax {
            min: self.min,
            avg: if span > 0 {
                self.integral as f64 / span as f64
            } else {
                self.value as f64
            },
            max: self.max,
        }
    }
}

fn step(s: &mut Option<Stepper>, t: u64, v: u64) {
    match s {
        Some(s) => s.set(t, v),
        None => *s = Some(Stepper::new(t, v)),
    }
}

/// A device's running state.
#[derive(Clone, Debug, Default)]
struct DevAcc {
    has_qdisc: bool,
    has_ring: bool,
    qdisc_bytes: Level,
    qdisc_packets: Level,
    /// Bytes each queued packet added to the backlog.
    queued: BTreeMap<u64, u64>,
    ring_descs: Level,
    bql_inflight: Level,
    bql_limit: u64,
    wire_bytes: u64,
}

/// One row of the per-flow time series: a socket's state at `t_ns`.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowSample {
    pub t_ns: u64,
    pub sk: SockId,
    pub cwnd: u64,
    pub srtt_us: u64,
    pub packets_out: u64,
    /// Cumulative IP bytes of data sent, bytes acknowledged, bytes the application read.
    pub sent_bytes: u64,
    pub acked_bytes: u64,
    pub read_bytes: u64,
}

/// One row of the per-device time series: a host's device at `t_ns`.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceSample {
    pub t_ns: u64,
    pub host: u16,
    pub qdisc_bytes: u64,
    pub qdisc_packets: u64,
    pub ring_descs: u64,
    pub bql_inflight_bytes: u64,
    pub bql_limit_bytes: u64,
    /// Cumulative bytes put on the wire (framing included).
    pub wire_bytes: u64,
}

/// The time series of a run, one row per socket and per device every `interval_ns`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub interval_ns: u64,
    pub flows: Vec<FlowSample>,
    pub devices: Vec<DeviceSample>,
}

/// Reads the event stream as it is emitted and keeps what the summary needs.
#[derive(Clone, Debug, Default)]
pub struct Collector {
    socks: BTreeMap<SockId, SockAcc>,
    devs: BTreeMap<u16, DevAcc>,
    /// Open skb holds: (socket, skb) -> (hold index, since).
    open: BTreeMap<(SockId, u64), (usize, u64)>,
    /// Packets in a TX ring: (host, packet) -> posted at.
    posted: BTreeMap<(u16, u64), u64>,
    holds: [Vec<u64>; 10],
    kinds: BTreeMap<&'static str, u64>,
    ack_reasons: BTreeMap<&'static str, u64>,
    pingpong_delacks: u64,
    series: Option<Series>,
    next_sample_ns: u64,
}

impl Collector {
    /// A collector; with `interval_ns` > 0 it also samples the time series.
    pub fn new(interval_ns: u64) -> Collector {
        Collector {
            series: (interval_ns > 0).then(|| Series {
                interval_ns,
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn sample_until(&mut self, t_ns: u64) {
        let Some(series) = &mut self.series else {
            return;
        };
        while self.next_sample_ns <= t_ns {
            let t = self.next_sample_ns;
            for (&sk, s) in &self.socks {
                series.flows.push(FlowSample {
                    t_ns: t,
                    sk,
                    cwnd: s.cwnd.as_ref().map_or(0, |c| c.value),
                    srtt_us: s.srtt.as_ref().map_or(0, |c| c.value),
                    packets_out: s.packets_out,
                    sent_bytes: s.sent_bytes,
                    acked_bytes: s.acked_bytes,
                    read_bytes: s.read_bytes,
                });
            }
            for (&host, d) in &self.devs {
                series.devices.push(DeviceSample {
                    t_ns: t,
                    host,
                    qdisc_bytes: d.qdisc_bytes.value,
                    qdisc_packets: d.qdisc_packets.value,
                    ring_descs: d.ring_descs.value,
                    bql_inflight_bytes: d.bql_inflight.value,
                    bql_limit_bytes: d.bql_limit,
                    wire_bytes: d.wire_bytes,
                });
            }
            self.next_sample_ns += series.interval_ns;
        }
    }

    fn close_hold(&mut self, sk: SockId, skb: u64, t: u64) {
        if let Some((g, since)) = self.open.remove(&(sk, skb)) {
            self.holds[g].push(t.saturating_sub(since));
        }
    }

    /// `tcp_write_xmit` ran for the socket (it sent or held an skb): an autocork ends there,
    /// whatever it then decides about the autocorked skb.
    fn end_autocorks(&mut self, sk: SockId, t: u64) {
        let ac = hold_index(Gate::Autocork).unwrap();
        let ended: Vec<u64> = self
            .open
            .range((sk, 0)..=(sk, u64::MAX))
            .filter(|(_, (g, _))| *g == ac)
            .map(|(&(_, skb), _)| skb)
            .collect();
        for skb in ended {
            self.close_hold(sk, skb, t);
        }
    }

    fn hold(&mut self, sk: SockId, skb: u64, g: usize, t: u64) {
        match self.open.get(&(sk, skb)) {
            Some(&(open, _)) if open == g => {}
            _ => {
                self.close_hold(sk, skb, t);
                self.open.insert((sk, skb), (g, t));
            }
        }
    }

    /// One event of the stream.
    pub fn observe(&mut self, t: u64, host: u16, sk: SockId, ev: &Ev) {
        // A sample at t is the state before the events at t. `wire_tx` is stamped when its
        // frame starts, possibly ahead of the clock: it does not move the samples on.
        if t >= self.next_sample_ns && !matches!(ev, Ev::WireTx { .. }) {
            self.sample_until(t);
        }
        *self.kinds.entry(ev.kind_name()).or_default() += 1;
        if sk != NO_SOCK {
            self.socks.entry(sk).or_insert_with(|| SockAcc {
                host,
                ..Default::default()
            });
        }
        match *ev {
            Ev::Autocork { skb, .. } => self.hold(sk, skb, hold_index(Gate::Autocork).unwrap(), t),
            Ev::XmitHold { skb, gate, .. } => {
                self.end_autocorks(sk, t);
                if let Some(g) = hold_index(gate) {
                    self.hold(sk, skb, g, t);
                }
            }
            Ev::Xmit {
                skb,
                end_seq,
                seq,
                segs,
                len,
                ..
            } => {
                self.close_hold(sk, skb, t);
                self.end_autocorks(sk, t);
                let s = self.socks.get_mut(&sk).expect("xmit of a socket");
                s.sent_bytes += len;
                if seq < s.max_end_seq {
                    s.retrans_bytes += s.max_end_seq.min(end_seq) - seq;
                }
                s.max_end_seq = s.max_end_seq.max(end_seq);
                *s.segs.entry(segs).or_default() += 1;
            }
            Ev::AckRcvd {
                acked,
                cwnd,
                srtt_us,
                packets_out,
                ..
            } => {
                let s = self.socks.get_mut(&sk).expect("ack of a socket");
                s.acked_bytes += acked;
                s.packets_out = packets_out;
                step(&mut s.cwnd, t, cwnd);
                step(&mut s.srtt, t, srtt_us);
            }
            Ev::AckXmit { reason, .. } => {
                *self.ack_reasons.entry(reason.name()).or_default() += 1;
            }
            Ev::DelackSched { pingpong, .. } if pingpong > 0 => {
                self.pingpong_delacks += 1;
            }
            Ev::Recvmsg { bytes } => {
                self.socks
                    .get_mut(&sk)
                    .expect("read of a socket")
                    .read_bytes += bytes;
            }
            Ev::QdiscEnqueue { pkt, qlen, backlog } => {
                let d = self.devs.entry(host).or_default();
                d.has_qdisc = true;
                let grown = backlog.saturating_sub(d.qdisc_bytes.value);
                d.queued.insert(pkt, grown);
                d.qdisc_bytes.set(t, backlog);
                d.qdisc_packets.set(t, qlen);
            }
            Ev::QdiscDequeue { pkt, sojourn_ns } => {
                self.holds[QDISC_HOLD].push(sojourn_ns);
                let d = self.devs.entry(host).or_default();
                if let Some(b) = d.queued.remove(&pkt) {
                    let (bytes, pkts) = (d.qdisc_bytes.value, d.qdisc_packets.value);
                    d.qdisc_bytes.set(t, bytes.saturating_sub(b));
                    d.qdisc_packets.set(t, pkts.saturating_sub(1));
                }
            }
            Ev::QdiscDrop { pkt, .. } => {
                let d = self.devs.entry(host).or_default();
                if let Some(b) = d.queued.remove(&pkt) {
                    let (bytes, pkts) = (d.qdisc_bytes.value, d.qdisc_packets.value);
                    d.qdisc_bytes.set(t, bytes.saturating_sub(b));
                    d.qdisc_packets.set(t, pkts.saturating_sub(1));
                }
            }
            Ev::Requeue { pkt } => {
                let d = self.devs.entry(host).or_default();
                // Its bytes are known when it was enqueued (not when it bypassed the qdisc).
                let b = d.queued_bytes_of(pkt);
                d.queued.insert(pkt, b);
                let (bytes, pkts) = (d.qdisc_bytes.value, d.qdisc_packets.value);
                d.qdisc_bytes.set(t, bytes + b);
                d.qdisc_packets.set(t, pkts + 1);
            }
            Ev::RingPost {
                pkt,
                ring_used,
                bql_inflight,
                bql_limit,
                ..
            } => {
                let d = self.devs.entry(host).or_default();
                d.has_ring = true;
                d.ring_descs.set(t, ring_used);
                d.bql_inflight.set(t, bql_inflight);
                d.bql_limit = bql_limit;
                self.posted.insert((host, pkt), t);
            }
            Ev::TxCompletion {
                descs,
                bytes,
                bql_limit,
            } => {
                let d = self.devs.entry(host).or_default();
                let (used, inflight) = (d.ring_descs.value, d.bql_inflight.value);
                d.ring_descs.set(t, used.saturating_sub(descs));
                d.bql_inflight.set(t, inflight.saturating_sub(bytes));
                d.bql_limit = bql_limit;
            }
            Ev::WireTx {
                pkt, wire_bytes, ..
            } => {
                if let Some(posted) = self.posted.remove(&(host, pkt)) {
                    self.holds[RING_HOLD].push(t.saturating_sub(posted));
                }
                self.devs.entry(host).or_default().wire_bytes += wire_bytes;
            }
            _ => {}
        }
    }

    /// The summary of a run that ended (or was cut) at `end_ns`; `sock` names a socket: its
    /// peer, its flow and its application's kind.
    pub fn finish(
        mut self,
        end_ns: u64,
        sock: impl Fn(SockId) -> Option<(SockId, u32, String)>,
        host_names: &[String],
    ) -> (Summary, Option<Series>) {
        self.sample_until(end_ns);
        let open: Vec<_> = self.open.keys().copied().collect();
        let open_at_end = open.len();
        for (sk, skb) in open {
            self.close_hold(sk, skb, end_ns);
        }
        let secs = end_ns as f64 / 1e9;
        let rate = |bytes: u64| {
            if secs > 0.0 {
                bytes as f64 * 8.0 / secs
            } else {
                0.0
            }
        };
        let host_name = |h: u16| host_names.get(h as usize).cloned().unwrap_or_default();
        let read_of = |sk: SockId| self.socks.get(&sk).map_or(0, |s| s.read_bytes);
        let mut flows = Vec::new();
        for (&sk, s) in &self.socks {
            if s.segs.is_empty() {
                continue; // sent no data
            }
            let (peer, flow, app) = sock(sk).unwrap_or((NO_SOCK, 0, String::new()));
            let peer_read = read_of(peer);
            flows.push(FlowSummary {
                flow,
                host: host_name(s.host),
                sk,
                app,
                sent_bytes: s.sent_bytes,
                retrans_bytes: s.retrans_bytes,
                throughput_bps: rate(s.sent_bytes),
                acked_bytes: s.acked_bytes,
                peer_read_bytes: peer_read,
                goodput_bps: rate(peer_read),
                srtt_us: s.srtt.clone().map(|x| x.finish(end_ns)),
                cwnd: s.cwnd.clone().map(|x| x.finish(end_ns)),
                tso_segs: Distribution::of_sorted(s.segs.iter().map(|(&v, &n)| (v, n))),
                tso_histogram: s.segs.iter().map(|(&v, &n)| [v, n]).collect(),
            });
        }
        let devices = std::mem::take(&mut self.devs)
            .into_iter()
            .filter(|(_, d)| d.has_qdisc || d.has_ring)
            .map(|(h, d)| DeviceSummary {
                host: host_name(h),
                qdisc_bytes: d.has_qdisc.then(|| d.qdisc_bytes.clone().finish(end_ns)),
                qdisc_packets: d.has_qdisc.then(|| d.qdisc_packets.clone().finish(end_ns)),
                ring_descs: d.has_ring.then(|| d.ring_descs.clone().finish(end_ns)),
                bql_inflight_bytes: d.has_ring.then(|| d.bql_inflight.clone().finish(end_ns)),
            })
            .collect();
        let holds = HOLD_GATES
            .iter()
            .zip(self.holds.iter_mut())
            .map(|(gate, samples)| HoldSummary {
                gate: gate.to_string(),
                per: if matches!(*gate, "qdisc" | "ring") {
                    "packet"
                } else {
                    "skb"
                }
                .to_string(),
                total_ns: samples.iter().sum(),
                ns: Distribution::of(samples),
            })
            .collect();
        (
            Summary {
                elapsed_ns: end_ns,
                flows,
                devices,
                holds,
                holds_open_at_end: open_at_end as u64,
                events_by_kind: self
                    .kinds
                    .iter()
                    .map(|(k, n)| (k.to_string(), *n))
                    .collect(),
                acks_by_reason: self
                    .ack_reasons
                    .iter()
                    .map(|(k, n)| (k.to_string(), *n))
                    .collect(),
                pingpong_delacks: self.pingpong_delacks,
            },
            self.series,
        )
    }
}

impl DevAcc {
    fn queued_bytes_of(&self, pkt: u64) -> u64 {
        self.queued.get(&pkt).copied().unwrap_or(0)
    }
}

/// The summary of a run (`sendpath run`, `--json` `summary`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Summary {
    /// The span every time-weighted figure covers: t = 0 to the end of the run.
    pub elapsed_ns: u64,
    pub flows: Vec<FlowSummary>,
    pub devices: Vec<DeviceSummary>,
    /// Time held at each gate, in [`HOLD_GATES`] order.
    pub holds: Vec<HoldSummary>,
    /// skb holds still open at the end (counted up to the end).
    pub holds_open_at_end: u64,
    /// Events of each kind the run emitted.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub events_by_kind: BTreeMap<String, u64>,
    /// Pure ACKs sent, by the reason they left (`ack_xmit`).
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub acks_by_reason: BTreeMap<String, u64>,
    /// Delayed ACKs scheduled while the receiver was in pingpong (interactive) mode.
    pub pingpong_delacks: u64,
}

/// A socket that sent data.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FlowSummary {
    pub flow: u32,
    pub host: String,
    pub sk: u32,
    pub app: String,
    /// IP bytes of the data packets sent (headers and retransmissions included).
    pub sent_bytes: u64,
    /// Payload bytes sent again (below the highest sequence already sent).
    pub retrans_bytes: u64,
    pub throughput_bps: f64,
    /// Bytes newly acknowledged by the peer.
    pub acked_bytes: u64,
    /// Bytes the peer's application read.
    pub peer_read_bytes: u64,
    pub goodput_bps: f64,
    /// None before the first ACK.
    pub srtt_us: Option<MinAvgMax>,
    pub cwnd: Option<MinAvgMax>,
    /// Segments per transmitted skb (`xmit` `segs`, TSO/GSO packet size in MSS).
    pub tso_segs: Distribution,
    /// `[segments, skbs]`, in increasing segments.
    pub tso_histogram: Vec<[u64; 2]>,
}

/// A host's device over the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DeviceSummary {
    pub host: String,
    /// The qdisc's backlog (`tc -s qdisc` "backlog Xb Yp"); none when it never queued.
    pub qdisc_bytes: Option<LevelSummary>,
    pub qdisc_packets: Option<LevelSummary>,
    /// TX ring descriptors in use and BQL bytes in flight; none without a ring (lo, veth).
    pub ring_descs: Option<LevelSummary>,
    pub bql_inflight_bytes: Option<LevelSummary>,
}

/// How long skbs (or packets) were held at one gate.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HoldSummary {
    pub gate: String,
    /// `"skb"` (held by TCP) or `"packet"` (waited below TCP).
    pub per: String,
    pub total_ns: u64,
    /// One sample per hold, ns.
    pub ns: Distribution,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles_of_ten_samples() {
        let mut s: Vec<u64> = (1..=10).rev().collect();
        let d = Distribution::of(&mut s);
        assert_eq!((d.count, d.p50, d.p90, d.p99, d.max), (10, 5, 9, 10, 10));
        assert_eq!(d.mean, 5.5);
    }

    #[test]
    fn a_level_weights_each_value_by_the_time_it_held() {
        let mut l = Level::default();
        l.set(0, 0);
        l.set(90, 10); // 0 for 90 ns
        l.set(99, 0); // 10 for 9 ns
        l.set(100, 50); // 0 for 1 ns, then 50 until 100
        let s = l.finish(100);
        assert_eq!((s.p50, s.p99, s.max), (0, 10, 50));
        assert!((s.avg - 0.9).abs() < 1e-9, "{}", s.avg);
    }
}
