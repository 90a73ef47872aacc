//! `fq_codel`: flow queueing with CoDel on each flow (`net/sched/sch_fq_codel.c`, with the
//! CoDel algorithm of `include/net/codel.h` and `include/net/codel_impl.h`, Linux 6.18).
//!
//! Packets are hashed (`skb->hash`) into `flows` buckets (default 1024). Flows with packets sit
//! on a new or an old round-robin list; a flow gets `quantum` bytes of deficit per round, new
//! flows go first. Each flow's queue is managed by CoDel: when the sojourn time of the packets
//! leaving it stays above `target` (5 ms) for `interval` (100 ms), CoDel drops at the head, at
//! intervals shrinking as `interval / sqrt(count)`. When the qdisc exceeds `limit` packets or
//! `memory_limit` bytes of truesize, `fq_codel_drop` drops half of the fattest flow's backlog
//! (at most `drop_batch_size` packets).
//!
//! Time in CoDel is `codel_time_t`: `u32` nanoseconds `>> CODEL_SHIFT` (1.024 µs units),
//! compared with wrapping arithmetic, exactly as the kernel does.
//!
//! Simplified:
//! - no external classifier (`tc filter`) and no `skb->priority` flow override, because
//!   scenarios attach none; visible effect: none.
//! - ECN marking is not modelled, because the model's TCP does not negotiate ECN and
//!   `INET_ECN_set_ce` fails on Not-ECT packets, so CoDel drops as Linux does for such flows;
//!   visible effect: none.
//! - the pre-4.6 overlimit behaviour (one packet dropped, no `memory_limit`) is not modelled:
//!   every kernel profile gets the batch drop; visible effect: only when fq_codel overflows.

use std::collections::VecDeque;

use crate::include::linux::skbuff::Packet;
use crate::net::sched::sch_generic::{qdisc_bstats_update, GsoSkb};
use crate::net::sched::sch_generic::{Dequeue, DropReason, EnqueueResult, QdiscEvent, QdiscStats};

/// `CODEL_SHIFT`: `codel_time_t` counts 1024 ns units.
pub const CODEL_SHIFT: u32 = 10;
/// `REC_INV_SQRT_BITS` = 16; `REC_INV_SQRT_SHIFT` = 32 - 16.
const REC_INV_SQRT_SHIFT: u32 = 16;

/// `codel_time_t`.
pub type CodelTime = u32;

/// `codel_get_time()`: ktime ns >> CODEL_SHIFT, truncated to 32 bits.
#[inline]
pub fn codel_time(now_ns: u64) -> CodelTime {
    (now_ns >> CODEL_SHIFT) as u32
}

/// `MS2TIME` / `US2TIME` for microseconds.
#[inline]
pub fn us_to_codel_time(us: u32) -> CodelTime {
    ((us as u64 * 1000) >> CODEL_SHIFT) as u32
}

#[inline]
fn codel_time_after(a: CodelTime, b: CodelTime) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}
#[inline]
fn codel_time_after_eq(a: CodelTime, b: CodelTime) -> bool {
    (a.wrapping_sub(b) as i32) >= 0
}
#[inline]
fn codel_time_before(a: CodelTime, b: CodelTime) -> bool {
    codel_time_after(b, a)
}

/// `reciprocal_scale(val, ep_ro)`: `val * ep_ro / 2^32`.
#[inline]
fn reciprocal_scale(val: u32, ep_ro: u32) -> u32 {
    ((val as u64 * ep_ro as u64) >> 32) as u32
}

/// `struct codel_params`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodelParams {
    pub target: CodelTime,
    pub interval: CodelTime,
    /// `psched_mtu`: a backlog at or below one MTU is never "above target".
    pub mtu: u32,
}

/// `struct codel_vars`: one flow's CoDel state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodelVars {
    /// Packets dropped since entering the dropping state.
    pub count: u32,
    pub lastcount: u32,
    pub dropping: bool,
    /// `1/sqrt(count)` in Q0.16.
    pub rec_inv_sqrt: u16,
    pub first_above_time: CodelTime,
    pub drop_next: CodelTime,
    /// Sojourn time of the last dequeued packet.
    pub ldelay: CodelTime,
}

impl CodelVars {
    /// `codel_Newton_step`: one Newton iteration of `rec_inv_sqrt` towards `1/sqrt(count)`.
    pub fn codel_newton_step(&mut self) {
        let invsqrt = (self.rec_inv_sqrt as u32) << REC_INV_SQRT_SHIFT;
        let invsqrt2 = ((invsqrt as u64 * invsqrt as u64) >> 32) as u32;
        let mut val = (3u64 << 32).wrapping_sub(self.count as u64 * invsqrt2 as u64);
        val >>= 2; // avoid overflow in the following multiply
        val = val.wrapping_mul(invsqrt as u64) >> (32 - 2 + 1);
        self.rec_inv_sqrt = (val >> REC_INV_SQRT_SHIFT) as u16;
    }
}

/// `codel_control_law`: `t + interval / sqrt(count)`.
#[inline]
pub fn codel_control_law(t: CodelTime, interval: CodelTime, rec_inv_sqrt: u16) -> CodelTime {
    t.wrapping_add(reciprocal_scale(
        interval,
        (rec_inv_sqrt as u32) << REC_INV_SQRT_SHIFT,
    ))
}

/// fq_codel parameters as `tc qdisc add ... fq_codel` names them; defaults from
/// `fq_codel_init`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FqCodelConfig {
    /// `limit` (packets), default 10240.
    pub limit: u32,
    /// `flows` (hash buckets), default 1024, 1..=65536.
    pub flows: u32,
    /// `quantum` (bytes of deficit per round), default `psched_mtu`, at least 256.
    pub quantum: u32,
    /// `target` (µs), default 5000.
    pub target_us: u32,
    /// `interval` (µs), default 100000.
    pub interval_us: u32,
    /// `memory_limit` (bytes of truesize), default 32 MB.
    pub memory_limit: u32,
    /// `drop_batch`, default 64.
    pub drop_batch_size: u32,
    /// `psched_mtu` of the device (CoDel's "backlog <= mtu" rule).
    pub mtu: u32,
}

impl FqCodelConfig {
    pub fn new(psched_mtu: u32) -> FqCodelConfig {
        FqCodelConfig {
            limit: 10 * 1024,
            flows: 1024,
            quantum: psched_mtu,
            target_us: 5_000,
            interval_us: 100_000,
            memory_limit: 32 << 20,
            drop_batch_size: 64,
            mtu: psched_mtu,
        }
    }

    /// The ranges `fq_codel_change` enforces; the error names the parameter.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=65536).contains(&self.flows) {
            return Err(format!(
                "fq_codel flows {} out of range 1..=65536",
                self.flows
            ));
        }
        if self.drop_batch_size == 0 {
            return Err("fq_codel drop_batch must be at least 1".into());
        }
        Ok(())
    }
}

/// One queued skb with its `codel_skb_cb` (enqueue time) and `mem_usage`.
#[derive(Clone, Debug)]
struct CodelSkb {
    enqueue_time: CodelTime,
    mem_usage: u32,
    pkt: Packet,
}

/// `struct fq_codel_flow`.
#[derive(Clone, Debug, Default)]
struct FqCodelFlow {
    q: VecDeque<CodelSkb>,
    /// `!list_empty(&flow->flowchain)`.
    listed: bool,
    deficit: i64,
    cvars: CodelVars,
}

/// fq_codel's own counters (`struct tc_fq_codel_qd_stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FqCodelXstats {
    pub maxpacket: u32,
    pub drop_overlimit: u32,
    pub ecn_mark: u32,
    pub new_flow_count: u32,
    pub new_flows_len: u32,
    pub old_flows_len: u32,
    pub ce_mark: u32,
    pub memory_usage: u32,
    pub drop_overmemory: u32,
}

/// `struct fq_codel_sched_data`.
#[derive(Clone, Debug)]
pub struct FqCodel {
    pub cfg: FqCodelConfig,
    cparams: CodelParams,
    flows: Vec<FqCodelFlow>,
    /// `backlogs[]`: bytes per flow.
    backlogs: Vec<u32>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    gso_skb: GsoSkb,
    qlen: u32,
    /// `sch->qstats.backlog`, which CoDel reads.
    backlog: u32,
    xs: FqCodelXstats,
    stats: QdiscStats,
    events: Vec<QdiscEvent>,
}

impl Default for FqCodel {
    fn default() -> Self {
        FqCodel::new(FqCodelConfig::new(1514))
    }
}

impl FqCodel {
    pub fn new(cfg: FqCodelConfig) -> FqCodel {
        if let Err(e) = cfg.validate() {
            panic!("{e}");
        }
        let n = cfg.flows as usize;
        FqCodel {
            cparams: CodelParams {
                target: us_to_codel_time(cfg.target_us),
                interval: us_to_codel_time(cfg.interval_us),
                mtu: cfg.mtu,
            },
            flows: vec![FqCodelFlow::default(); n],
            backlogs: vec![0; n],
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            gso_skb: GsoSkb::default(),
            qlen: 0,
            backlog: 0,
            xs: FqCodelXstats::default(),
            stats: QdiscStats::default(),
            events: Vec::new(),
            cfg: FqCodelConfig {
                quantum: cfg.quantum.max(256), // q->quantum = max(256U, quantum)
                ..cfg
            },
        }
    }

    /// `fq_codel_init`: `TCQ_F_CAN_BYPASS` when `limit >= 1`.
    pub fn can_bypass(&self) -> bool {
        self.cfg.limit >= 1
    }

    /// `fq_codel_hash`: `reciprocal_scale(skb_get_hash(skb), flows_cnt)`.
    pub fn fq_codel_hash(&self, pkt: &Packet) -> usize {
        reciprocal_scale(pkt.hash, self.cfg.flows) as usize
    }

    /// `fq_codel_enqueue`: tail-add to the packet's flow; a flow that was not listed joins the
    /// new list with `quantum` of deficit. Over `limit` packets or `memory_limit` bytes,
    /// `fq_codel_drop` drops from the fattest flow.
    ///
    /// Returns `Success`, or `Congested(victims)` when the victims came from this packet's
    /// flow (`NET_XMIT_CN`); victims of other flows are [`QdiscEvent::Dropped`].
    pub fn enqueue(&mut self, pkt: Packet, now_ns: u64) -> EnqueueResult {
        let idx = self.fq_codel_hash(&pkt);
        let len = pkt.qdisc_pkt_len();
        let mem_usage = pkt.truesize;
        let flow = &mut self.flows[idx];
        flow.q.push_back(CodelSkb {
            enqueue_time: codel_time(now_ns), // codel_set_enqueue_time
            mem_usage,
            pkt,
        });
        self.backlogs[idx] += len;
        self.backlog += len;
        if !flow.listed {
            flow.listed = true;
            flow.deficit = self.cfg.quantum as i64;
            self.new_flows.push_back(idx as u32);
            self.xs.new_flow_count += 1;
        }
        self.xs.memory_usage += mem_usage;
        let memory_limited = self.xs.memory_usage > self.cfg.memory_limit;
        self.qlen += 1;
        if self.qlen <= self.cfg.limit && !memory_limited {
            return EnqueueResult::Success;
        }
        let prev_qlen = self.qlen;
        let mut victims = Vec::new();
        let ret = self.fq_codel_drop(&mut victims);
        let dropped = prev_qlen - self.qlen;
        self.xs.drop_overlimit += dropped;
        let why = if memory_limited {
            self.xs.drop_overmemory += dropped;
            DropReason::Overmemory
        } else {
            DropReason::QueueFull
        };
        if ret == idx {
            return EnqueueResult::Congested(victims);
        }
        for v in victims {
            self.events.push(QdiscEvent::Dropped(Box::new(v), why));
        }
        EnqueueResult::Success
    }

    /// `fq_codel_drop`: drop from the head of the fattest flow until half its backlog is gone
    /// or `drop_batch_size` packets are; tell CoDel to increase its signal. Returns the flow.
    fn fq_codel_drop(&mut self, victims: &mut Vec<Packet>) -> usize {
        // Linear search of backlogs[] for the fat flow (first maximum wins).
        let (mut maxbacklog, mut idx) = (0u32, 0usize);
        for (i, &b) in self.backlogs.iter().enumerate() {
            if b > maxbacklog {
                maxbacklog = b;
                idx = i;
            }
        }
        let threshold = maxbacklog >> 1;
        let flow = &mut self.flows[idx];
        let (mut len, mut mem, mut i) = (0u32, 0u32, 0u32);
        loop {
            let skb = flow
                .q
                .pop_front()
                .expect("fq_codel_drop: the fattest flow is empty");
            len += skb.pkt.qdisc_pkt_len();
            mem += skb.mem_usage;
            victims.push(skb.pkt);
            i += 1;
            if !(i < self.cfg.drop_batch_size && len < threshold) {
                break;
            }
        }
        flow.cvars.count = flow.cvars.count.wrapping_add(i);
        self.backlogs[idx] -= len;
        self.xs.memory_usage -= mem;
        self.stats.dropped += i as u64;
        self.backlog -= len;
        self.qlen -= i;
        idx
    }

    /// `dequeue_func`: the head of flow `idx`, with the qdisc's counters updated.
    fn dequeue_func(&mut self, idx: usize) -> Option<CodelSkb> {
        let skb = self.flows[idx].q.pop_front()?;
        let len = skb.pkt.qdisc_pkt_len();
        self.backlogs[idx] -= len;
        self.xs.memory_usage -= skb.mem_usage;
        self.qlen -= 1;
        self.backlog -= len;
        Some(skb)
    }

    /// `drop_func`: free the packet, count the drop.
    fn drop_func(&mut self, skb: CodelSkb) {
        self.stats.dropped += 1;
        self.events
            .push(QdiscEvent::Dropped(Box::new(skb.pkt), DropReason::Codel));
    }

    /// `codel_should_drop`: has the sojourn time stayed above target for an interval?
    fn codel_should_drop(&mut self, idx: usize, skb: Option<&CodelSkb>, now: CodelTime) -> bool {
        let p = &self.cparams;
        let vars = &mut self.flows[idx].cvars;
        let Some(skb) = skb else {
            vars.first_above_time = 0;
            return false;
        };
        let skb_len = skb.pkt.qdisc_pkt_len();
        vars.ldelay = now.wrapping_sub(skb.enqueue_time);
        if skb_len > self.xs.maxpacket {
            self.xs.maxpacket = skb_len;
        }
        if codel_time_before(vars.ldelay, p.target) || self.backlog <= p.mtu {
            // Went below: stay below for at least an interval.
            vars.first_above_time = 0;
            return false;
        }
        if vars.first_above_time == 0 {
            // Just went above: if we stay above for an interval, it is ok to drop.
            vars.first_above_time = now.wrapping_add(p.interval);
            false
        } else {
            codel_time_after(now, vars.first_above_time)
        }
    }

    /// `codel_dequeue` on flow `idx`: the CoDel state machine (enter/leave the dropping
    /// state, drop at `drop_next`, control law). Returns the packet to send, if any is left.
    fn codel_dequeue(&mut self, idx: usize, now_ns: u64) -> Option<CodelSkb> {
        let Some(skb) = self.dequeue_func(idx) else {
            self.flows[idx].cvars.dropping = false;
            return None;
        };
        let now = codel_time(now_ns);
        let interval = self.cparams.interval;
        let drop = self.codel_should_drop(idx, Some(&skb), now);
        if self.flows[idx].cvars.dropping {
            if !drop {
                // Sojourn time below target: leave the dropping state.
                self.flows[idx].cvars.dropping = false;
            } else if codel_time_after_eq(now, self.flows[idx].cvars.drop_next) {
                // Time for the next drop; a large backlog may need several now.
                let mut cur = Some(skb);
                while self.flows[idx].cvars.dropping
                    && codel_time_after_eq(now, self.flows[idx].cvars.drop_next)
                {
                    let v = &mut self.flows[idx].cvars;
                    v.count = v.count.wrapping_add(1);
                    v.codel_newton_step();
                    // params->ecn && INET_ECN_set_ce(skb): packets are Not-ECT, so drop.
                    self.drop_func(cur.take().unwrap());
                    cur = self.dequeue_func(idx);
                    if !self.codel_should_drop(idx, cur.as_ref(), now) {
                        self.flows[idx].cvars.dropping = false;
                    } else {
                        let v = &mut self.flows[idx].cvars;
                        v.drop_next = codel_control_law(v.drop_next, interval, v.rec_inv_sqrt);
                    }
                    if cur.is_none() {
                        break;
                    }
                }
                return cur;
            }
        } else if drop {
            self.drop_func(skb);
            let next = self.dequeue_func(idx);
            self.codel_should_drop(idx, next.as_ref(), now);
            let v = &mut self.flows[idx].cvars;
            v.dropping = true;
            // If min went above target close to when we last went below it, resume with the
            // drop rate that controlled the queue last time.
            let delta = v.count.wrapping_sub(v.lastcount);
            if delta > 1 && codel_time_before(now.wrapping_sub(v.drop_next), 16 * interval) {
                v.count = delta;
                v.codel_newton_step();
            } else {
                v.count = 1;
                v.rec_inv_sqrt = (u32::MAX >> REC_INV_SQRT_SHIFT) as u16;
            }
            v.lastcount = v.count;
            v.drop_next = codel_control_law(now, interval, v.rec_inv_sqrt);
            return next;
        }
        Some(skb)
    }

    /// `fq_codel_dequeue`: deficit round robin over new then old flows, CoDel on the chosen
    /// flow. Returns `Packet` or `Empty` (fq_codel never throttles).
    pub fn dequeue(&mut self, now_ns: u64) -> Dequeue {
        if let Some(p) = self.gso_skb.pop() {
            return Dequeue::Packet(p);
        }
        loop {
            let (is_new, idx) = match self.new_flows.front() {
                Some(&i) => (true, i as usize),
                None => match self.old_flows.front() {
                    Some(&i) => (false, i as usize),
                    None => return Dequeue::Empty,
                },
            };
            if self.flows[idx].deficit <= 0 {
                self.flows[idx].deficit += self.cfg.quantum as i64;
                self.pop_list(is_new);
                self.old_flows.push_back(idx as u32); // list_move_tail(old_flows)
                continue;
            }
            let Some(skb) = self.codel_dequeue(idx, now_ns) else {
                self.pop_list(is_new);
                // Force a pass through old_flows to prevent starvation.
                if is_new && !self.old_flows.is_empty() {
                    self.old_flows.push_back(idx as u32);
                } else {
                    self.flows[idx].listed = false; // list_del_init
                }
                continue;
            };
            qdisc_bstats_update(&mut self.stats, &skb.pkt);
            self.flows[idx].deficit -= skb.pkt.qdisc_pkt_len() as i64;
            return Dequeue::Packet(skb.pkt);
        }
    }

    fn pop_list(&mut self, new: bool) {
        if new {
            self.new_flows.pop_front();
        } else {
            self.old_flows.pop_front();
        }
    }

    /// Packets in the requeue slot.
    pub fn requeued_len(&self) -> u32 {
        self.gso_skb.len()
    }

    /// `dev_requeue_skb`.
    pub fn requeue(&mut self, pkt: Packet) {
        self.gso_skb.push(pkt, &mut self.stats);
    }

    /// The bypass path's `qdisc_bstats_update`.
    pub fn bypass(&mut self, pkt: &Packet) {
        qdisc_bstats_update(&mut self.stats, pkt);
    }

    pub fn qlen(&self) -> u32 {
        self.qlen + self.gso_skb.len()
    }

    pub fn backlog_bytes(&self) -> u64 {
        self.backlog as u64 + self.gso_skb.bytes()
    }

    /// CoDel state of the flow `pkt` hashes to (tests and the site's inspector).
    pub fn codel_vars_of(&self, pkt: &Packet) -> &CodelVars {
        &self.flows[self.fq_codel_hash(pkt)].cvars
    }

    pub fn drain_events(&mut self, out: &mut Vec<QdiscEvent>) {
        out.append(&mut self.events);
    }

    /// `fq_codel_dump_stats`.
    pub fn xstats(&self) -> FqCodelXstats {
        let mut x = self.xs.clone();
        x.new_flows_len = self.new_flows.len() as u32;
        x.old_flows_len = self.old_flows.len() as u32;
        x
    }

    /// `tc -s qdisc show` for fq_codel.
    pub fn stats(&self) -> QdiscStats {
        let mut s = self.stats.clone();
        s.backlog_bytes = self.backlog_bytes();
        s.backlog_packets = self.qlen() as u64;
        let x = self.xstats();
        s.extra = vec![
            ("maxpacket".into(), x.maxpacket as u64),
            ("drop_overlimit".into(), x.drop_overlimit as u64),
            ("new_flow_count".into(), x.new_flow_count as u64),
            ("ecn_mark".into(), x.ecn_mark as u64),
            ("drop_overmemory".into(), x.drop_overmemory as u64),
            ("memory_used".into(), x.memory_usage as u64),
            ("new_flows_len".into(), x.new_flows_len as u64),
            ("old_flows_len".into(), x.old_flows_len as u64),
        ];
        s
    }
}

impl FqCodel {
    /// Every packet the qdisc holds (its requeue slot and every flow's queue).
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.gso_skb
            .packets()
            .chain(self.flows.iter().flat_map(|f| f.q.iter().map(|s| &s.pkt)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(id: u64, hash: u32) -> Packet {
        Packet {
            hash,
            truesize: 2304,
            ..Packet::test_data(id, 1, 1448, 1, 1448)
        }
    }

    const MS: u64 = 1_000_000;

    /// A standing queue: 300 packets at t=0, one dequeued per ms. Returns the times of CoDel
    /// drops (ms).
    fn standing_queue(target_us: u32) -> (FqCodel, Vec<u64>) {
        let mut cfg = FqCodelConfig::new(1514);
        cfg.target_us = target_us;
        let mut q = FqCodel::new(cfg);
        for i in 0..300 {
            q.enqueue(pkt(i, 77), 0);
        }
        let mut drops = Vec::new();
        let mut ev = Vec::new();
        for t in 0..300u64 {
            q.dequeue(t * MS);
            q.drain_events(&mut ev);
            for e in ev.drain(..) {
                if let QdiscEvent::Dropped(_, DropReason::Codel) = e {
                    drops.push(t);
                }
            }
        }
        (q, drops)
    }

    #[test]
    fn fq_codel_drops_under_a_standing_queue_above_target_for_an_interval() {
        let (q, drops) = standing_queue(5_000);
        // At t = 5 ms the head's sojourn (4882 codel units of 1024 ns) is no longer before the
        // target (also 4882): first_above_time = 5 ms + 100 ms. The first dequeue after it
        // (t = 105 ms) drops.
        assert_eq!(drops[0], 105, "{drops:?}");
        // Control law: the next drop interval / sqrt(count) later; count = 1: 100 ms.
        assert_eq!(drops[1], 205, "{drops:?}");
        // count = 2: one Newton step from 1.0 gives rec_inv_sqrt = 0.5, so 50 ms (not 70.7).
        assert_eq!(drops[2], 255, "{drops:?}");
        assert_eq!(q.stats().dropped, drops.len() as u64);
    }

    #[test]
    fn fq_codel_does_not_drop_below_target() {
        // Same standing queue, target above the largest sojourn (300 ms): never drops.
        let (q, drops) = standing_queue(400_000);
        assert!(drops.is_empty());
        assert_eq!(q.stats().dropped, 0);
        // And a queue that drains within target never drops either.
        let mut q = FqCodel::default();
        let mut ev = Vec::new();
        for i in 0..1000u64 {
            q.enqueue(pkt(i, 5), i * MS);
            q.dequeue(i * MS + 4 * MS);
            q.drain_events(&mut ev);
        }
        assert!(ev.is_empty());
    }

    #[test]
    fn codel_never_drops_when_the_backlog_is_one_mtu_or_less() {
        let mut q = FqCodel::default();
        let mut ev = Vec::new();
        for i in 0..20u64 {
            // One packet at a time with a 1 s sojourn: after dequeue the backlog is 0.
            q.enqueue(pkt(i, 5), i * 1000 * MS);
            q.dequeue(i * 1000 * MS + 999 * MS);
            q.drain_events(&mut ev);
        }
        assert!(ev.is_empty());
    }

    #[test]
    fn newton_step_tracks_one_over_sqrt_count_as_count_grows() {
        // One step per drop, as codel_dequeue does: coarse at first (count 2 gives 0.5, not
        // 0.707), within 1% of 1/sqrt(count) once count reaches 8.
        let mut v = CodelVars {
            count: 1,
            rec_inv_sqrt: (u32::MAX >> REC_INV_SQRT_SHIFT) as u16,
            ..Default::default()
        };
        for count in 2..=100u32 {
            v.count = count;
            v.codel_newton_step();
            let want = 65536.0 / (count as f64).sqrt();
            let got = v.rec_inv_sqrt as f64;
            if count == 2 {
                assert_eq!(v.rec_inv_sqrt, 32769);
            }
            if count >= 8 {
                assert!(
                    (got - want).abs() / want < 0.01,
                    "count {count}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn fq_codel_overlimit_drops_half_of_the_fattest_flow() {
        let mut cfg = FqCodelConfig::new(1514);
        cfg.limit = 10;
        let mut q = FqCodel::new(cfg);
        let (fat, thin) = (0x1000_0000u32, 0xF000_0000u32);
        for i in 0..10 {
            assert_eq!(q.enqueue(pkt(i, fat), 0), EnqueueResult::Success);
        }
        // The 11th packet, of another flow: 5 packets (7570 B = half of 15140) leave the fat
        // flow's head; the result is Success with the victims as events.
        assert_eq!(q.enqueue(pkt(10, thin), 0), EnqueueResult::Success);
        let mut ev = Vec::new();
        q.drain_events(&mut ev);
        let ids: Vec<u64> = ev
            .iter()
            .map(|e| match e {
                QdiscEvent::Dropped(p, DropReason::QueueFull) => p.id,
                e => panic!("{e:?}"),
            })
            .collect();
        assert_eq!(ids, vec![0, 1, 2, 3, 4]);
        assert_eq!(q.qlen(), 6);
        assert_eq!(q.xstats().drop_overlimit, 5);
        assert_eq!(q.codel_vars_of(&pkt(0, fat)).count, 5);
        // Overflowing the fat flow itself returns NET_XMIT_CN with its victims.
        for i in 11..15 {
            q.enqueue(pkt(i, fat), 0);
        }
        match q.enqueue(pkt(15, fat), 0) {
            EnqueueResult::Congested(v) => assert!(!v.is_empty()),
            r => panic!("{r:?}"),
        }
    }

    #[test]
    fn fq_codel_serves_a_new_flow_before_old_ones_and_alternates_by_quantum() {
        let mut q = FqCodel::default();
        for i in 0..6 {
            q.enqueue(pkt(i, 0x1000_0000), 0);
        }
        // Flow A sends one quantum (one 1514 B packet), then goes to the old list.
        let Dequeue::Packet(p) = q.dequeue(0) else {
            panic!()
        };
        assert_eq!(p.id, 0);
        q.enqueue(pkt(100, 0x9000_0000), 0);
        let order: Vec<u64> = (0..4)
            .map(|_| match q.dequeue(0) {
                Dequeue::Packet(p) => p.id,
                d => panic!("{d:?}"),
            })
            .collect();
        assert_eq!(order, vec![100, 1, 2, 3]);
        assert_eq!(q.xstats().new_flow_count, 2);
    }
}
