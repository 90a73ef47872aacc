//! A network device's transmit side: `__dev_queue_xmit`, the qdisc run loop, software GSO,
//! the driver's TX ring with Byte Queue Limits, the wire, and coalesced TX-completion
//! interrupts cleaned in NAPI poll.
//!
//! Follows: `net/core/dev.c` (`__dev_queue_xmit`, `__dev_xmit_skb`, `validate_xmit_skb`,
//! `dev_hard_start_xmit`), `net/sched/sch_generic.c` (`__qdisc_run`, `qdisc_restart`,
//! `dequeue_skb`, `try_bulk_dequeue_skb`, `sch_direct_xmit`, `dev_requeue_skb`),
//! `include/linux/netdevice.h` (`netdev_tx_sent_queue`, `__netdev_tx_sent_queue`,
//! `netdev_tx_completed_queue`, queue state bits), `net/ipv4/tcp_offload.c` (`tcp_gso_segment`),
//! `drivers/net/loopback.c` (`loopback_xmit`), Linux 6.18; the driver follows the common shape
//! of `mlx5e`/`ixgbe` (`ndo_start_xmit` posts one descriptor, stops the queue when the ring
//! cannot take another skb, the NAPI poll cleans completed descriptors and wakes it), or is a
//! veth's `veth_xmit` (`crate::drivers::net::veth`: no ring, no wire, no completion).
//!
//! The device is a state machine without access to the rest of the world (the smoltcp style):
//! the simulation calls [`NetDevice::dev_queue_xmit`] and [`NetDevice::on_timer`], and the
//! device answers in a [`DevOut`]: timers to arm, packets put on the wire, packets whose TX
//! completed (the world runs their destructor, `tcp_wfree`), drops, sockets fq now paces, and
//! the CPU time the device's work took.
//!
//! Time on the wire: the NIC serializes ring entries in order at `rate_bps`; a TSO skb's frames
//! go back to back (`Packet::wire_bytes` counts preamble, FCS, inter-frame gap and padding).
//! A descriptor completes when its last bit has left. The completion interrupt fires
//! `tx-usecs` after the first completed-but-unreported descriptor, or as soon as `tx-frames`
//! descriptors have completed, whichever comes first; its NAPI poll cleans every completed
//! descriptor, calls `netdev_tx_completed_queue` once and wakes the queue.
//!
//! Simplified:
//! - one descriptor per skb (per segment after software GSO), not one per page fragment plus
//!   a context descriptor, because the model has no page fragments; visible effect: a ring of
//!   N descriptors holds N skbs, more than a real ring holds of 64 KB TSO skbs.
//! - no PCIe/DMA latency between the doorbell and the first bit, and completion exactly when
//!   the last bit left, because both are sub-microsecond on a 10G NIC; visible effect: TX
//!   completions are a few hundred ns earlier than on hardware.
//! - NAPI cleans every completed descriptor (no TX budget), because drivers' TX clean budgets
//!   (256 in ixgbe) exceed what a 1024-slot ring completes between interrupts at 10 Gbit/s
//!   with the default coalescing; visible effect: none in the scenarios.
//! - the NET_TX softirq that a queue wake raises (`netif_schedule_queue`,
//!   `netif_tx_wake_queue`) runs at the end of the NAPI poll in the same call, as
//!   `__do_softirq` runs NET_TX right after NET_RX; a `__netif_schedule` because the
//!   `dev_tx_weight` quota ran out arms [`DevTimer::NetTxAction`] at the same instant.
//! - software GSO splits the original truesize between the segments in proportion to their
//!   payload (the segments' sum equals the original), not each segment's own allocation plus
//!   a `sk_wmem_alloc` correction, because the world then needs no extra accounting; visible
//!   effect: `sk_wmem_alloc` is lower by about one small skb head per extra segment while the
//!   segments are below TCP.
//! - BQL uses `__netdev_tx_sent_queue`, the `xmit_more`-aware variant modern drivers use: only
//!   the last skb of a bulk may set `STACK_XOFF`; visible effect: BQL may overshoot its limit
//!   by one bulk, as in Linux.

use std::collections::VecDeque;

use crate::drivers::net::veth::Veth;
use crate::include::linux::skbuff::{Packet, SockId, NO_SOCK};
use crate::lib::dynamic_queue_limits::Dql;
use crate::net::sched::sch_api::Qdisc;
use crate::net::sched::sch_generic::{Dequeue, DropReason, EnqueueResult, QdiscEvent, QdiscStats};
use crate::scenario::cpu_costs::CpuCosts;
use crate::trace::{Ev, Gate, Trace};

/// What `dev_queue_xmit` returned to the layer above (`NET_XMIT_*`, `include/linux/netdevice.h`,
/// or a negative errno): TCP sees it in `__tcp_transmit_skb` (`net_xmit_eval`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetXmit {
    /// `NET_XMIT_SUCCESS`: queued, sent, or handed to the driver.
    Success,
    /// `NET_XMIT_DROP`: the qdisc refused the skb (full, or its limit is 0); it was freed.
    Drop,
    /// `NET_XMIT_CN`: queued, but the qdisc dropped packets of the same flow to make room.
    Congested,
    /// `-ENETDOWN`: a queueless device whose queue is stopped freed the skb ("Virtual device
    /// asks to queue packet!").
    Down,
}

/// Timers the device asks the world to arm; the world calls [`NetDevice::on_timer`] with them
/// at the time it armed them. A device ignores a timer it no longer expects (stale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DevTimer {
    /// The qdisc watchdog (`qdisc_watchdog`): a throttled fq flow may send again.
    QdiscWatchdog,
    /// The head packet of the wire finished serializing.
    WireDone,
    /// A TX-completion interrupt (after `tx-usecs` / `tx-frames` coalescing).
    TxIrq,
    /// The NET_TX softirq (`net_tx_action`) raised by `__netif_schedule` when the
    /// `dev_tx_weight` quota of `__qdisc_run` ran out.
    NetTxAction,
}

/// What the device asks of the world after a call. The world clears it between calls
/// ([`DevOut::clear`] keeps the allocations).
#[derive(Debug, Default)]
pub struct DevOut {
    /// Arm these timers (absolute ns). A device ignores a stale timer itself.
    pub timers: Vec<(u64, DevTimer)>,
    /// Packets whose last bit left the device at the given time; the world adds propagation
    /// delay and delivers them to the peer. (Loopback: delivered now, to this host; veth: on
    /// the peer's backlog now.)
    pub to_wire: Vec<(u64, Packet)>,
    /// Packets whose TX completed (`napi_consume_skb`), or that `loopback_xmit` or a veth's
    /// peer orphaned: the world runs the destructor (`tcp_wfree` for TCP data clones).
    pub completed: Vec<Packet>,
    /// Packets dropped by the device or its qdisc (`kfree_skb`): the world runs the
    /// destructor too, and counts the drop.
    pub dropped: Vec<(Packet, DropReason)>,
    /// Sockets whose `sk_pacing_status` fq set to `SK_PACING_FQ` during this call (once per
    /// socket): the world sets the field (see [`QdiscEvent::PacingFq`]).
    pub sk_pacing_fq: Vec<SockId>,
    /// CPU time the device's work in this call took (transmit path in the caller's context,
    /// or interrupt + NAPI poll + NET_TX softirq for timers), ns.
    pub cpu_ns: u64,
}

impl DevOut {
    pub fn clear(&mut self) {
        self.timers.clear();
        self.to_wire.clear();
        self.completed.clear();
        self.dropped.clear();
        self.sk_pacing_fq.clear();
        self.cpu_ns = 0;
    }
}

/// Device configuration, from the scenario (`ip link`, `tc`, `ethtool`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DevConfig {
    /// Loopback (`lo`): noqueue, no wire, the skb is orphaned on transmit.
    pub loopback: bool,
    /// One end of a veth pair (`drivers/net/veth.c`): `veth_xmit` is the driver; no rate, no
    /// TX ring, no BQL; the skb goes to the peer and is orphaned on transmit.
    pub veth: bool,
    /// packetdrill's tun device (`drivers/net/tun.c`): `tun_net_xmit` orphans the skb
    /// (`skb_orphan`, the destructor runs now) and queues it for the reading process; no TX
    /// ring, no BQL. Set by the packetdrill runner only.
    pub tun: bool,
    /// Link rate, bits per second.
    pub rate_bps: u64,
    /// TX ring descriptors (`ethtool -G tx`).
    pub tx_ring: u32,
    /// `ethtool -C tx-usecs` / `tx-frames` (0 = that trigger is off; both 0: interrupt at
    /// once on each completion).
    pub tx_usecs: u32,
    pub tx_frames: u32,
    /// `ethtool -K tso` / `gso`. With TSO off, GSO skbs are segmented in software
    /// (`validate_xmit_skb`); with GSO off too, TCP builds single-segment skbs itself.
    pub tso: bool,
    pub gso: bool,
}

impl DevConfig {
    /// An Ethernet NIC with mlx5e's defaults: 1024 TX descriptors, tx-usecs 16, tx-frames 32,
    /// TSO and GSO on.
    pub fn ethernet(rate_bps: u64) -> DevConfig {
        DevConfig {
            loopback: false,
            veth: false,
            tun: false,
            rate_bps,
            tx_ring: 1024,
            tx_usecs: 16,
            tx_frames: 32,
            tso: true,
            gso: true,
        }
    }

    /// `lo`.
    pub fn loopback() -> DevConfig {
        DevConfig {
            loopback: true,
            ..DevConfig::ethernet(0)
        }
    }

    /// `veth`: no rate, no ring (veth_setup: IFF_NO_QUEUE; TSO and GSO on).
    pub fn veth() -> DevConfig {
        DevConfig {
            veth: true,
            ..DevConfig::ethernet(0)
        }
    }

    /// Checks the ranges `ethtool` enforces; the error names the setting.
    pub fn validate(&self) -> Result<(), String> {
        if self.loopback || self.veth {
            return Ok(());
        }
        if self.rate_bps == 0 {
            return Err("link rate must be at least 1 bit/s".into());
        }
        if self.tx_ring == 0 {
            return Err("ethtool -G tx: the TX ring needs at least 1 descriptor".into());
        }
        Ok(())
    }
}

/// Kernel and driver parameters of the device that are not `ethtool` settings. Defaults:
/// BQL on, HZ 1000, `dev_tx_weight` 64, wake at 2 free descriptors; the world sets `hz` from
/// the kernel profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DevParams {
    /// The driver uses Byte Queue Limits (`CONFIG_BQL`, 3.3+, and driver support).
    pub bql: bool,
    /// Kernel HZ: BQL's `slack_hold_time` is HZ jiffies (one second).
    pub hz: u32,
    /// `dev_tx_weight` (`net.core.dev_weight` × `dev_weight_tx_bias`, 64): packets one
    /// `__qdisc_run` may send before yielding.
    pub dev_tx_weight: u32,
    /// Free descriptors the NAPI poll needs to wake a queue stopped for a full ring
    /// (ixgbe's `TX_WAKE_THRESHOLD` = 2 × the descriptors one skb may need; one here).
    pub tx_wake_thresh: u32,
}

impl Default for DevParams {
    fn default() -> Self {
        DevParams {
            bql: true,
            hz: 1000,
            dev_tx_weight: 64,
            tx_wake_thresh: 2,
        }
    }
}

impl DevParams {
    /// The ranges the kernel enforces; the error names the setting.
    pub fn validate(&self, tx_ring: u32) -> Result<(), String> {
        if self.tx_wake_thresh == 0 || self.tx_wake_thresh > tx_ring.max(1) {
            return Err(format!(
                "TX wake threshold {} out of range 1..={}",
                self.tx_wake_thresh,
                tx_ring.max(1)
            ));
        }
        if self.dev_tx_weight == 0 {
            return Err("net.core.dev_weight must be at least 1".into());
        }
        if self.hz == 0 {
            return Err("HZ must be at least 1".into());
        }
        Ok(())
    }
}

/// Per-device counters in the form `ethtool -S` prints them (mlx5e names where mlx5e has the
/// counter), plus BQL's sysfs values.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NicStats {
    /// Frames the NIC completed (a TSO skb counts its segments), as drivers count at clean.
    pub tx_packets: u64,
    /// Bytes completed as the driver reports them to BQL (every segment's headers included).
    pub tx_bytes: u64,
    /// TSO skbs and their bytes handed to the NIC.
    pub tx_tso_packets: u64,
    pub tx_tso_bytes: u64,
    /// Descriptors posted with `xmit_more` (doorbell deferred).
    pub tx_xmit_more: u64,
    /// Descriptors the NAPI polls cleaned (completion entries).
    pub tx_cqes: u64,
    /// Times the driver stopped the queue for a full ring (`DRV_XOFF`), and woke it.
    pub tx_queue_stopped: u64,
    pub tx_queue_wake: u64,
    /// `NETDEV_TX_BUSY` returns (skb requeued).
    pub tx_busy: u64,
    /// Packets a stopped `noqueue` device dropped.
    pub tx_queue_dropped: u64,
    /// Segments software GSO produced (`validate_xmit_skb` with TSO off).
    pub tx_sw_gso_segs: u64,
    /// TX-completion interrupts (`ch_events`) and NAPI polls (`ch_poll`).
    pub ch_events: u64,
    pub ch_poll: u64,
    /// Times BQL stopped the queue (`STACK_XOFF` set) and woke it.
    pub bql_stack_xoff: u64,
    pub bql_wake: u64,
    /// sysfs `byte_queue_limits/limit` and `inflight` now, and the largest limit seen.
    pub bql_limit: u64,
    pub bql_inflight: u64,
    pub bql_limit_max: u64,
    /// Ring size and the most descriptors ever in use.
    pub tx_ring_size: u64,
    pub tx_ring_used_max: u64,
}

impl NicStats {
    /// The counters as `ethtool -S` prints them.
    pub fn ethtool_s(&self) -> String {
        let v = serde_json::to_value(self).expect("NicStats serializes");
        let mut s = String::from("NIC statistics:\n");
        if let serde_json::Value::Object(m) = v {
            for (k, v) in m {
                s.push_str(&format!("     {k}: {v}\n"));
            }
        }
        s
    }
}

/// One descriptor of the TX ring.
#[derive(Clone, Debug)]
struct TxSlot {
    pkt: Packet,
    /// Bytes reported to BQL for it (`bytecount`: `skb->len` plus the headers of every extra
    /// segment, i.e. `qdisc_pkt_len`).
    bql_bytes: u32,
    /// The NIC finished it (descriptor written back).
    done: bool,
}

/// The device (one TX queue).
#[derive(Clone, Debug)]
pub struct NetDevice {
    pub cfg: DevConfig,
    /// Kernel/driver parameters; set with [`NetDevice::with_params`].
    pub params: DevParams,
    pub host: u16,
    pub qdisc: Qdisc,
    /// The CPU cost table (the world sets it from the host's `Cpu`).
    pub costs: CpuCosts,
    /// Posted descriptors, oldest first (cleaned ones are removed).
    ring: VecDeque<TxSlot>,
    /// Index in `ring` of the next descriptor the NIC will serialize.
    next_to_send: usize,
    /// Completed descriptors not yet reported by an interrupt, and when the first completed.
    frames_pending: u32,
    first_pending_ns: u64,
    /// When the wire becomes free, and the `WireDone` timer the device expects.
    wire_free_ns: u64,
    wire_timer_at: Option<u64>,
    irq_at: Option<u64>,
    watchdog_at: Option<u64>,
    net_tx_at: Option<u64>,
    /// `__QUEUE_STATE_DRV_XOFF` (ring full) and `__QUEUE_STATE_STACK_XOFF` (BQL).
    drv_xoff: bool,
    stack_xoff: bool,
    /// `txq->dql`.
    pub dql: Dql,
    /// The veth driver's state, when the device is one end of a veth pair.
    pub veth: Option<Veth>,
    /// Ids for segments software GSO creates.
    next_seg_id: u64,
    stats: NicStats,
    // Scratch buffers reused across calls (no allocation per packet in steady state).
    bulk: VecDeque<Packet>,
    validated: VecDeque<Packet>,
    events: Vec<QdiscEvent>,
}

impl NetDevice {
    /// Every packet posted to the TX ring and not yet cleaned by a completion, oldest first
    /// (serialized or not).
    pub fn ring_packets(&self) -> impl Iterator<Item = &Packet> {
        self.ring.iter().map(|s| &s.pkt)
    }
}

/// Segment ids: 2^52, plus the host times 2^36, plus a counter; the world's packet ids stay
/// below 2^52. All stay below 2^53, so the site's f64 trace columns hold them exactly.
pub(crate) const SEG_ID_BASE: u64 = 1 << 52;

impl NetDevice {
    pub fn new(host: u16, cfg: DevConfig, qdisc: Qdisc) -> NetDevice {
        Self::with_params(host, cfg, DevParams::default(), qdisc)
    }

    /// A device with explicit kernel/driver parameters (HZ, BQL, `dev_tx_weight`).
    pub fn with_params(host: u16, cfg: DevConfig, params: DevParams, qdisc: Qdisc) -> NetDevice {
        if let Err(e) = cfg.validate().and_then(|_| params.validate(cfg.tx_ring)) {
            panic!("device of host {host}: {e}");
        }
        assert!(
            !cfg.loopback || matches!(qdisc, Qdisc::Noqueue),
            "loopback has no qdisc (noqueue)"
        );
        let hz = params.hz as u64;
        NetDevice {
            params,
            host,
            qdisc,
            costs: CpuCosts::default(),
            ring: VecDeque::with_capacity(cfg.tx_ring as usize),
            next_to_send: 0,
            frames_pending: 0,
            first_pending_ns: 0,
            wire_free_ns: 0,
            wire_timer_at: None,
            irq_at: None,
            watchdog_at: None,
            net_tx_at: None,
            drv_xoff: false,
            stack_xoff: false,
            // netdev_init_one_queue: dql_init(&queue->dql, HZ)
            dql: Dql::dql_init(hz, 0),
            veth: cfg.veth.then(Veth::default),
            next_seg_id: SEG_ID_BASE + ((host as u64) << 36),
            stats: NicStats {
                tx_ring_size: cfg.tx_ring as u64,
                ..NicStats::default()
            },
            bulk: VecDeque::new(),
            validated: VecDeque::new(),
            events: Vec::new(),
            cfg,
        }
    }

    fn jiffies(&self, now_ns: u64) -> u64 {
        match now_ns.checked_mul(self.params.hz as u64) {
            Some(v) => v / 1_000_000_000,
            None => ((now_ns as u128 * self.params.hz as u128) / 1_000_000_000) as u64,
        }
    }

    /// `netif_xmit_frozen_or_stopped`: `DRV_XOFF` or `STACK_XOFF`.
    pub fn netif_xmit_stopped(&self) -> bool {
        self.drv_xoff || self.stack_xoff
    }

    /// Bytes (`skb->len`) queued below the socket layer in this device: qdisc backlog plus
    /// descriptors not yet cleaned.
    pub fn queued_bytes(&self) -> u64 {
        self.qdisc.backlog_bytes() + self.ring.iter().map(|s| s.pkt.len as u64).sum::<u64>()
    }

    /// Descriptors in use (posted, not yet cleaned).
    pub fn ring_used(&self) -> u32 {
        self.ring.len() as u32
    }

    /// `ethtool -S` and BQL sysfs values now.
    pub fn stats(&self) -> NicStats {
        let mut s = self.stats.clone();
        s.bql_limit = self.dql.limit as u64;
        s.bql_inflight = self.dql.inflight() as u64;
        s
    }

    /// `tc -s qdisc` of the device's qdisc (`None` for noqueue).
    pub fn qdisc_stats(&self) -> Option<QdiscStats> {
        match self.qdisc {
            Qdisc::Noqueue => None,
            _ => Some(self.qdisc.stats()),
        }
    }

    /// `__dev_queue_xmit`: hand `pkt` to the qdisc (or, for `noqueue`, to the driver), then
    /// run the qdisc. Loopback goes to `loopback_xmit`.
    pub fn dev_queue_xmit(
        &mut self,
        pkt: Packet,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) -> NetXmit {
        if self.cfg.loopback {
            self.loopback_xmit(pkt, now_ns, out, trace);
            return NetXmit::Success;
        }
        out.cpu_ns += self.costs.dev_xmit_ns;
        if let Qdisc::Noqueue = self.qdisc {
            // No enqueue: call the driver if the queue runs, else drop ("Virtual device asks
            // to queue packet!").
            if self.netif_xmit_stopped() {
                self.stats.tx_queue_dropped += 1;
                self.drop_pkt(pkt, DropReason::TxQueueStopped, now_ns, out, trace);
                return NetXmit::Down;
            }
            let segs = pkt.gso_segs.max(1);
            let mut list = std::mem::take(&mut self.bulk);
            list.clear();
            list.push_back(pkt);
            self.validate_and_xmit(&mut list, now_ns, out, trace, true);
            // Simplified: when the driver took some of a software-GSO skb's segments, the skb
            // counts as sent and the refused rest as lost (TCP repairs it), where Linux returns
            // -ENETDOWN and TCP sends the whole skb again; only a wholly refused skb is Down.
            let refused: u32 = list.iter().map(|p| p.gso_segs.max(1)).sum();
            let rc = if refused == segs {
                NetXmit::Down
            } else {
                NetXmit::Success
            };
            for p in list.drain(..) {
                // The driver refused: a noqueue device cannot requeue, the skb is freed.
                self.stats.tx_queue_dropped += 1;
                self.drop_pkt(p, DropReason::TxQueueStopped, now_ns, out, trace);
            }
            self.bulk = list;
            return rc;
        }
        self.dev_xmit_skb(pkt, now_ns, out, trace)
    }

    /// `__dev_xmit_skb`: bypass an empty `TCQ_F_CAN_BYPASS` qdisc (`sch_direct_xmit`
    /// straight away), else enqueue; then `__qdisc_run`.
    fn dev_xmit_skb(
        &mut self,
        pkt: Packet,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) -> NetXmit {
        let (id, sk) = (pkt.id, pkt.sk);
        // The qdisc path (enqueue or bypass, run, dequeue, sch_direct_xmit), per skb.
        out.cpu_ns += self.costs.qdisc_ns;
        if self.qdisc.can_bypass() && self.qdisc.qlen() == 0 {
            self.qdisc.bypass(&pkt);
            trace.emit(now_ns, self.host, sk, || Ev::QdiscBypass { pkt: id });
            let mut list = std::mem::take(&mut self.bulk);
            list.clear();
            list.push_back(pkt);
            let ok = self.sch_direct_xmit(&mut list, now_ns, out, trace, true);
            self.bulk = list;
            if ok {
                self.qdisc_run(now_ns, out, trace);
            }
            return NetXmit::Success;
        }
        let rc = match self.qdisc.enqueue(pkt, now_ns) {
            EnqueueResult::Success => {
                let (qlen, backlog) = (self.qdisc.qlen() as u64, self.qdisc.backlog_bytes());
                trace.emit(now_ns, self.host, sk, || Ev::QdiscEnqueue {
                    pkt: id,
                    qlen,
                    backlog,
                });
                NetXmit::Success
            }
            EnqueueResult::Dropped(p, why) => {
                self.drop_pkt(*p, why, now_ns, out, trace);
                NetXmit::Drop
            }
            EnqueueResult::Congested(victims) => {
                let (qlen, backlog) = (self.qdisc.qlen() as u64, self.qdisc.backlog_bytes());
                trace.emit(now_ns, self.host, sk, || Ev::QdiscEnqueue {
                    pkt: id,
                    qlen,
                    backlog,
                });
                for v in victims {
                    self.drop_pkt(v, DropReason::QueueFull, now_ns, out, trace);
                }
                NetXmit::Congested
            }
        };
        self.handle_qdisc_events(now_ns, out, trace);
        self.qdisc_run(now_ns, out, trace);
        rc
    }

    fn drop_pkt(
        &mut self,
        p: Packet,
        why: DropReason,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) {
        let (id, sk) = (p.id, p.sk);
        trace.emit(now_ns, self.host, sk, || Ev::QdiscDrop {
            pkt: id,
            reason: why as u64,
        });
        out.dropped.push((p, why));
    }

    /// Forward what the qdisc did besides its results: throttles to the trace, pacing marks
    /// and drops to the world.
    fn handle_qdisc_events(&mut self, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        self.qdisc.drain_events(&mut self.events);
        let mut events = std::mem::take(&mut self.events);
        for e in events.drain(..) {
            match e {
                QdiscEvent::Throttled { sk, until_ns } => {
                    trace.emit(now_ns, self.host, sk, || Ev::QdiscThrottle { until_ns });
                }
                QdiscEvent::PacingFq { sk } => out.sk_pacing_fq.push(sk),
                QdiscEvent::Dropped(p, why) => self.drop_pkt(*p, why, now_ns, out, trace),
            }
        }
        self.events = events;
    }

    /// `__qdisc_run`: `qdisc_restart` until the qdisc is empty, throttled or the queue
    /// stopped; after `dev_tx_weight` packets, yield to a later NET_TX softirq.
    fn qdisc_run(&mut self, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        let mut quota = self.params.dev_tx_weight as i64;
        let mut list = std::mem::take(&mut self.bulk);
        loop {
            list.clear();
            let (packets, validate) = self.dequeue_skb(&mut list, now_ns, out, trace);
            if packets == 0 {
                break;
            }
            let ok = self.sch_direct_xmit(&mut list, now_ns, out, trace, validate);
            quota -= packets as i64;
            if !ok {
                break;
            }
            if quota <= 0 {
                // __netif_schedule: NET_TX softirq later (same instant, after this event).
                if self.net_tx_at != Some(now_ns) {
                    self.net_tx_at = Some(now_ns);
                    out.timers.push((now_ns, DevTimer::NetTxAction));
                }
                break;
            }
        }
        self.bulk = list;
    }

    /// `dequeue_skb`: nothing while the queue is stopped (`TCQ_F_ONETXQUEUE`); a requeued skb
    /// alone (already validated); else one skb plus, with BQL, a bulk of more while the bytes
    /// stay under `dql_avail` (`try_bulk_dequeue_skb`). Returns (skbs, validate).
    fn dequeue_skb(
        &mut self,
        list: &mut VecDeque<Packet>,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) -> (u32, bool) {
        if self.netif_xmit_stopped() {
            return (0, false);
        }
        let requeued = self.qdisc.requeued_len() > 0;
        let first = self.qdisc_dequeue_one(now_ns, out, trace);
        let Some(first) = first else {
            return (0, false);
        };
        let mut bytelimit = if self.params.bql && !requeued {
            // qdisc_avail_bulklimit(txq) - skb->len
            self.dql.dql_avail() as i64 - first.len as i64
        } else {
            0
        };
        list.push_back(first);
        while bytelimit > 0 {
            let Some(p) = self.qdisc_dequeue_one(now_ns, out, trace) else {
                break;
            };
            bytelimit -= p.len as i64; // covers GSO len
            list.push_back(p);
        }
        (list.len() as u32, !requeued)
    }

    /// `q->dequeue` once, with its trace, events and the watchdog for a throttled fq.
    fn qdisc_dequeue_one(
        &mut self,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) -> Option<Packet> {
        let d = self.qdisc.dequeue(now_ns);
        self.handle_qdisc_events(now_ns, out, trace);
        match d {
            Dequeue::Packet(p) => {
                let (id, sk, sojourn) = (p.id, p.sk, now_ns.saturating_sub(p.sent_ns));
                trace.emit(now_ns, self.host, sk, || Ev::QdiscDequeue {
                    pkt: id,
                    sojourn_ns: sojourn,
                });
                Some(p)
            }
            Dequeue::Empty => None,
            Dequeue::Throttled { until_ns } => {
                // qdisc_watchdog_schedule_range_ns: (re)program the watchdog.
                assert!(until_ns > now_ns, "qdisc throttled until the past");
                if self.watchdog_at != Some(until_ns) {
                    self.watchdog_at = Some(until_ns);
                    out.timers.push((until_ns, DevTimer::QdiscWatchdog));
                }
                None
            }
        }
    }

    /// `sch_direct_xmit`: validate (software GSO), hand the list to the driver unless the
    /// queue is stopped, requeue what the driver refused. Returns false when something was
    /// requeued (the run loop stops).
    fn sch_direct_xmit(
        &mut self,
        list: &mut VecDeque<Packet>,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
        validate: bool,
    ) -> bool {
        self.validate_and_xmit(list, now_ns, out, trace, validate);
        if list.is_empty() {
            return true;
        }
        // Driver returned NETDEV_TX_BUSY: dev_requeue_skb (the rest of the list, in order).
        for p in list.drain(..) {
            let (id, sk) = (p.id, p.sk);
            trace.emit(now_ns, self.host, sk, || Ev::Requeue { pkt: id });
            self.qdisc.requeue(p);
        }
        false
    }

    /// `validate_xmit_skb_list` then `dev_hard_start_xmit`; leaves in `list` what was not
    /// transmitted.
    fn validate_and_xmit(
        &mut self,
        list: &mut VecDeque<Packet>,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
        validate: bool,
    ) {
        if validate && !self.cfg.tso && list.iter().any(|p| p.gso_segs > 1) {
            let mut v = std::mem::take(&mut self.validated);
            v.clear();
            for p in list.drain(..) {
                if p.gso_segs > 1 {
                    self.skb_gso_segment(p, &mut v, now_ns, out, trace);
                } else {
                    v.push_back(p);
                }
            }
            std::mem::swap(list, &mut v);
            self.validated = v;
        }
        if self.netif_xmit_stopped() {
            return; // HARD_TX_LOCK; netif_xmit_frozen_or_stopped: ret stays NETDEV_TX_BUSY
        }
        self.dev_hard_start_xmit(list, now_ns, out, trace);
    }

    /// `validate_xmit_skb` → `skb_gso_segment` → `tcp_gso_segment`: split a GSO skb into
    /// `gso_segs` packets of `gso_size` payload, each with its own headers, `seq` advancing,
    /// PSH and FIN only on the last; each keeps a share of the truesize so that its own TX
    /// completion releases it (`tcp_wfree` per segment).
    fn skb_gso_segment(
        &mut self,
        p: Packet,
        out_list: &mut VecDeque<Packet>,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) {
        let payload = p.len - p.hdr_len;
        let mss = p.gso_size;
        assert!(mss > 0, "GSO skb #{} without gso_size", p.id);
        let segs = payload.div_ceil(mss);
        assert_eq!(
            segs, p.gso_segs,
            "GSO skb #{}: {payload} B in {mss} B segments is not gso_segs {}",
            p.id, p.gso_segs
        );
        let (id, sk) = (p.id, p.sk);
        trace.emit(now_ns, self.host, sk, || Ev::GsoSegment {
            pkt: id,
            segs: segs as u64,
        });
        self.stats.tx_sw_gso_segs += segs as u64;
        out.cpu_ns += self.costs.gso_segment_ns * segs as u64;
        p.for_each_gso_segment(&mut self.next_seg_id, |s| out_list.push_back(s));
    }

    /// `dev_hard_start_xmit`: `ndo_start_xmit` for each skb (`xmit_more` while more follow);
    /// stops at `NETDEV_TX_BUSY`, or when the driver stopped the queue (`DRV_XOFF`) with skbs
    /// left. Leaves the untransmitted rest in `list`.
    fn dev_hard_start_xmit(
        &mut self,
        list: &mut VecDeque<Packet>,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) {
        while let Some(p) = list.pop_front() {
            let more = !list.is_empty();
            if let Err(p) = self.ndo_start_xmit(p, more, now_ns, out, trace) {
                list.push_front(p);
                break;
            }
            // netif_tx_queue_stopped (DRV_XOFF only): the rest goes back to the qdisc.
            if self.drv_xoff && !list.is_empty() {
                break;
            }
        }
    }

    /// The driver's `ndo_start_xmit` (mlx5e/ixgbe shape): refuse with `NETDEV_TX_BUSY` when
    /// no descriptor is free, post one, account BQL (`__netdev_tx_sent_queue`), stop the queue
    /// when the ring cannot take another skb, ring the doorbell unless `xmit_more`.
    fn ndo_start_xmit(
        &mut self,
        pkt: Packet,
        xmit_more: bool,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) -> Result<(), Packet> {
        if let Some(veth) = &mut self.veth {
            // veth's ndo_start_xmit: the skb goes to the peer's backlog, and the peer's
            // ip_rcv_core orphans it before __dev_queue_xmit returns (its NET_RX runs there).
            // dev_queue_xmit_nit: the capture tap (`sendpath run --pcap`) sees the skb here.
            trace.tap(self.host, now_ns, &pkt);
            let (skb, cpu_ns) = veth.veth_xmit(pkt, self.host, now_ns, &self.costs, trace);
            out.cpu_ns += cpu_ns;
            out.to_wire.push((now_ns, skb.clone()));
            out.completed.push(skb);
            return Ok(());
        }
        if self.cfg.tun {
            // tun_net_xmit: "Orphan the skb - required as we might hang on to it for
            // indefinite time", then into the ring the reader (packetdrill) drains.
            trace.tap(self.host, now_ns, &pkt);
            out.to_wire.push((now_ns, pkt.clone()));
            out.completed.push(pkt);
            return Ok(());
        }
        if self.ring.len() as u32 >= self.cfg.tx_ring {
            // Should not happen once the queue is stopped in time; counted like drivers do.
            self.stats.tx_busy += 1;
            if !self.drv_xoff {
                self.netif_tx_stop_queue(now_ns, trace);
            }
            return Err(pkt);
        }
        out.cpu_ns += self.costs.driver_xmit_ns;
        let bql_bytes = pkt.qdisc_pkt_len();
        if pkt.gso_segs > 1 {
            self.stats.tx_tso_packets += 1;
            self.stats.tx_tso_bytes += bql_bytes as u64;
        }
        // dev_queue_xmit_nit (in xmit_one, before the driver): the capture tap sees the skb.
        trace.tap(self.host, now_ns, &pkt);
        let (id, sk) = (pkt.id, pkt.sk);
        self.ring.push_back(TxSlot {
            pkt,
            bql_bytes,
            done: false,
        });
        let used = self.ring.len() as u64;
        self.stats.tx_ring_used_max = self.stats.tx_ring_used_max.max(used);

        // __netdev_tx_sent_queue: with xmit_more only count; the last skb of a batch checks.
        let mut doorbell = !xmit_more;
        if self.params.bql {
            self.dql.dql_queued(bql_bytes);
            if !xmit_more && self.dql.dql_avail() < 0 {
                // netdev_tx_sent_queue: set STACK_XOFF (the re-check after the barrier finds
                // no concurrent completion in the model).
                self.stack_xoff = true;
                self.stats.bql_stack_xoff += 1;
                trace.emit(now_ns, self.host, NO_SOCK, || Ev::QueueStop {
                    gate: Gate::Bql,
                });
            }
        }
        let (inflight, limit) = (self.dql.inflight() as u64, self.dql.limit as u64);
        self.stats.bql_limit_max = self.stats.bql_limit_max.max(limit);
        let size = self.cfg.tx_ring as u64;
        trace.emit(now_ns, self.host, sk, || Ev::RingPost {
            pkt: id,
            ring_used: used,
            ring_size: size,
            bql_inflight: inflight,
            bql_limit: limit,
        });
        // Stop when the ring cannot take another skb (mlx5e_txqsq stop_room, ixgbe
        // DESC_NEEDED); doorbell then, even with xmit_more.
        if self.ring.len() as u32 >= self.cfg.tx_ring && !self.drv_xoff {
            self.netif_tx_stop_queue(now_ns, trace);
            doorbell = true;
        }
        if doorbell {
            out.cpu_ns += self.costs.doorbell_ns;
            self.start_wire(now_ns, out, trace);
        } else {
            self.stats.tx_xmit_more += 1;
        }
        Ok(())
    }

    /// `netif_tx_stop_queue`: set `DRV_XOFF`.
    fn netif_tx_stop_queue(&mut self, now_ns: u64, trace: &mut Trace) {
        self.drv_xoff = true;
        self.stats.tx_queue_stopped += 1;
        trace.emit(now_ns, self.host, NO_SOCK, || Ev::QueueStop {
            gate: Gate::RingFull,
        });
    }

    /// The NIC: serialize the next posted descriptor if the wire is idle.
    fn start_wire(&mut self, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        if self.wire_timer_at.is_some() || self.next_to_send >= self.ring.len() {
            return;
        }
        let p = &self.ring[self.next_to_send].pkt;
        let start = now_ns.max(self.wire_free_ns);
        let wb = p.wire_bytes();
        // wire_bytes * 8 s / rate, rounded up; u64 unless the product could overflow.
        let dur = match (wb * 8).checked_mul(1_000_000_000) {
            Some(bits_ns) => bits_ns.div_ceil(self.cfg.rate_bps),
            None => (wb as u128 * 8_000_000_000).div_ceil(self.cfg.rate_bps as u128) as u64,
        };
        let end = start + dur;
        let (id, segs, sk) = (p.id, p.gso_segs.max(1) as u64, p.sk);
        trace.emit(start, self.host, sk, || Ev::WireTx {
            pkt: id,
            wire_bytes: wb,
            segs,
            end_ns: end,
        });
        self.wire_free_ns = end;
        self.wire_timer_at = Some(end);
        out.timers.push((end, DevTimer::WireDone));
    }

    /// `loopback_xmit`: `skb_orphan` (the destructor runs now) and `__netif_rx` to this host's
    /// backlog; its NET_RX runs in the transmitting context once that context's CPU work so far
    /// is done, as a veth's (`World::schedule_veth_rx`).
    fn loopback_xmit(&mut self, pkt: Packet, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        out.cpu_ns += self.costs.loopback_xmit_ns;
        trace.tap(self.host, now_ns, &pkt); // dev_queue_xmit_nit: the capture tap
        self.stats.tx_packets += 1; // dev_lstats_add: one packet per skb
        self.stats.tx_bytes += pkt.len as u64;
        let (id, sk, len) = (pkt.id, pkt.sk, pkt.len as u64);
        trace.emit(now_ns, self.host, sk, || Ev::WireTx {
            pkt: id,
            wire_bytes: len,
            segs: 1,
            end_ns: now_ns,
        });
        out.to_wire.push((now_ns, pkt.clone()));
        out.completed.push(pkt);
    }

    /// A timer the device asked for has expired; stale ones are ignored.
    pub fn on_timer(&mut self, t: DevTimer, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        match t {
            DevTimer::QdiscWatchdog => {
                if self.watchdog_at != Some(now_ns) {
                    return;
                }
                self.watchdog_at = None;
                // qdisc_watchdog → __netif_schedule → net_tx_action → qdisc_run
                self.qdisc_run(now_ns, out, trace);
            }
            DevTimer::NetTxAction => {
                if self.net_tx_at != Some(now_ns) {
                    return;
                }
                self.net_tx_at = None;
                self.qdisc_run(now_ns, out, trace);
            }
            DevTimer::WireDone => self.wire_done(now_ns, out, trace),
            DevTimer::TxIrq => self.tx_irq(now_ns, out, trace),
        }
    }

    /// The last bit of the descriptor at `next_to_send` left: the frame(s) go to the peer,
    /// the descriptor completes, the coalescing timer is (re)armed, the next one starts.
    fn wire_done(&mut self, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        if self.wire_timer_at != Some(now_ns) {
            return;
        }
        self.wire_timer_at = None;
        let slot = &mut self.ring[self.next_to_send];
        slot.done = true;
        out.to_wire.push((now_ns, slot.pkt.clone()));
        self.next_to_send += 1;
        self.frames_pending += 1;
        if self.frames_pending == 1 {
            self.first_pending_ns = now_ns;
        }
        // Interrupt moderation: tx-usecs after the first unreported completion, or now once
        // tx-frames completions are pending (tx-usecs 0: no delay).
        let mut irq = self.first_pending_ns + self.cfg.tx_usecs as u64 * 1000;
        if self.cfg.tx_frames > 0 && self.frames_pending >= self.cfg.tx_frames {
            irq = now_ns;
        }
        let irq = irq.max(now_ns);
        if self.irq_at.is_none_or(|t| irq < t) {
            self.irq_at = Some(irq);
            out.timers.push((irq, DevTimer::TxIrq));
        }
        self.start_wire(now_ns, out, trace);
    }

    /// The TX-completion interrupt and its NAPI poll: clean every completed descriptor, hand
    /// the skbs to the world (destructors), `netdev_tx_completed_queue` once (BQL may clear
    /// `STACK_XOFF`), wake a queue stopped for a full ring, and run the qdisc (NET_TX).
    fn tx_irq(&mut self, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        if self.irq_at != Some(now_ns) {
            return;
        }
        self.irq_at = None;
        self.stats.ch_events += 1;
        self.stats.ch_poll += 1;
        out.cpu_ns += self.costs.tx_irq_ns;
        let (mut pkts, mut bytes, mut descs) = (0u64, 0u64, 0u64);
        while self.ring.front().is_some_and(|s| s.done) {
            let s = self.ring.pop_front().unwrap();
            self.next_to_send -= 1;
            descs += 1;
            pkts += s.pkt.gso_segs.max(1) as u64;
            bytes += s.bql_bytes as u64;
            out.cpu_ns += self.costs.tx_clean_ns;
            out.completed.push(s.pkt);
        }
        self.frames_pending = 0;
        self.stats.tx_packets += pkts;
        self.stats.tx_bytes += bytes;
        self.stats.tx_cqes += descs;

        // netdev_tx_completed_queue(txq, pkts, bytes)
        let mut wake = false;
        if self.params.bql && bytes > 0 {
            let j = self.jiffies(now_ns);
            self.dql.dql_completed(bytes as u32, j);
            self.stats.bql_limit_max = self.stats.bql_limit_max.max(self.dql.limit as u64);
            if self.dql.dql_avail() >= 0 && self.stack_xoff {
                self.stack_xoff = false;
                self.stats.bql_wake += 1;
                trace.emit(now_ns, self.host, NO_SOCK, || Ev::QueueWake {
                    gate: Gate::Bql,
                });
                wake = true;
            }
        }
        let limit = self.dql.limit as u64;
        trace.emit(now_ns, self.host, NO_SOCK, || Ev::TxCompletion {
            descs,
            bytes,
            bql_limit: limit,
        });
        // The driver wakes a queue it stopped for lack of descriptors.
        let free = self.cfg.tx_ring - self.ring.len() as u32;
        if self.drv_xoff && free >= self.params.tx_wake_thresh {
            self.drv_xoff = false;
            self.stats.tx_queue_wake += 1;
            trace.emit(now_ns, self.host, NO_SOCK, || Ev::QueueWake {
                gate: Gate::RingFull,
            });
            wake = true;
        }
        // netif_schedule_queue / netif_tx_wake_queue → NET_TX → qdisc_run, if now running.
        if wake && !self.netif_xmit_stopped() && !matches!(self.qdisc, Qdisc::Noqueue) {
            self.qdisc_run(now_ns, out, trace);
        }
    }
}

#[cfg(test)]
mod tests;
