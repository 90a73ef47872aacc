//! The simulation world: the kernel's state ([`Stack`]), the applications that make system calls
//! and the CPU model, and the event loop that runs them in time order.
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

use std::ops::{Deref, DerefMut};

use crate::include::linux::skbuff::{SockId, NO_SOCK};
use crate::net::host::{CpuCharge, Event, Stack};
use crate::net::ipv4::{tcp_output, tcp_timer};
use crate::scenario::Config;
use crate::sim::app::{self, App};
use crate::sim::cpu::Cpu;
use crate::trace::Trace;

/// The whole simulated system: the kernel's state, the applications and each host's CPUs.
///
/// Dereferences to its [`Stack`], so `w.socks`, `w.now_ns` and the kernel twins' functions
/// (which take `&mut Stack`) work on a `World` too.
#[derive(Clone, Debug)]
pub struct World {
    pub stack: Stack,
    pub apps: Vec<App>,
    /// Each host's CPUs, by host index.
    pub cpus: Vec<Cpu>,
    /// Events run since simulated time last advanced (the no-progress guard).
    same_instant_events: u64,
    /// The run stopped because time stopped advancing ([`STALL_EVENTS`]).
    pub stalled: bool,
    /// The last event run was an application's step.
    app_stepped: bool,
    /// The event limit of this run ([`MAX_RUN_EVENTS`]; a test may lower it).
    pub max_events: u64,
}

/// The no-progress guard: this many events in a row at one instant end the run with a warning.
/// A valid run has at most a few thousand (every flow's work at one instant); a configuration
/// in which nothing takes time would otherwise run forever at that instant.
pub const STALL_EVENTS: u64 = 2_000_000;

/// The event limit: a run stops after this many events (about 7 minutes natively) with a
/// warning naming the limit. The run size limit (`scenario::MAX_RUN_PACKETS`) refuses most
/// runs that would reach it before they start; this catches what that estimate misses.
pub const MAX_RUN_EVENTS: u64 = 2_000_000_000;

impl Deref for World {
    type Target = Stack;
    fn deref(&self) -> &Stack {
        &self.stack
    }
}

impl DerefMut for World {
    fn deref_mut(&mut self) -> &mut Stack {
        &mut self.stack
    }
}

impl World {
    /// Build the hosts, links, sockets and applications of a configuration.
    pub fn new(cfg: Config, trace: Trace) -> World {
        let mut w = World::without_apps(cfg, trace);
        app::build(&mut w);
        w
    }

    /// Build the hosts and links of a configuration, with no socket or application: for a
    /// driver that makes its own (the packetdrill runner's scripted socket and peer).
    pub fn without_apps(cfg: Config, trace: Trace) -> World {
        let stack = Stack::new(cfg, trace);
        let cpus = stack
            .cfg
            .hosts
            .iter()
            .enumerate()
            .map(|(i, hc)| Cpu::new(hc.cpu.cores as usize, stack.costs(i as u16).clone()))
            .collect();
        let mut w = World {
            stack,
            apps: Vec::new(),
            cpus,
            same_instant_events: 0,
            app_stepped: false,
            stalled: false,
            max_events: MAX_RUN_EVENTS,
        };
        w.stack.schedule(0, Event::Sample);
        w
    }

    /// Apply the CPU work the kernel did during the current event: work for a socket goes to
    /// the core of the application that owns it (its softirq work lands there too, as with
    /// XPS/RFS steering) and to that application's CPU time unless it sleeps (see
    /// `charge_sock`).
    #[inline(always)]
    pub fn flush_charges(&mut self) {
        // The charges handed on first (they came before the socket's running sum), then that sum.
        if !self.stack.cpu_charges.is_empty() {
            self.flush_charge_list();
        }
        if let Some((sk, cost_ns)) = self.stack.take_charge_acc() {
            self.charge_sock(sk, cost_ns);
        }
        if !self.stack.wakes.is_empty() {
            self.apply_wakes();
        }
        if !self.stack.veth_backlogged.is_empty() {
            self.schedule_veth_rx();
        }
        if !self.stack.bh_locked.is_empty() {
            self.note_bh_locked();
        }
    }

    /// A receive softirq held these sockets' spinlock (`bh_lock_sock`) while it processed a
    /// segment for them: until the end of its CPU work so far on its core. When that core is
    /// not the core of the socket's own application, the application's next `lock_sock`
    /// spins until then (`app::step`); on its own core the work is already ahead of it.
    ///
    /// Simplified: the softirq holds the lock for all of the event's work on its core (the
    /// receive path before the socket included), not from `bh_lock_sock` to `bh_unlock_sock`.
    #[inline(never)]
    fn note_bh_locked(&mut self) {
        let mut locked = std::mem::take(&mut self.stack.bh_locked);
        for (sk, ctx) in locked.drain(..) {
            let (a, b) = (
                self.stack.socks[sk as usize].app,
                self.stack.socks[ctx as usize].app,
            );
            if a as usize >= self.apps.len() || b as usize >= self.apps.len() {
                continue;
            }
            let (app, ctx_app) = (&self.apps[a as usize], &self.apps[b as usize]);
            if (app.host, app.core) == (ctx_app.host, ctx_app.core) {
                continue;
            }
            let until = self.app_core(b).busy_until_ns;
            let tp = &mut self.stack.socks[sk as usize];
            tp.bh_locked_until_ns = tp.bh_locked_until_ns.max(until);
        }
        self.stack.bh_locked = locked;
    }

    /// Run the NET_RX softirq of each skb a veth put on its peer's backlog when the context
    /// that transmitted it has done its CPU work so far: on Linux the softirq runs when
    /// `__dev_queue_xmit` re-enables bottom halves, after the transmit path's work, on the
    /// transmitting task's CPU. The peer's backlog is processed in order.
    #[inline(never)]
    fn schedule_veth_rx(&mut self) {
        let mut backlogged = std::mem::take(&mut self.stack.veth_backlogged);
        for (peer, owner, t) in backlogged.drain(..) {
            let mut at = t;
            if owner != NO_SOCK {
                at = at.max(self.core_of(owner).busy_until_ns);
            }
            let host = &mut self.stack.hosts[peer as usize];
            at = at.max(host.veth_rx_last_ns);
            host.veth_rx_last_ns = at;
            self.stack.schedule(at, Event::VethRx(peer));
        }
        self.stack.veth_backlogged = backlogged;
    }

    /// Bring in the tasks the event woke ([`Stack::wake_up_task`]), once its CPU work is on the
    /// cores: a task whose core has been idle less than `idle_poll_ns` runs after
    /// `wake_polling_ns`; one whose core has halted needs an IPI, which costs the waker's core
    /// (`CpuCosts::wake_up`), and runs after `wakeup_ns`.
    ///
    /// Simplified: the woken task's core is idle from the end of the last work charged to it,
    /// whoever's it was; a core still busy counts as idle 0 ns (no IPI: it is running).
    #[inline(never)]
    fn apply_wakes(&mut self) {
        let now = self.stack.now_ns;
        let mut wakes = std::mem::take(&mut self.stack.wakes);
        for wake in wakes.drain(..) {
            // The waker's softirq reached sk_data_ready after the work it did before (its core
            // is busy with it until then): the wake-up happens at the end of that work.
            let at = match wake.waker {
                Some(waker) => now.max(self.core_of(waker).busy_until_ns),
                None => now,
            };
            let idle_ns = at.saturating_sub(self.app_core(wake.app).busy_until_ns);
            let host = self.apps[wake.app as usize].host;
            let (latency_ns, ipi_ns) = self.cpus[host as usize].costs.wake_up(idle_ns);
            if let Some(waker) = wake.waker {
                if ipi_ns > 0 {
                    self.charge_sock(waker, ipi_ns);
                }
            }
            self.stack.schedule(at + latency_ns, Event::App(wake.app));
        }
        self.stack.wakes = wakes;
    }

    /// The charges [`Stack::charge`] handed on during the event (an event that worked for
    /// more than one socket, or an interrupt with no socket).
    #[inline(never)]
    fn flush_charge_list(&mut self) {
        let mut charges = std::mem::take(&mut self.stack.cpu_charges);
        for c in charges.drain(..) {
            match c {
                CpuCharge::Sock(sk, cost_ns) => self.charge_sock(sk, cost_ns),
                CpuCharge::Core(host, core, cost_ns) => {
                    let now = self.stack.now_ns;
                    self.cpus[host as usize].charge(core as usize, now, cost_ns);
                }
            }
        }
        self.stack.cpu_charges = charges;
    }

    /// The core of the application that owns socket `sk`.
    fn core_of(&self, sk: SockId) -> &crate::sim::cpu::Core {
        self.app_core(self.stack.socks[sk as usize].app)
    }

    /// The core application `a` runs on.
    pub fn app_core(&self, a: u32) -> &crate::sim::cpu::Core {
        let app = &self.apps[a as usize];
        self.cpus[app.host as usize].core(app.core as usize)
    }

    #[inline(always)]
    fn charge_sock(&mut self, sk: SockId, cost_ns: u64) {
        let now = self.stack.now_ns;
        let tp = &self.stack.socks[sk as usize];
        let (host, app) = (tp.host, tp.app);
        let app = &mut self.apps[app as usize];
        self.cpus[host as usize].charge(app.core as usize, now, cost_ns);
        // getrusage counts the time a task was current on its CPU (`sum_exec_runtime`), with
        // the interrupts and softirqs that ran while it was (`CONFIG_IRQ_TIME_ACCOUNTING` off).
        // Softirq work that runs while the task sleeps in a system call runs on an idle CPU
        // and is nobody's CPU time: the core is busy, the application's time does not grow.
        if !app.sleeping {
            app.cpu_ns += cost_ns;
        }
    }

    /// Run until every application finished or the duration ended.
    pub fn run(&mut self) {
        while self.step() {
            // Only an application's step can finish it.
            if self.app_stepped && self.finished() {
                break;
            }
        }
    }

    /// Run one event: an application's step, or the kernel entry point the event stands for.
    fn dispatch(&mut self, ev: Event) {
        self.app_stepped = matches!(ev, Event::App(_));
        let k = &mut self.stack;
        match ev {
            Event::App(a) => app::step(self, a),
            Event::Arrive(l) => k.link_arrive(l),
            Event::VethRx(h) => k.veth_rx(h),
            Event::Dev(h, timer) => k.dev_timer(h, timer),
            Event::Delack(sk) => tcp_timer::tcp_delack_timer(k, sk),
            Event::WriteTimer(sk) => tcp_timer::tcp_write_timer(k, sk),
            Event::Tsq(sk) => tcp_output::tcp_tasklet_func(k, sk),
            Event::PaceKick(sk) => tcp_output::tcp_pace_kick(k, sk),
            Event::Sample => {
                k.sample_memory();
                let t = k.now_ns + k.sample_ns;
                k.schedule(t, Event::Sample);
            }
        }
    }

    /// Check every invariant of the model (the property tests call it after each event):
    /// each socket's own invariants; for each connection, bytes written equal bytes delivered
    /// plus bytes still queued at the sender, and the sequence spaces agree; the qdisc within
    /// its limit.
    pub fn check_invariants(&self) {
        for s in &self.socks {
            s.check_invariants();
        }
        for a in &self.apps {
            let tp = &self.socks[a.sk as usize];
            if tp.state != crate::net::core::sock::TcpState::Established {
                continue;
            }
            let peer = &self.socks[tp.peer as usize];
            // ISN 0 + SYN: data starts at sequence 1.
            assert_eq!(
                a.bytes_written,
                tp.write_seq - 1,
                "app {:?} sk{}: written != write_seq",
                a.role,
                a.sk
            );
            assert_eq!(
                a.bytes_read,
                tp.copied_seq - 1,
                "app {:?} sk{}: read != copied_seq",
                a.role,
                a.sk
            );
            if peer.state == crate::net::core::sock::TcpState::Established {
                assert!(
                    peer.rcv_nxt <= tp.snd_nxt,
                    "sk{}: peer received beyond snd_nxt",
                    a.sk
                );
                assert!(
                    tp.snd_una <= peer.rcv_nxt,
                    "sk{}: acknowledged beyond what the peer has",
                    a.sk
                );
                // Bytes written = delivered to the peer + still queued here (unacked or unsent).
                assert_eq!(
                    tp.write_seq - 1,
                    (peer.rcv_nxt - 1) + (tp.write_seq - peer.rcv_nxt),
                    "sk{}: bytes lost between the queues",
                    a.sk
                );
                let queued: u64 = tp
                    .write_queue
                    .iter()
                    .chain(&tp.rtx_queue)
                    .map(|s| s.len() as u64)
                    .sum();
                assert_eq!(
                    queued,
                    tp.write_seq - tp.snd_una,
                    "sk{}: queued bytes != write_seq - snd_una",
                    a.sk
                );
            }
        }
        for h in &self.hosts {
            let q = &h.dev.qdisc;
            let limit = match q {
                crate::net::sched::sch_api::Qdisc::PfifoFast(_) => {
                    3 * h.cfg.qdisc.txqueuelen as u64 + 1
                }
                crate::net::sched::sch_api::Qdisc::Fq(_) => 3 * h.cfg.qdisc.fq_limit as u64 + 1,
                crate::net::sched::sch_api::Qdisc::FqCodel(_) => {
                    h.cfg.qdisc.fq_codel_limit as u64 + 1
                }
                crate::net::sched::sch_api::Qdisc::Pfifo(p) => p.limit as u64 + 1,
                crate::net::sched::sch_api::Qdisc::Noqueue => 0,
                // a bfifo of `limit` bytes: never more packets than bytes
                crate::net::sched::sch_api::Qdisc::Tbf(t) => t.limit as u64,
            };
            // The limit is checked at enqueue; `__dev_requeue_skb` may add back the segments of one
            // software-GSO skb the driver refused (q->gso_skb), counted in qlen (at most 64 KB of
            // segments of at least 48 bytes of payload).
            let gso_requeue = 65_536 / 48;
            assert!(
                q.qlen() as u64 <= limit + gso_requeue,
                "{}: qdisc holds {} packets, limit {} (+{} requeued GSO segments)",
                h.name,
                q.qlen(),
                limit,
                gso_requeue
            );
        }
    }

    /// Run one event; false when nothing is left, the duration ended or time stopped
    /// advancing (then the run ends at that instant with a warning, see [`STALL_EVENTS`]).
    pub fn step(&mut self) -> bool {
        if self.stalled {
            return false;
        }
        match self.pop() {
            Some((t, ev)) if t <= self.end_ns => {
                if self.events >= self.max_events {
                    self.event_limit();
                    return false;
                }
                if t == self.now_ns {
                    self.same_instant_events += 1;
                    if self.same_instant_events > STALL_EVENTS {
                        self.stall();
                        return false;
                    }
                } else {
                    self.same_instant_events = 0;
                }
                self.now_ns = t;
                self.events += 1;
                self.dispatch(ev);
                self.flush_charges();
                true
            }
            _ => false,
        }
    }

    /// End the run at the event limit ([`World::max_events`]) with a warning.
    #[cold]
    #[inline(never)]
    fn event_limit(&mut self) {
        self.stalled = true;
        self.end_ns = self.now_ns;
        let message = format!(
            "the run stopped at t = {:.6} s after {} M events (the event limit); the figures cover the run up to that instant: lower sim.duration_ms, link.rate_mbit or app.flows",
            self.now_ns as f64 / 1e9,
            self.max_events as f64 / 1e6
        );
        self.warnings.push(message);
    }

    /// End the run at the current instant: the figures cover the time up to it.
    #[cold]
    #[inline(never)]
    fn stall(&mut self) {
        self.stalled = true;
        let now = self.now_ns;
        self.end_ns = now;
        self.warnings.push(format!(
            "the run stopped at t = {:.6} s: {STALL_EVENTS} events ran without simulated time advancing (nothing in this configuration takes time); the figures cover the run up to that instant",
            now as f64 / 1e9
        ));
    }

    /// Whether socket `sk` is the connecting side (`connect()`, `tcp_finish_connect`): the
    /// stream sender or the ping-pong client. The other is the passive side
    /// (`tcp_conn_request`, `tcp_check_req`, `tcp_rcv_state_process`).
    pub fn sock_is_active(&self, sk: SockId) -> bool {
        let tp = &self.socks[sk as usize];
        matches!(
            self.apps[tp.app as usize].role,
            app::Role::StreamSender | app::Role::PingpongClient
        )
    }

    pub fn finished(&self) -> bool {
        self.apps.iter().all(|a| a.finished_ns.is_some())
    }

    /// The last event run was an application's step: the only kind of event that can finish
    /// the workload, so a loop that runs events one at a time need ask [`World::finished`]
    /// (which looks at every application) only then.
    pub fn app_stepped(&self) -> bool {
        self.app_stepped
    }
}
