//! The FIFOs of `net/sched/sch_fifo.c` (Linux 6.18):
//! - `bfifo`, limited in bytes, only as tbf's inner qdisc (`q->qdisc`, made by
//!   `fifo_create_dflt(sch, &bfifo_qdisc_ops, qopt->limit)` in `tbf_change`);
//! - `pfifo`, limited in packets, as a root qdisc that only the packetdrill runner attaches
//!   (`tc qdisc replace dev tun0 root pfifo limit N` in a script): not a scenario's choice.
//!
//! Simplified:
//! - bfifo has no `TCQ_F_CAN_BYPASS` (which `fifo_init` sets from the limit), because an inner
//!   qdisc is never bypassed: `__dev_xmit_skb` looks at the root's flags only; visible effect:
//!   none.

use std::collections::VecDeque;

use crate::include::linux::skbuff::Packet;
use crate::net::sched::sch_generic::{
    qdisc_bstats_update, Dequeue, DropReason, EnqueueResult, GsoSkb, QdiscStats,
};

/// A root `pfifo`: `sch->limit` packets, its queue, the requeue slot and the counters.
#[derive(Clone, Debug)]
pub struct Pfifo {
    /// `sch->limit`, packets (`tc ... pfifo limit N`).
    pub limit: u32,
    q: VecDeque<Packet>,
    gso_skb: GsoSkb,
    backlog_bytes: u64,
    stats: QdiscStats,
}

impl Pfifo {
    pub fn new(limit: u32) -> Pfifo {
        Pfifo {
            limit,
            q: VecDeque::new(),
            gso_skb: GsoSkb::default(),
            backlog_bytes: 0,
            stats: QdiscStats::default(),
        }
    }

    /// `__fifo_init`: `TCQ_F_CAN_BYPASS` only when the limit lets at least one packet in (a
    /// `pfifo limit 0` is never bypassed: every packet is refused).
    pub fn can_bypass(&self) -> bool {
        self.limit >= 1
    }

    /// `pfifo_enqueue`: append while fewer than `limit` packets are queued, else `qdisc_drop`.
    pub fn enqueue(&mut self, pkt: Packet) -> EnqueueResult {
        if (self.q.len() as u32) < self.limit {
            self.backlog_bytes += pkt.qdisc_pkt_len() as u64;
            self.q.push_back(pkt);
            return EnqueueResult::Success;
        }
        self.stats.dropped += 1;
        EnqueueResult::Dropped(Box::new(pkt), DropReason::QueueFull)
    }

    /// `dequeue_skb` + `qdisc_dequeue_head`: a requeued packet first, else the head.
    pub fn dequeue(&mut self) -> Dequeue {
        if let Some(p) = self.gso_skb.pop() {
            return Dequeue::Packet(p);
        }
        match self.q.pop_front() {
            Some(p) => {
                self.backlog_bytes -= p.qdisc_pkt_len() as u64;
                qdisc_bstats_update(&mut self.stats, &p);
                Dequeue::Packet(p)
            }
            None => Dequeue::Empty,
        }
    }

    /// `dev_requeue_skb`: the driver refused `pkt`; it leaves first next time.
    pub fn requeue(&mut self, pkt: Packet) {
        self.gso_skb.push(pkt, &mut self.stats);
    }

    /// `__dev_xmit_skb` bypass of the empty qdisc: only "Sent" is updated.
    pub fn bypass(&mut self, pkt: &Packet) {
        qdisc_bstats_update(&mut self.stats, pkt);
    }

    pub fn requeued_len(&self) -> u32 {
        self.gso_skb.len()
    }

    pub fn qlen(&self) -> u32 {
        self.q.len() as u32 + self.gso_skb.len()
    }

    pub fn backlog_bytes(&self) -> u64 {
        self.backlog_bytes + self.gso_skb.bytes()
    }

    /// Every packet the qdisc holds (its requeue slot and its queue).
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.gso_skb.packets().chain(self.q.iter())
    }

    pub fn stats(&self) -> QdiscStats {
        let mut s = self.stats.clone();
        s.backlog_bytes = self.backlog_bytes();
        s.backlog_packets = self.qlen() as u64;
        s
    }
}

/// `struct Qdisc` of a bfifo: `sch->limit` bytes, its queue and `qstats.backlog`.
#[derive(Clone, Debug)]
pub struct Bfifo {
    /// `sch->limit`, bytes of `qdisc_pkt_len`.
    pub limit: u32,
    q: VecDeque<Packet>,
    backlog: u64,
    /// `qstats.drops` of the bfifo itself (tbf counts the same drops in its own).
    pub drops: u64,
}

impl Bfifo {
    pub fn new(limit: u32) -> Bfifo {
        Bfifo {
            limit,
            q: VecDeque::new(),
            backlog: 0,
            drops: 0,
        }
    }

    /// `bfifo_enqueue`: append when `backlog + qdisc_pkt_len(skb) <= limit`, else
    /// `qdisc_drop`. Returns the packet back when it was dropped.
    pub fn bfifo_enqueue(&mut self, pkt: Packet) -> Result<(), Packet> {
        let len = pkt.qdisc_pkt_len() as u64;
        if self.backlog + len <= self.limit as u64 {
            // qdisc_enqueue_tail
            self.backlog += len;
            self.q.push_back(pkt);
            return Ok(());
        }
        self.drops += 1; // qdisc_drop: qdisc_qstats_drop(sch)
        Err(pkt)
    }

    /// `qdisc_peek_head`.
    pub fn peek(&self) -> Option<&Packet> {
        self.q.front()
    }

    /// `qdisc_dequeue_head`.
    pub fn dequeue(&mut self) -> Option<Packet> {
        let p = self.q.pop_front()?;
        self.backlog -= p.qdisc_pkt_len() as u64;
        Some(p)
    }

    pub fn qlen(&self) -> u32 {
        self.q.len() as u32
    }

    pub fn backlog_bytes(&self) -> u64 {
        self.backlog
    }
}

impl Bfifo {
    /// Every packet in the queue, head first.
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.q.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pfifo_holds_limit_packets_and_limit_0_refuses_every_packet_without_bypass() {
        let p = |id| Packet::test_data(id, 0, 934, 1, 1448);
        let mut q = Pfifo::new(2);
        assert!(q.can_bypass());
        assert_eq!(q.enqueue(p(1)), EnqueueResult::Success);
        assert_eq!(q.enqueue(p(2)), EnqueueResult::Success);
        assert!(matches!(q.enqueue(p(3)), EnqueueResult::Dropped(d, _) if d.id == 3));
        assert_eq!((q.qlen(), q.stats().dropped), (2, 1));
        assert!(matches!(q.dequeue(), Dequeue::Packet(d) if d.id == 1));
        // `pfifo limit 0`: no TCQ_F_CAN_BYPASS, so __dev_xmit_skb must enqueue, and fails.
        let mut z = Pfifo::new(0);
        assert!(!z.can_bypass());
        assert!(matches!(z.enqueue(p(4)), EnqueueResult::Dropped(..)));
    }

    #[test]
    fn bfifo_takes_a_packet_only_while_the_backlog_stays_within_its_byte_limit() {
        let p = |id| Packet::test_data(id, 0, 934, 1, 1448); // 1000 bytes with headers
        let mut q = Bfifo::new(2000);
        assert!(q.bfifo_enqueue(p(1)).is_ok());
        assert!(q.bfifo_enqueue(p(2)).is_ok());
        assert_eq!(q.bfifo_enqueue(p(3)).map_err(|p| p.id), Err(3));
        assert_eq!((q.qlen(), q.backlog_bytes(), q.drops), (2, 2000, 1));
        assert_eq!(q.dequeue().map(|p| p.id), Some(1));
        assert_eq!(q.backlog_bytes(), 1000);
    }
}
