//! `fq`, the Fair Queue packet scheduler with per-flow pacing (`net/sched/sch_fq.c`).
//!
//! Follows four readings of the kernel source, selected by [`FqVersion`]:
//! - 3.12..4.8 (read: 4.4): fq paces TCP itself from `sk_pacing_rate`, bursting `quantum`
//!   bytes per credit refill; pure ACKs are not paced; `TC_PRIO_CONTROL` packets use the
//!   internal high-priority FIFO.
//! - 4.9..4.19 (read: 4.13..4.19): adds `low_rate_threshold` (below it, every packet is paced),
//!   compensation of timer drift, the unthrottle latency EWMA, and (4.13) marks the socket
//!   `SK_PACING_FQ` so that TCP stops pacing internally.
//! - 4.20..6.6 (read: 5.x): the earliest-departure-time model: TCP stamps `skb->tstamp`, fq
//!   only enforces it (`time_to_send`), packets of a flow are ordered by it, and fq's own rate
//!   arithmetic runs only for skbs without a timestamp or with `maxrate`; 5.7 adds `horizon`.
//! - 6.7+ (read: 6.18): three bands with `priomap` and weighted round robin (`weights`), the
//!   per-band `limit`, the fast path through the internal queue for a mostly idle qdisc,
//!   always-on garbage collection and `inactive_flows` counted as flows with no packet.
//!
//! Data structures: flows live in an arena; `fq_root` is `1 << fq_trees_log` buckets of flow
//! indices (the kernel's hash table of rb-trees), the new/old round-robin lists are `VecDeque`s
//! of flow indices per band, the throttled rb-tree `q->delayed` is a `BTreeMap` keyed by
//! `(time_next_packet, insertion sequence)` (equal keys go right in the kernel: FIFO), and a
//! flow's out-of-order skbs (`t_root`) a `BTreeMap` keyed by `(time_to_send, sequence)`.
//!
//! Simplified:
//! - a bucket is searched linearly and garbage collection considers every flow of the bucket,
//!   not only the rb-tree nodes on the search path, because the model has no rb-tree of socket
//!   pointers; visible effect: `gc_flows` may count a flow a little earlier than Linux would.
//! - socket reallocation (`sk_hash` changed for the same `struct sock *`) is not detected,
//!   because the model never reuses a `SockId`; visible effect: none.
//! - listener, request and TIME_WAIT sockets are not told apart from full sockets, because
//!   every `Packet` with a socket comes from an established connection; visible effect: none.
//! - the watchdog fires at `time_next_delayed_flow`, not anywhere in the `timer_slack` range,
//!   because the simulated hrtimer has no other timers to coalesce with; visible effect:
//!   `unthrottle_latency_ns` stays 0 unless the world delays the watchdog.
//! - `ce_threshold` only counts `ce_mark`, because the model's TCP does not negotiate ECN;
//!   visible effect: none on throughput.
//! - a flow's `age` is `jiffies`, not `jiffies | 1` (the 5.x+ encoding of "detached"); visible
//!   effect: refill and GC ages differ by at most one jiffy.
//! - `offload_horizon` (6.12+, pacing offload to the NIC) is 0, because the model's NIC does
//!   not pace; visible effect: none.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::include::linux::skbuff::{Packet, SockId, NO_SOCK};
use crate::net::sched::sch_generic::{qdisc_bstats_update, GsoSkb, PRIO2BAND, TC_PRIO_MAX};
use crate::net::sched::sch_generic::{Dequeue, DropReason, EnqueueResult, QdiscEvent, QdiscStats};

const NSEC_PER_SEC: u64 = 1_000_000_000;
/// `FQ_BANDS` (6.7+).
pub const FQ_BANDS: usize = 3;
/// `FQ_MIN_WEIGHT` (include/uapi/linux/pkt_sched.h, 6.7+): smallest band weight.
pub const FQ_MIN_WEIGHT: u32 = 16384;
/// `FQ_GC_MAX`: flows collected per pass before 6.7.
pub const FQ_GC_MAX: usize = 8;
/// `TC_PRIO_CONTROL`: the priority that pre-6.7 fq sends through its internal FIFO.
pub const TC_PRIO_CONTROL: u8 = 7;
/// `GOLDEN_RATIO_64` of `hash_64()` (include/linux/hash.h).
const GOLDEN_RATIO_64: u64 = 0x61C8_8646_80B5_83EB;

/// Which generation of `sch_fq.c` to behave as (see the module header).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FqVersion {
    /// 3.12..4.8: fq computes pacing from `sk_pacing_rate`, no low-rate threshold.
    V3_12,
    /// 4.9..4.12: `low_rate_threshold`, timer drift compensation, unthrottle latency.
    V4_9,
    /// 4.13..4.19: also sets `sk_pacing_status = SK_PACING_FQ`.
    V4_13,
    /// 4.20..5.6: earliest departure time (`skb->tstamp`) from TCP.
    V4_20,
    /// 5.7..6.6: also `horizon`.
    V5_7,
    /// 6.7+: bands, priomap, weights, fast path, always-on GC.
    V6_7,
}

impl FqVersion {
    /// The fq generation of kernel `major.minor`.
    pub fn for_kernel(major: u32, minor: u32) -> FqVersion {
        match (major, minor) {
            v if v >= (6, 7) => FqVersion::V6_7,
            v if v >= (5, 7) => FqVersion::V5_7,
            v if v >= (4, 20) => FqVersion::V4_20,
            v if v >= (4, 13) => FqVersion::V4_13,
            v if v >= (4, 9) => FqVersion::V4_9,
            _ => FqVersion::V3_12,
        }
    }
}

/// fq parameters, named as `tc qdisc add ... fq` names them; defaults from `fq_init`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FqConfig {
    pub version: FqVersion,
    /// `limit` (`sch->limit`, packets): the whole qdisc before 6.7, each band since.
    pub limit: u32,
    /// `flow_limit` (`flow_plimit`, packets per flow).
    pub flow_limit: u32,
    /// `quantum` (bytes of credit a flow gets per round), default `2 * psched_mtu`.
    pub quantum: u32,
    /// `initial_quantum` (credit of a new flow), default `10 * psched_mtu`.
    pub initial_quantum: u32,
    /// `refill_delay` in µs (stored by the kernel as jiffies), default 40 ms.
    pub flow_refill_delay_us: u32,
    /// `maxrate` per flow in bytes per second (`flow_max_rate`); `u64::MAX` = unlimited.
    pub flow_max_rate_bytes_per_sec: u64,
    /// `pacing` / `nopacing` (`rate_enable`).
    pub rate_enable: bool,
    /// `buckets` as a log2 (`fq_trees_log`), default 10 (1024 buckets).
    pub fq_trees_log: u8,
    /// `orphanmask`, default 1023.
    pub orphan_mask: u32,
    /// `low_rate_threshold` in bytes per second (4.9+), default 550 kbit/s.
    pub low_rate_threshold_bytes_per_sec: u64,
    /// `timer_slack` (ns), default 10 µs.
    pub timer_slack_ns: u64,
    /// `horizon` (ns, 5.7+), default 10 s; `horizon_drop` (default) or `horizon_cap`.
    pub horizon_ns: u64,
    pub horizon_drop: bool,
    /// `ce_threshold` (ns), default ~4294 s (off).
    pub ce_threshold_ns: u64,
    /// `weights` (6.7+): per-band quantum of the weighted round robin.
    pub weights: [u32; FQ_BANDS],
    /// `priomap` (6.7+): `skb->priority & 15` to band.
    pub priomap: [u8; 16],
    /// The kernel's HZ (jiffies per second) for `flow_refill_delay` and GC ages.
    pub hz: u32,
}

impl FqConfig {
    /// `fq_init` defaults of kernel `major.minor` on a device of `psched_mtu` bytes
    /// (`dev->mtu + dev->hard_header_len`, 1514 for Ethernet).
    pub fn for_kernel(major: u32, minor: u32, psched_mtu: u32, hz: u32) -> FqConfig {
        let mut priomap = [0u8; 16];
        for (i, b) in PRIO2BAND.iter().enumerate() {
            priomap[i] = *b as u8; // fq_prio2band_compress_crumb(sch_default_prio2band, ...)
        }
        FqConfig {
            version: FqVersion::for_kernel(major, minor),
            limit: 10_000,
            flow_limit: 100,
            quantum: 2 * psched_mtu,
            initial_quantum: 10 * psched_mtu,
            flow_refill_delay_us: 40_000,
            flow_max_rate_bytes_per_sec: u64::MAX,
            rate_enable: true,
            fq_trees_log: 10,
            orphan_mask: 1024 - 1,
            low_rate_threshold_bytes_per_sec: 550_000 / 8,
            timer_slack_ns: 10_000,
            horizon_ns: 10 * NSEC_PER_SEC,
            horizon_drop: true,
            ce_threshold_ns: 1_000 * u32::MAX as u64,
            weights: [9 << 16, 3 << 16, 1 << 16],
            priomap,
            hz,
        }
    }

    /// Checks the ranges `fq_change` enforces; the error names the parameter.
    pub fn validate(&self) -> Result<(), String> {
        if self.quantum == 0 || self.quantum > 1 << 20 {
            return Err(format!(
                "fq quantum {} out of range 1..=1048576",
                self.quantum
            ));
        }
        if !(1..=18).contains(&self.fq_trees_log) {
            return Err(format!(
                "fq buckets log {} out of range 1..=18",
                self.fq_trees_log
            ));
        }
        if self.initial_quantum > i32::MAX as u32 {
            return Err(format!(
                "fq initial_quantum {} out of range 0..=2147483647",
                self.initial_quantum
            ));
        }
        if let Some(w) = self.weights.iter().find(|&&w| w < FQ_MIN_WEIGHT) {
            return Err(format!(
                "fq weight {w} less than the minimum allowed {FQ_MIN_WEIGHT}"
            ));
        }
        if let Some(b) = self.priomap.iter().find(|&&b| b as usize >= FQ_BANDS) {
            return Err(format!("fq priomap maps to band {b}, only 0..=2 exist"));
        }
        if self.hz == 0 {
            return Err("fq needs HZ >= 1".into());
        }
        Ok(())
    }
}

/// An skb inside fq with its `fq_skb_cb`.
#[derive(Clone, Debug)]
struct FqSkb {
    /// `fq_skb_cb(skb)->time_to_send`.
    time_to_send: u64,
    /// `fq_skb_cb(skb)->band` (6.7+).
    band: u8,
    pkt: Packet,
}

/// Where a flow is: on a round-robin list, throttled, or detached (idle, GC candidate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FlowState {
    /// On a new or old list of band `band`.
    Listed,
    /// In `q->delayed` under this key.
    Throttled { key: (u64, u64) },
    /// `fq_flow_set_detached`: emptied at `age` jiffies.
    Detached { age: u64 },
}

/// `struct fq_flow`.
#[derive(Clone, Debug)]
struct FqFlow {
    /// The `struct sock *` (or orphan pseudo-socket) the flow is keyed by.
    key: u64,
    /// Socket of the flow, [`NO_SOCK`] for an orphan hash flow.
    sk: SockId,
    /// `head`..`tail`: skbs whose `time_to_send` never decreases.
    head: VecDeque<FqSkb>,
    /// `t_root`: skbs that arrived with an earlier `time_to_send` than the tail (EDT).
    t_root: BTreeMap<(u64, u64), FqSkb>,
    qlen: u32,
    credit: i64,
    band: u8,
    state: FlowState,
    time_next_packet: u64,
}

impl FqFlow {
    fn new(key: u64, sk: SockId, credit: i64, age: u64) -> FqFlow {
        FqFlow {
            key,
            sk,
            head: VecDeque::new(),
            t_root: BTreeMap::new(),
            qlen: 0,
            credit,
            band: 0,
            state: FlowState::Detached { age },
            time_next_packet: 0,
        }
    }

    /// `fq_peek`: the skb with the earliest `time_to_send` (head wins ties).
    fn peek(&self) -> Option<&FqSkb> {
        match (self.t_root.first_key_value(), self.head.front()) {
            (None, h) => h,
            (Some((_, s)), None) => Some(s),
            (Some((_, s)), Some(h)) => {
                if s.time_to_send < h.time_to_send {
                    Some(s)
                } else {
                    Some(h)
                }
            }
        }
    }

    /// `fq_erase_head` on what `peek` returned.
    fn take_peeked(&mut self) -> Option<FqSkb> {
        let from_tree = match (self.t_root.first_key_value(), self.head.front()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some((_, s)), Some(h)) => s.time_to_send < h.time_to_send,
        };
        if from_tree {
            self.t_root.pop_first().map(|(_, s)| s)
        } else {
            self.head.pop_front()
        }
    }

    /// `flow_queue_add`: append if not earlier than the tail, else into `t_root`.
    fn queue_add(&mut self, skb: FqSkb, seq: u64) {
        match self.head.back() {
            Some(tail) if skb.time_to_send < tail.time_to_send => {
                self.t_root.insert((skb.time_to_send, seq), skb);
            }
            _ => self.head.push_back(skb),
        }
    }
}

/// `struct fq_perband_flows`.
#[derive(Clone, Debug, Default)]
struct PerBandFlows {
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    credit: i64,
    quantum: i64,
}

/// fq's own counters (`struct tc_fq_qd_stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FqXstats {
    pub gc_flows: u64,
    /// Packets through the internal FIFO for `TC_PRIO_CONTROL` (pre-6.7; 0 since).
    pub highprio_packets: u64,
    /// Packets through the 6.7+ fast path.
    pub fastpath_packets: u64,
    /// Times a flow was throttled (`stat_throttled`).
    pub throttled: u64,
    pub flows_plimit: u64,
    pub pkts_too_long: u64,
    pub allocation_errors: u64,
    pub flows: u64,
    pub inactive_flows: u64,
    pub throttled_flows: u64,
    pub unthrottle_latency_ns: u64,
    pub ce_mark: u64,
    pub horizon_drops: u64,
    pub horizon_caps: u64,
    pub band_drops: [u64; FQ_BANDS],
    pub band_pkt_count: [u64; FQ_BANDS],
}

/// `struct fq_sched_data`.
#[derive(Clone, Debug)]
pub struct Fq {
    pub cfg: FqConfig,
    /// `flow_refill_delay` in jiffies (`usecs_to_jiffies`).
    flow_refill_delay: u64,
    flows_arena: Vec<FqFlow>,
    free_flows: Vec<u32>,
    /// `fq_root[1 << fq_trees_log]`.
    fq_root: Vec<Vec<u32>>,
    band_flows: [PerBandFlows; FQ_BANDS],
    /// `band_nr`: band being serviced (6.7+).
    band_nr: usize,
    /// `internal`: the 6.7+ fast path queue, the high-priority FIFO before.
    internal: FqFlow,
    /// `delayed`: throttled flows by `time_next_packet`.
    delayed: BTreeMap<(u64, u64), u32>,
    time_next_delayed_flow: u64,
    gso_skb: GsoSkb,
    qlen: u32,
    backlog_bytes: u64,
    /// Insertion sequence for `BTreeMap` keys (ties keep arrival order).
    seq: u64,
    xs: FqXstats,
    stats: QdiscStats,
    /// Sockets this qdisc has marked `SK_PACING_FQ` (reported once each).
    paced_sockets: BTreeSet<SockId>,
    events: Vec<QdiscEvent>,
}

/// `hash_64(val, bits)` (include/linux/hash.h), which `hash_ptr` uses on 64-bit.
fn hash_64(val: u64, bits: u8) -> usize {
    (val.wrapping_mul(GOLDEN_RATIO_64) >> (64 - bits as u32)) as usize
}

/// `time_after(a, b)` on jiffies.
fn time_after(a: u64, b: u64) -> bool {
    (b.wrapping_sub(a) as i64) < 0
}

impl Fq {
    pub fn new(cfg: FqConfig) -> Fq {
        if let Err(e) = cfg.validate() {
            panic!("{e}");
        }
        let hz = cfg.hz as u64;
        // usecs_to_jiffies rounds up.
        let flow_refill_delay = (cfg.flow_refill_delay_us as u64 * hz).div_ceil(1_000_000);
        let mut band_flows: [PerBandFlows; FQ_BANDS] = Default::default();
        for (b, w) in band_flows.iter_mut().zip(cfg.weights) {
            b.quantum = w as i64;
        }
        Fq {
            flow_refill_delay,
            flows_arena: Vec::new(),
            free_flows: Vec::new(),
            fq_root: vec![Vec::new(); 1 << cfg.fq_trees_log],
            band_flows,
            band_nr: 0,
            // The internal flow is zeroed: not detached, never on a list.
            internal: FqFlow {
                state: FlowState::Listed,
                ..FqFlow::new(0, NO_SOCK, 0, 0)
            },
            delayed: BTreeMap::new(),
            time_next_delayed_flow: u64::MAX,
            gso_skb: GsoSkb::default(),
            qlen: 0,
            backlog_bytes: 0,
            seq: 0,
            xs: FqXstats::default(),
            stats: QdiscStats::default(),
            paced_sockets: BTreeSet::new(),
            events: Vec::new(),
            cfg,
        }
    }

    fn v(&self) -> FqVersion {
        self.cfg.version
    }

    fn jiffies(&self, now_ns: u64) -> u64 {
        match now_ns.checked_mul(self.cfg.hz as u64) {
            Some(v) => v / NSEC_PER_SEC,
            None => ((now_ns as u128 * self.cfg.hz as u128) / NSEC_PER_SEC as u128) as u64,
        }
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// `smp_store_release(&sk->sk_pacing_status, SK_PACING_FQ)`: reported to the world once
    /// per socket as [`QdiscEvent::PacingFq`].
    fn set_pacing_fq(&mut self, sk: SockId) {
        if sk != NO_SOCK && self.cfg.rate_enable && self.paced_sockets.insert(sk) {
            self.events.push(QdiscEvent::PacingFq { sk });
        }
    }

    /// `fq_flow_add_tail`: append flow `fi` to the new or old list of `flow->band`.
    fn flow_add_tail(&mut self, fi: u32, new: bool) {
        let band = self.flows_arena[fi as usize].band as usize;
        self.flows_arena[fi as usize].state = FlowState::Listed;
        let pb = &mut self.band_flows[band];
        if new {
            pb.new_flows.push_back(fi);
        } else {
            pb.old_flows.push_back(fi);
        }
    }

    /// `fq_flow_set_throttled`: into `q->delayed` keyed by `time_next_packet`.
    fn flow_set_throttled(&mut self, fi: u32) {
        let seq = self.next_seq();
        let f = &mut self.flows_arena[fi as usize];
        let key = (f.time_next_packet, seq);
        f.state = FlowState::Throttled { key };
        let (tnp, sk) = (f.time_next_packet, f.sk);
        self.delayed.insert(key, fi);
        self.xs.throttled_flows += 1;
        self.xs.throttled += 1;
        if self.time_next_delayed_flow > tnp {
            self.time_next_delayed_flow = tnp;
        }
        self.events
            .push(QdiscEvent::Throttled { sk, until_ns: tnp });
    }

    /// `fq_flow_unset_throttled`: out of `q->delayed`, to the tail of its band's old list.
    fn flow_unset_throttled(&mut self, fi: u32) {
        let FlowState::Throttled { key } = self.flows_arena[fi as usize].state else {
            panic!("fq: unthrottling flow {fi} that is not throttled");
        };
        self.delayed.remove(&key);
        self.xs.throttled_flows -= 1;
        self.flow_add_tail(fi, false);
    }

    fn flow_set_detached(&mut self, fi: u32, now_jiffies: u64) {
        self.flows_arena[fi as usize].state = FlowState::Detached { age: now_jiffies };
    }

    /// `fq_gc`: free detached flows of bucket `root` idle for more than `FQ_GC_AGE` (3 s),
    /// except the one being looked up; at most `FQ_GC_MAX` per pass before 6.7.
    fn fq_gc(&mut self, root: usize, key: u64, now_jiffies: u64) {
        let gc_age = 3 * self.cfg.hz as u64; // FQ_GC_AGE = 3 * HZ
        let max = if self.v() >= FqVersion::V6_7 {
            usize::MAX
        } else {
            FQ_GC_MAX
        };
        let mut tofree: Vec<u32> = Vec::new();
        for &fi in &self.fq_root[root] {
            let f = &self.flows_arena[fi as usize];
            if f.key == key {
                continue;
            }
            if let FlowState::Detached { age } = f.state {
                if time_after(now_jiffies, age + gc_age) {
                    tofree.push(fi);
                    if tofree.len() == max {
                        break;
                    }
                }
            }
        }
        if tofree.is_empty() {
            return;
        }
        self.fq_root[root].retain(|fi| !tofree.contains(fi));
        let n = tofree.len() as u64;
        for fi in tofree {
            let f = &mut self.flows_arena[fi as usize];
            assert!(f.qlen == 0, "fq_gc freed a flow holding packets");
            f.head.clear();
            self.free_flows.push(fi);
        }
        self.xs.flows -= n;
        self.xs.inactive_flows -= n;
        self.xs.gc_flows += n;
    }

    /// `fq_fastpath_check` (6.7+): may this skb skip the flows and use the internal queue?
    fn fq_fastpath_check(&self, time_to_send: u64, now_ns: u64) -> bool {
        if time_to_send > now_ns {
            return false;
        }
        if self.qlen != 0 {
            // Fast path only if no flow is eligible now (all inactive or throttled) ...
            if self.xs.flows != self.xs.inactive_flows + self.xs.throttled_flows {
                return false;
            }
            // ... the fast path queue stays short (FQ mode under pressure) ...
            if self.internal.qlen >= 8 {
                return false;
            }
            // ... and no delayed flow is due but not yet serviced.
            if self.time_next_delayed_flow <= now_ns {
                return false;
            }
        }
        // No @maxrate on this qdisc.
        self.cfg.flow_max_rate_bytes_per_sec == u64::MAX
    }

    /// `fq_classify`: the flow of this skb; `None` is `&q->internal`.
    fn fq_classify(&mut self, pkt: &Packet, time_to_send: u64, now_ns: u64) -> Option<u32> {
        let v = self.v();
        // Pre-6.7: "warning: no starvation prevention..." TC_PRIO_CONTROL uses the FIFO.
        if v < FqVersion::V6_7 && (pkt.priority & TC_PRIO_MAX) == TC_PRIO_CONTROL {
            return None;
        }
        // No socket: a pseudo-socket from the flow hash, low bit set so it never equals a
        // real (aligned) socket pointer; the kernel also orphans the skb here.
        let (key, sk) = if pkt.sk == NO_SOCK {
            (
                (((pkt.hash & self.cfg.orphan_mask) as u64) << 1) | 1,
                NO_SOCK,
            )
        } else {
            ((pkt.sk as u64) << 1, pkt.sk)
        };
        if v >= FqVersion::V6_7 && self.fq_fastpath_check(time_to_send, now_ns) {
            self.xs.fastpath_packets += 1;
            self.set_pacing_fq(sk);
            return None;
        }
        let now_jiffies = self.jiffies(now_ns);
        let root = hash_64(key, self.cfg.fq_trees_log);
        if v >= FqVersion::V6_7
            || (self.xs.flows >= (2u64 << self.cfg.fq_trees_log)
                && self.xs.inactive_flows > self.xs.flows / 2)
        {
            self.fq_gc(root, key, now_jiffies);
        }
        if let Some(&fi) = self.fq_root[root]
            .iter()
            .find(|&&fi| self.flows_arena[fi as usize].key == key)
        {
            return Some(fi);
        }
        // A new flow: detached, with initial_quantum of credit.
        let flow = FqFlow::new(key, sk, self.cfg.initial_quantum as i64, now_jiffies);
        let fi = match self.free_flows.pop() {
            Some(fi) => {
                let old = std::mem::replace(&mut self.flows_arena[fi as usize], flow);
                // Reuse the freed flow's queue allocation.
                let f = &mut self.flows_arena[fi as usize];
                f.head = old.head;
                fi
            }
            None => {
                self.flows_arena.push(flow);
                (self.flows_arena.len() - 1) as u32
            }
        };
        self.fq_root[root].push(fi);
        if v >= FqVersion::V4_20 {
            // 4.20+ marks the socket when its flow is created.
            self.set_pacing_fq(sk);
        }
        self.xs.flows += 1;
        self.xs.inactive_flows += 1;
        Some(fi)
    }

    /// `fq_enqueue`: classify into a flow, enforce the limits, queue by `time_to_send`.
    ///
    /// Returns `Success`, or `Dropped` with `QueueFull` (`limit`; per band 6.7+),
    /// `FlowLimit` (`flow_limit`) or `Horizon` (EDT beyond `horizon` with `horizon_drop`).
    pub fn enqueue(&mut self, mut pkt: Packet, now_ns: u64) -> EnqueueResult {
        let v = self.v();
        let band = if v >= FqVersion::V6_7 {
            self.cfg.priomap[(pkt.priority & TC_PRIO_MAX) as usize]
        } else {
            0
        };
        if v >= FqVersion::V6_7 {
            if self.xs.band_pkt_count[band as usize] >= self.cfg.limit as u64 {
                self.xs.band_drops[band as usize] += 1;
                return self.drop(pkt, DropReason::QueueFull);
            }
        } else if self.qlen() >= self.cfg.limit {
            return self.drop(pkt, DropReason::QueueFull);
        }

        let time_to_send = if v < FqVersion::V4_20 || pkt.tstamp_ns == 0 {
            now_ns
        } else {
            if v >= FqVersion::V5_7 && pkt.tstamp_ns > now_ns.saturating_add(self.cfg.horizon_ns) {
                // fq_packet_beyond_horizon
                if self.cfg.horizon_drop {
                    self.xs.horizon_drops += 1;
                    return self.drop(pkt, DropReason::Horizon);
                }
                self.xs.horizon_caps += 1;
                pkt.tstamp_ns = now_ns + self.cfg.horizon_ns;
            }
            pkt.tstamp_ns
        };

        let fi = self.fq_classify(&pkt, time_to_send, now_ns);
        let skb_seq = self.next_seq();
        let pkt_len = pkt.qdisc_pkt_len() as u64;
        match fi {
            None => {
                if v < FqVersion::V6_7 {
                    self.xs.highprio_packets += 1;
                }
                self.internal.qlen += 1;
                let skb = FqSkb {
                    time_to_send,
                    band,
                    pkt,
                };
                if v >= FqVersion::V4_20 {
                    self.internal.queue_add(skb, skb_seq);
                } else {
                    self.internal.head.push_back(skb);
                }
            }
            Some(fi) => {
                if self.flows_arena[fi as usize].qlen >= self.cfg.flow_limit {
                    self.xs.flows_plimit += 1;
                    return self.drop(pkt, DropReason::FlowLimit);
                }
                let now_jiffies = self.jiffies(now_ns);
                if let FlowState::Detached { age } = self.flows_arena[fi as usize].state {
                    // 6.7+ adds the flow to the new list of its *previous* band (f->band is
                    // updated just below, as in fq_enqueue).
                    self.flow_add_tail(fi, true);
                    if time_after(now_jiffies, age + self.flow_refill_delay) {
                        let f = &mut self.flows_arena[fi as usize];
                        f.credit = f.credit.max(self.cfg.quantum as i64);
                    }
                    if v < FqVersion::V6_7 {
                        if (FqVersion::V4_13..FqVersion::V4_20).contains(&v) {
                            self.set_pacing_fq(pkt.sk);
                        }
                        self.xs.inactive_flows -= 1;
                    }
                }
                let f = &mut self.flows_arena[fi as usize];
                if v >= FqVersion::V6_7 {
                    f.band = band;
                    self.xs.band_pkt_count[band as usize] += 1;
                    if f.qlen == 0 {
                        self.xs.inactive_flows -= 1;
                    }
                }
                f.qlen += 1;
                let skb = FqSkb {
                    time_to_send,
                    band,
                    pkt,
                };
                if v >= FqVersion::V4_20 {
                    f.queue_add(skb, skb_seq);
                } else {
                    f.head.push_back(skb);
                }
            }
        }
        self.backlog_bytes += pkt_len;
        self.qlen += 1;
        EnqueueResult::Success
    }

    fn drop(&mut self, pkt: Packet, why: DropReason) -> EnqueueResult {
        self.stats.dropped += 1;
        EnqueueResult::Dropped(Box::new(pkt), why)
    }

    /// `fq_check_throttled`: move every throttled flow that is due to its band's old list.
    fn fq_check_throttled(&mut self, now_ns: u64) {
        if self.time_next_delayed_flow > now_ns {
            return;
        }
        if self.v() >= FqVersion::V4_9 {
            // Unthrottle latency EWMA (1/8).
            let sample = now_ns - self.time_next_delayed_flow;
            if sample > 0 || self.v() < FqVersion::V6_7 {
                self.xs.unthrottle_latency_ns -= self.xs.unthrottle_latency_ns >> 3;
                self.xs.unthrottle_latency_ns += sample >> 3;
            }
        }
        self.time_next_delayed_flow = u64::MAX;
        while let Some((&(tnp, _), &fi)) = self.delayed.first_key_value() {
            if tnp > now_ns {
                self.time_next_delayed_flow = tnp;
                break;
            }
            self.flow_unset_throttled(fi);
        }
    }

    /// `fq_pband_head_select` (6.7+); before 6.7 there is one band with unlimited credit.
    /// Returns (band, is the new list).
    fn head_select(&self, band: usize) -> Option<bool> {
        let pb = &self.band_flows[band];
        if self.v() >= FqVersion::V6_7 && pb.credit <= 0 {
            return None;
        }
        if !pb.new_flows.is_empty() {
            Some(true)
        } else if !pb.old_flows.is_empty() {
            Some(false)
        } else {
            None
        }
    }

    fn list_front(&self, band: usize, new: bool) -> u32 {
        let pb = &self.band_flows[band];
        *if new { &pb.new_flows } else { &pb.old_flows }
            .front()
            .expect("fq: selected an empty list")
    }

    /// `head->first = f->next`.
    fn list_pop(&mut self, band: usize, new: bool) {
        let pb = &mut self.band_flows[band];
        if new {
            pb.new_flows.pop_front();
        } else {
            pb.old_flows.pop_front();
        }
    }

    /// `fq_dequeue`: the next packet in (weighted) deficit round robin whose departure time
    /// has come; flows whose next packet is not due are throttled.
    ///
    /// Returns `Packet`, `Empty`, or `Throttled{until_ns}` (packets are queued but none is
    /// due: the caller arms the qdisc watchdog at `time_next_delayed_flow`).
    pub fn dequeue(&mut self, now_ns: u64) -> Dequeue {
        // dequeue_skb: requeued packets first (already counted in Sent).
        if let Some(p) = self.gso_skb.pop() {
            return Dequeue::Packet(p);
        }
        if self.qlen() == 0 {
            return Dequeue::Empty;
        }
        let v = self.v();
        if self.internal.qlen > 0 {
            let skb = if v >= FqVersion::V4_20 {
                self.internal.take_peeked()
            } else {
                self.internal.head.pop_front()
            }
            .expect("fq: internal qlen and queue disagree");
            self.internal.qlen -= 1;
            return Dequeue::Packet(self.dequeued(skb.pkt));
        }

        self.fq_check_throttled(now_ns);
        let now_jiffies = self.jiffies(now_ns);
        let mut retry = 0;
        let mut band = if v >= FqVersion::V6_7 {
            self.band_nr
        } else {
            0
        };
        loop {
            let Some(is_new) = self.head_select(band) else {
                if v >= FqVersion::V6_7 {
                    let mut switched = false;
                    while {
                        retry += 1;
                        retry <= FQ_BANDS
                    } {
                        self.band_nr = (self.band_nr + 1) % FQ_BANDS;
                        band = self.band_nr;
                        let pb = &mut self.band_flows[band];
                        pb.credit = (pb.credit + pb.quantum).min(pb.quantum);
                        if pb.credit > 0 {
                            switched = true;
                            break;
                        }
                        retry = 0;
                    }
                    if switched {
                        continue;
                    }
                }
                if self.time_next_delayed_flow != u64::MAX {
                    // qdisc_watchdog_schedule_range_ns(time_next_delayed_flow, timer_slack)
                    return Dequeue::Throttled {
                        until_ns: self.time_next_delayed_flow,
                    };
                }
                panic!(
                    "fq: {} packets queued but no flow listed or throttled",
                    self.qlen()
                );
            };
            retry = 0;
            let fi = self.list_front(band, is_new);
            if self.flows_arena[fi as usize].credit <= 0 {
                self.flows_arena[fi as usize].credit += self.cfg.quantum as i64;
                self.list_pop(band, is_new);
                self.flow_add_tail(fi, false);
                continue;
            }

            let skb = if v >= FqVersion::V4_20 {
                let f = &mut self.flows_arena[fi as usize];
                match f.peek().map(|s| s.time_to_send) {
                    Some(time_to_send) => {
                        let time_next_packet = time_to_send.max(f.time_next_packet);
                        if now_ns < time_next_packet {
                            f.time_next_packet = time_next_packet;
                            self.list_pop(band, is_new);
                            self.flow_set_throttled(fi);
                            continue;
                        }
                        let skb = f.take_peeked();
                        if now_ns - time_next_packet > self.cfg.ce_threshold_ns {
                            self.xs.ce_mark += 1; // INET_ECN_set_ce (packets are not ECT)
                        }
                        skb
                    }
                    None => None,
                }
            } else {
                // Pre-4.20: the head is throttled while now < time_next_packet, except
                // locally generated pure ACKs, which are never paced.
                let f = &mut self.flows_arena[fi as usize];
                let head_throttled = f
                    .head
                    .front()
                    .is_some_and(|s| now_ns < f.time_next_packet && !s.pkt.pure_ack);
                if head_throttled {
                    self.list_pop(band, is_new);
                    self.flow_set_throttled(fi);
                    continue;
                }
                f.head.pop_front()
            };

            let Some(skb) = skb else {
                // The flow is empty.
                self.list_pop(band, is_new);
                let old_nonempty = !self.band_flows[band].old_flows.is_empty();
                // Force a pass through old_flows to prevent starvation (before 6.7 only if
                // there are old flows).
                if is_new && (v >= FqVersion::V6_7 || old_nonempty) {
                    self.flow_add_tail(fi, false);
                } else {
                    self.flow_set_detached(fi, now_jiffies);
                    if v < FqVersion::V6_7 {
                        self.xs.inactive_flows += 1;
                    }
                }
                continue;
            };

            let f = &mut self.flows_arena[fi as usize];
            f.qlen -= 1;
            if v >= FqVersion::V6_7 {
                if f.qlen == 0 {
                    self.xs.inactive_flows += 1;
                }
                self.xs.band_pkt_count[skb.band as usize] -= 1;
            }
            let pkt = skb.pkt;
            let mut plen = pkt.qdisc_pkt_len() as u64;
            f.credit -= plen as i64;
            if v >= FqVersion::V6_7 {
                self.band_flows[band].credit -= plen as i64;
            }
            self.fq_rate(fi, &pkt, &mut plen, now_ns);
            return Dequeue::Packet(self.dequeued(pkt));
        }
    }

    /// The pacing part of `fq_dequeue` after the packet is chosen: set the flow's
    /// `time_next_packet` from the rate, per version.
    fn fq_rate(&mut self, fi: u32, pkt: &Packet, plen: &mut u64, now_ns: u64) {
        let v = self.v();
        let quantum = self.cfg.quantum as u64;
        let f = &mut self.flows_arena[fi as usize];
        if !self.cfg.rate_enable {
            return;
        }
        let mut rate = self.cfg.flow_max_rate_bytes_per_sec;
        let sk_rate = if pkt.sk != NO_SOCK {
            pkt.sk_pacing_rate_bps
        } else {
            u64::MAX
        };
        if v < FqVersion::V4_9 {
            // 3.12..4.8: burst while credit lasts, pure ACKs unpaced, delay of a quantum.
            if f.credit > 0 || pkt.pure_ack {
                return;
            }
            rate = rate.min(sk_rate);
            if rate == u64::MAX {
                return;
            }
            *plen = (*plen).max(quantum);
        } else if v < FqVersion::V4_20 || pkt.tstamp_ns == 0 {
            if v < FqVersion::V4_20 && pkt.pure_ack {
                // "Do not pace locally generated ack packets"
                return;
            }
            // If an EDT time was provided, fq only enforces maxrate (below).
            rate = rate.min(sk_rate);
            if rate <= self.cfg.low_rate_threshold_bytes_per_sec {
                f.credit = 0; // pace every packet
            } else {
                *plen = (*plen).max(quantum);
                if f.credit > 0 {
                    return;
                }
            }
        }
        if rate == u64::MAX {
            return;
        }
        // likely(rate): a zero rate leaves plen * NSEC_PER_SEC, clamped below.
        let mut len = (*plen * NSEC_PER_SEC)
            .checked_div(rate)
            .unwrap_or(*plen * NSEC_PER_SEC);
        // Socket rate can change later: clamp the delay to one second.
        if len > NSEC_PER_SEC {
            len = NSEC_PER_SEC;
            self.xs.pkts_too_long += 1;
        }
        if v >= FqVersion::V4_9 && f.time_next_packet != 0 {
            // Account for schedule/timer drifts (unsigned: a future time_next_packet makes
            // the difference huge and the correction len/2).
            len -= (len / 2).min(now_ns.wrapping_sub(f.time_next_packet));
        }
        f.time_next_packet = now_ns + len;
    }

    /// Common end of a dequeue (`fq_dequeue_skb` / `out:`): counters.
    fn dequeued(&mut self, pkt: Packet) -> Packet {
        self.qlen -= 1;
        self.backlog_bytes -= pkt.qdisc_pkt_len() as u64;
        qdisc_bstats_update(&mut self.stats, &pkt);
        pkt
    }

    /// Packets in the requeue slot.
    pub fn requeued_len(&self) -> u32 {
        self.gso_skb.len()
    }

    /// `dev_requeue_skb`.
    pub fn requeue(&mut self, pkt: Packet) {
        self.gso_skb.push(pkt, &mut self.stats);
    }

    /// Packets queued (`sch->q.qlen`, requeued ones included).
    pub fn qlen(&self) -> u32 {
        self.qlen + self.gso_skb.len()
    }

    pub fn backlog_bytes(&self) -> u64 {
        self.backlog_bytes + self.gso_skb.bytes()
    }

    /// `time_next_delayed_flow` (`u64::MAX` when no flow is throttled).
    pub fn time_next_delayed_flow(&self) -> u64 {
        self.time_next_delayed_flow
    }

    /// Credit of the flow of socket `sk`, if fq has one (tests and the site's inspector).
    pub fn flow_credit(&self, sk: SockId) -> Option<i64> {
        let key = (sk as u64) << 1;
        let root = hash_64(key, self.cfg.fq_trees_log);
        self.fq_root[root]
            .iter()
            .map(|&fi| &self.flows_arena[fi as usize])
            .find(|f| f.key == key)
            .map(|f| f.credit)
    }

    /// `fq_dump_stats`.
    pub fn xstats(&self) -> FqXstats {
        self.xs.clone()
    }

    /// Events since the last call (throttles, `SK_PACING_FQ` marks), appended to `out`.
    pub fn drain_events(&mut self, out: &mut Vec<QdiscEvent>) {
        out.append(&mut self.events);
    }

    /// `tc -s qdisc show` for fq: the generic counters and `tc_fq_qd_stats` in its order.
    pub fn stats(&self) -> QdiscStats {
        let mut s = self.stats.clone();
        s.backlog_bytes = self.backlog_bytes();
        s.backlog_packets = self.qlen() as u64;
        let x = &self.xs;
        let mut extra: Vec<(String, u64)> = vec![
            ("gc_flows".into(), x.gc_flows),
            ("highprio_packets".into(), x.highprio_packets),
            ("fastpath_packets".into(), x.fastpath_packets),
            ("throttled".into(), x.throttled),
            ("flows_plimit".into(), x.flows_plimit),
            ("pkts_too_long".into(), x.pkts_too_long),
            ("allocation_errors".into(), x.allocation_errors),
            ("flows".into(), x.flows),
            ("inactive_flows".into(), x.inactive_flows),
            ("throttled_flows".into(), x.throttled_flows),
            ("unthrottle_latency_ns".into(), x.unthrottle_latency_ns),
            ("ce_mark".into(), x.ce_mark),
            ("horizon_drops".into(), x.horizon_drops),
            ("horizon_caps".into(), x.horizon_caps),
        ];
        if self.v() >= FqVersion::V6_7 {
            for b in 0..FQ_BANDS {
                extra.push((format!("band{b}_drops"), x.band_drops[b]));
            }
            for b in 0..FQ_BANDS {
                extra.push((format!("band{b}_pkt_count"), x.band_pkt_count[b]));
            }
        }
        s.extra = extra;
        s
    }
}

impl Fq {
    /// Every packet the qdisc holds (its requeue slot, the internal queue, every flow's
    /// `head` list and `t_root`), in no particular order.
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        fn flow(f: &FqFlow) -> impl Iterator<Item = &Packet> {
            f.head
                .iter()
                .map(|s| &s.pkt)
                .chain(f.t_root.values().map(|s| &s.pkt))
        }
        let mut out: Vec<&Packet> = self.gso_skb.packets().collect();
        out.extend(flow(&self.internal));
        for f in &self.flows_arena {
            out.extend(flow(f));
        }
        out.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HZ: u32 = 1000;
    /// 1448 B payload + 66 B headers = 1514 B, one full Ethernet frame.
    const MSS: u32 = 1448;

    fn data(id: u64, sk: SockId, payload: u32, rate: u64, tstamp_ns: u64) -> Packet {
        Packet {
            tstamp_ns,
            sk_pacing_rate_bps: rate,
            ..Packet::test_data(id, sk, payload, 1, MSS)
        }
    }

    fn fq(major: u32, minor: u32) -> Fq {
        Fq::new(FqConfig::for_kernel(major, minor, 1514, HZ))
    }

    /// Dequeue like the device does: on `Throttled`, jump to `until_ns` (the watchdog).
    /// Returns (departure time, packet id) for `n` packets.
    fn drain_timed(q: &mut Fq, mut now: u64, n: usize) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        while out.len() < n {
            match q.dequeue(now) {
                Dequeue::Packet(p) => out.push((now, p.id)),
                Dequeue::Throttled { until_ns } => {
                    assert!(until_ns > now, "watchdog must be in the future");
                    now = until_ns;
                }
                Dequeue::Empty => break,
            }
        }
        out
    }

    #[test]
    fn fq_spaces_packets_of_a_paced_flow_by_size_over_rate_before_edt() {
        // 4.13 with a low rate: below low_rate_threshold every packet is paced by its own
        // length: 1514 B at 50 kB/s is 30.28 ms apart.
        let mut q = fq(4, 13);
        let rate = 50_000; // bytes per second, < 68750 (550 kbit/s)
        for i in 0..4 {
            q.enqueue(data(i, 1, MSS, rate, 0), 0);
        }
        let t = drain_timed(&mut q, 0, 4);
        let gap = 1514 * NSEC_PER_SEC / rate;
        assert_eq!(t[0].0, 0);
        for w in t.windows(2) {
            assert_eq!(w[1].0 - w[0].0, gap, "{t:?}");
        }
    }

    #[test]
    fn fq_bursts_a_quantum_then_waits_quantum_over_rate_above_the_low_rate_threshold() {
        // 4.13, 1.25 MB/s (10 Mbit/s): the new flow spends its initial_quantum (15140 B = 10
        // packets) unpaced; from then on each dequeue that ends the credit sets
        // time_next_packet = now + max(len, quantum) / rate.
        let mut q = fq(4, 13);
        let rate = 1_250_000;
        for i in 0..14 {
            q.enqueue(data(i, 1, MSS, rate, 0), 0);
        }
        let t = drain_timed(&mut q, 0, 14);
        let burst = t.iter().filter(|(ts, _)| *ts == 0).count();
        assert_eq!(
            burst, 10,
            "initial_quantum of 10 * 1514 B leaves at once: {t:?}"
        );
        // After the initial burst, credit alternates: refill of one quantum (3028 B = 2
        // packets) per round, then a pause of quantum / rate (2.4224 ms).
        let pause = 3028 * NSEC_PER_SEC / rate;
        assert_eq!(t[10].0 - t[9].0, pause, "{t:?}");
        assert_eq!(t[11].0, t[10].0);
        assert_eq!(t[12].0 - t[11].0, pause, "{t:?}");
    }

    #[test]
    fn fq_honours_edt_timestamps_after_4_20() {
        let mut q = fq(5, 10);
        // TCP stamped departures 0, 100 µs, 250 µs; the rate field is ignored with EDT.
        for (i, ts) in [(1, 1), (2, 100_000), (3, 250_000)] {
            q.enqueue(data(i, 1, MSS, 1, ts), 0);
        }
        let t = drain_timed(&mut q, 0, 3);
        assert_eq!(t, vec![(1, 1), (100_000, 2), (250_000, 3)]);
        assert_eq!(q.xstats().throttled, 3);
    }

    #[test]
    fn fq_orders_an_out_of_order_edt_packet_before_the_tail() {
        let mut q = fq(6, 6);
        q.enqueue(data(1, 1, MSS, u64::MAX, 50_000), 0);
        q.enqueue(data(2, 1, MSS, u64::MAX, 200_000), 0);
        q.enqueue(data(3, 1, MSS, u64::MAX, 100_000), 0);
        let ids: Vec<u64> = drain_timed(&mut q, 0, 3).iter().map(|x| x.1).collect();
        assert_eq!(ids, vec![1, 3, 2]);
    }

    #[test]
    fn fq_drops_beyond_the_horizon_from_5_7() {
        let mut q = fq(5, 7);
        let r = q.enqueue(data(1, 1, MSS, u64::MAX, 11 * NSEC_PER_SEC), 0);
        assert!(matches!(r, EnqueueResult::Dropped(_, DropReason::Horizon)));
        assert_eq!(q.xstats().horizon_drops, 1);
        let mut old = fq(5, 6);
        assert_eq!(
            old.enqueue(data(1, 1, MSS, u64::MAX, 11 * NSEC_PER_SEC), 0),
            EnqueueResult::Success
        );
    }

    #[test]
    fn fq_gives_a_new_flow_initial_quantum() {
        let mut q = fq(6, 18);
        // A departure time in the future keeps the packet off the 6.7 fast path.
        q.enqueue(data(1, 7, MSS, u64::MAX, 1_000), 0);
        assert_eq!(q.flow_credit(7), Some(10 * 1514));
        let t = drain_timed(&mut q, 0, 1);
        assert_eq!(t, vec![(1_000, 1)]);
        assert_eq!(q.flow_credit(7), Some(10 * 1514 - 1514));
    }

    #[test]
    fn fq_6_7_uses_the_fast_path_while_no_flow_is_eligible() {
        let mut q = fq(6, 18);
        for i in 0..9 {
            q.enqueue(data(i, 7, MSS, u64::MAX, 0), 0);
        }
        let x = q.xstats();
        assert_eq!(
            x.fastpath_packets, 8,
            "the fast path queue stops at 8 packets"
        );
        assert_eq!(x.flows, 1);
        let ids: Vec<u64> = drain_timed(&mut q, 0, 9).iter().map(|x| x.1).collect();
        assert_eq!(ids, (0..9).collect::<Vec<_>>());
    }

    #[test]
    fn a_new_flow_is_served_before_old_flows_and_drr_alternates_by_quantum() {
        // 4.19: no fast path, one band. Flow A is old (has used its initial credit), then flow
        // B appears: B (new list) is served first.
        let mut q = fq(4, 19);
        for i in 0..30 {
            q.enqueue(data(100 + i, 1, MSS, u64::MAX, 0), 0);
        }
        for _ in 0..11 {
            let Dequeue::Packet(p) = q.dequeue(0) else {
                panic!()
            };
            assert_eq!(p.sk, 1);
        }
        for i in 0..5 {
            q.enqueue(data(200 + i, 2, MSS, u64::MAX, 0), 0);
        }
        let Dequeue::Packet(p) = q.dequeue(0) else {
            panic!()
        };
        assert_eq!(p.sk, 2, "the new flow goes first");
    }

    #[test]
    fn fq_drops_a_flow_over_flow_limit_and_counts_flows_plimit() {
        let mut cfg = FqConfig::for_kernel(4, 19, 1514, HZ);
        cfg.flow_limit = 3;
        let mut q = Fq::new(cfg);
        for i in 0..3 {
            assert_eq!(
                q.enqueue(data(i, 1, MSS, u64::MAX, 0), 0),
                EnqueueResult::Success
            );
        }
        assert!(matches!(
            q.enqueue(data(9, 1, MSS, u64::MAX, 0), 0),
            EnqueueResult::Dropped(_, DropReason::FlowLimit)
        ));
        assert_eq!(q.xstats().flows_plimit, 1);
        assert_eq!(q.stats().dropped, 1);
        // Another flow is not affected.
        assert_eq!(
            q.enqueue(data(10, 2, MSS, u64::MAX, 0), 0),
            EnqueueResult::Success
        );
    }

    #[test]
    fn fq_maxrate_paces_edt_flows_too() {
        let mut cfg = FqConfig::for_kernel(6, 6, 1514, HZ);
        cfg.flow_max_rate_bytes_per_sec = 1_000_000;
        let mut q = Fq::new(cfg);
        for i in 0..3 {
            q.enqueue(data(i, 1, MSS, u64::MAX, 1), 0);
        }
        let t = drain_timed(&mut q, 1, 3);
        // EDT packets: no quantum burst, each waits plen / maxrate = 1.514 ms (minus drift).
        assert_eq!(t[1].0 - t[0].0, 1_514_000);
        assert_eq!(t[2].0 - t[1].0, 1_514_000);
    }

    #[test]
    fn fq_marks_the_socket_sk_pacing_fq_from_4_13_and_not_before() {
        for (major, minor, marked) in [(4, 9, false), (4, 13, true), (5, 10, true), (6, 18, true)] {
            let mut q = fq(major, minor);
            q.enqueue(data(1, 42, MSS, u64::MAX, 0), 0);
            let mut ev = Vec::new();
            q.drain_events(&mut ev);
            let got = ev.contains(&QdiscEvent::PacingFq { sk: 42 });
            assert_eq!(got, marked, "{major}.{minor}: {ev:?}");
        }
    }

    #[test]
    fn pure_acks_are_not_paced_before_4_20() {
        let mut q = fq(4, 13);
        let rate = 10_000;
        q.enqueue(data(1, 1, MSS, rate, 0), 0);
        let mut ack = data(2, 1, 0, rate, 0);
        ack.pure_ack = true;
        q.enqueue(ack, 0);
        assert!(matches!(q.dequeue(0), Dequeue::Packet(_)));
        // The data packet set time_next_packet far ahead; the ACK still leaves now.
        let Dequeue::Packet(p) = q.dequeue(1) else {
            panic!("pure ACK was throttled")
        };
        assert_eq!(p.id, 2);
    }

    #[test]
    fn fq_6_7_bands_serve_by_weight() {
        // Band 0 (priority 6) weight 9<<16, band 2 (priority 1) weight 1<<16: with both
        // backlogged, band 0 gets about 9 times the bytes.
        let mut cfg = FqConfig::for_kernel(6, 18, 1514, HZ);
        cfg.flow_limit = 10_000;
        let mut q = Fq::new(cfg);
        let mut id = 0;
        for _ in 0..2000 {
            for (sk, prio) in [(1, 6u8), (2, 1u8)] {
                id += 1;
                let mut p = data(id, sk, MSS, u64::MAX, 0);
                p.priority = prio;
                q.enqueue(p, 0);
            }
        }
        let mut by_sk = [0u32; 3];
        for _ in 0..1000 {
            let Dequeue::Packet(p) = q.dequeue(0) else {
                panic!()
            };
            by_sk[p.sk as usize] += 1;
        }
        let ratio = by_sk[1] as f64 / by_sk[2] as f64;
        assert!(
            (8.0..10.5).contains(&ratio),
            "band ratio {ratio}: {by_sk:?}"
        );
    }

    #[test]
    fn fq_garbage_collects_flows_idle_for_three_seconds() {
        let mut q = fq(6, 18);
        // GC runs on a lookup in the same bucket: find a socket sharing socket 1's bucket.
        let bucket = |sk: u32| hash_64((sk as u64) << 1, 10);
        let other = (2..100_000).find(|&s| bucket(s) == bucket(1)).unwrap();
        // Future departure times keep packets off the fast path; socket 99 stays queued so
        // that dequeue walks the lists and detaches the emptied flows.
        q.enqueue(data(1, 1, MSS, u64::MAX, 1), 0);
        q.enqueue(data(2, other, MSS, u64::MAX, 1), 0);
        q.enqueue(data(3, 99, MSS, u64::MAX, 10 * NSEC_PER_SEC), 0);
        while let Dequeue::Packet(_) = q.dequeue(1) {}
        assert_eq!(q.xstats().flows, 3);
        assert_eq!(q.xstats().inactive_flows, 2);
        // 3 s and 2 jiffies later a packet of `other` triggers GC of socket 1's flow.
        let later = 3 * NSEC_PER_SEC + 2_000_000;
        q.enqueue(data(4, other, MSS, u64::MAX, later + 1), later);
        assert_eq!(q.xstats().gc_flows, 1);
        assert_eq!(q.xstats().flows, 2);
        assert_eq!(q.flow_credit(1), None);
        assert!(q.flow_credit(other).is_some());
    }

    #[test]
    fn tc_stats_count_sent_backlog_and_fq_lines() {
        let mut q = fq(6, 18);
        q.enqueue(data(1, 1, MSS, u64::MAX, 0), 0);
        q.enqueue(data(2, 1, MSS, u64::MAX, 0), 0);
        q.dequeue(0);
        let s = q.stats();
        assert_eq!((s.sent_packets, s.sent_bytes), (1, 1514));
        assert_eq!((s.backlog_packets, s.backlog_bytes), (1, 1514));
        let get = |k: &str| s.extra.iter().find(|e| e.0 == k).unwrap().1;
        assert_eq!(get("flows"), 0);
        assert_eq!(get("fastpath_packets"), 2);
    }
}
