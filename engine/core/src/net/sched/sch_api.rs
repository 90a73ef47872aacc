//! The queueing discipline attached to a device's TX queue (`struct Qdisc`).
//!
//! Follows: `include/net/sch_generic.h` (Linux 6.18): `enqueue`/`dequeue` operations and the
//! statistics `tc -s qdisc` prints (`struct gnet_stats_basic`, `gnet_stats_queue`).
//!
//! Dispatch is an enum, not a trait object, so a whole simulation can be cloned (the site keeps
//! checkpoints) and the hot path has no indirect call.

use crate::net::core::skbuff::{Packet, SockId};
use crate::net::sched::sch_fq::Fq;
use crate::net::sched::sch_fq_codel::FqCodel;
use crate::net::sched::sch_generic::PfifoFast;

/// Result of an enqueue (`NET_XMIT_SUCCESS` / `NET_XMIT_DROP` / `NET_XMIT_CN`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnqueueResult {
    Success,
    /// The packet was dropped (it is returned so the caller can free it and account the drop).
    Dropped(Box<Packet>, DropReason),
    /// Enqueued, but the qdisc dropped *another* packet to make room (fq_codel's
    /// `fq_codel_drop` on overlimit): `NET_XMIT_CN`.
    ///
    /// fq_codel returns `NET_XMIT_CN` only when the victims came from the new packet's own
    /// flow (which may include the new packet itself: head drops of a fat flow); victims of
    /// another flow are reported as [`QdiscEvent::Dropped`] with `Success`, as the kernel
    /// returns `NET_XMIT_SUCCESS` then. TCP treats both the same (`net_xmit_eval`).
    Congested(Vec<Packet>),
}

/// Something a qdisc did besides the call's result, drained by the device after each call
/// ([`Qdisc::drain_events`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QdiscEvent {
    /// fq throttled the flow of `sk` (`NO_SOCK` for an orphan flow) until `until_ns`
    /// (`fq_flow_set_throttled`).
    Throttled { sk: SockId, until_ns: u64 },
    /// fq set `sk->sk_pacing_status = SK_PACING_FQ` (`fq_classify`, 4.13+): TCP must now rely
    /// on fq for pacing (no internal pacing; 4.20..6.15 also exempts the socket from the
    /// `tcp_limit_output_bytes` clamp in `tcp_small_queue_check`). Reported once per socket.
    PacingFq { sk: SockId },
    /// A packet dropped outside the enqueue result: CoDel drops during dequeue, fq_codel's
    /// overlimit drops of another flow. The skb is freed (its destructor runs).
    Dropped(Box<Packet>, DropReason),
}

/// Why a qdisc dropped a packet (shown in the trace and counted in `tc -s` `dropped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// `sch->limit` / ring of a pfifo_fast band / `txqueuelen` reached.
    QueueFull,
    /// fq `flow_limit` reached for this flow (`flows_plimit`).
    FlowLimit,
    /// fq horizon: EDT further in the future than `horizon` with `horizon_drop`.
    Horizon,
    /// fq_codel/CoDel control-law drop.
    Codel,
    /// fq_codel `memory_limit` reached (`drop_overmemory`).
    Overmemory,
    /// A `noqueue` device whose TX queue is stopped (`__dev_queue_xmit`: "Virtual device
    /// asks to queue packet!").
    TxQueueStopped,
}

/// Result of a dequeue attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dequeue {
    Packet(Packet),
    /// Nothing to send.
    Empty,
    /// Packets are queued but none may leave before this time (fq pacing): the qdisc watchdog
    /// (`qdisc_watchdog_schedule_range_ns`) must run `__qdisc_run` again then.
    Throttled {
        until_ns: u64,
    },
}

/// Counters in the form `tc -s qdisc show` prints them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct QdiscStats {
    /// "Sent N bytes M pkt": bytes use `qdisc_pkt_len`, packets count GSO segments
    /// (`bstats.packets += skb_is_gso ? gso_segs : 1`).
    pub sent_bytes: u64,
    pub sent_packets: u64,
    pub dropped: u64,
    pub overlimits: u64,
    pub requeues: u64,
    /// "backlog Xb Yp": current bytes and packets (skbs) queued.
    pub backlog_bytes: u64,
    pub backlog_packets: u64,
    /// Qdisc-specific lines (fq: `flows`, `throttled`, `flows_plimit`, ...; fq_codel:
    /// `maxpacket`, `drop_overlimit`, `new_flow_count`, ...), in `tc`'s order.
    pub extra: Vec<(String, u64)>,
}

impl QdiscStats {
    /// The statistics in the layout `tc -s qdisc show dev DEV` prints them, for qdisc `kind`.
    pub fn tc_s(&self, kind: &str) -> String {
        let mut s = format!(
            "qdisc {kind} 0: root\n Sent {} bytes {} pkt (dropped {}, overlimits {} requeues {})\n backlog {}b {}p requeues {}\n",
            self.sent_bytes,
            self.sent_packets,
            self.dropped,
            self.overlimits,
            self.requeues,
            self.backlog_bytes,
            self.backlog_packets,
            self.requeues
        );
        for line in self.extra.chunks(6) {
            s.push(' ');
            for (k, v) in line {
                s.push_str(&format!(" {k} {v}"));
            }
            s.push('\n');
        }
        s
    }
}

/// The qdisc kinds the model implements.
// One qdisc per device, built once and never moved on the hot path: the size of the largest
// variant (fq's tables) costs nothing, while boxing it would add an indirection per packet.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Qdisc {
    /// No queue (`noqueue`, loopback and veth): `dev_queue_xmit` calls the driver directly.
    Noqueue,
    PfifoFast(PfifoFast),
    Fq(Fq),
    FqCodel(FqCodel),
}

impl Qdisc {
    pub fn kind(&self) -> &'static str {
        match self {
            Qdisc::Noqueue => "noqueue",
            Qdisc::PfifoFast(_) => "pfifo_fast",
            Qdisc::Fq(_) => "fq",
            Qdisc::FqCodel(_) => "fq_codel",
        }
    }

    pub fn enqueue(&mut self, pkt: Packet, now_ns: u64) -> EnqueueResult {
        match self {
            Qdisc::Noqueue => panic!("enqueue on noqueue: dev_queue_xmit must bypass it"),
            Qdisc::PfifoFast(q) => q.enqueue(pkt, now_ns),
            Qdisc::Fq(q) => q.enqueue(pkt, now_ns),
            Qdisc::FqCodel(q) => q.enqueue(pkt, now_ns),
        }
    }

    pub fn dequeue(&mut self, now_ns: u64) -> Dequeue {
        match self {
            Qdisc::Noqueue => Dequeue::Empty,
            Qdisc::PfifoFast(q) => q.dequeue(now_ns),
            Qdisc::Fq(q) => q.dequeue(now_ns),
            Qdisc::FqCodel(q) => q.dequeue(now_ns),
        }
    }

    /// `dev_requeue_skb`: put back a packet the driver refused (ring full); it leaves first
    /// next time (`q->gso_skb`).
    pub fn requeue(&mut self, pkt: Packet) {
        match self {
            Qdisc::Noqueue => panic!("requeue on noqueue"),
            Qdisc::PfifoFast(q) => q.requeue(pkt),
            Qdisc::Fq(q) => q.requeue(pkt),
            Qdisc::FqCodel(q) => q.requeue(pkt),
        }
    }

    /// `TCQ_F_CAN_BYPASS`: may `__dev_xmit_skb` hand a packet straight to the driver when
    /// this qdisc is empty? (pfifo_fast, fq_codel: yes; fq: no, it has its own fast path.)
    pub fn can_bypass(&self) -> bool {
        match self {
            Qdisc::Noqueue => false,
            Qdisc::PfifoFast(q) => q.can_bypass,
            Qdisc::Fq(_) => false,
            Qdisc::FqCodel(q) => q.can_bypass(),
        }
    }

    /// The bypass path's `qdisc_bstats_update`: the packet counts as sent by the qdisc.
    pub fn bypass(&mut self, pkt: &Packet) {
        match self {
            Qdisc::PfifoFast(q) => q.bypass(pkt),
            Qdisc::FqCodel(q) => q.bypass(pkt),
            Qdisc::Noqueue | Qdisc::Fq(_) => panic!("{} cannot be bypassed", self.kind()),
        }
    }

    /// Appends to `out` what the qdisc did since the last call besides its results
    /// (throttles, pacing marks, drops during dequeue).
    pub fn drain_events(&mut self, out: &mut Vec<QdiscEvent>) {
        match self {
            Qdisc::Noqueue | Qdisc::PfifoFast(_) => {}
            Qdisc::Fq(q) => q.drain_events(out),
            Qdisc::FqCodel(q) => q.drain_events(out),
        }
    }

    /// Packets waiting in the requeue slot (`q->gso_skb`); `dequeue_skb` takes them one at a
    /// time, without bulking or validating again.
    pub fn requeued_len(&self) -> u32 {
        match self {
            Qdisc::Noqueue => 0,
            Qdisc::PfifoFast(q) => q.requeued_len(),
            Qdisc::Fq(q) => q.requeued_len(),
            Qdisc::FqCodel(q) => q.requeued_len(),
        }
    }

    /// Packets (skbs) queued.
    pub fn qlen(&self) -> u32 {
        match self {
            Qdisc::Noqueue => 0,
            Qdisc::PfifoFast(q) => q.qlen(),
            Qdisc::Fq(q) => q.qlen(),
            Qdisc::FqCodel(q) => q.qlen(),
        }
    }

    /// Bytes queued (`qdisc_pkt_len` sum).
    pub fn backlog_bytes(&self) -> u64 {
        match self {
            Qdisc::Noqueue => 0,
            Qdisc::PfifoFast(q) => q.backlog_bytes(),
            Qdisc::Fq(q) => q.backlog_bytes(),
            Qdisc::FqCodel(q) => q.backlog_bytes(),
        }
    }

    pub fn stats(&self) -> QdiscStats {
        match self {
            Qdisc::Noqueue => QdiscStats::default(),
            Qdisc::PfifoFast(q) => q.stats(),
            Qdisc::Fq(q) => q.stats(),
            Qdisc::FqCodel(q) => q.stats(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tc_s_prints_sent_backlog_and_the_qdisc_lines() {
        let st = QdiscStats {
            sent_bytes: 3028,
            sent_packets: 2,
            dropped: 1,
            requeues: 3,
            backlog_bytes: 1514,
            backlog_packets: 1,
            extra: vec![("flows".into(), 1), ("throttled".into(), 4)],
            ..QdiscStats::default()
        };
        assert_eq!(
            st.tc_s("fq"),
            "qdisc fq 0: root\n Sent 3028 bytes 2 pkt (dropped 1, overlimits 0 requeues 3)\n backlog 1514b 1p requeues 3\n  flows 1 throttled 4\n"
        );
    }
}
