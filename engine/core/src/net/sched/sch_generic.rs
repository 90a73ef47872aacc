//! `pfifo_fast`, the default qdisc, and the generic requeue slot (`q->gso_skb`) every qdisc has
//! (`net/sched/sch_generic.c`, Linux 6.18; the pre-4.16 limit rule from the 4.15 source).
//!
//! Three bands served in strict priority; `skb->priority & TC_PRIO_MAX` selects the band
//! through `prio2band`. Since 4.16 (lockless pfifo_fast, "net: sched: add support for
//! TCQ_F_NOLOCK subqueues to sch_mq") each band is a `skb_array` ring of `dev->tx_queue_len`
//! slots, so the limit applies per band; before, one limit applied to the whole qdisc.
//!
//! `noqueue` has no code here: it is [`crate::net::sched::sch_api::Qdisc::Noqueue`], and `__dev_queue_xmit`
//! (in `dev.rs`) hands packets straight to the driver when the qdisc has no `enqueue`.
//!
//! Simplified:
//! - one TX queue (no `mq` parent), because the model's NIC has one TX ring; visible effect:
//!   none for a single queue.
//! - per-CPU statistics are one set, because the model runs the qdisc on one logical CPU at a
//!   time; visible effect: none (`tc` sums the per-CPU counters).

use std::collections::VecDeque;

use crate::include::linux::skbuff::{Packet, SockId};

// ---- The interface of a qdisc (`struct Qdisc_ops`, `include/net/sch_generic.h`) ----

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
/// (`Qdisc::drain_events` in `sch_api.rs`).
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
    /// tbf: a packet larger than the bucket (`max_size`) that is not GSO, so `tbf_segment`
    /// cannot split it.
    Oversize,
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

/// `TC_PRIO_MAX`: `skb->priority & TC_PRIO_MAX` indexes `prio2band`.
pub const TC_PRIO_MAX: u8 = 15;

/// `prio2band` (sch_generic.c), also `sch_default_prio2band` used by fq 6.7+.
pub const PRIO2BAND: [usize; 16] = [1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
/// `PFIFO_FAST_BANDS`.
pub const PFIFO_FAST_BANDS: usize = 3;

/// `q->gso_skb`: packets `dev_requeue_skb` put back after the driver refused them. They are
/// already dequeued (their bytes already counted in "Sent") and validated (already segmented);
/// `dequeue_skb` hands them out before asking the qdisc. Every qdisc kind has one.
#[derive(Clone, Debug, Default)]
pub struct GsoSkb {
    q: VecDeque<Packet>,
    bytes: u64,
}

impl GsoSkb {
    /// `__dev_requeue_skb`: append (a requeued list keeps its order).
    pub fn push(&mut self, pkt: Packet, stats: &mut QdiscStats) {
        self.bytes += pkt.qdisc_pkt_len() as u64;
        stats.requeues += 1; // q->qstats.requeues++
        self.q.push_back(pkt);
    }

    /// Every packet in the requeue list.
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.q.iter()
    }

    /// The head of the requeue list, removed.
    pub fn pop(&mut self) -> Option<Packet> {
        let p = self.q.pop_front()?;
        self.bytes -= p.qdisc_pkt_len() as u64;
        Some(p)
    }

    pub fn len(&self) -> u32 {
        self.q.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// `qdisc_bstats_update`: "Sent" counts `qdisc_pkt_len` bytes and, for a GSO skb, every
/// segment as a packet.
#[inline]
pub fn qdisc_bstats_update(stats: &mut QdiscStats, pkt: &Packet) {
    stats.sent_bytes += pkt.qdisc_pkt_len() as u64;
    stats.sent_packets += pkt.gso_segs.max(1) as u64;
}

/// `struct pfifo_fast_priv` plus the qdisc's counters.
#[derive(Clone, Debug)]
pub struct PfifoFast {
    /// `dev->tx_queue_len` (`ip link set txqueuelen`, default 1000).
    pub txqueuelen: u32,
    /// 4.16+: the limit applies to each band's ring; before, to the sum of all bands.
    pub per_band_limit: bool,
    /// `TCQ_F_CAN_BYPASS`: an empty qdisc is bypassed by `__dev_xmit_skb` (`sch_direct_xmit`
    /// without enqueue). Set by `pfifo_fast_init`; the lockless pfifo_fast of 4.16..5.13 could
    /// not use it (restored by "net: sched: implement TCQ_F_CAN_BYPASS for lockless qdisc",
    /// 5.14).
    pub can_bypass: bool,
    bands: [VecDeque<Packet>; PFIFO_FAST_BANDS],
    gso_skb: GsoSkb,
    backlog_bytes: u64,
    stats: QdiscStats,
}

impl PfifoFast {
    /// pfifo_fast as today's kernels build it: per-band limit, bypass allowed.
    pub fn new(txqueuelen: u32) -> Self {
        Self::for_kernel(6, 18, txqueuelen)
    }

    /// pfifo_fast as kernel `major.minor` builds it (`pfifo_fast_init`).
    pub fn for_kernel(major: u32, minor: u32, txqueuelen: u32) -> Self {
        // pfifo_fast_init (4.16+): skb_array_init(q, dev->tx_queue_len) fails for 0.
        assert!(
            txqueuelen > 0,
            "pfifo_fast needs txqueuelen >= 1 (the kernel refuses a 0-slot ring)"
        );
        let v = (major, minor);
        let lockless = v >= (4, 16);
        PfifoFast {
            txqueuelen,
            per_band_limit: lockless,
            can_bypass: !lockless || v >= (5, 14),
            bands: Default::default(),
            gso_skb: GsoSkb::default(),
            backlog_bytes: 0,
            stats: QdiscStats::default(),
        }
    }

    fn queued_in_bands(&self) -> u32 {
        self.bands.iter().map(|b| b.len() as u32).sum()
    }

    /// `pfifo_fast_enqueue`: the band is `prio2band[skb->priority & TC_PRIO_MAX]`; a full ring
    /// (4.16+: this band has `txqueuelen` packets; before: the qdisc holds `txqueuelen`) drops
    /// the packet (`qdisc_drop_cpu`, counted in `dropped`). Returns `Success` or `Dropped`.
    pub fn enqueue(&mut self, pkt: Packet, _now_ns: u64) -> EnqueueResult {
        let band = PRIO2BAND[(pkt.priority & TC_PRIO_MAX) as usize];
        let full = if self.per_band_limit {
            // skb_array_produce fails when the band's ring is full.
            self.bands[band].len() as u32 >= self.txqueuelen
        } else {
            // pre-4.16: skb_queue_len(&qdisc->q) < tx_queue_len, requeued skbs included.
            self.qlen() >= self.txqueuelen
        };
        if full {
            self.stats.dropped += 1;
            return EnqueueResult::Dropped(Box::new(pkt), DropReason::QueueFull);
        }
        self.backlog_bytes += pkt.qdisc_pkt_len() as u64;
        self.bands[band].push_back(pkt);
        EnqueueResult::Success
    }

    /// `dequeue_skb` + `pfifo_fast_dequeue`: a requeued packet first, else the head of the
    /// first non-empty band (band 0 strictly before 1 before 2).
    pub fn dequeue(&mut self, _now_ns: u64) -> Dequeue {
        if let Some(p) = self.gso_skb.pop() {
            return Dequeue::Packet(p);
        }
        for band in self.bands.iter_mut() {
            if let Some(p) = band.pop_front() {
                self.backlog_bytes -= p.qdisc_pkt_len() as u64;
                qdisc_bstats_update(&mut self.stats, &p);
                return Dequeue::Packet(p);
            }
        }
        Dequeue::Empty
    }

    /// Packets in the requeue slot.
    pub fn requeued_len(&self) -> u32 {
        self.gso_skb.len()
    }

    /// `dev_requeue_skb`: the driver refused `pkt`; it leaves first next time.
    pub fn requeue(&mut self, pkt: Packet) {
        self.gso_skb.push(pkt, &mut self.stats);
    }

    /// `__dev_xmit_skb` bypass of the empty qdisc: only "Sent" is updated.
    pub fn bypass(&mut self, pkt: &Packet) {
        qdisc_bstats_update(&mut self.stats, pkt);
    }

    /// Packets queued per band (`tc -s` does not show it; the site does).
    pub fn band_qlen(&self, band: usize) -> u32 {
        self.bands[band].len() as u32
    }

    pub fn qlen(&self) -> u32 {
        self.queued_in_bands() + self.gso_skb.len()
    }

    pub fn backlog_bytes(&self) -> u64 {
        self.backlog_bytes + self.gso_skb.bytes()
    }

    pub fn stats(&self) -> QdiscStats {
        let mut s = self.stats.clone();
        s.backlog_bytes = self.backlog_bytes();
        s.backlog_packets = self.qlen() as u64;
        s
    }
}

impl PfifoFast {
    /// Every packet the qdisc holds (its requeue slot and its bands), in no particular order.
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.gso_skb.packets().chain(self.bands.iter().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(id: u64, priority: u8, payload: u32) -> Packet {
        Packet {
            hash: 1,
            priority,
            ..Packet::test_data(id, 0, payload, 1, 1448)
        }
    }

    fn ids(q: &mut PfifoFast) -> Vec<u64> {
        let mut v = Vec::new();
        while let Dequeue::Packet(p) = q.dequeue(0) {
            v.push(p.id);
        }
        v
    }

    #[test]
    fn packets_lists_every_queued_packet_whatever_its_band() {
        let mut q = PfifoFast::new(100);
        q.enqueue(pkt(1, 0, 100), 0);
        q.enqueue(pkt(2, 1, 200), 0);
        q.enqueue(pkt(3, 6, 300), 0);
        let mut listed: Vec<u64> = q.packets().map(|p| p.id).collect();
        listed.sort();
        assert_eq!(listed, vec![1, 2, 3]);
        let bytes: u64 = q.packets().map(|p| p.qdisc_pkt_len() as u64).sum();
        assert_eq!(bytes, q.backlog_bytes());
        q.dequeue(0);
        assert_eq!(q.packets().count(), 2);
    }

    #[test]
    fn pfifo_fast_serves_band_0_first() {
        let mut q = PfifoFast::new(100);
        // priority 0 -> band 1, priority 1 -> band 2, priority 6 (TC_PRIO_INTERACTIVE) -> band 0.
        q.enqueue(pkt(1, 0, 100), 0);
        q.enqueue(pkt(2, 1, 100), 0);
        q.enqueue(pkt(3, 6, 100), 0);
        q.enqueue(pkt(4, 0, 100), 0);
        assert_eq!(ids(&mut q), vec![3, 1, 4, 2]);
    }

    #[test]
    fn pfifo_fast_drops_at_txqueuelen_per_band_since_4_16() {
        let mut q = PfifoFast::for_kernel(6, 6, 2);
        assert_eq!(q.enqueue(pkt(1, 0, 100), 0), EnqueueResult::Success);
        assert_eq!(q.enqueue(pkt(2, 0, 100), 0), EnqueueResult::Success);
        match q.enqueue(pkt(3, 0, 100), 0) {
            EnqueueResult::Dropped(p, DropReason::QueueFull) => assert_eq!(p.id, 3),
            r => panic!("expected a drop, got {r:?}"),
        }
        // Another band still has room.
        assert_eq!(q.enqueue(pkt(4, 6, 100), 0), EnqueueResult::Success);
        let s = q.stats();
        assert_eq!((s.dropped, s.backlog_packets), (1, 3));
    }

    #[test]
    fn pfifo_fast_before_4_16_limits_the_whole_qdisc() {
        let mut q = PfifoFast::for_kernel(4, 15, 2);
        q.enqueue(pkt(1, 0, 100), 0);
        q.enqueue(pkt(2, 6, 100), 0);
        assert!(matches!(
            q.enqueue(pkt(3, 1, 100), 0),
            EnqueueResult::Dropped(_, DropReason::QueueFull)
        ));
    }

    #[test]
    fn a_requeued_packet_leaves_first_and_is_counted_in_sent_once() {
        let mut q = PfifoFast::new(10);
        q.enqueue(pkt(1, 6, 100), 0);
        q.enqueue(pkt(2, 6, 100), 0);
        let Dequeue::Packet(p1) = q.dequeue(0) else {
            panic!()
        };
        q.requeue(p1);
        assert_eq!(q.qlen(), 2);
        assert_eq!(ids(&mut q), vec![1, 2]);
        let s = q.stats();
        assert_eq!(s.sent_packets, 2);
        assert_eq!(s.requeues, 1);
        assert_eq!((s.backlog_bytes, s.backlog_packets), (0, 0));
    }

    #[test]
    fn sent_counts_every_segment_of_a_gso_skb() {
        let mut q = PfifoFast::new(10);
        let mut p = pkt(1, 0, 3 * 1448);
        p.gso_segs = 3;
        p.gso_size = 1448;
        let l = p.qdisc_pkt_len() as u64;
        q.enqueue(p, 0);
        assert_eq!(q.backlog_bytes(), l);
        q.dequeue(0);
        let s = q.stats();
        assert_eq!((s.sent_bytes, s.sent_packets), (l, 3));
    }

    #[test]
    fn lockless_pfifo_fast_of_4_16_to_5_13_cannot_be_bypassed() {
        assert!(PfifoFast::for_kernel(3, 14, 1000).can_bypass);
        assert!(!PfifoFast::for_kernel(4, 19, 1000).can_bypass);
        assert!(PfifoFast::for_kernel(5, 14, 1000).can_bypass);
    }
}
