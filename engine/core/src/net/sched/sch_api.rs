//! The root qdisc of a device (`net/sched/sch_api.c` attaches it; `dev->qdisc`): which of the
//! modelled qdiscs it is, and the calls `dev_queue_xmit` makes into it. The interface every
//! qdisc implements (results, drop reasons, statistics) is in `sch_generic.rs`.
//!
//! Dispatch is an enum, not a trait object, so a whole simulation can be cloned (the site keeps
//! checkpoints) and the hot path has no indirect call.

use crate::include::linux::skbuff::Packet;
use crate::net::sched::sch_fifo::Pfifo;
use crate::net::sched::sch_fq::Fq;
use crate::net::sched::sch_fq_codel::FqCodel;
use crate::net::sched::sch_generic::{Dequeue, EnqueueResult, PfifoFast, QdiscEvent, QdiscStats};
use crate::net::sched::sch_tbf::Tbf;

/// The qdisc kinds the model implements.
// One qdisc per device, built once and never moved on the hot path: the size of the largest
// variant (fq's tables) costs nothing, while boxing it would add an indirection per packet.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Qdisc {
    /// No queue (`noqueue`, loopback and veth): `dev_queue_xmit` calls the driver directly.
    Noqueue,
    PfifoFast(PfifoFast),
    /// A packet-limited FIFO (`pfifo`): only the packetdrill runner attaches one.
    Pfifo(Pfifo),
    Fq(Fq),
    FqCodel(FqCodel),
    Tbf(Tbf),
}

impl Qdisc {
    pub fn kind(&self) -> &'static str {
        match self {
            Qdisc::Noqueue => "noqueue",
            Qdisc::PfifoFast(_) => "pfifo_fast",
            Qdisc::Pfifo(_) => "pfifo",
            Qdisc::Fq(_) => "fq",
            Qdisc::FqCodel(_) => "fq_codel",
            Qdisc::Tbf(_) => "tbf",
        }
    }

    /// Every packet the qdisc holds now (`tc -s qdisc show`'s backlog, packet by packet), in no
    /// particular order.
    pub fn packets(&self) -> Box<dyn Iterator<Item = &Packet> + '_> {
        match self {
            Qdisc::Noqueue => Box::new(std::iter::empty()),
            Qdisc::PfifoFast(q) => Box::new(q.packets()),
            Qdisc::Pfifo(q) => Box::new(q.packets()),
            Qdisc::Fq(q) => Box::new(q.packets()),
            Qdisc::FqCodel(q) => Box::new(q.packets()),
            Qdisc::Tbf(q) => Box::new(q.packets()),
        }
    }

    pub fn enqueue(&mut self, pkt: Packet, now_ns: u64) -> EnqueueResult {
        match self {
            Qdisc::Noqueue => panic!("enqueue on noqueue: dev_queue_xmit must bypass it"),
            Qdisc::PfifoFast(q) => q.enqueue(pkt, now_ns),
            Qdisc::Pfifo(q) => q.enqueue(pkt),
            Qdisc::Fq(q) => q.enqueue(pkt, now_ns),
            Qdisc::FqCodel(q) => q.enqueue(pkt, now_ns),
            Qdisc::Tbf(q) => q.enqueue(pkt, now_ns),
        }
    }

    pub fn dequeue(&mut self, now_ns: u64) -> Dequeue {
        match self {
            Qdisc::Noqueue => Dequeue::Empty,
            Qdisc::PfifoFast(q) => q.dequeue(now_ns),
            Qdisc::Pfifo(q) => q.dequeue(),
            Qdisc::Fq(q) => q.dequeue(now_ns),
            Qdisc::FqCodel(q) => q.dequeue(now_ns),
            Qdisc::Tbf(q) => q.dequeue(now_ns),
        }
    }

    /// `dev_requeue_skb`: put back a packet the driver refused (ring full); it leaves first
    /// next time (`q->gso_skb`).
    pub fn requeue(&mut self, pkt: Packet) {
        match self {
            Qdisc::Noqueue => panic!("requeue on noqueue"),
            Qdisc::PfifoFast(q) => q.requeue(pkt),
            Qdisc::Pfifo(q) => q.requeue(pkt),
            Qdisc::Fq(q) => q.requeue(pkt),
            Qdisc::FqCodel(q) => q.requeue(pkt),
            Qdisc::Tbf(q) => q.requeue(pkt),
        }
    }

    /// `TCQ_F_CAN_BYPASS`: may `__dev_xmit_skb` hand a packet straight to the driver when
    /// this qdisc is empty? (pfifo_fast, fq_codel: yes; fq: no, it has its own fast path;
    /// tbf: no, every packet must pay its tokens.)
    pub fn can_bypass(&self) -> bool {
        match self {
            Qdisc::Noqueue => false,
            Qdisc::PfifoFast(q) => q.can_bypass,
            Qdisc::Pfifo(q) => q.can_bypass(),
            Qdisc::Fq(_) | Qdisc::Tbf(_) => false,
            Qdisc::FqCodel(q) => q.can_bypass(),
        }
    }

    /// The bypass path's `qdisc_bstats_update`: the packet counts as sent by the qdisc.
    pub fn bypass(&mut self, pkt: &Packet) {
        match self {
            Qdisc::PfifoFast(q) => q.bypass(pkt),
            Qdisc::Pfifo(q) => q.bypass(pkt),
            Qdisc::FqCodel(q) => q.bypass(pkt),
            Qdisc::Noqueue | Qdisc::Fq(_) | Qdisc::Tbf(_) => {
                panic!("{} cannot be bypassed", self.kind())
            }
        }
    }

    /// Appends to `out` what the qdisc did since the last call besides its results
    /// (throttles, pacing marks, drops during dequeue, tbf's drops of segments).
    pub fn drain_events(&mut self, out: &mut Vec<QdiscEvent>) {
        match self {
            Qdisc::Noqueue | Qdisc::PfifoFast(_) | Qdisc::Pfifo(_) => {}
            Qdisc::Fq(q) => q.drain_events(out),
            Qdisc::FqCodel(q) => q.drain_events(out),
            Qdisc::Tbf(q) => q.drain_events(out),
        }
    }

    /// Packets waiting in the requeue slot (`q->gso_skb`); `dequeue_skb` takes them one at a
    /// time, without bulking or validating again.
    pub fn requeued_len(&self) -> u32 {
        match self {
            Qdisc::Noqueue => 0,
            Qdisc::PfifoFast(q) => q.requeued_len(),
            Qdisc::Pfifo(q) => q.requeued_len(),
            Qdisc::Fq(q) => q.requeued_len(),
            Qdisc::FqCodel(q) => q.requeued_len(),
            Qdisc::Tbf(q) => q.requeued_len(),
        }
    }

    /// Packets (skbs) queued.
    pub fn qlen(&self) -> u32 {
        match self {
            Qdisc::Noqueue => 0,
            Qdisc::PfifoFast(q) => q.qlen(),
            Qdisc::Pfifo(q) => q.qlen(),
            Qdisc::Fq(q) => q.qlen(),
            Qdisc::FqCodel(q) => q.qlen(),
            Qdisc::Tbf(q) => q.qlen(),
        }
    }

    /// Bytes queued (`qdisc_pkt_len` sum).
    pub fn backlog_bytes(&self) -> u64 {
        match self {
            Qdisc::Noqueue => 0,
            Qdisc::PfifoFast(q) => q.backlog_bytes(),
            Qdisc::Pfifo(q) => q.backlog_bytes(),
            Qdisc::Fq(q) => q.backlog_bytes(),
            Qdisc::FqCodel(q) => q.backlog_bytes(),
            Qdisc::Tbf(q) => q.backlog_bytes(),
        }
    }

    pub fn stats(&self) -> QdiscStats {
        match self {
            Qdisc::Noqueue => QdiscStats::default(),
            Qdisc::PfifoFast(q) => q.stats(),
            Qdisc::Pfifo(q) => q.stats(),
            Qdisc::Fq(q) => q.stats(),
            Qdisc::FqCodel(q) => q.stats(),
            Qdisc::Tbf(q) => q.stats(),
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
