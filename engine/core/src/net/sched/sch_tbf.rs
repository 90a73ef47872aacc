//! `tbf`: the token bucket filter (`net/sched/sch_tbf.c`, Linux 6.18; the rate arithmetic of
//! `include/net/sch_generic.h` `psched_l2t_ns` and `net/sched/sch_generic.c`
//! `psched_ratecfg_precompute`; the parameters as iproute2's `tc/q_tbf.c` `tbf_parse_opt`
//! computes them).
//!
//! The bucket holds time, not bytes: `tokens` is nanoseconds of transmission at `rate`, at most
//! `buffer` (the time `burst` bytes take). A packet of `len` bytes may leave when the tokens
//! accumulated since the last departure `t_c` cover `psched_l2t_ns(rate, len)`; else tbf arms
//! its watchdog for the moment they will (`qdisc_watchdog_schedule_ns`) and counts an
//! overlimit. Packets wait meanwhile in the inner qdisc `q->qdisc`, a bfifo of `limit` bytes
//! (`tc ... latency L` gives `limit = rate × L + burst`). A packet larger than the bucket
//! (`max_size`, the burst) is segmented in software if it is GSO (`tbf_segment`), else
//! dropped. An optional second bucket (`peakrate`, depth `mtu`) limits bursts the same way.
//!
//! Simplified:
//! - the inner qdisc is always the default bfifo, because scenarios cannot graft another (`tc
//!   qdisc add ... parent 1:1`); visible effect: none for the recorded setups.
//! - the link layer is Ethernet with no `overhead` or `mpu` (tc's defaults), because no
//!   scenario sets them; visible effect: none (the fields are kept, at 0).
//! - `tbf_segment` costs no CPU and leaves no trace event of its own (the device's software
//!   GSO charges `gso_segment_ns` per segment), because the qdisc cannot charge the world;
//!   visible effect: the CPU time of segmenting skbs larger than the burst is missing.
//! - `t_c` starts at 0, the instant the scenario's hosts are built (`tbf_init` reads
//!   `ktime_get_ns()`), so the bucket starts full, as after `tc qdisc add`.

use crate::include::linux::skbuff::Packet;
use crate::net::sched::sch_fifo::Bfifo;
use crate::net::sched::sch_generic::{qdisc_bstats_update, GsoSkb};
use crate::net::sched::sch_generic::{Dequeue, DropReason, EnqueueResult, QdiscEvent, QdiscStats};

/// `NSEC_PER_SEC`.
const NSEC_PER_SEC: u64 = 1_000_000_000;

/// `struct psched_ratecfg` (`include/net/sch_generic.h`): a rate and the reciprocal that turns
/// a length into a time, `time_in_ns = (len * mult) >> shift`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PschedRatecfg {
    /// Bytes per second (0: no rate, e.g. no peak rate).
    pub rate_bytes_ps: u64,
    pub mult: u32,
    pub overhead: u16,
    pub mpu: u16,
    pub shift: u8,
}

impl PschedRatecfg {
    /// `psched_ratecfg_precompute` (`net/sched/sch_generic.c`, 6.18) with tc's defaults
    /// (Ethernet link layer, no overhead, no mpu): the largest `mult` below 2^31 (or `factor`
    /// reaching 2^63) for the best precision.
    pub fn psched_ratecfg_precompute(rate_bytes_ps: u64) -> PschedRatecfg {
        let mut r = PschedRatecfg {
            rate_bytes_ps,
            mult: 1,
            ..PschedRatecfg::default()
        };
        // psched_ratecfg_precompute__
        if rate_bytes_ps == 0 {
            return r;
        }
        let mut factor = NSEC_PER_SEC;
        loop {
            r.mult = (factor / rate_bytes_ps) as u32; // *mult = div64_u64(factor, rate), a u32
            if r.mult & (1 << 31) != 0 || factor & (1 << 63) != 0 {
                break;
            }
            factor <<= 1;
            r.shift += 1;
        }
        r
    }

    /// `psched_l2t_ns`: nanoseconds `len` bytes take at this rate.
    #[inline]
    pub fn psched_l2t_ns(&self, len: u32) -> u64 {
        let mut len = len + self.overhead as u32;
        if len < self.mpu as u32 {
            len = self.mpu as u32;
        }
        // (TC_LINKLAYER_ATM is not modelled.)
        (len as u64 * self.mult as u64) >> self.shift
    }
}

/// tbf's parameters as `tbf_change` receives them from `tc qdisc add ... tbf`: `TCA_TBF_PARMS`
/// (`limit`, rates), `TCA_TBF_BURST` and `TCA_TBF_PBURST` (iproute2 sends both bursts in bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbfConfig {
    /// `rate`, bytes per second (tc's `rate 1gbit` is 125,000,000).
    pub rate_bytes_ps: u64,
    /// `burst` (`buffer`, `maxburst`), bytes: the bucket's depth.
    pub burst_bytes: u32,
    /// `limit`, bytes the inner bfifo may hold.
    pub limit_bytes: u32,
    /// `peakrate`, bytes per second; 0 = no peak bucket.
    pub peakrate_bytes_ps: u64,
    /// `mtu` (`minburst`), bytes: the peak bucket's depth (tc requires it with `peakrate`).
    pub mtu_bytes: u32,
    /// Ids for the segments `tbf_segment` creates (the world's ids stay below it).
    pub seg_id_base: u64,
}

impl TbfConfig {
    /// The parameters `tc qdisc add ... tbf rate R burst B (limit L | latency T)` sends
    /// (iproute2 `tbf_parse_opt`): with `latency` instead of `limit`,
    /// `limit = rate × latency + burst` (the smaller of that and `peakrate × latency + mtu`
    /// with a peak rate), computed in `double` and truncated as tc does.
    pub fn tc(rate_bytes_ps: u64, burst_bytes: u32, limit_bytes: u32, latency_us: u64) -> Self {
        let mut c = TbfConfig {
            rate_bytes_ps,
            burst_bytes,
            limit_bytes,
            peakrate_bytes_ps: 0,
            mtu_bytes: 0,
            seg_id_base: 1 << 52,
        };
        if limit_bytes == 0 {
            c.limit_bytes = c.tc_limit_from_latency(latency_us);
        }
        c
    }

    /// `tbf_parse_opt`: `double lim = rate64*(double)latency/TIME_UNITS_PER_SEC + buffer`
    /// (and the peak bucket's `lim2` when smaller), then `opt.limit = lim`.
    pub fn tc_limit_from_latency(&self, latency_us: u64) -> u32 {
        let mut lim = self.rate_bytes_ps as f64 * latency_us as f64 / 1e6 + self.burst_bytes as f64;
        if self.peakrate_bytes_ps > 0 {
            let lim2 =
                self.peakrate_bytes_ps as f64 * latency_us as f64 / 1e6 + self.mtu_bytes as f64;
            if lim2 < lim {
                lim = lim2;
            }
        }
        lim as u32 // a C double -> __u32 conversion (Rust's `as` saturates where C is undefined)
    }

    /// What tc and `tbf_change` refuse; the error names tc's parameter.
    pub fn validate(&self) -> Result<(), String> {
        if self.rate_bytes_ps == 0 {
            return Err("tbf: the \"rate\" parameter is mandatory".into());
        }
        if self.burst_bytes == 0 {
            // tbf_change: !max_size -> -EINVAL
            return Err("tbf: the \"burst\" parameter is mandatory".into());
        }
        if self.limit_bytes == 0 {
            return Err("tbf: either \"limit\" or \"latency\" is required".into());
        }
        if self.peakrate_bytes_ps > 0 {
            if self.mtu_bytes == 0 {
                return Err(
                    "tbf: when \"peakrate\" is specified, \"mtu\" must also be specified".into(),
                );
            }
            if self.peakrate_bytes_ps <= self.rate_bytes_ps {
                return Err(format!(
                    "sch_tbf: peakrate {} is lower than or equals to rate {}",
                    self.peakrate_bytes_ps, self.rate_bytes_ps
                ));
            }
        }
        Ok(())
    }
}

/// `struct tbf_sched_data` plus the qdisc's counters.
#[derive(Clone, Debug)]
pub struct Tbf {
    pub cfg: TbfConfig,
    /// `limit` (bytes, the inner bfifo's), `max_size` (bytes: the largest packet the buckets
    /// can ever pass), `buffer` and `mtu` (the buckets' depths, ns).
    pub limit: u32,
    pub max_size: u32,
    pub buffer: i64,
    pub mtu: i64,
    pub rate: PschedRatecfg,
    pub peak: PschedRatecfg,
    /// Tokens (ns) of the rate and peak buckets at `t_c`, the last departure.
    pub tokens: i64,
    pub ptokens: i64,
    pub t_c: i64,
    /// `q->qdisc`: the inner bfifo.
    qdisc: Bfifo,
    gso_skb: GsoSkb,
    next_seg_id: u64,
    stats: QdiscStats,
    events: Vec<QdiscEvent>,
}

impl Tbf {
    /// `tbf_init` + `tbf_change`: the rate's reciprocal, `max_size = burst`, `buffer =
    /// psched_l2t_ns(rate, burst)`, the peak bucket (`max_size = min(max_size, mtu)`), both
    /// buckets full, a bfifo of `limit` bytes inside.
    pub fn new(cfg: TbfConfig) -> Tbf {
        if let Err(e) = cfg.validate() {
            panic!("{e}");
        }
        let rate = PschedRatecfg::psched_ratecfg_precompute(cfg.rate_bytes_ps);
        // TCA_TBF_BURST: max_size = burst; buffer = psched_l2t_ns(&rate, max_size).
        let mut max_size = cfg.burst_bytes;
        let buffer = rate.psched_l2t_ns(max_size) as i64;
        let (peak, mtu) = if cfg.peakrate_bytes_ps > 0 {
            let peak = PschedRatecfg::psched_ratecfg_precompute(cfg.peakrate_bytes_ps);
            // TCA_TBF_PBURST: max_size = min(max_size, pburst); mtu = psched_l2t_ns(&peak, pburst).
            max_size = max_size.min(cfg.mtu_bytes);
            (peak, peak.psched_l2t_ns(cfg.mtu_bytes) as i64)
        } else {
            (PschedRatecfg::default(), 0) // memset(&peak, 0); q->mtu = PSCHED_TICKS2NS(0)
        };
        Tbf {
            limit: cfg.limit_bytes,
            max_size,
            buffer,
            mtu,
            rate,
            peak,
            tokens: buffer,
            ptokens: mtu,
            t_c: 0,
            qdisc: Bfifo::new(cfg.limit_bytes), // fifo_create_dflt(sch, &bfifo_qdisc_ops, limit)
            gso_skb: GsoSkb::default(),
            next_seg_id: cfg.seg_id_base,
            stats: QdiscStats::default(),
            events: Vec::new(),
            cfg,
        }
    }

    /// `tbf_peak_present`.
    fn tbf_peak_present(&self) -> bool {
        self.peak.rate_bytes_ps != 0
    }

    /// `tbf_enqueue`: a packet larger than `max_size` is segmented when it is GSO and each
    /// segment fits (`skb_gso_validate_mac_len`), else dropped; otherwise it goes to the inner
    /// bfifo, whose refusal (`limit` bytes reached) tbf counts as its own drop. Returns
    /// `Success` or `Dropped` (`QueueFull` for the bfifo, `Oversize` for the bucket).
    pub fn enqueue(&mut self, pkt: Packet, _now_ns: u64) -> EnqueueResult {
        if pkt.qdisc_pkt_len() > self.max_size {
            let is_gso = pkt.gso_segs > 1; // skb_is_gso: gso_size != 0
            if is_gso && skb_gso_validate_mac_len(&pkt, self.max_size) {
                return self.tbf_segment(pkt);
            }
            self.stats.dropped += 1; // qdisc_drop
            return EnqueueResult::Dropped(Box::new(pkt), DropReason::Oversize);
        }
        match self.qdisc.bfifo_enqueue(pkt) {
            Ok(()) => EnqueueResult::Success,
            Err(p) => {
                // net_xmit_drop_count(NET_XMIT_DROP): qdisc_qstats_drop(sch)
                self.stats.dropped += 1;
                EnqueueResult::Dropped(Box::new(p), DropReason::QueueFull)
            }
        }
    }

    /// `tbf_segment`: `skb_gso_segment` with every GSO feature off (a software split into
    /// `gso_segs` packets of `gso_size` payload, each with its own headers, `qdisc_pkt_len` =
    /// its `len`), each segment enqueued to the bfifo on its own; a refused segment is a drop.
    /// Each segment keeps a share of the truesize, so its own free releases it (`tcp_wfree`).
    /// `Success` if any segment was queued; else the last refused segment comes back as the
    /// drop (the others are reported as [`QdiscEvent::Dropped`]).
    fn tbf_segment(&mut self, p: Packet) -> EnqueueResult {
        let mut nb = 0;
        let mut last_refused = None;
        let (qdisc, stats, events) = (&mut self.qdisc, &mut self.stats, &mut self.events);
        p.for_each_gso_segment(&mut self.next_seg_id, |s| match qdisc.bfifo_enqueue(s) {
            Ok(()) => nb += 1,
            Err(s) => {
                stats.dropped += 1; // qdisc_qstats_drop(sch)
                if let Some(prev) = last_refused.replace(s) {
                    events.push(QdiscEvent::Dropped(Box::new(prev), DropReason::QueueFull));
                }
            }
        });
        match last_refused {
            Some(s) if nb == 0 => EnqueueResult::Dropped(Box::new(s), DropReason::QueueFull),
            Some(s) => {
                self.events
                    .push(QdiscEvent::Dropped(Box::new(s), DropReason::QueueFull));
                EnqueueResult::Success
            }
            None => EnqueueResult::Success,
        }
    }

    /// `dequeue_skb` + `tbf_dequeue`: a requeued packet first (its tokens were paid); else
    /// peek at the bfifo's head and refill both buckets for the time since `t_c` (at most
    /// their depth). If both cover the head's `psched_l2t_ns`, it leaves and the buckets keep
    /// what is left; else `Throttled` until the time the larger deficit takes
    /// (`qdisc_watchdog_schedule_ns(now + max(-toks, -ptoks))`), counted as an overlimit.
    pub fn dequeue(&mut self, now_ns: u64) -> Dequeue {
        if let Some(p) = self.gso_skb.pop() {
            return Dequeue::Packet(p);
        }
        let Some(skb) = self.qdisc.peek() else {
            return Dequeue::Empty;
        };
        let now = now_ns as i64;
        let len = skb.qdisc_pkt_len();
        let mut toks = (now - self.t_c).min(self.buffer);
        let mut ptoks = 0i64;
        if self.tbf_peak_present() {
            ptoks = toks + self.ptokens;
            if ptoks > self.mtu {
                ptoks = self.mtu;
            }
            ptoks -= self.peak.psched_l2t_ns(len) as i64;
        }
        toks += self.tokens;
        if toks > self.buffer {
            toks = self.buffer;
        }
        toks -= self.rate.psched_l2t_ns(len) as i64;

        if (toks | ptoks) >= 0 {
            let skb = self.qdisc.dequeue().expect("peeked"); // qdisc_dequeue_peeked
            self.t_c = now;
            self.tokens = toks;
            self.ptokens = ptoks;
            qdisc_bstats_update(&mut self.stats, &skb);
            return Dequeue::Packet(skb);
        }
        // "We MUST NOT reorder packets under these circumstances": the head waits.
        self.stats.overlimits += 1; // qdisc_qstats_overlimit
        Dequeue::Throttled {
            until_ns: (now + (-toks).max(-ptoks)) as u64,
        }
    }

    /// Packets in the requeue slot.
    pub fn requeued_len(&self) -> u32 {
        self.gso_skb.len()
    }

    /// `dev_requeue_skb`: the driver refused `pkt`; it leaves first next time.
    pub fn requeue(&mut self, pkt: Packet) {
        self.gso_skb.push(pkt, &mut self.stats);
    }

    pub fn drain_events(&mut self, out: &mut Vec<QdiscEvent>) {
        out.append(&mut self.events);
    }

    /// `sch->q.qlen`: the bfifo's packets plus the requeued ones.
    pub fn qlen(&self) -> u32 {
        self.qdisc.qlen() + self.gso_skb.len()
    }

    /// `sch->qstats.backlog`.
    pub fn backlog_bytes(&self) -> u64 {
        self.qdisc.backlog_bytes() + self.gso_skb.bytes()
    }

    /// `tc -s qdisc show` for tbf (no qdisc-specific lines: tbf has no xstats).
    pub fn stats(&self) -> QdiscStats {
        let mut s = self.stats.clone();
        s.backlog_bytes = self.backlog_bytes();
        s.backlog_packets = self.qlen() as u64;
        s
    }
}

/// `skb_gso_validate_mac_len(skb, len)`: does each segment, link-layer header included
/// (`skb_gso_mac_seglen`: headers + `gso_size`), fit in `len` bytes?
fn skb_gso_validate_mac_len(p: &Packet, len: u32) -> bool {
    p.hdr_len + p.gso_size <= len
}

impl Tbf {
    /// Every packet the qdisc holds (its requeue slot and its inner bfifo).
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.gso_skb.packets().chain(self.qdisc.packets())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::include::linux::skbuff::tcp_flags;

    const GBIT: u64 = 1_000_000_000 / 8;

    /// 1000 bytes with headers (`qdisc_pkt_len`).
    fn pkt(id: u64) -> Packet {
        Packet::test_data(id, 0, 934, 1, 1448)
    }

    fn tbf(rate_bytes_ps: u64, burst: u32, limit: u32) -> Tbf {
        Tbf::new(TbfConfig::tc(rate_bytes_ps, burst, limit, 0))
    }

    #[test]
    fn psched_l2t_ns_gives_a_packets_transmission_time_at_the_rate() {
        let r = PschedRatecfg::psched_ratecfg_precompute(GBIT);
        // 1 Gbit/s: 8 ns per byte. mult/shift as the kernel computes them for 125,000,000 B/s.
        assert_eq!((r.mult, r.shift), (2147483648, 28));
        assert_eq!(r.psched_l2t_ns(1000), 8000);
        assert_eq!(r.psched_l2t_ns(16384), 131072);
        let r = PschedRatecfg::psched_ratecfg_precompute(25_000_000); // 200 Mbit/s
        assert_eq!(r.psched_l2t_ns(1514), 60560);
    }

    #[test]
    fn tc_turns_latency_into_a_byte_limit_of_rate_times_latency_plus_burst() {
        // tc qdisc add ... tbf rate 1gbit burst 16kb latency 50ms
        let c = TbfConfig::tc(GBIT, 16384, 0, 50_000);
        assert_eq!(c.limit_bytes, 6_250_000 + 16384);
        // an explicit limit is kept
        assert_eq!(TbfConfig::tc(GBIT, 16384, 3000, 50_000).limit_bytes, 3000);
    }

    #[test]
    fn tbf_lets_a_burst_through_at_line_rate() {
        // A full bucket of 16 packets' time passes 16 packets at once, then throttles.
        let mut q = tbf(GBIT, 16_000, 100_000);
        for i in 0..20 {
            assert_eq!(q.enqueue(pkt(i), 0), EnqueueResult::Success);
        }
        for i in 0..16 {
            assert!(matches!(q.dequeue(0), Dequeue::Packet(p) if p.id == i));
        }
        assert_eq!(q.dequeue(0), Dequeue::Throttled { until_ns: 8000 });
        assert_eq!(q.stats().overlimits, 1);
    }

    #[test]
    fn tbf_holds_a_packet_until_the_bucket_has_its_transmission_time() {
        let mut q = tbf(GBIT, 1000, 100_000); // a bucket of exactly one packet (8 µs)
        q.enqueue(pkt(1), 0);
        q.enqueue(pkt(2), 0);
        assert!(matches!(q.dequeue(0), Dequeue::Packet(p) if p.id == 1));
        // The bucket is empty: packet 2 needs 8 µs of tokens.
        assert_eq!(q.dequeue(3000), Dequeue::Throttled { until_ns: 8000 });
        assert_eq!(q.dequeue(7999), Dequeue::Throttled { until_ns: 8000 });
        assert!(matches!(q.dequeue(8000), Dequeue::Packet(p) if p.id == 2));
        let s = q.stats();
        assert_eq!((s.sent_packets, s.sent_bytes, s.overlimits), (2, 2000, 2));
    }

    #[test]
    fn tbf_tokens_accumulate_no_further_than_the_burst() {
        let mut q = tbf(GBIT, 2000, 100_000); // two packets' time
        q.enqueue(pkt(1), 0);
        assert!(matches!(q.dequeue(0), Dequeue::Packet(_)));
        // One second idle: the bucket is full again, but holds 2 packets' time, not 1 s.
        for i in 2..5 {
            q.enqueue(pkt(i), 1_000_000_000);
        }
        assert!(matches!(q.dequeue(1_000_000_000), Dequeue::Packet(_)));
        assert!(matches!(q.dequeue(1_000_000_000), Dequeue::Packet(_)));
        assert_eq!(
            q.dequeue(1_000_000_000),
            Dequeue::Throttled {
                until_ns: 1_000_008_000
            }
        );
    }

    #[test]
    fn tbf_drops_above_its_byte_limit() {
        let mut q = tbf(GBIT, 16_000, 2500); // the bfifo holds 2 packets of 1000 bytes
        assert_eq!(q.enqueue(pkt(1), 0), EnqueueResult::Success);
        assert_eq!(q.enqueue(pkt(2), 0), EnqueueResult::Success);
        match q.enqueue(pkt(3), 0) {
            EnqueueResult::Dropped(p, DropReason::QueueFull) => assert_eq!(p.id, 3),
            r => panic!("expected a drop, got {r:?}"),
        }
        let s = q.stats();
        assert_eq!(
            (s.dropped, s.backlog_bytes, s.backlog_packets),
            (1, 2000, 2)
        );
    }

    #[test]
    fn tbf_segments_a_gso_packet_larger_than_its_burst() {
        let mut q = tbf(GBIT, 4000, 100_000);
        let mut p = Packet::test_data(7, 0, 4 * 1448, 4, 1448);
        p.truesize = 4000;
        p.flags |= tcp_flags::PSH;
        assert!(p.qdisc_pkt_len() > 4000);
        assert_eq!(q.enqueue(p, 0), EnqueueResult::Success);
        assert_eq!((q.qlen(), q.backlog_bytes()), (4, 4 * (1448 + 66)));
        let mut out = Vec::new();
        let mut now = 0;
        while let Dequeue::Packet(s) = q.dequeue(now) {
            out.push(s);
            now += 1_000_000; // the bucket refills between segments
        }
        assert_eq!(out.len(), 4);
        assert_eq!(out[0].id, 7);
        assert!(out.iter().all(|s| s.gso_segs == 1 && s.len == 1448 + 66));
        assert_eq!(out.iter().map(|s| s.truesize).sum::<u32>(), 4000);
        assert_eq!(out[3].end_seq, 4 * 1448);
        assert!(out[..3].iter().all(|s| s.flags & tcp_flags::PSH == 0));
        assert_eq!(q.stats().sent_packets, 4);
    }

    #[test]
    fn tbf_drops_a_packet_larger_than_its_burst_that_is_not_gso() {
        let mut q = tbf(GBIT, 999, 100_000);
        assert!(matches!(
            q.enqueue(pkt(1), 0),
            EnqueueResult::Dropped(_, DropReason::Oversize)
        ));
        assert_eq!(q.stats().dropped, 1);
    }

    #[test]
    fn tbf_peak_bucket_spaces_a_burst_at_the_peak_rate() {
        // rate 1 Gbit/s with a 16 KB bucket, peakrate 2 Gbit/s with a one-packet bucket.
        let mut c = TbfConfig::tc(GBIT, 16_000, 100_000, 0);
        c.peakrate_bytes_ps = 2 * GBIT;
        c.mtu_bytes = 1000;
        let mut q = Tbf::new(c);
        q.enqueue(pkt(1), 0);
        q.enqueue(pkt(2), 0);
        assert!(matches!(q.dequeue(0), Dequeue::Packet(_)));
        // The rate bucket still holds 15 packets' time, the peak bucket none: 4 µs at 2 Gbit/s.
        assert_eq!(q.dequeue(0), Dequeue::Throttled { until_ns: 4000 });
        assert!(matches!(q.dequeue(4000), Dequeue::Packet(_)));
    }

    #[test]
    fn tbf_refuses_what_tc_refuses() {
        assert!(TbfConfig::tc(0, 1000, 1000, 0).validate().is_err());
        assert!(TbfConfig::tc(GBIT, 0, 1000, 0).validate().is_err());
        let mut c = TbfConfig::tc(GBIT, 1000, 1000, 0);
        c.peakrate_bytes_ps = GBIT;
        c.mtu_bytes = 1500;
        assert!(c.validate().unwrap_err().contains("peakrate"));
    }

    #[test]
    fn a_requeued_packet_leaves_without_paying_tokens_twice() {
        let mut q = tbf(GBIT, 1000, 100_000);
        q.enqueue(pkt(1), 0);
        let Dequeue::Packet(p) = q.dequeue(0) else {
            panic!()
        };
        q.requeue(p);
        assert!(matches!(q.dequeue(0), Dequeue::Packet(p) if p.id == 1));
        let s = q.stats();
        assert_eq!((s.requeues, s.sent_packets), (1, 1));
    }
}
