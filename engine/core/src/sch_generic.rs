//! `pfifo_fast`, the default qdisc (`net/sched/sch_generic.c`, Linux 6.18).
//!
//! Three bands served in strict priority; `skb->priority & TC_PRIO_MAX` selects the band
//! through `prio2band`. Since 4.16 each band is a ring of `dev->tx_queue_len` slots, so the
//! limit applies per band.
//!
//! Simplified:
//! - one TX queue (no `mq` parent), because the model's NIC has one TX ring; visible effect:
//!   none for a single queue.

use std::collections::VecDeque;

use crate::qdisc::{Dequeue, DropReason, EnqueueResult, QdiscStats};
use crate::skb::Packet;

/// `prio2band` (sch_generic.c): `skb->priority & 15` to band.
pub const PRIO2BAND: [usize; 16] = [1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
pub const PFIFO_FAST_BANDS: usize = 3;

#[derive(Clone, Debug)]
pub struct PfifoFast {
    /// `dev->tx_queue_len` (`ip link set txqueuelen`): slots per band.
    pub txqueuelen: u32,
    bands: [VecDeque<Packet>; PFIFO_FAST_BANDS],
    requeued: Option<Packet>,
    backlog_bytes: u64,
    stats: QdiscStats,
}

impl PfifoFast {
    pub fn new(txqueuelen: u32) -> Self {
        PfifoFast {
            txqueuelen,
            bands: Default::default(),
            requeued: None,
            backlog_bytes: 0,
            stats: QdiscStats::default(),
        }
    }

    /// `pfifo_fast_enqueue`: drop (`qdisc_drop_cpu`) when the band's ring is full.
    pub fn enqueue(&mut self, pkt: Packet, _now_ns: u64) -> EnqueueResult {
        let band = PRIO2BAND[(pkt.priority & 15) as usize];
        if self.bands[band].len() as u32 >= self.txqueuelen {
            self.stats.dropped += 1;
            return EnqueueResult::Dropped(Box::new(pkt), DropReason::QueueFull);
        }
        self.backlog_bytes += pkt.qdisc_pkt_len() as u64;
        self.bands[band].push_back(pkt);
        EnqueueResult::Success
    }

    /// `pfifo_fast_dequeue`: first packet of the first non-empty band.
    pub fn dequeue(&mut self, _now_ns: u64) -> Dequeue {
        let pkt = match self.requeued.take() {
            Some(p) => Some(p),
            None => self.bands.iter_mut().find_map(|b| b.pop_front()),
        };
        match pkt {
            Some(p) => {
                let l = p.qdisc_pkt_len() as u64;
                self.backlog_bytes -= l;
                self.stats.sent_bytes += l;
                self.stats.sent_packets += p.gso_segs.max(1) as u64;
                Dequeue::Packet(p)
            }
            None => Dequeue::Empty,
        }
    }

    pub fn requeue(&mut self, pkt: Packet) {
        assert!(
            self.requeued.is_none(),
            "pfifo_fast: second requeue before dequeue"
        );
        let l = pkt.qdisc_pkt_len() as u64;
        self.backlog_bytes += l;
        self.stats.sent_bytes -= l;
        self.stats.sent_packets -= pkt.gso_segs.max(1) as u64;
        self.stats.requeues += 1;
        self.requeued = Some(pkt);
    }

    pub fn qlen(&self) -> u32 {
        self.bands.iter().map(|b| b.len() as u32).sum::<u32>() + self.requeued.is_some() as u32
    }

    pub fn backlog_bytes(&self) -> u64 {
        self.backlog_bytes
    }

    pub fn stats(&self) -> QdiscStats {
        let mut s = self.stats.clone();
        s.backlog_bytes = self.backlog_bytes;
        s.backlog_packets = self.qlen() as u64;
        s
    }
}
