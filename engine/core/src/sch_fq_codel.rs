//! `fq_codel` (`net/sched/sch_fq_codel.c`). PLACEHOLDER being replaced by the full model: until then it
//! behaves as a single FIFO so the rest of the engine can be integrated.

use std::collections::VecDeque;

use crate::qdisc::{Dequeue, EnqueueResult, QdiscStats};
use crate::skb::Packet;

#[derive(Clone, Debug, Default)]
pub struct FqCodel {
    q: VecDeque<Packet>,
    backlog_bytes: u64,
    stats: QdiscStats,
}

impl FqCodel {
    pub fn enqueue(&mut self, pkt: Packet, _now_ns: u64) -> EnqueueResult {
        self.backlog_bytes += pkt.qdisc_pkt_len() as u64;
        self.q.push_back(pkt);
        EnqueueResult::Success
    }
    pub fn dequeue(&mut self, _now_ns: u64) -> Dequeue {
        match self.q.pop_front() {
            Some(p) => {
                self.backlog_bytes -= p.qdisc_pkt_len() as u64;
                self.stats.sent_bytes += p.qdisc_pkt_len() as u64;
                self.stats.sent_packets += p.gso_segs.max(1) as u64;
                Dequeue::Packet(p)
            }
            None => Dequeue::Empty,
        }
    }
    pub fn requeue(&mut self, pkt: Packet) {
        self.backlog_bytes += pkt.qdisc_pkt_len() as u64;
        self.q.push_front(pkt);
    }
    pub fn qlen(&self) -> u32 {
        self.q.len() as u32
    }
    pub fn backlog_bytes(&self) -> u64 {
        self.backlog_bytes
    }
    pub fn stats(&self) -> QdiscStats {
        self.stats.clone()
    }
}
