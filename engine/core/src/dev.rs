//! A network device's transmit side: `__dev_queue_xmit`, the qdisc run loop, the driver's TX
//! ring, the wire, and TX completions.
//!
//! Follows: `net/core/dev.c` (`__dev_queue_xmit`, `__dev_xmit_skb`, `dev_hard_start_xmit`),
//! `net/sched/sch_generic.c` (`__qdisc_run`, `qdisc_restart`, `sch_direct_xmit`),
//! `drivers/net/loopback.c` (`loopback_xmit`), Linux 6.18.
//!
//! The device is a state machine without access to the rest of the world (the smoltcp style):
//! the simulation calls [`NetDevice::dev_queue_xmit`] and [`NetDevice::on_timer`], and the
//! device answers in a [`DevOut`]: timers to arm, packets put on the wire, packets whose TX
//! completed (the world runs their destructor, `tcp_wfree`), and drops.
//!
//! PLACEHOLDER STAGE: one packet serializes at a time at link rate, the ring has `tx_ring`
//! slots, and a packet's TX completion happens when its last bit leaves (no interrupt
//! coalescing, no BQL, no GSO in software). The full model replaces the internals and keeps
//! this interface.

use std::collections::VecDeque;

use crate::qdisc::{Dequeue, DropReason, EnqueueResult, Qdisc};
use crate::skb::{Packet, NO_SOCK};
use crate::trace::{Ev, Trace};

/// Timers the device asks the world to arm; the world calls [`NetDevice::on_timer`] with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DevTimer {
    /// The qdisc watchdog (`qdisc_watchdog`): a throttled fq flow may send again.
    QdiscWatchdog,
    /// The head packet of the wire finished serializing.
    WireDone,
    /// A TX-completion interrupt (after `tx-usecs` / `tx-frames` coalescing).
    TxIrq,
}

/// What the device asks of the world after a call.
#[derive(Debug, Default)]
pub struct DevOut {
    /// Arm these timers (absolute ns). A device ignores a stale timer itself.
    pub timers: Vec<(u64, DevTimer)>,
    /// Packets whose last bit left the device at the given time; the world adds propagation
    /// delay and delivers them to the peer.
    pub to_wire: Vec<(u64, Packet)>,
    /// Packets whose TX completed (`napi_consume_skb`): the world runs the destructor
    /// (`tcp_wfree` for TCP data clones).
    pub completed: Vec<Packet>,
    /// Packets dropped by the device or its qdisc.
    pub dropped: Vec<(Packet, DropReason)>,
    /// CPU time the device's softirq work took (transmit path, completion), ns.
    pub cpu_ns: u64,
}

impl DevOut {
    pub fn clear(&mut self) {
        self.timers.clear();
        self.to_wire.clear();
        self.completed.clear();
        self.dropped.clear();
        self.cpu_ns = 0;
    }
}

/// Device configuration, from the scenario (`ip link`, `tc`, `ethtool`).
#[derive(Clone, Debug)]
pub struct DevConfig {
    /// Loopback (`lo`): noqueue, no wire, the skb is orphaned on transmit.
    pub loopback: bool,
    /// Link rate, bits per second.
    pub rate_bps: u64,
    /// TX ring descriptors (`ethtool -G tx`).
    pub tx_ring: u32,
    /// `ethtool -C tx-usecs` / `tx-frames`.
    pub tx_usecs: u32,
    pub tx_frames: u32,
    /// `ethtool -K tso` / `gso`.
    pub tso: bool,
    pub gso: bool,
}

/// The device (one TX queue).
#[derive(Clone, Debug)]
pub struct NetDevice {
    pub cfg: DevConfig,
    pub host: u16,
    pub qdisc: Qdisc,
    /// Packets posted to the TX ring and not yet completed, oldest first.
    ring: VecDeque<Packet>,
    /// Packets of the ring not yet fully serialized (index into `ring` from the back).
    unsent_in_ring: usize,
    /// When the wire is busy until (ns).
    wire_busy_until_ns: u64,
    wire_timer_at: Option<u64>,
    /// Packets handed to the driver, bytes handed to the driver (`ethtool -S`-like).
    pub tx_packets: u64,
    pub tx_bytes: u64,
}

impl NetDevice {
    pub fn new(host: u16, cfg: DevConfig, qdisc: Qdisc) -> NetDevice {
        NetDevice {
            cfg,
            host,
            qdisc,
            ring: VecDeque::new(),
            unsent_in_ring: 0,
            wire_busy_until_ns: 0,
            wire_timer_at: None,
            tx_packets: 0,
            tx_bytes: 0,
        }
    }

    /// Bytes (truesize is the socket's business; these are `skb->len`) queued below the
    /// socket layer in this device: qdisc backlog plus ring.
    pub fn queued_bytes(&self) -> u64 {
        self.qdisc.backlog_bytes() + self.ring.iter().map(|p| p.len as u64).sum::<u64>()
    }

    /// `__dev_queue_xmit`: enqueue to the qdisc (or hand straight to the driver for
    /// `noqueue`), then run the qdisc.
    pub fn dev_queue_xmit(
        &mut self,
        pkt: Packet,
        now_ns: u64,
        out: &mut DevOut,
        trace: &mut Trace,
    ) {
        if self.cfg.loopback {
            // loopback_xmit: skb_orphan() runs the destructor now, then netif_rx().
            let sk = pkt.sk;
            trace.emit(now_ns, self.host, sk, || Ev::WireTx {
                pkt: pkt.id,
                wire_bytes: pkt.len as u64,
                segs: pkt.gso_segs as u64,
                end_ns: now_ns,
            });
            out.to_wire.push((now_ns, pkt.clone()));
            out.completed.push(pkt);
            return;
        }
        if let Qdisc::Noqueue = self.qdisc {
            self.driver_xmit(pkt, now_ns, out, trace);
            return;
        }
        let (id, sk) = (pkt.id, pkt.sk);
        match self.qdisc.enqueue(pkt, now_ns) {
            EnqueueResult::Success => {
                let (qlen, backlog) = (self.qdisc.qlen() as u64, self.qdisc.backlog_bytes());
                trace.emit(now_ns, self.host, sk, || Ev::QdiscEnqueue {
                    pkt: id,
                    qlen,
                    backlog,
                });
            }
            EnqueueResult::Dropped(p, why) => {
                trace.emit(now_ns, self.host, sk, || Ev::QdiscDrop {
                    pkt: id,
                    reason: why as u64,
                });
                out.dropped.push((*p, why));
            }
            EnqueueResult::Congested(victims) => {
                for v in victims {
                    trace.emit(now_ns, self.host, v.sk, || Ev::QdiscDrop {
                        pkt: v.id,
                        reason: DropReason::Codel as u64,
                    });
                    out.dropped.push((v, DropReason::Codel));
                }
            }
        }
        self.qdisc_run(now_ns, out, trace);
    }

    /// `__qdisc_run`: move packets from the qdisc to the ring while it has room.
    fn qdisc_run(&mut self, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        while (self.ring.len() as u32) < self.cfg.tx_ring {
            match self.qdisc.dequeue(now_ns) {
                Dequeue::Packet(p) => {
                    let (id, sk, sojourn) = (p.id, p.sk, now_ns.saturating_sub(p.sent_ns));
                    trace.emit(now_ns, self.host, sk, || Ev::QdiscDequeue {
                        pkt: id,
                        sojourn_ns: sojourn,
                    });
                    self.driver_xmit(p, now_ns, out, trace);
                }
                Dequeue::Empty => break,
                Dequeue::Throttled { until_ns } => {
                    out.timers.push((until_ns, DevTimer::QdiscWatchdog));
                    break;
                }
            }
        }
    }

    /// `ndo_start_xmit`: post to the ring; start serializing if the wire is idle.
    fn driver_xmit(&mut self, pkt: Packet, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        self.tx_packets += pkt.gso_segs.max(1) as u64;
        self.tx_bytes += pkt.len as u64;
        let (id, sk) = (pkt.id, pkt.sk);
        let (used, size) = (self.ring.len() as u64 + 1, self.cfg.tx_ring as u64);
        trace.emit(now_ns, self.host, sk, || Ev::RingPost {
            pkt: id,
            ring_used: used,
            ring_size: size,
            bql_inflight: 0,
            bql_limit: 0,
        });
        self.ring.push_back(pkt);
        self.unsent_in_ring += 1;
        self.start_wire(now_ns, out, trace);
    }

    fn start_wire(&mut self, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        if self.wire_timer_at.is_some() || self.unsent_in_ring == 0 {
            return;
        }
        let idx = self.ring.len() - self.unsent_in_ring;
        let p = &self.ring[idx];
        let start = now_ns.max(self.wire_busy_until_ns);
        let bits = p.wire_bytes() * 8;
        let dur = (bits * 1_000_000_000).div_ceil(self.cfg.rate_bps);
        let end = start + dur;
        let (id, wb, segs, sk) = (p.id, p.wire_bytes(), p.gso_segs as u64, p.sk);
        trace.emit(start, self.host, sk, || Ev::WireTx {
            pkt: id,
            wire_bytes: wb,
            segs,
            end_ns: end,
        });
        self.wire_busy_until_ns = end;
        self.wire_timer_at = Some(end);
        out.timers.push((end, DevTimer::WireDone));
    }

    /// A timer the device asked for has expired.
    pub fn on_timer(&mut self, t: DevTimer, now_ns: u64, out: &mut DevOut, trace: &mut Trace) {
        match t {
            DevTimer::QdiscWatchdog => self.qdisc_run(now_ns, out, trace),
            DevTimer::WireDone => {
                if self.wire_timer_at != Some(now_ns) {
                    return;
                }
                self.wire_timer_at = None;
                let idx = self.ring.len() - self.unsent_in_ring;
                self.unsent_in_ring -= 1;
                out.to_wire.push((now_ns, self.ring[idx].clone()));
                // Placeholder: completion as soon as the last bit left.
                let p = self.ring.remove(idx).unwrap();
                trace.emit(now_ns, self.host, NO_SOCK, || Ev::TxCompletion {
                    descs: 1,
                    bytes: p.len as u64,
                    bql_limit: 0,
                });
                out.completed.push(p);
                self.start_wire(now_ns, out, trace);
                self.qdisc_run(now_ns, out, trace);
            }
            DevTimer::TxIrq => {}
        }
    }
}
