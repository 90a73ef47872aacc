//! `bfifo`: one FIFO limited in bytes (`net/sched/sch_fifo.c`, Linux 6.18). The model uses it
//! only as tbf's inner qdisc (`q->qdisc`, made by `fifo_create_dflt(sch, &bfifo_qdisc_ops,
//! qopt->limit)` in `tbf_change`); it is not a root qdisc a scenario can choose.
//!
//! Simplified:
//! - no `TCQ_F_CAN_BYPASS` (which `fifo_init` sets from the limit), because an inner qdisc is
//!   never bypassed: `__dev_xmit_skb` looks at the root's flags only; visible effect: none.

use std::collections::VecDeque;

use crate::include::linux::skbuff::Packet;

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
