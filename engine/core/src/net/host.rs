//! The host context: what kernel code may use of the machine it runs on.
//!
//! [`Stack`] holds the kernel's state of every simulated host (its device, MIB counters and
//! sockets), the wires between them, the clock (`jiffies` of the configured HZ) and the queue of
//! work due later (timers, softirqs, wake-ups). Kernel twins take `&mut Stack` and through it
//! schedule a timer ([`Stack::schedule`]), charge CPU ([`Stack::charge`], applied by the
//! simulator to its CPU model when the event ends), emit a trace event ([`Stack::emit`]) and hand
//! a packet to the device ([`Stack::ip_queue_xmit`]). Nothing here knows the applications or the
//! CPU model: a task woken by the kernel is an [`Event::App`] in the queue, which the simulator
//! (`sim/world.rs`) runs.
//!
//! Time is integer nanoseconds. Events run in time order, and at equal times in the order they
//! were scheduled, so two runs of the same configuration and seed produce the same event log.
//! Kernel timers that count in jiffies (delayed ACK, RTO, PROBE0) fire on jiffy boundaries of
//! the configured HZ; the phase of the tick relative to the start of the run comes from the
//! seeded RNG.
//!
//! Simplified:
//! - a host's softirq work runs at the instant of the event that causes it (interrupt,
//!   completion, ACK), and its CPU time is charged to the core of the application that owns the
//!   socket, not scheduled on its own; visible effect: an application waits for that core when
//!   it next runs, as it would after being interrupted.
//! - every RX packet is processed by its own NAPI poll (`rx-usecs` 0, adaptive moderation at
//!   the rates modelled), so GRO merges the segments of one TSO packet but not two packets.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::include::linux::skbuff::{Packet, SockId};
use crate::include::uapi::linux::snmp::Mibs;
use crate::kernel::time::timer::bucket_expiry;
use crate::net::core::dev::{DevConfig, DevOut, DevParams, DevTimer, NetDevice};
use crate::net::core::sock::{TcpMemoryAllocated, TcpSock};
use crate::net::sched::sch_api::Qdisc;
use crate::net::sched::sch_fq::{Fq, FqConfig};
use crate::net::sched::sch_fq_codel::{FqCodel, FqCodelConfig};
use crate::net::sched::sch_generic::PfifoFast;
use crate::net::sched::sch_tbf::{Tbf, TbfConfig};
use crate::path::bottleneck::Bottleneck;
use crate::scenario::cpu_costs::CpuCosts;
use crate::scenario::{Config, CpuModel, HostConfig, QdiscKind};
use crate::trace::{Ev, Trace};

/// What can happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An application's next step (a system call, or waking from a sleep): the kernel wakes a
    /// task; the simulator runs it.
    App(u32),
    /// The oldest packet on link `n` reaches the far end.
    Arrive(u16),
    /// A packet a veth forwarded to host `n`, or host `n`'s loopback sent, is received
    /// (`__netif_rx` → NET_RX softirq, in the context of the task that transmitted it).
    VethRx(u16),
    /// A device timer (qdisc watchdog, wire, TX-completion interrupt).
    Dev(u16, DevTimer),
    /// The delayed-ACK timer of a socket (`tcp_delack_timer`).
    Delack(SockId),
    /// The retransmit-family timer (`tcp_write_timer`: RTO or PROBE0).
    WriteTimer(SockId),
    /// The per-CPU TSQ tasklet runs the socket's handler (`tcp_tasklet_func`).
    Tsq(SockId),
    /// The socket's pacing hrtimer fires (`tcp_pace_kick`).
    PaceKick(SockId),
    /// Periodic sampling of memory (`/proc/net/sockstat`).
    Sample,
}

/// A queued event. Events due at the same time run in the order they were scheduled.
#[derive(Clone, Copy, Debug)]
struct Scheduled {
    t_ns: u64,
    ev: Event,
}

/// A reusable `DevOut` buffer, boxed so that lending it to a call moves one pointer; a cloned
/// world starts with none (the first call makes one).
#[derive(Debug, Default)]
pub(crate) struct Scratch(Option<Box<DevOut>>);

impl Scratch {
    /// The buffer, empty (a new one if it is lent out already).
    #[inline]
    pub(crate) fn take(&mut self) -> Box<DevOut> {
        match self.0.take() {
            Some(mut out) => {
                out.clear();
                out
            }
            None => Box::default(),
        }
    }

    /// Give the buffer back (only the drop of a second one, lent to a nested call, costs a
    /// call).
    #[inline]
    pub(crate) fn put(&mut self, out: Box<DevOut>) {
        if let Some(nested) = self.0.replace(out) {
            drop(nested);
        }
    }
}

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

/// A direction of the wire between two hosts: FIFO with constant propagation delay.
#[derive(Clone, Debug)]
pub struct Link {
    pub from: u16,
    pub to: u16,
    pub delay_ns: u64,
    /// Packets on the wire with their arrival time, oldest first.
    pub in_flight: VecDeque<(u64, Packet)>,
    /// The bottleneck router between the sender's NIC and the delay (`path.bottleneck_mbit`),
    /// if the path has one.
    pub bottleneck: Option<Bottleneck>,
}

/// A host (one network namespace with one device).
#[derive(Clone, Debug)]
pub struct Host {
    pub name: String,
    pub cfg: Arc<HostConfig>,
    pub dev: NetDevice,
    pub mib: Mibs,
    /// The link this host transmits on (none on loopback).
    pub link_out: Option<u16>,
    /// Ids for the skbs a GSO packet is cut into on arrival when GRO is off (`ethtool.gro`).
    pub rx_seg_id: u64,
    /// The other end of this host's veth pair, on a `veth` link without a forwarder.
    pub veth_peer: Option<u16>,
    /// Packets the peer's `veth_xmit` (or this host's `loopback_xmit`) put on this host's
    /// backlog, each with the socket whose task runs the NET_RX softirq that receives it (the
    /// sender's CPU pays for it).
    pub veth_rx: VecDeque<(Packet, SockId)>,
    /// When the last of them is processed (the backlog runs in order).
    pub veth_rx_last_ns: u64,
    /// `tcp_memory_allocated` of this host's sockets (each holds it too).
    pub tcp_memory_allocated: TcpMemoryAllocated,
    /// Sum and count of TCP memory samples (pages).
    pub mem_pages_sum: u64,
    pub mem_samples: u64,
}

/// A task woken during an event ([`Stack::wake_up_task`]): its application, and the socket
/// whose task's context ran the wake-up, if another's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wake {
    pub app: u32,
    pub waker: Option<SockId>,
}

/// CPU work kernel code did, for the simulator to put on a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuCharge {
    /// Work done for a socket, on the core of the application that owns it.
    Sock(SockId, u64),
    /// Work done on a given core of a host (an interrupt with no socket to charge).
    Core(u16, u16, u64),
}

/// The kernel state of the simulated system, and what kernel code may ask of the machine.
#[derive(Clone, Debug)]
pub struct Stack {
    pub now_ns: u64,
    pub cfg: Arc<Config>,
    pub hz: u64,
    /// Offset of the jiffy tick against t = 0, ns (from the seed).
    pub tick_phase_ns: u64,
    /// Nanoseconds per jiffy when HZ divides a second exactly (100, 250, 1000), else 0.
    ns_per_jiffy: u64,
    pub end_ns: u64,
    /// Pending events, latest first: the next one is at the end.
    queue: Vec<Scheduled>,
    /// Events scheduled for the instant being run, in the order they were scheduled: they run
    /// after the `queue`'s events due at that instant (scheduled before it) and before any later
    /// one. A separate FIFO because an instant can hold very many (a veth whose every packet
    /// comes back at once), where inserting each into `queue` moved the whole vector.
    now_fifo: VecDeque<Scheduled>,
    pub hosts: Vec<Host>,
    pub links: Vec<Link>,
    pub socks: Vec<TcpSock>,
    pub trace: Trace,
    rng: u64,
    next_skb_id: u64,
    next_pkt_id: u64,
    /// Events processed.
    pub events: u64,
    pub warnings: Vec<String>,
    pub(crate) dev_out: Scratch,
    /// CPU work of the current event not yet handed on: (socket, ns).
    charge_acc: Option<(SockId, u64)>,
    /// While a veth's NET_RX softirq runs: the socket whose task runs it. [`Stack::charge`]
    /// puts all CPU work on its core, whichever socket the work is for.
    pub softirq_owner: Option<SockId>,
    /// While `ip_queue_xmit` hands its drops on: the packet the device refused to its caller
    /// (`NET_XMIT_DROP`), as opposed to packets the qdisc dropped from its queue.
    pub xmit_refused: Option<u64>,
    /// CPU work handed to the simulator's CPU model, in order, when the event ends.
    pub cpu_charges: Vec<CpuCharge>,
    /// Tasks woken during the current event, for the simulator to bring in on their CPUs
    /// ([`Stack::wake_up_task`]).
    pub wakes: Vec<Wake>,
    /// skbs a veth put on a peer's backlog during the current event: (peer host, the socket
    /// whose context runs the NET_RX softirq, the transmit's instant), for the simulator to
    /// run once that context's CPU work so far is done.
    pub veth_backlogged: Vec<(u16, SockId, u64)>,
    /// Sockets a receive softirq processed during the current event while it held their
    /// spinlock (`bh_lock_sock`): (the socket, the socket whose context runs the softirq), for
    /// the simulator to note until when, once the event's CPU work is on the cores.
    pub bh_locked: Vec<(SockId, SockId)>,
    /// Each host's CPU cost table.
    costs: Vec<CpuCosts>,
    /// Interval between memory samples, ns.
    pub sample_ns: u64,
    /// The SACK blocks (TCP options) of ACKs below TCP, by packet id: `tcp_send_ack` puts
    /// them here, `tcp_ack` takes them. Kept beside the packet because no layer below TCP
    /// reads TCP options and `Packet` stays the same size for them; an entry lives only while
    /// its ACK is on its way (a dropped ACK's entry goes with it).
    pub tcp_sack_opts: std::collections::BTreeMap<u64, Box<[(u64, u64)]>>,
}

impl Stack {
    /// Build the hosts and links of a configuration (the simulator adds sockets and
    /// applications).
    pub fn new(cfg: Config, trace: Trace) -> Stack {
        let cfg = Arc::new(cfg);
        let mut rng = cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let hz = cfg.hz as u64;
        let tick_ns = 1_000_000_000 / hz;
        let tick_phase_ns = splitmix(&mut rng) % tick_ns;
        let mut hosts = Vec::new();
        let mut links = Vec::new();
        let n = cfg.hosts.len();
        for (i, hc) in cfg.hosts.iter().enumerate() {
            let hc = Arc::new(hc.clone());
            let qdisc = make_qdisc(&cfg, &hc, i as u16);
            let mut dev = NetDevice::with_params(
                i as u16,
                DevConfig {
                    loopback: cfg.link.loopback,
                    veth: cfg.link.veth,
                    tun: false,
                    rate_bps: cfg.link.rate_bps,
                    tx_ring: hc.nic.tx_ring,
                    tx_usecs: hc.nic.tx_usecs,
                    tx_frames: hc.nic.tx_frames,
                    tso: hc.nic.tso,
                    gso: hc.nic.gso,
                },
                DevParams {
                    // veth_xmit never calls netdev_tx_sent_queue.
                    bql: hc.nic.bql_enabled && !cfg.link.veth,
                    hz: cfg.hz,
                    // ixgbe-style wake threshold: 2 free descriptors (a ring of one wakes at 1).
                    tx_wake_thresh: 2.min(hc.nic.tx_ring),
                    ..DevParams::default()
                },
                qdisc,
            );
            dev.costs = host_costs(&cfg, &hc);
            // A veth pair without a forwarder joins the hosts directly; with one (the lab's
            // middle namespace) the frames cross a link with its delay and router.
            let link_out = if cfg.link.loopback || (cfg.link.veth && !cfg.link.forwarder) {
                None
            } else {
                let l = links.len() as u16;
                links.push(Link {
                    from: i as u16,
                    to: ((i + 1) % n) as u16,
                    delay_ns: cfg.link.delay_ns,
                    in_flight: VecDeque::new(),
                    bottleneck: (cfg.link.bottleneck_bps > 0).then(|| {
                        Bottleneck::new(l, cfg.link.bottleneck_bps, cfg.link.queue_packets)
                    }),
                });
                Some((links.len() - 1) as u16)
            };
            hosts.push(Host {
                name: hc.name.clone(),
                cfg: hc,
                dev,
                mib: Mibs::default(),
                link_out,
                veth_peer: (cfg.link.veth && !cfg.link.forwarder).then_some(((i + 1) % n) as u16),
                rx_seg_id: RX_SEG_ID_BASE + ((i as u64) << 36),
                veth_rx: VecDeque::new(),
                veth_rx_last_ns: 0,
                tcp_memory_allocated: TcpMemoryAllocated::default(),
                mem_pages_sum: 0,
                mem_samples: 0,
            });
        }
        let costs = cfg.hosts.iter().map(|hc| host_costs(&cfg, hc)).collect();
        Stack {
            now_ns: 0,
            hz,
            ns_per_jiffy: if 1_000_000_000 % hz == 0 {
                1_000_000_000 / hz
            } else {
                0
            },
            tick_phase_ns,
            end_ns: cfg.duration_ns,
            queue: Vec::new(),
            now_fifo: VecDeque::new(),
            hosts,
            links,
            socks: Vec::new(),
            trace,
            rng,
            next_skb_id: 1,
            next_pkt_id: 1,
            events: 0,
            warnings: cfg.warnings.clone(),
            dev_out: Scratch::default(),
            charge_acc: None,
            softirq_owner: None,
            xmit_refused: None,
            cpu_charges: Vec::new(),
            wakes: Vec::new(),
            veth_backlogged: Vec::new(),
            bh_locked: Vec::new(),
            costs,
            sample_ns: 10_000_000,
            tcp_sack_opts: Default::default(),
            cfg,
        }
    }

    // ---- time ----

    /// `jiffies` at time `t_ns`.
    pub fn jiffies_at(&self, t_ns: u64) -> u64 {
        // (t + phase) * hz stays below 2^64 for runs shorter than 200 days at HZ 1000.
        (t_ns + self.tick_phase_ns) * self.hz / 1_000_000_000
    }

    /// `jiffies` now.
    pub fn jiffies(&self) -> u64 {
        self.jiffies_at(self.now_ns)
    }

    /// The instant the tick makes `jiffies` reach `j` (when a timer with `expires = j` runs).
    pub fn jiffy_start_ns(&self, j: u64) -> u64 {
        // HZ 100, 250 and 1000 divide a second exactly: a multiplication, not a division.
        let t = match self.ns_per_jiffy {
            0 => (j * 1_000_000_000).div_ceil(self.hz),
            n => j * n,
        };
        t.saturating_sub(self.tick_phase_ns)
    }

    /// The instant a timer armed now for `expires` (in jiffies) runs: on the tick that
    /// reaches `expires` before Linux 4.8, and from 4.8 on when its bucket of the timer wheel
    /// expires, one tick later or more ([`bucket_expiry`]).
    pub fn timer_expiry_ns(&self, expires: u64) -> u64 {
        let j = if self.cfg.kernel.version() >= (4, 8) {
            bucket_expiry(expires, self.jiffies())
        } else {
            expires
        };
        self.jiffy_start_ns(j)
    }

    pub fn ms_to_jiffies(&self, ms: u64) -> u64 {
        (ms * self.hz).div_ceil(1000)
    }

    pub fn jiffies_to_ns(&self, j: u64) -> u64 {
        j * 1_000_000_000 / self.hz
    }

    // ---- events ----

    pub fn schedule(&mut self, t_ns: u64, ev: Event) {
        debug_assert!(t_ns >= self.now_ns, "event {ev:?} scheduled in the past");
        if t_ns == self.now_ns {
            self.now_fifo.push_back(Scheduled { t_ns, ev });
            return;
        }
        // Latest first, so the next event is popped from the end. The new event goes
        // after (nearer the end than) every event due later and before every event due at
        // the same time or earlier, so that equal times keep the order of scheduling. The
        // queue is short (about 6 events in a bulk flow, hundreds with 200 flows): a binary
        // search and a move beat a binary heap here (8.6% fewer instructions in the bench).
        // Most new events are due soon, near the end: look at the last few slots first, and
        // search the rest only if the place is further in (the same place either way).
        // The events it passes move one slot towards the end as the search goes (insertion
        // sort's step), so that a place near the end costs no call to move memory.
        const NEAR_END: usize = 16;
        let new = Scheduled { t_ns, ev };
        self.queue.push(new);
        let q = &mut self.queue[..];
        let last = q.len() - 1;
        let mut at = last;
        while at > 0 && q[at - 1].t_ns <= t_ns {
            q[at] = q[at - 1];
            at -= 1;
            if last - at == NEAR_END {
                let to = q[..at].partition_point(|s| s.t_ns > t_ns);
                q.copy_within(to..at, to + 1);
                at = to;
                break;
            }
        }
        q[at] = new;
    }

    /// `try_to_wake_up` of the task of application `app`, sleeping on socket `sk`: the
    /// simulator brings it in on its CPU when the event ends (`World::apply_wakes`), which
    /// decides, from how long that CPU has been idle, whether the wake-up needs an IPI. A
    /// softirq that runs in another socket's task (a veth's or loopback's receive inside that
    /// task's system call) pays for that IPI: `waker`.
    pub fn wake_up_task(&mut self, app: u32, sk: SockId) {
        let waker = self.softirq_owner.filter(|&owner| owner != sk);
        self.wakes.push(Wake { app, waker });
    }

    /// How many queued events equal `ev` (for tests).
    #[cfg(test)]
    pub(crate) fn count_queued(&self, ev: Event) -> usize {
        self.queue
            .iter()
            .chain(self.now_fifo.iter())
            .filter(|s| s.ev == ev)
            .count()
    }

    /// The next event, removed from the queue.
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        if self.now_fifo.is_empty() {
            return self.queue.pop().map(|s| (s.t_ns, s.ev));
        }
        // The FIFO's events run after the queue's due at the same instant.
        let f = self.now_fifo.front().unwrap().t_ns;
        let s = if self.queue.last().is_none_or(|q| f < q.t_ns) {
            self.now_fifo.pop_front()
        } else {
            self.queue.pop()
        };
        s.map(|s| (s.t_ns, s.ev))
    }

    pub fn next_skb_id(&mut self) -> u64 {
        self.next_skb_id += 1;
        self.next_skb_id - 1
    }

    pub fn next_pkt_id(&mut self) -> u64 {
        debug_assert!(
            self.next_pkt_id < crate::net::core::dev::SEG_ID_BASE,
            "packet ids reach GSO's"
        );
        self.next_pkt_id += 1;
        self.next_pkt_id - 1
    }

    /// A uniformly random number in `0..n` from the run's seeded generator.
    pub fn random(&mut self, n: u64) -> u64 {
        splitmix(&mut self.rng) % n.max(1)
    }

    /// A socket together with the run's seeded generator, for kernel code that draws while it
    /// holds the socket (BBR's `get_random_u32_below` when it enters PROBE_BW).
    pub fn sock_and_random(&mut self, sk: SockId) -> (&mut TcpSock, Prandom<'_>) {
        (&mut self.socks[sk as usize], Prandom(&mut self.rng))
    }

    /// The CPU cost table of a host.
    pub fn costs(&self, host: u16) -> &CpuCosts {
        &self.costs[host as usize]
    }

    /// Charge `cost_ns` of kernel work done for socket `sk` to the core of the application
    /// that owns it (its softirq work lands there too, as with XPS/RFS steering), and to that
    /// application's CPU time.
    ///
    /// Work charged during one event is summed and applied when the event ends (or before
    /// anyone reads a core's state): all of it is ready at the same instant, so the sum starts
    /// when the single charges would have.
    ///
    /// Inside a veth's NET_RX softirq ([`Stack::softirq_owner`]) all work goes to the socket
    /// whose transmit raised it: the softirq runs on that task's CPU, and with
    /// `CONFIG_IRQ_TIME_ACCOUNTING` off its time counts as that task's system time.
    #[inline]
    pub fn charge(&mut self, sk: SockId, cost_ns: u64) {
        if cost_ns == 0 {
            return;
        }
        let sk = self.softirq_owner.unwrap_or(sk);
        match &mut self.charge_acc {
            Some((s, c)) if *s == sk => *c += cost_ns,
            Some(_) => {
                self.flush_charges();
                self.charge_acc = Some((sk, cost_ns));
            }
            None => self.charge_acc = Some((sk, cost_ns)),
        }
    }

    /// Hand the CPU work accumulated by [`Stack::charge`] on to [`Stack::cpu_charges`].
    pub fn flush_charges(&mut self) {
        if let Some((sk, cost_ns)) = self.charge_acc.take() {
            self.cpu_charges.push(CpuCharge::Sock(sk, cost_ns));
        }
    }

    /// The CPU work of the current socket not yet handed on (the simulator's fast path: no
    /// queueing when an event charged one socket only).
    #[inline]
    pub fn take_charge_acc(&mut self) -> Option<(SockId, u64)> {
        self.charge_acc.take()
    }

    pub fn mib(&mut self, host: u16) -> &mut Mibs {
        &mut self.hosts[host as usize].mib
    }

    pub fn emit(&mut self, host: u16, sk: SockId, ev: impl FnOnce() -> Ev) {
        let t = self.now_ns;
        self.trace.emit(t, host, sk, ev);
    }

    /// `/proc/net/sockstat` "TCP: mem": pages of TCP memory over the host's sockets.
    pub fn sample_memory(&mut self) {
        for h in 0..self.hosts.len() {
            let pages = self.tcp_mem_pages(h as u16);
            let host = &mut self.hosts[h];
            host.mem_pages_sum += pages;
            host.mem_samples += 1;
        }
    }

    /// TCP memory of a host in pages (`tcp_memory_allocated`): what its sockets reserved,
    /// queued skbs plus `sk_forward_alloc`.
    pub fn tcp_mem_pages(&self, host: u16) -> u64 {
        let pages = self.hosts[host as usize].tcp_memory_allocated.pages();
        // The running total is the sum over the sockets (debug builds and tests check it).
        debug_assert_eq!(
            pages,
            self.socks
                .iter()
                .filter(|s| s.host == host)
                .map(|s| s.mem_bytes() / crate::net::core::sock::SK_MEM_QUANTUM)
                .sum::<u64>(),
            "tcp_memory_allocated of host {host} differs from its sockets' sum"
        );
        pages
    }

    /// When the next event is due, if any (for runs driven step by step, like the site's).
    pub fn next_event_ns(&self) -> Option<u64> {
        match (self.queue.last(), self.now_fifo.front()) {
            (Some(q), Some(f)) => Some(q.t_ns.min(f.t_ns)),
            (q, f) => q.or(f).map(|s| s.t_ns),
        }
    }
}

/// The root qdisc of a host's device, from the scenario's `tc` keys and the kernel profile.
fn make_qdisc(cfg: &Config, hc: &HostConfig, host: u16) -> Qdisc {
    if cfg.link.loopback {
        return Qdisc::Noqueue;
    }
    let q = &hc.qdisc;
    let psched_mtu = cfg.link.mtu + 14;
    match q.kind {
        QdiscKind::Noqueue => Qdisc::Noqueue,
        QdiscKind::PfifoFast => {
            let (major, minor) = cfg.kernel.version();
            Qdisc::PfifoFast(PfifoFast::for_kernel(major, minor, q.txqueuelen))
        }
        QdiscKind::Fq => {
            let (major, minor) = cfg.kernel.version();
            let mut f = FqConfig::for_kernel(major, minor, psched_mtu, cfg.hz);
            f.limit = q.fq_limit;
            f.flow_limit = q.fq_flow_limit;
            f.quantum = q.fq_quantum;
            f.initial_quantum = q.fq_initial_quantum;
            f.flow_refill_delay_us = q.fq_refill_delay_ms * 1000;
            if q.fq_maxrate_bps > 0 {
                f.flow_max_rate_bytes_per_sec = q.fq_maxrate_bps / 8;
            }
            f.rate_enable = q.fq_pacing;
            f.horizon_ns = q.fq_horizon_ns;
            Qdisc::Fq(Fq::new(f))
        }
        QdiscKind::FqCodel => {
            let mut f = FqCodelConfig::new(psched_mtu);
            f.limit = q.fq_codel_limit;
            f.flows = q.fq_codel_flows;
            f.quantum = q.fq_codel_quantum;
            f.target_us = (q.fq_codel_target_ns / 1000) as u32;
            f.interval_us = (q.fq_codel_interval_ns / 1000) as u32;
            Qdisc::FqCodel(FqCodel::new(f))
        }
        QdiscKind::Tbf => {
            // tc qdisc add dev DEV root tbf rate R burst B (limit L | latency T)
            let mut t = TbfConfig::tc(
                q.tbf_rate_bytes_ps,
                q.tbf_burst_bytes,
                q.tbf_limit_bytes,
                q.tbf_latency_us,
            );
            // tbf_segment's segments: the upper half of the host's range of device segment ids.
            t.seg_id_base = crate::net::core::dev::SEG_ID_BASE + ((host as u64) << 36) + (1 << 35);
            Qdisc::Tbf(Tbf::new(t))
        }
    }
}

/// The cost table of a host: the measured table scaled by `cpu.speed_percent`, or nothing.
/// On a veth the receiver has no per-frame driver or GRO work (`rx_seg_ns`): the GSO skb
/// arrives whole, without NAPI.
fn host_costs(cfg: &Config, hc: &HostConfig) -> CpuCosts {
    let table = match hc.cpu.model {
        CpuModel::Free => return CpuCosts::FREE,
        CpuModel::Reference => CpuCosts::MEASURED_6_18_VM,
        CpuModel::EpycVm => CpuCosts::MEASURED_6_18_EPYC_VM,
    };
    let mut c = table.scaled(100, hc.cpu.speed_percent as u64);
    if cfg.link.veth {
        c.rx_seg_ns = 0;
    }
    c
}

/// Ids of the skbs a receiver without GRO makes of a GSO packet (`ethtool.gro` off): above
/// the devices' and below the routers' segment ids.
const RX_SEG_ID_BASE: u64 = (1 << 52) + (1 << 50);

/// splitmix64: the run's only source of randomness.
/// The run's seeded generator, lent to kernel code (`Stack::sock_and_random`).
pub struct Prandom<'a>(&'a mut u64);

impl Prandom<'_> {
    /// `get_random_u32_below`: a uniformly random number in `0..ceil`.
    pub fn get_random_u32_below(&mut self, ceil: u32) -> u32 {
        (splitmix(self.0) % ceil.max(1) as u64) as u32
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod queue_tests {
    use super::*;
    use crate::sim::testkit::established;

    #[test]
    fn events_of_one_instant_run_in_scheduling_order_after_those_scheduled_for_it_earlier() {
        let mut w = established("6.18", "");
        while w.stack.pop().is_some() {}
        let now = w.now_ns;
        // Scheduled from an earlier instant for `now + 10`, then, at `now + 10`, more for it.
        w.schedule(now + 10, Event::App(1));
        w.schedule(now + 20, Event::App(9));
        w.schedule(now + 10, Event::App(2));
        assert_eq!(w.stack.pop(), Some((now + 10, Event::App(1))));
        w.now_ns = now + 10;
        for i in 3..200_003 {
            w.schedule(now + 10, Event::App(i));
        }
        assert_eq!(w.next_event_ns(), Some(now + 10));
        // The one queued before the instant began runs first, then the instant's own in order.
        assert_eq!(w.stack.pop(), Some((now + 10, Event::App(2))));
        for i in 3..200_003 {
            assert_eq!(w.stack.pop(), Some((now + 10, Event::App(i))));
        }
        assert_eq!(w.stack.pop(), Some((now + 20, Event::App(9))));
        assert_eq!(w.stack.pop(), None);
    }
}
