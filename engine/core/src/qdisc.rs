//! The queueing discipline attached to a device's TX queue (`struct Qdisc`).
//!
//! Follows: `include/net/sch_generic.h` (Linux 6.18): `enqueue`/`dequeue` operations and the
//! statistics `tc -s qdisc` prints (`struct gnet_stats_basic`, `gnet_stats_queue`).
//!
//! Dispatch is an enum, not a trait object, so a whole simulation can be cloned (the site keeps
//! checkpoints) and the hot path has no indirect call.

use crate::sch_fq::Fq;
use crate::sch_fq_codel::FqCodel;
use crate::sch_generic::PfifoFast;
use crate::skb::Packet;

/// Result of an enqueue (`NET_XMIT_SUCCESS` / `NET_XMIT_DROP` / `NET_XMIT_CN`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnqueueResult {
    Success,
    /// The packet was dropped (it is returned so the caller can free it and account the drop).
    Dropped(Box<Packet>, DropReason),
    /// Enqueued, but the qdisc dropped *another* packet to make room (fq_codel's
    /// `fq_codel_drop` on overlimit): `NET_XMIT_CN`.
    Congested(Vec<Packet>),
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

/// The qdisc kinds the model implements.
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
