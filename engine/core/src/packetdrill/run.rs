//! The runner: a script's events against the engine, after packetdrill's `run.c`,
//! `run_packet.c` and `run_system_call.c`.
//!
//! Two hosts joined by a link, as in every run of the engine: host 0 holds the socket under
//! test, host 1 a socket that stands for the script's remote end and never runs. The script's
//! inbound packets are put on host 1's wire (they arrive at host 0 at the script's time, as
//! packetdrill writes them to its tun device); every frame host 0's NIC puts on its wire is
//! taken off before it arrives and queued for the script's next outbound packet. Host 0's
//! device is a tun device (`DevConfig::tun`: `tun_net_xmit` orphans each skb as it takes it,
//! so TCP Small Queues and autocorking find nothing below TCP, and a frame is on the wire the
//! instant TCP sends it), and CPU costs are off, so the engine's times are the kernel's
//! decisions alone.
//!
//! Times follow `adjust_relative_event_times` and `verify_time`: `+t` counts from when the
//! previous event completed (an outbound packet: when it was seen), except that consecutive
//! inbound packets count from each other's script times; an outbound packet must be seen
//! within `--tolerance_usecs` (4000 µs by default) of its time, or of 12.5 %
//! (`--tolerance_percent`) of the time since the previous event when that is more.
//! Outbound packets are compared field by field as `verify_outbound_live_packet` does: flags
//! (PSH and FIN too: packetdrill checks them in its local mode), sequence and ACK numbers, the
//! window when the script gives one, the options (kinds in order, values but timestamps'),
//! the payload length (consecutive smaller packets are joined up to the length expected, as
//! packetdrill does unless `--strict_segments`) and the time. `%{ }%` blocks are read for
//! `assert tcpi_NAME OP VALUE` lines on the socket's `tcp_info`, taken when the block's time
//! comes; like packetdrill, a failed assertion is reported when the script has ended.
//!
//! Simplified:
//! - the passive side only (`socket`, `bind`, `listen`, the SYN, `accept`), because the model's
//!   active open sends a SYN without the options a script checks; visible effect: scripts
//!   that `connect()` are reported as unsupported.
//! - one thread: a call written `+t...end` (a `write` or `send` that sleeps for send-buffer
//!   space, a `read` or `recv` that waits for data, a `poll`) blocks while the script goes on,
//!   and returns when the socket's wake-up (`sk_stream_write_space`, `sk_data_ready`) gives it
//!   what it waits for, or at its timeout; a second blocking call meanwhile, an `accept` before
//!   the handshake ends and an `epoll_wait` with a timeout are unsupported. epoll watches the
//!   connected socket (`EPOLLOUT`, `EPOLLIN`, `EPOLLET`).
//! - `close()` on the connected socket runs the engine's `tcp_close` (FIN_WAIT1, the FIN), and
//!   the peer's FIN after it reaches `tcp_rcv_state_process`; `shutdown()`, a FIN before
//!   `close()`, data after it and segments to the time-wait socket are unsupported (the model
//!   has no passive close, no RST and no time-wait socket).
//! - the option negotiation of the handshake (`tcp_parse_options`, `tcp_openreq_init`) is done
//!   here: the SYN's MSS clamps the socket's MSS, its window scale and the timestamp and
//!   SACK-permitted options decide what the socket uses, because the model's handshake carries
//!   no options; visible effect: none for the scripts the runner accepts.

use std::collections::{BTreeMap, VecDeque};

use super::parser::{
    Action, Direction, Event, Expr, PacketSpec, Script, Syscall, TcpOpt, TimeKind,
};
use super::sysctl::{self, Applied};
use super::{Failure, LineRun, Outcome, Report};
use crate::include::linux::skbuff::{tcp_flags, Packet, SockId, ETH_HLEN, IPV4_HLEN, TCP_HLEN};
use crate::include::linux::socket;
use crate::net::core::sock::TcpState;
use crate::net::ipv4::tcp::{self, SendOutcome};
use crate::scenario::Scenario;
use crate::sim::app::{self, App, Role};
use crate::sim::world::World;
use crate::trace::Trace;

/// packetdrill's defaults (`config.c`): `--tolerance_usecs=4000`, `--tolerance_percent=12.5`.
pub const TOLERANCE_USECS: i64 = 4000;
pub const TOLERANCE_PERCENT: f64 = 12.5;

/// Delay before a captured frame would arrive at host 1: longer than any script, so the
/// arrival never runs (the frame is taken off the wire first).
const CAPTURE_DELAY_NS: u64 = 1 << 50;

/// The engine configuration every script starts from: kernel 6.18 at HZ 1000, no CPU costs,
/// pfifo as `defaults.sh` sets, MTU 1500; the runner then makes host 0's device a tun device.
const BASE_SCENARIO: &str = r#"title = "packetdrill"
kernel = "6.18"
[sim]
hz = 1000
duration_ms = 600000
[link]
rate_mbit = 800000
delay_us = 0
mtu = 1500
[tc]
qdisc = "pfifo_fast"
[ethtool]
tx-usecs = 0
tx-frames = 1
[cpu]
model = "free"
[app]
kind = "tcp_stream"
bytes = 1
"#;

/// What the script's SYN offered (`tcp_parse_options`).
#[derive(Clone, Copy, Debug, Default)]
struct SynOpts {
    mss: Option<u32>,
    sack_ok: bool,
    ts: bool,
    wscale: Option<u8>,
}

/// A file descriptor of the script.
#[derive(Clone, Copy, Debug)]
struct Fd {
    listener: bool,
    nonblock: bool,
}

/// A frame host 0 put on its wire, with the time it left and its SACK blocks.
#[derive(Clone, Debug)]
struct Captured {
    t_ns: u64,
    pkt: Packet,
    sack: Vec<(u64, u64)>,
}

/// How a script stops early.
enum Stop {
    Fail(Failure),
    Unsupported(String),
}

type Step = Result<(), Stop>;

pub struct Runner<'a> {
    script: &'a Script,
    tolerance_us: i64,
    tolerance_percent: f64,
    applied: Applied,
    syn: SynOpts,
    w: Option<World>,
    local: SockId,
    remote: SockId,
    fds: BTreeMap<i64, Fd>,
    captured: VecDeque<Captured>,
    /// The script's TS val of each matched outbound packet → the engine's send time, ms.
    ts_map: BTreeMap<u32, u64>,
    /// The previous event: inbound packet?, its script time (µs).
    last: Option<(bool, i64)>,
    /// Now, µs since the start of the script.
    now_us: i64,
    lines: Vec<LineRun>,
    /// The first failed `assert` of a `%{ }%` block (reported at the end, as packetdrill does).
    assert_failure: Option<Failure>,
    /// Integer constants a `%{ NAME = VALUE }%` block defined, for later assertions.
    py_consts: BTreeMap<String, i64>,
    /// epoll instances by their fd.
    epolls: BTreeMap<i64, Epoll>,
    /// A blocking call that has not returned yet (the script goes on meanwhile).
    pending: Option<Pending>,
    /// A blocking call that returned at the wrong time or with the wrong result.
    pending_failure: Option<Failure>,
}

/// An epoll instance watching the socket (`epoll_ctl(EPOLL_CTL_ADD)`): the events it asks for
/// and whether the socket is on its ready list.
#[derive(Clone, Debug)]
struct Epoll {
    interest: Vec<String>,
    edge: bool,
    ready: bool,
}

/// A blocking system call in progress: `write` waiting for send-buffer space, or `poll`
/// waiting for its events; it returns when the socket's wake-up (`sk_stream_write_space`)
/// finds what it waits for, or at its timeout.
#[derive(Clone, Debug)]
struct Pending {
    line: u32,
    last_line: u32,
    name: String,
    start_us: i64,
    /// When the script says it returns (µs).
    end_us: i64,
    expected: Option<i64>,
    kind: PendingKind,
}

#[derive(Clone, Debug)]
enum PendingKind {
    Write {
        left: u64,
        copied: u64,
        msg_more: bool,
    },
    Read {
        size: u64,
    },
    Poll {
        events: Vec<String>,
        revents: Option<Vec<String>>,
        timeout_us: Option<i64>,
    },
}

impl<'a> Runner<'a> {
    pub fn new(script: &'a Script) -> Runner<'a> {
        Runner {
            script,
            tolerance_us: TOLERANCE_USECS,
            tolerance_percent: TOLERANCE_PERCENT,
            applied: Applied::default(),
            syn: SynOpts::default(),
            w: None,
            local: 0,
            remote: 1,
            fds: BTreeMap::new(),
            captured: VecDeque::new(),
            ts_map: BTreeMap::new(),
            last: None,
            now_us: 0,
            lines: Vec::new(),
            assert_failure: None,
            py_consts: BTreeMap::new(),
            epolls: BTreeMap::new(),
            pending: None,
            pending_failure: None,
        }
    }

    /// Run every event; the report says how the script ended.
    pub fn run(mut self, name: &str) -> Report {
        let outcome = match self.run_events() {
            Ok(()) => match self.assert_failure.take() {
                Some(f) => Outcome::Fail(f),
                None => Outcome::Pass,
            },
            Err((line, Stop::Fail(f))) => {
                let _ = line;
                Outcome::Fail(f)
            }
            Err((line, Stop::Unsupported(what))) => Outcome::Unsupported { line, what },
        };
        Report {
            name: name.to_string(),
            outcome,
            lines: self.lines,
            notes: self.applied.notes,
        }
    }

    fn run_events(&mut self) -> Result<(), (u32, Stop)> {
        for (line, name, value) in &self.script.options {
            let bad = |m: String| (*line, Stop::Unsupported(m));
            match name.as_str() {
                "tolerance_usecs" => {
                    self.tolerance_us = value
                        .parse()
                        .map_err(|_| bad(format!("--tolerance_usecs={value}")))?
                }
                "tolerance_percent" => {
                    self.tolerance_percent = value
                        .parse()
                        .map_err(|_| bad(format!("--tolerance_percent={value}")))?
                }
                "ip_version" if value == "ipv4" => {}
                _ => return Err(bad(format!("the option --{name}={value}"))),
            }
        }
        self.syn = first_syn(self.script);
        if let Some((line, c)) = &self.script.init {
            sysctl::command(c, &mut self.applied).map_err(|m| (*line, Stop::Unsupported(m)))?;
            self.lines.push(LineRun {
                line: *line,
                last_line: *line + c.matches('\n').count() as u32,
                t_us: 0,
                kind: "command".into(),
                detail: String::new(),
            });
        }
        let events = self.script.events.clone();
        if let Some(e) = events.first() {
            if e.time.kind != TimeKind::Absolute || e.time.usecs != 0 {
                return Err((
                    e.line,
                    Stop::Fail(Failure {
                        line: e.line,
                        message: "first event should be at time 0".into(),
                        expected: None,
                        actual: None,
                    }),
                ));
            }
        }
        for e in &events {
            let r = self.event(e);
            // A blocked call that returned wrongly during this event failed first.
            if let Some(f) = self.pending_failure.take() {
                return Err((f.line, Stop::Fail(f)));
            }
            r.map_err(|s| (e.line, s))?;
        }
        if let Some(p) = self.pending.take() {
            // The script ends while the call blocks: packetdrill waits for it and checks its
            // time; here it never returns.
            let f = Failure {
                line: p.line,
                message: format!(
                    "{}: expected to return at {:.6} sec, but it was still blocked when the script ended",
                    p.name,
                    p.end_us as f64 / 1e6
                ),
                expected: p.expected.map(|e| e.to_string()),
                actual: Some("blocked".into()),
            };
            return Err((p.line, Stop::Fail(f)));
        }
        if let Some((line, c)) = &self.script.cleanup {
            sysctl::command(c, &mut self.applied).map_err(|m| (*line, Stop::Unsupported(m)))?;
        }
        Ok(())
    }

    /// One event: its time, then its action.
    fn event(&mut self, e: &Event) -> Step {
        let inbound = matches!(&e.action, Action::Packet(p) if p.dir == Direction::Inbound);
        let (start, end) = match e.time.kind {
            TimeKind::Absolute => (e.time.usecs, e.time.end_usecs),
            TimeKind::Relative => {
                let offset = match self.last {
                    Some((true, t)) if inbound => t,
                    _ => self.now_us,
                };
                (offset + e.time.usecs, e.time.end_usecs.map(|x| offset + x))
            }
            TimeKind::Any => (self.now_us, None),
        };
        let last_us = self.last.map(|(_, t)| t);
        let fail = |message: String| {
            Stop::Fail(Failure {
                line: e.line,
                message,
                expected: None,
                actual: None,
            })
        };
        match &e.action {
            Action::Unsupported(what) => return Err(Stop::Unsupported(what.clone())),
            Action::Command(c) => {
                if self.w.is_some() {
                    // Only a new root pfifo can change while the run goes on (the upstream
                    // scripts' "emulate qdisc congestion"); other settings hold from the start.
                    let Some(limit) = sysctl::pfifo_replace(c) else {
                        return Err(Stop::Unsupported(
                            "a shell command after the socket exists (settings apply to a run from its start)"
                                .into(),
                        ));
                    };
                    self.advance_to(start, false)?;
                    self.now_us = start;
                    let q = crate::net::sched::sch_api::Qdisc::Pfifo(
                        crate::net::sched::sch_fifo::Pfifo::new(limit),
                    );
                    self.w().tc_qdisc_replace(0, q);
                    self.log(e, start, "command", "");
                    return Ok(());
                }
                sysctl::command(c, &mut self.applied).map_err(Stop::Unsupported)?;
                self.log(e, start, "command", "");
            }
            Action::Code(code) => {
                self.advance_to(start, false)?;
                self.now_us = start;
                self.log(e, start, "code", "");
                self.code(e.line, code)?;
            }
            Action::Syscall(call) if call.end_usecs.is_some() => {
                self.advance_to(start, false)?;
                self.now_us = start;
                let end_us = match e.time.kind {
                    TimeKind::Relative => start - e.time.usecs + call.end_usecs.unwrap_or(0),
                    _ => call.end_usecs.unwrap_or(start),
                };
                self.log(e, start, "syscall", "");
                self.begin_blocking(e, call, start, end_us)?;
            }
            Action::Syscall(call) => {
                self.advance_to(start, false)?;
                self.now_us = start;
                let detail = self.syscall(call).map_err(|s| match s {
                    Stop::Fail(mut f) => {
                        f.line = e.line;
                        Stop::Fail(f)
                    }
                    s => s,
                })?;
                self.log(e, start, "syscall", &detail);
            }
            Action::Packet(p) if p.dir == Direction::Inbound => {
                self.ensure_world()?;
                // wait_for_event: an event whose time has passed runs at once, and
                // check_event_time fails it if that is later than the tolerance allows.
                let at = start.max(self.now_us);
                let tol = self.tolerance(start, last_us);
                if at - start > tol {
                    return Err(fail(format!(
                        "timing error: expected inbound packet at {:.6} sec but happened at {:.6} sec; tolerance {:.6} sec",
                        start as f64 / 1e6,
                        at as f64 / 1e6,
                        tol as f64 / 1e6
                    )));
                }
                self.advance_to(at, false)?;
                self.now_us = at;
                let arrive_ns = self.inject(p)?;
                self.advance_to_ns(arrive_ns, true);
                self.log(e, at, "inbound", "");
            }
            Action::Packet(p) => {
                self.ensure_world()?;
                let tol = self.tolerance(start, last_us);
                let deadline = end.unwrap_or(start) + tol;
                let got = self.outbound(p, deadline)?;
                let Some((t_us, actual)) = got else {
                    // Not packetdrill's, but what a reader wants next: the engine's next packet.
                    let next = match self.outbound(p, deadline + 10_000_000)? {
                        Some((t, a)) => format!(
                            "\nthe engine's next packet: {:.6} {}",
                            t as f64 / 1e6,
                            a.text
                        ),
                        None => "\nthe engine sends nothing in the 10 s after".to_string(),
                    };
                    return Err(fail(format!(
                        "timed out waiting for the outbound packet expected at {:.6} sec (tolerance {:.6} sec)\nscript packet: {:.6} {}{next}",
                        start as f64 / 1e6,
                        tol as f64 / 1e6,
                        start as f64 / 1e6,
                        show_script(p)
                    )));
                };
                let shown = format!(
                    "\nscript packet: {:.6} {}\nactual packet: {:.6} {}",
                    start as f64 / 1e6,
                    show_script(p),
                    t_us as f64 / 1e6,
                    actual.text
                );
                let field = |m: String| {
                    Stop::Fail(Failure {
                        line: e.line,
                        message: format!("error handling packet: {m}{shown}"),
                        expected: Some(show_script(p)),
                        actual: Some(actual.text.clone()),
                    })
                };
                if let Some(m) = compare(p, &actual) {
                    return Err(field(m));
                }
                if e.time.kind != TimeKind::Any {
                    if let Some(m) = verify_time(start, end, t_us, tol, e.time.kind) {
                        return Err(field(m));
                    }
                }
                if let (Some(opts), Some(sent_ms)) = (&p.options, actual.sent_ms) {
                    for o in opts {
                        if let TcpOpt::Timestamp { val, .. } = o {
                            self.ts_map.insert(*val, sent_ms);
                        }
                    }
                }
                self.now_us = t_us.max(self.now_us);
                self.log(e, t_us, "outbound", &actual.text);
                self.last = Some((false, start));
                return Ok(());
            }
        }
        self.last = Some((inbound, start));
        Ok(())
    }

    fn log(&mut self, e: &Event, t_us: i64, kind: &str, detail: &str) {
        self.lines.push(LineRun {
            line: e.line,
            last_line: e.last_line,
            t_us,
            kind: kind.to_string(),
            detail: detail.to_string(),
        });
    }

    fn tolerance(&self, script_us: i64, last_us: Option<i64>) -> i64 {
        let mut tol = self.tolerance_us;
        if let Some(last) = last_us {
            let dynamic = (self.tolerance_percent / 100.0 * (script_us - last) as f64) as i64;
            tol = tol.max(dynamic);
        }
        tol
    }

    fn w(&mut self) -> &mut World {
        self.w.as_mut().expect("the world exists")
    }

    /// Build the engine's world from the settings so far (the first event that needs it).
    fn ensure_world(&mut self) -> Step {
        if self.w.is_some() {
            return Ok(());
        }
        let mut sets = self.applied.sets.clone();
        let ts_sysctl = !sets
            .iter()
            .any(|s| s.starts_with("net.ipv4.tcp_timestamps=") && s.ends_with("=0"));
        // The socket uses timestamps when both ends offer them (tcp_parse_options).
        if !(self.syn.ts && ts_sysctl) {
            sets.push("net.ipv4.tcp_timestamps=0".into());
        }
        let sc = Scenario::parse(BASE_SCENARIO, "packetdrill.toml")
            .map_err(|e| Stop::Unsupported(format!("the engine's base scenario: {e}")))?;
        let cfg = sc
            .config(None, &sets)
            .map_err(|e| Stop::Unsupported(format!("a setting the engine refuses: {e}")))?;
        let mut w = World::without_apps(cfg, Trace::new(false, 0));
        w.end_ns = u64::MAX / 4;
        w.links[0].delay_ns = CAPTURE_DELAY_NS;
        // The socket under test sends on packetdrill's tun device, which orphans each skb as
        // it takes it: TCP Small Queues and autocorking find nothing below TCP.
        w.hosts[0].dev.cfg.tun = true;
        // The socket under test (host 0) and the one that stands for the script (host 1).
        let local = app::new_sock(&mut w, 0, 1);
        let remote = app::new_sock(&mut w, 1, 0);
        w.socks[local as usize].peer = remote;
        w.socks[remote as usize].peer = local;
        w.apps.push(App::driven(Role::StreamSender, 0, local));
        w.apps.push(App::driven(Role::StreamReceiver, 1, remote));
        w.socks[local as usize].app = 0;
        w.socks[remote as usize].app = 1;
        self.local = local;
        self.remote = remote;
        self.w = Some(w);
        Ok(())
    }

    /// Run the engine's events due before `t_us` (and at `t_us` too with `inclusive`),
    /// taking every frame host 0 sends off the wire.
    fn advance_to(&mut self, t_us: i64, inclusive: bool) -> Step {
        self.advance_to_ns((t_us.max(0) as u64) * 1000, inclusive);
        Ok(())
    }

    fn advance_to_ns(&mut self, t_ns: u64, inclusive: bool) {
        if self.w.is_none() {
            return;
        }
        loop {
            let w = self.w.as_mut().expect("world");
            let Some(next) = w.next_event_ns() else {
                break;
            };
            if next > t_ns || (next == t_ns && !inclusive) {
                break;
            }
            self.time_out_pending(next);
            self.step_world();
        }
        self.time_out_pending(t_ns);
        let w = self.w.as_mut().expect("world");
        if w.now_ns < t_ns {
            w.now_ns = t_ns;
        }
    }

    /// Run the engine's next event, take host 0's frames off its wire, and see whether the
    /// socket's wake-up lets a blocked call return or puts it on an epoll ready list.
    fn step_world(&mut self) {
        let w = self.w.as_mut().expect("world");
        w.step();
        Self::capture(w, &mut self.captured);
        self.after_wakeup();
    }

    fn capture(w: &mut World, into: &mut VecDeque<Captured>) {
        while let Some((arrive, pkt)) = w.links[0].in_flight.pop_front() {
            let sack = w
                .tcp_sack_opts
                .remove(&pkt.id)
                .map(|b| b.to_vec())
                .unwrap_or_default();
            into.push_back(Captured {
                t_ns: arrive - CAPTURE_DELAY_NS,
                pkt,
                sack,
            });
        }
    }

    /// The next outbound frames, joined up to the script's payload length; `None` when none
    /// leaves by `deadline_us`.
    fn outbound(
        &mut self,
        p: &PacketSpec,
        deadline_us: i64,
    ) -> Result<Option<(i64, Actual)>, Stop> {
        let want = p.len as u64;
        let mut got: Vec<Captured> = Vec::new();
        let mut bytes = 0u64;
        loop {
            // Frames a system call sent on the tun device are on the wire already.
            Self::capture(self.w.as_mut().expect("world"), &mut self.captured);
            if let Some(c) = self.captured.pop_front() {
                let n = c.pkt.payload_len() as u64;
                let contiguous = got.last().is_none_or(|l| {
                    l.pkt.end_seq == c.pkt.seq && l.pkt.flags & tcp_flags::SYN == 0
                });
                if !contiguous {
                    self.captured.push_front(c);
                    break;
                }
                bytes += n;
                got.push(c);
                if bytes >= want || n == 0 {
                    break;
                }
                continue;
            }
            let w = self.w.as_mut().expect("world");
            let deadline_ns = (deadline_us.max(0) as u64) * 1000;
            match w.next_event_ns() {
                Some(t) if t <= deadline_ns => {
                    self.time_out_pending(t);
                    self.step_world();
                }
                _ => break,
            }
        }
        if got.is_empty() {
            return Ok(None);
        }
        let t_us = (got[0].t_ns / 1000) as i64;
        Ok(Some((t_us, self.actual(&got))))
    }

    /// What packetdrill would have seen: the frames' headers in script terms.
    fn actual(&self, frames: &[Captured]) -> Actual {
        let w = self.w.as_ref().expect("world");
        let tp = &w.socks[self.local as usize];
        let first = &frames[0].pkt;
        let last = &frames[frames.len() - 1];
        let mut flags = frames.iter().fold(0, |f, c| f | c.pkt.flags);
        if frames.len() > 1 {
            // aggregate_packets: the headers of the last frame, the sequence of the first.
            flags = last.pkt.flags;
        }
        let syn = flags & tcp_flags::SYN != 0;
        let payload: u64 = frames.iter().map(|c| c.pkt.payload_len() as u64).sum();
        let win = if syn {
            first.window.min(65_535)
        } else {
            (last.pkt.window >> tp.rcv_wscale).min(65_535)
        };
        let ts = tp.tcp_header_len > TCP_HLEN;
        let sent_ms = first.sent_ns / 1_000_000;
        let mut options = Vec::new();
        if syn {
            // tcp_synack_options → tcp_options_write: MSS, then SACK-permitted and timestamps
            // (packed together), then the window scale.
            options.push(TcpOpt::Mss(tp.advmss));
            match (ts, self.syn.sack_ok) {
                (true, true) => {
                    options.push(TcpOpt::SackOk);
                    options.push(TcpOpt::Timestamp {
                        val: sent_ms as u32,
                        ecr: tp.ts_recent_ms as u32,
                    });
                }
                (true, false) => {
                    options.extend([TcpOpt::Nop, TcpOpt::Nop]);
                    options.push(TcpOpt::Timestamp {
                        val: sent_ms as u32,
                        ecr: tp.ts_recent_ms as u32,
                    });
                }
                (false, true) => options.extend([TcpOpt::Nop, TcpOpt::Nop, TcpOpt::SackOk]),
                (false, false) => {}
            }
            if self.syn.wscale.is_some() {
                options.extend([TcpOpt::Nop, TcpOpt::Wscale(tp.rcv_wscale)]);
            }
        } else {
            if ts {
                options.extend([TcpOpt::Nop, TcpOpt::Nop]);
                options.push(TcpOpt::Timestamp {
                    val: sent_ms as u32,
                    ecr: last.pkt.tsecr_ms as u32,
                });
            }
            if !last.sack.is_empty() {
                options.extend([TcpOpt::Nop, TcpOpt::Nop]);
                options.push(TcpOpt::Sack(
                    last.sack
                        .iter()
                        .map(|&(s, e)| (s as u32, e as u32))
                        .collect(),
                ));
            }
        }
        let ack = if flags & tcp_flags::ACK != 0 {
            last.pkt.ack_seq as u32
        } else {
            0
        };
        let a = Actual {
            flags,
            seq: first.seq as u32,
            len: payload as u32,
            ack,
            win,
            options,
            sent_ms: ts.then_some(sent_ms),
            text: String::new(),
        };
        Actual {
            text: show_actual(&a),
            ..a
        }
    }

    /// Put an inbound packet on host 1's wire, arriving now; returns when (ns).
    fn inject(&mut self, p: &PacketSpec) -> Result<u64, Stop> {
        let syn = p.flags & tcp_flags::SYN != 0;
        if p.flags & tcp_flags::RST != 0 {
            return Err(Stop::Unsupported(
                "an inbound RST: the model has no reset processing".into(),
            ));
        }
        let state = self.w.as_ref().map(|w| w.socks[self.local as usize].state);
        let closing = matches!(
            state,
            Some(TcpState::FinWait1 | TcpState::FinWait2 | TcpState::Closing)
        );
        if state == Some(TcpState::TimeWait) {
            return Err(Stop::Unsupported(
                "a segment to the time-wait socket (the model stops the socket at TIME_WAIT)"
                    .into(),
            ));
        }
        if p.flags & tcp_flags::FIN != 0 && !closing {
            return Err(Stop::Unsupported(
                "an inbound FIN before close(): the model has no passive close (CLOSE_WAIT)".into(),
            ));
        }
        if closing && p.len > 0 {
            return Err(Stop::Unsupported(
                "inbound data after close(): Linux resets the connection, the model has no RST"
                    .into(),
            ));
        }
        if closing
            && p.flags & tcp_flags::FIN != 0
            && self
                .w
                .as_ref()
                .map(|w| w.socks[self.local as usize].rcv_nxt)
                != Some(p.seq as u64)
        {
            return Err(Stop::Unsupported(
                "a FIN out of order: the model processes a FIN at rcv_nxt only".into(),
            ));
        }
        if syn && p.flags & tcp_flags::ACK != 0 {
            return Err(Stop::Unsupported(
                "an inbound SYN-ACK: the runner drives the passive side only".into(),
            ));
        }
        let opts = p.options.clone().unwrap_or_default();
        let mut opt_len = 0u32;
        let mut sack_blocks = Vec::new();
        let mut ecr = None;
        for o in &opts {
            opt_len += match o {
                TcpOpt::Nop | TcpOpt::Eol => 1,
                TcpOpt::Mss(_) => 4,
                TcpOpt::SackOk => 2,
                TcpOpt::Wscale(_) => 3,
                TcpOpt::Timestamp { ecr: e, .. } => {
                    ecr = Some(*e);
                    10
                }
                TcpOpt::Sack(b) => {
                    sack_blocks.extend(b.iter().map(|&(s, e)| (s as u64, e as u64)));
                    2 + 8 * b.len() as u32
                }
            };
        }
        let local = self.local;
        let remote = self.remote;
        // Not before the engine's clock: looking for an outbound packet may have run the
        // events of the same microsecond.
        let now_ns = ((self.now_us.max(0) as u64) * 1000).max(self.w().now_ns);
        let tsecr_ms = ecr.and_then(|e| self.ts_map.get(&e).copied()).unwrap_or(0);
        let syn_opts = self.syn;
        let w = self.w();
        if syn {
            let tp = &mut w.socks[local as usize];
            if tp.state != TcpState::SynRecv {
                return Err(Stop::Unsupported(
                    "a SYN to a socket that is not listening".into(),
                ));
            }
            // tcp_openreq_init / tcp_sync_mss: the peer's MSS clamps ours; the timestamp
            // option takes its 12 bytes from every segment.
            if let Some(mss) = syn_opts.mss {
                tp.mss_clamp = tp.advmss.min(mss);
            }
            tp.mss_cache = tp.mss_clamp - (tp.tcp_header_len - TCP_HLEN);
            tp.icsk_ack.rcv_mss = tp
                .advmss
                .min(tp.mss_cache)
                .min((tp.rcv_wnd / 2) as u32)
                .clamp(88, 536);
            tp.rx_opt_sack_ok = syn_opts.sack_ok;
            // Window scaling only when both ends offer it (RFC 7323 2.2).
            match syn_opts.wscale {
                Some(s) => tp.snd_wscale = s.min(14),
                None => {
                    tp.snd_wscale = 0;
                    tp.rcv_wscale = 0;
                }
            }
        }
        let tp = &w.socks[local as usize];
        let wscale = if syn { 0 } else { tp.snd_wscale };
        let payload = p.len;
        let hdr = ETH_HLEN + IPV4_HLEN + TCP_HLEN + opt_len.next_multiple_of(4);
        let seq = p.seq as u64;
        let fin = p.flags & tcp_flags::FIN != 0;
        let end_seq = seq + payload as u64 + u64::from(syn) + u64::from(fin);
        let id = w.next_pkt_id();
        let pkt = Packet {
            id,
            orig_skb: 0,
            sk: remote,
            src_host: 1,
            dst_host: 0,
            hash: remote.wrapping_mul(2_654_435_761),
            priority: 0,
            len: hdr + payload,
            hdr_len: hdr,
            truesize: payload + 768,
            gso_segs: 1,
            gso_size: 0,
            tstamp_ns: 0,
            sk_pacing_rate_bps: u64::MAX,
            pure_ack: payload == 0 && !syn && !fin,
            seq,
            end_seq,
            ack_seq: p.ack.unwrap_or(0) as u64,
            window: p.win.unwrap_or(0) << wscale,
            flags: p.flags,
            tsecr_ms,
            sent_ns: now_ns,
        };
        if !sack_blocks.is_empty() {
            w.tcp_sack_opts.insert(id, sack_blocks.into_boxed_slice());
        }
        w.links[1].in_flight.push_back((now_ns, pkt));
        w.schedule(now_ns, crate::net::host::Event::Arrive(1));
        Ok(now_ns)
    }

    /// A `%{ }%` block: `assert tcpi_NAME OP VALUE` lines, `NAME = INTEGER` constants for them
    /// (`TCP_INFINITE_SSTHRESH = 0x7fffffff`), and `print`s (ignored).
    fn code(&mut self, line: u32, code: &str) -> Step {
        for (k, raw) in code.lines().enumerate() {
            let l = raw.trim();
            if l.is_empty() || l.starts_with('#') || l.starts_with("print") {
                continue;
            }
            let Some(rest) = l.strip_prefix("assert ") else {
                let constant = l.split_once('=').and_then(|(n, v)| {
                    let n = n.trim();
                    let ident = !n.is_empty()
                        && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        && !n.starts_with(|c: char| c.is_ascii_digit());
                    Some((n, py_int(v.trim())?)).filter(|_| ident)
                });
                let Some((name, value)) = constant else {
                    return Err(Stop::Unsupported(format!("the Python statement `{l}`")));
                };
                self.py_consts.insert(name.to_string(), value);
                continue;
            };
            let cond = rest.split(',').next().unwrap_or("").trim();
            let parts: Vec<&str> = cond.split_whitespace().collect();
            let [name, op, value] = parts[..] else {
                return Err(Stop::Unsupported(format!("the Python assertion `{l}`")));
            };
            let Some(actual) = self.tcp_info(name) else {
                return Err(Stop::Unsupported(format!(
                    "{name} in a Python assertion (the runner reads tcpi_snd_cwnd, tcpi_snd_ssthresh, tcpi_ca_state, tcpi_unacked, tcpi_sacked, tcpi_lost, tcpi_retrans, tcpi_snd_mss, tcpi_reordering, tcpi_reord_seen)"
                )));
            };
            let expected = match value {
                "TCP_CA_Open" => 0,
                "TCP_CA_Disorder" => 1,
                "TCP_CA_CWR" => 2,
                "TCP_CA_Recovery" => 3,
                "TCP_CA_Loss" => 4,
                v => py_int(v)
                    .or_else(|| self.py_consts.get(v).copied())
                    .ok_or_else(|| Stop::Unsupported(format!("the Python assertion `{l}`")))?,
            };
            let ok = match op {
                "==" => actual == expected,
                "!=" => actual != expected,
                "<" => actual < expected,
                "<=" => actual <= expected,
                ">" => actual > expected,
                ">=" => actual >= expected,
                _ => return Err(Stop::Unsupported(format!("the Python assertion `{l}`"))),
            };
            if !ok && self.assert_failure.is_none() {
                self.assert_failure = Some(Failure {
                    line: line + k as u32,
                    message: format!("AssertionError: {cond} (actual {name} = {actual})"),
                    expected: Some(cond.to_string()),
                    actual: Some(format!("{name} = {actual}")),
                });
            }
        }
        Ok(())
    }

    /// A field of the socket's `tcp_info` (`tcp_get_info`).
    fn tcp_info(&mut self, name: &str) -> Option<i64> {
        let local = self.local;
        let w = self.w.as_ref()?;
        let tp = &w.socks[local as usize];
        Some(match name {
            "tcpi_snd_cwnd" => tp.snd_cwnd as i64,
            "tcpi_snd_ssthresh" => tp.snd_ssthresh as i64,
            "tcpi_ca_state" => tp.icsk_ca_state as i64,
            "tcpi_unacked" => tp.packets_out as i64,
            "tcpi_sacked" => tp.sacked_out as i64,
            "tcpi_lost" => tp.lost_out as i64,
            "tcpi_retrans" => tp.retrans_out as i64,
            "tcpi_snd_mss" => tp.mss_cache as i64,
            "tcpi_reordering" => tp.lr.reordering as i64,
            "tcpi_reord_seen" => tp.lr.reord_seen as i64,
            _ => return None,
        })
    }

    /// A system call; its return value is compared with the script's. Returns what it did.
    fn syscall(&mut self, c: &Syscall) -> Result<String, Stop> {
        let unsupported = |m: String| Err(Stop::Unsupported(m));
        let expected = match (&c.result, c.errno.as_deref()) {
            (Expr::Int(n), _) => Some(*n),
            (Expr::Ellipsis, _) => None,
            _ => return unsupported(format!("the result of {}()", c.name)),
        };
        let fd_arg = |k: usize| c.args.get(k).and_then(Expr::int);
        let got: (i64, Option<&str>) = match c.name.as_str() {
            "socket" => {
                let kinds: Vec<String> = c.args.iter().map(|a| format!("{a:?}")).collect();
                if !kinds.iter().any(|k| k.contains("SOCK_STREAM")) {
                    return unsupported("a socket that is not SOCK_STREAM".into());
                }
                self.ensure_world()?;
                let fd = expected.unwrap_or(3);
                self.fds.insert(
                    fd,
                    Fd {
                        listener: true,
                        nonblock: false,
                    },
                );
                (fd, None)
            }
            "bind" => (0, None),
            "listen" => {
                let local = self.local;
                self.w().socks[local as usize].state = TcpState::SynRecv;
                (0, None)
            }
            "accept" => {
                let local = self.local;
                if self.w().socks[local as usize].state != TcpState::Established {
                    return unsupported(
                        "accept() before the handshake ends (it would block)".into(),
                    );
                }
                let fd = expected.unwrap_or(4);
                self.fds.insert(
                    fd,
                    Fd {
                        listener: false,
                        nonblock: false,
                    },
                );
                (fd, None)
            }
            "connect" => {
                return unsupported(
                    "connect(): the runner drives the passive side only (the model's SYN carries no options)"
                        .into(),
                )
            }
            "close" => {
                let fd = fd_arg(0).unwrap_or(-1);
                match self.fds.get(&fd).copied() {
                    Some(f) if !f.listener => {
                        let local = self.local;
                        tcp::tcp_close(self.w(), local)
                            .map_err(|m| Stop::Unsupported(m.to_string()))?;
                        self.fds.remove(&fd);
                        (0, None)
                    }
                    _ => {
                        return unsupported(format!(
                            "close() of fd {fd} (the runner closes the connected socket)"
                        ))
                    }
                }
            }
            "shutdown" => {
                return unsupported(
                    "shutdown(): the model closes with close() only (tcp_shutdown)".into(),
                )
            }
            "setsockopt" => self.setsockopt(c)?,
            "getsockopt" => self.getsockopt(c)?,
            "fcntl" => {
                let fd = fd_arg(0).unwrap_or(-1);
                let cmd = c.args.get(1);
                let flags = format!("{:?}", c.args.get(2));
                match cmd {
                    Some(Expr::Word(w)) if w == "F_SETFL" => {
                        if let Some(f) = self.fds.get_mut(&fd) {
                            f.nonblock = flags.contains("O_NONBLOCK");
                        }
                        (0, None)
                    }
                    _ => return unsupported(format!("fcntl {cmd:?}")),
                }
            }
            "write" | "send" | "sendto" | "sendmsg" => self.send(c)?,
            "read" | "recv" | "recvfrom" => self.recv(c)?,
            "epoll_create" | "epoll_create1" => {
                let fd = expected.unwrap_or(5);
                self.epolls.insert(
                    fd,
                    Epoll {
                        interest: Vec::new(),
                        edge: false,
                        ready: false,
                    },
                );
                (fd, None)
            }
            "epoll_ctl" => self.epoll_ctl(c)?,
            "epoll_wait" => self.epoll_wait(c)?,
            "poll" => {
                let (events, revents, timeout_us) = poll_args(c)?;
                if timeout_us != Some(0) {
                    // Without `...`: it must return at once (or it would block).
                    let ready = self.poll_mask(&events);
                    if ready.is_empty() {
                        return Err(Stop::Fail(Failure {
                            line: 0,
                            message: "poll: expected to return at once, but nothing it waits for is ready (it would block)".into(),
                            expected: expected.map(|e| e.to_string()),
                            actual: Some("blocked".into()),
                        }));
                    }
                }
                let ready = self.poll_mask(&events);
                check_revents("poll", &revents, &ready)?;
                (i64::from(!ready.is_empty()), None)
            }
            other => return unsupported(format!("the system call {other}()")),
        };
        let (ret, errno) = got;
        if let Some(exp) = expected {
            if exp != ret || (exp < 0 && c.errno.as_deref() != errno) {
                return Err(Stop::Fail(Failure {
                    line: 0,
                    message: format!(
                        "{}: expected result {exp}{} but got {ret}{}",
                        c.name,
                        c.errno
                            .as_deref()
                            .map(|e| format!(" {e}"))
                            .unwrap_or_default(),
                        errno.map(|e| format!(" {e}")).unwrap_or_default()
                    ),
                    expected: Some(format!("{exp}")),
                    actual: Some(format!("{ret}")),
                }));
            }
        }
        Ok(format!(
            "= {ret}{}",
            errno.map(|e| format!(" {e}")).unwrap_or_default()
        ))
    }

    /// `tcp_poll`'s events among `events` (`EPOLLOUT`/`POLLOUT`, `EPOLLIN`/`POLLIN`): writeable
    /// when `__sk_stream_is_writeable(sk, 1)` (and, when not, `SOCK_NOSPACE` is set so the next
    /// freed space wakes the socket); readable when data waits to be read.
    fn poll_mask(&mut self, events: &[String]) -> Vec<String> {
        let local = self.local;
        let tp = &mut self.w().socks[local as usize];
        let writeable = tp.sk_stream_is_writeable(1);
        if !writeable {
            tp.sock_nospace = true;
        }
        let readable = tp.rcv_nxt > tp.copied_seq;
        events
            .iter()
            .filter(|e| match e.as_str() {
                "EPOLLOUT" | "POLLOUT" => writeable,
                "EPOLLIN" | "POLLIN" => readable,
                _ => false,
            })
            .cloned()
            .collect()
    }

    /// Whether anything waits for the socket's wake-up (an epoll watching it, a blocked call):
    /// the engine wakes a waiting writer in `sk_stream_write_space` and a waiting reader in
    /// `sk_data_ready`.
    fn arm_wakeup(&mut self) {
        let waits = !self.epolls.is_empty() || self.pending.is_some();
        let local = self.local;
        if let Some(w) = self.w.as_mut() {
            if waits {
                let tp = &mut w.socks[local as usize];
                tp.writer_waiting = true;
                tp.reader_waiting = true;
            }
        }
    }

    /// After an engine event: if the socket's wake-up ran (`sk_stream_write_space` found it
    /// writeable and woke the waiters), every epoll watching it gets it on its ready list
    /// (`ep_poll_callback`), and a blocked call tries again.
    fn after_wakeup(&mut self) {
        let local = self.local;
        let Some(w) = self.w.as_ref() else {
            return;
        };
        let waits = !self.epolls.is_empty() || self.pending.is_some();
        let tp = &w.socks[local as usize];
        let woke = !tp.writer_waiting || !tp.reader_waiting;
        if !waits || !woke {
            return;
        }
        for ep in self.epolls.values_mut() {
            ep.ready = true;
        }
        let now_us = (w.now_ns / 1000) as i64;
        if let Some(mut p) = self.pending.take() {
            let done = self.try_pending(&mut p.kind, true);
            match done {
                Some(ret) => self.finish_pending(p, now_us, ret),
                None => self.pending = Some(p),
            }
        }
        self.arm_wakeup();
    }

    /// One try of a blocking call (`resumed`: after a wake-up): `Some(result)` when it returns.
    fn try_pending(&mut self, kind: &mut PendingKind, resumed: bool) -> Option<i64> {
        let local = self.local;
        match kind {
            PendingKind::Write {
                left,
                copied,
                msg_more,
            } => {
                let flags = if *msg_more { socket::MSG_MORE } else { 0 };
                match tcp::tcp_sendmsg_locked(self.w(), local, *left, flags, resumed) {
                    SendOutcome::Done => {
                        *copied += *left;
                        *left = 0;
                        Some(*copied as i64)
                    }
                    SendOutcome::Blocked { copied: c } => {
                        *copied += c;
                        *left -= c;
                        None
                    }
                }
            }
            PendingKind::Poll { events, .. } => {
                let events = events.clone();
                (!self.poll_mask(&events).is_empty()).then_some(1)
            }
            PendingKind::Read { size } => self.read_now(*size).map(|n| n as i64),
        }
    }

    /// A blocked `poll` whose timeout comes before `t_ns` returns 0 then.
    fn time_out_pending(&mut self, t_ns: u64) {
        let Some(p) = &self.pending else {
            return;
        };
        if let PendingKind::Poll {
            timeout_us: Some(to),
            ..
        } = p.kind
        {
            let at = p.start_us + to;
            if at >= 0 && (at as u64) * 1000 <= t_ns {
                let p = self.pending.take().unwrap();
                self.finish_pending(p, at, 0);
            }
        }
    }

    /// A blocked call returns `ret` at `now_us`: its time and result against the script's.
    fn finish_pending(&mut self, p: Pending, now_us: i64, ret: i64) {
        self.lines.push(LineRun {
            line: p.line,
            last_line: p.last_line,
            t_us: now_us,
            kind: "return".into(),
            detail: format!("{}() = {ret}", p.name),
        });
        if self.pending_failure.is_some() {
            return;
        }
        let tol = self.tolerance(p.end_us, Some(p.start_us));
        let mut problem = None;
        if let Some(exp) = p.expected {
            if exp != ret {
                problem = Some(format!("{}: expected result {exp} but got {ret}", p.name));
            }
        }
        if problem.is_none() && (now_us - p.end_us).abs() > tol {
            problem = Some(format!(
                "timing error: expected {}() to return at {:.6} sec but it returned at {:.6} sec; tolerance {:.6} sec",
                p.name,
                p.end_us as f64 / 1e6,
                now_us as f64 / 1e6,
                tol as f64 / 1e6
            ));
        }
        if let (
            None,
            PendingKind::Poll {
                revents, events, ..
            },
        ) = (&problem, &p.kind)
        {
            if ret > 0 {
                let events = events.clone();
                let ready = self.poll_mask(&events);
                if let Err(Stop::Fail(f)) = check_revents(&p.name, revents, &ready) {
                    problem = Some(f.message);
                }
            }
        }
        if let Some(message) = problem {
            self.pending_failure = Some(Failure {
                line: p.line,
                message,
                expected: p.expected.map(|e| e.to_string()),
                actual: Some(ret.to_string()),
            });
        }
    }

    /// The length and flags of a blocking `write`/`send`/`read`/`recv` on the connected,
    /// blocking socket (`flag`: the one flag besides 0 it may have).
    fn blocking_io_args(&self, c: &Syscall, flag: &str) -> Result<(u64, Vec<String>), Stop> {
        let fd = c.args.first().and_then(Expr::int).unwrap_or(-1);
        if self.fds.get(&fd).is_none_or(|f| f.listener || f.nonblock) {
            return Err(Stop::Unsupported(format!(
                "a blocking {}() on fd {fd} (the runner blocks on the connected socket only)",
                c.name
            )));
        }
        let size = c.args.get(2).and_then(Expr::int).unwrap_or(-1);
        let flags = flag_words(c.args.get(3).filter(|_| c.name != "read"));
        if size < 0 || flags.iter().any(|f| f != "0" && f != flag) {
            return Err(Stop::Unsupported(format!(
                "the arguments of a blocking {}()",
                c.name
            )));
        }
        Ok((size as u64, flags))
    }

    /// A call written `+t...end`: it starts now and must return at `end_us`.
    fn begin_blocking(&mut self, e: &Event, c: &Syscall, start: i64, end_us: i64) -> Step {
        if self.pending.is_some() {
            return Err(Stop::Unsupported(
                "a second blocking call while one is blocked (the runner has one thread)".into(),
            ));
        }
        let expected = c.result.int();
        let kind = match c.name.as_str() {
            "write" | "send" => {
                let (size, flags) = self.blocking_io_args(c, "MSG_MORE")?;
                PendingKind::Write {
                    left: size,
                    copied: 0,
                    msg_more: flags.iter().any(|f| f == "MSG_MORE"),
                }
            }
            "read" | "recv" => PendingKind::Read {
                size: self.blocking_io_args(c, "0")?.0,
            },
            "poll" => {
                let (events, revents, timeout_us) = poll_args(c)?;
                PendingKind::Poll {
                    events,
                    revents,
                    timeout_us,
                }
            }
            other => {
                return Err(Stop::Unsupported(format!(
                    "the blocking call {other}() (the runner blocks in write, send, read, recv and poll)"
                )))
            }
        };
        let mut p = Pending {
            line: e.line,
            last_line: e.last_line,
            name: c.name.clone(),
            start_us: start,
            end_us,
            expected,
            kind,
        };
        // The call's first try, as the kernel makes it before it sleeps.
        let local = self.local;
        if matches!(p.kind, PendingKind::Write { .. })
            && self.w().socks[local as usize].state != TcpState::Established
        {
            return Err(Stop::Unsupported(format!(
                "{}() before the connection is established",
                c.name
            )));
        }
        let first = self.try_pending(&mut p.kind, false);
        match first {
            Some(ret) => self.finish_pending(p, start, ret),
            None => {
                self.pending = Some(p);
                self.arm_wakeup();
            }
        }
        Ok(())
    }

    /// `epoll_ctl(epfd, EPOLL_CTL_ADD, fd, {events=..., fd=N})`: watch the socket; like
    /// `ep_insert`, it polls the socket once and puts it on the ready list if an event is there.
    fn epoll_ctl(&mut self, c: &Syscall) -> Result<(i64, Option<&'static str>), Stop> {
        let epfd = c.args.first().and_then(Expr::int).unwrap_or(-1);
        let op = match c.args.get(1) {
            Some(Expr::Word(w)) => w.clone(),
            _ => String::new(),
        };
        let fd = c.args.get(2).and_then(Expr::int).unwrap_or(-1);
        if op != "EPOLL_CTL_ADD" || !self.epolls.contains_key(&epfd) {
            return Err(Stop::Unsupported(format!(
                "epoll_ctl {op} (the runner adds a socket to an epoll)"
            )));
        }
        if self.fds.get(&fd).is_none_or(|f| f.listener) {
            return Err(Stop::Unsupported(format!(
                "epoll_ctl on fd {fd} (the runner watches the connected socket)"
            )));
        }
        let words = struct_field(c.args.get(3), "events")
            .map(|e| flag_words(Some(e)))
            .unwrap_or_default();
        let edge = words.iter().any(|w| w == "EPOLLET");
        let interest: Vec<String> = words.into_iter().filter(|w| w != "EPOLLET").collect();
        if let Some(other) = interest
            .iter()
            .find(|w| *w != "EPOLLOUT" && *w != "EPOLLIN")
        {
            return Err(Stop::Unsupported(format!("the epoll event {other}")));
        }
        let ready = !self.poll_mask(&interest).is_empty();
        self.epolls.insert(
            epfd,
            Epoll {
                interest,
                edge,
                ready,
            },
        );
        self.arm_wakeup();
        Ok((0, None))
    }

    /// `epoll_wait(epfd, {events=..., fd=N}, maxevents, 0)`: the socket's events if it is on the
    /// ready list (`ep_send_events` polls it again); edge-triggered, it leaves the list.
    fn epoll_wait(&mut self, c: &Syscall) -> Result<(i64, Option<&'static str>), Stop> {
        let epfd = c.args.first().and_then(Expr::int).unwrap_or(-1);
        if c.args.get(3).and_then(Expr::int) != Some(0) {
            return Err(Stop::Unsupported(
                "epoll_wait with a timeout (the runner makes non-blocking calls to epoll_wait)"
                    .into(),
            ));
        }
        let Some(ep) = self.epolls.get(&epfd).cloned() else {
            return Err(Stop::Unsupported(format!("epoll_wait on fd {epfd}")));
        };
        let mut got = Vec::new();
        if ep.ready || !ep.edge {
            got = self.poll_mask(&ep.interest);
            let e = self.epolls.get_mut(&epfd).unwrap();
            // Reported (edge-triggered), or nothing there: off the ready list.
            e.ready = !ep.edge && !got.is_empty();
        }
        let want = struct_field(c.args.get(1), "events")
            .map(|e| flag_words(Some(e)))
            .unwrap_or_default();
        let want: Vec<String> = want.into_iter().filter(|w| w != "0").collect();
        check_revents("epoll_wait", &Some(want), &got)?;
        self.arm_wakeup();
        Ok((i64::from(!got.is_empty()), None))
    }

    fn setsockopt(&mut self, c: &Syscall) -> Result<(i64, Option<&'static str>), Stop> {
        let name = match c.args.get(2) {
            Some(Expr::Word(w)) => w.clone(),
            _ => return Err(Stop::Unsupported("setsockopt with a numeric option".into())),
        };
        let v = c.args.get(3).and_then(Expr::int);
        let local = self.local;
        let w = self.w();
        let sk = local;
        match (name.as_str(), v) {
            ("SO_REUSEADDR", _) => {}
            ("TCP_CONGESTION", _) => {
                // The name the socket already runs (the scripts' "cubic" of defaults.sh, which
                // a kernel whose default is bbr needs spelled out) changes nothing; another
                // would need the accepted socket's congestion control switched.
                let want = match c.args.get(3) {
                    Some(Expr::Str(s)) => s.clone(),
                    _ => String::new(),
                };
                let have = match w.socks[sk as usize].cc {
                    crate::scenario::CongestionControl::Cubic => "cubic",
                    crate::scenario::CongestionControl::Reno => "reno",
                    crate::scenario::CongestionControl::Bbr => "bbr",
                };
                if want != have {
                    return Err(Stop::Unsupported(format!(
                        "setsockopt TCP_CONGESTION {want:?}: the runner's sockets run the congestion control of net.ipv4.tcp_congestion_control ({have})"
                    )));
                }
            }
            ("TCP_NODELAY", Some(v)) => tcp::tcp_sock_set_nodelay(w, sk, v != 0),
            ("TCP_CORK", Some(v)) => tcp::tcp_sock_set_cork(w, sk, v != 0),
            ("TCP_QUICKACK", Some(v)) => tcp::tcp_sock_set_quickack(w, sk, v != 0),
            ("TCP_NOTSENT_LOWAT", Some(v)) => {
                // do_tcp_setsockopt: "WRITE_ONCE(tp->notsent_lowat, val); sk->sk_write_space(sk);"
                w.socks[sk as usize].notsent_lowat = v as u64;
                tcp::sk_stream_write_space(w, sk);
            }
            ("SO_SNDBUF", Some(v)) => {
                // sk_setsockopt → __sock_set_sndbuf: min(val, wmem_max) * 2, at least
                // SOCK_MIN_SNDBUF, and SOCK_SNDBUF_LOCK stops the autotuning.
                let max = w.hosts[0].cfg.sysctl.wmem_max;
                let tp = &mut w.socks[sk as usize];
                tp.sk_sndbuf = ((v.max(0) as u64).min(max) * 2)
                    .max(crate::net::core::sock::SOCK_MIN_SNDBUF);
                tp.sndbuf_locked = true;
                tcp::sk_stream_write_space(w, sk);
            }
            _ => {
                return Err(Stop::Unsupported(format!(
                    "setsockopt {name} (the runner sets SO_REUSEADDR, SO_SNDBUF, TCP_NODELAY, TCP_CORK, TCP_QUICKACK, TCP_NOTSENT_LOWAT, and TCP_CONGESTION to the one the socket runs)"
                )))
            }
        }
        Ok((0, None))
    }

    fn getsockopt(&mut self, c: &Syscall) -> Result<(i64, Option<&'static str>), Stop> {
        let name = match c.args.get(2) {
            Some(Expr::Word(w)) => w.clone(),
            _ => return Err(Stop::Unsupported("getsockopt with a numeric option".into())),
        };
        let local = self.local;
        let tp = &self.w().socks[local as usize];
        let actual = match name.as_str() {
            "TCP_NOTSENT_LOWAT" => tp.notsent_lowat as i64,
            "SO_SNDBUF" => tp.sk_sndbuf as i64,
            "TCP_NODELAY" => i64::from(tp.nonagle & crate::net::core::sock::TCP_NAGLE_OFF != 0),
            "TCP_CORK" => i64::from(tp.nonagle & crate::net::core::sock::TCP_NAGLE_CORK != 0),
            "TCP_MAXSEG" => tp.mss_cache as i64,
            _ => {
                return Err(Stop::Unsupported(format!(
                    "getsockopt {name} (the runner reads SO_SNDBUF, TCP_NODELAY, TCP_CORK, TCP_MAXSEG, TCP_NOTSENT_LOWAT)"
                )))
            }
        };
        if let Some(exp) = c.args.get(3).and_then(Expr::int) {
            if exp != actual {
                return Err(Stop::Fail(Failure {
                    line: 0,
                    message: format!("getsockopt {name}: expected {exp} but got {actual}"),
                    expected: Some(exp.to_string()),
                    actual: Some(actual.to_string()),
                }));
            }
        }
        Ok((0, None))
    }

    /// `read`, `recv`, `recvfrom`: `tcp_recvmsg` (on 6.x the call holds the socket while it
    /// copies, and `tcp_recvmsg_backlog` ends it: at once here, the CPU being free). Nothing to
    /// read: `-1 EAGAIN` on a non-blocking socket; a blocking one would sleep.
    fn recv(&mut self, c: &Syscall) -> Result<(i64, Option<&'static str>), Stop> {
        let fd = c.args.first().and_then(Expr::int).unwrap_or(-1);
        let Some(f) = self.fds.get(&fd).copied().filter(|f| !f.listener) else {
            return Err(Stop::Unsupported(format!("{}() on fd {fd}", c.name)));
        };
        let Some(size) = c.args.get(2).and_then(Expr::int).filter(|&n| n >= 0) else {
            return Err(Stop::Unsupported(format!("the length of {}()", c.name)));
        };
        let mut nonblock = f.nonblock;
        for flag in flag_words(c.args.get(3).filter(|_| c.name != "read")) {
            match flag.as_str() {
                "0" => {}
                "MSG_DONTWAIT" => nonblock = true,
                other => {
                    return Err(Stop::Unsupported(format!(
                        "the receive flag {other} (the runner models MSG_DONTWAIT)"
                    )))
                }
            }
        }
        match self.read_now(size as u64) {
            None if nonblock => Ok((-1, Some("EAGAIN"))),
            None => Err(Stop::Fail(Failure {
                line: 0,
                message: format!(
                    "{}: expected to return at once, but there is nothing to read (it would block)",
                    c.name
                ),
                expected: c.result.int().map(|e| e.to_string()),
                actual: Some("blocked".into()),
            })),
            Some(n) => Ok((n as i64, None)),
        }
    }

    /// One `tcp_recvmsg` of up to `size` bytes, finished (`tcp_recvmsg_backlog` on 6.x); `None`
    /// when there is nothing to read.
    fn read_now(&mut self, size: u64) -> Option<u64> {
        let local = self.local;
        let w = self.w();
        let n = tcp::tcp_recvmsg(w, local, size)?;
        if !crate::net::ipv4::tcp_output::rcv_scaling(&w.socks[local as usize]) {
            return Some(n);
        }
        // A few rounds at most: each processes the backlog the copy let in.
        for _ in 0..64 {
            if let Some(total) = tcp::tcp_recvmsg_backlog(w, local, size) {
                return Some(total);
            }
        }
        unreachable!("tcp_recvmsg_backlog never ended the call")
    }

    /// `write`, `send`, `sendto`, `sendmsg`: `tcp_sendmsg_locked` with `MSG_MORE` and
    /// `MSG_EOR`; a non-blocking socket returns what was copied, or `-1 EAGAIN`.
    fn send(&mut self, c: &Syscall) -> Result<(i64, Option<&'static str>), Stop> {
        let fd = c.args.first().and_then(Expr::int).unwrap_or(-1);
        let Some(f) = self.fds.get(&fd).copied().filter(|f| !f.listener) else {
            return Err(Stop::Unsupported(format!("{}() on fd {fd}", c.name)));
        };
        let (size, flags) = match c.name.as_str() {
            "write" => (c.args.get(2).and_then(Expr::int), None),
            "send" | "sendto" => (c.args.get(2).and_then(Expr::int), c.args.get(3)),
            _ => (c.args.get(1).and_then(iov_len), c.args.get(2)),
        };
        let Some(size) = size.filter(|&n| n >= 0) else {
            return Err(Stop::Unsupported(format!("the length of {}()", c.name)));
        };
        let mut send_flags = 0;
        let mut nonblock = f.nonblock;
        for flag in flag_words(flags) {
            match flag.as_str() {
                "0" => {}
                "MSG_MORE" => send_flags |= socket::MSG_MORE,
                "MSG_EOR" => send_flags |= socket::MSG_EOR,
                "MSG_DONTWAIT" => nonblock = true,
                other => {
                    return Err(Stop::Unsupported(format!(
                    "the send flag {other} (the runner models MSG_MORE, MSG_EOR and MSG_DONTWAIT)"
                )))
                }
            }
        }
        let local = self.local;
        let w = self.w();
        if w.socks[local as usize].state != TcpState::Established {
            return Err(Stop::Unsupported(format!(
                "{}() before the connection is established",
                c.name
            )));
        }
        match tcp::tcp_sendmsg_locked(w, local, size as u64, send_flags, false) {
            SendOutcome::Done => Ok((size, None)),
            SendOutcome::Blocked { copied } => {
                w.socks[local as usize].writer_waiting = false;
                if !nonblock {
                    // The script gave no `...` end time: it expects the call to return at once.
                    return Err(Stop::Fail(Failure {
                        line: 0,
                        message: format!(
                            "{}: expected result {size} at once, but the call blocks in sk_stream_wait_memory after copying {copied} bytes",
                            c.name
                        ),
                        expected: Some(size.to_string()),
                        actual: Some(format!("blocked after {copied}")),
                    }));
                }
                if copied > 0 {
                    Ok((copied as i64, None))
                } else {
                    Ok((-1, Some("EAGAIN")))
                }
            }
        }
    }
}

/// A Python integer literal: decimal or `0x` hexadecimal.
fn py_int(v: &str) -> Option<i64> {
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

/// The flags argument of a send call as words (`MSG_MORE|MSG_DONTWAIT` → both; `0`).
fn flag_words(e: Option<&Expr>) -> Vec<String> {
    match e {
        None => vec![],
        Some(Expr::Int(n)) => vec![n.to_string()],
        Some(Expr::Word(w)) => vec![w.clone()],
        Some(Expr::Or(v)) => v.iter().flat_map(|x| flag_words(Some(x))).collect(),
        Some(other) => vec![format!("{other:?}")],
    }
}

/// The value of `name=...` in a struct argument (`{events=EPOLLOUT, fd=4}`).
fn struct_field<'e>(e: Option<&'e Expr>, name: &str) -> Option<&'e Expr> {
    let Some(Expr::Struct(fields)) = e else {
        return None;
    };
    fields.iter().find_map(|(k, v)| match (k, v) {
        (Expr::Word(w), Some(v)) if w == name => Some(v),
        _ => None,
    })
}

/// `poll([{fd=N, events=..., revents=...}], 1, timeout_ms)`: the events, the expected
/// revents (none when `...`) and the timeout (µs; `None` = forever).
#[allow(clippy::type_complexity)]
fn poll_args(c: &Syscall) -> Result<(Vec<String>, Option<Vec<String>>, Option<i64>), Stop> {
    let Some(Expr::List(fds)) = c.args.first() else {
        return Err(Stop::Unsupported("poll without a list of pollfd".into()));
    };
    let [pfd] = &fds[..] else {
        return Err(Stop::Unsupported("poll on more than one fd".into()));
    };
    let events = struct_field(Some(pfd), "events")
        .map(|e| flag_words(Some(e)))
        .unwrap_or_default();
    if let Some(other) = events.iter().find(|w| *w != "POLLOUT" && *w != "POLLIN") {
        return Err(Stop::Unsupported(format!("the poll event {other}")));
    }
    let revents = match struct_field(Some(pfd), "revents") {
        None | Some(Expr::Ellipsis) => None,
        Some(e) => Some(
            flag_words(Some(e))
                .into_iter()
                .filter(|w| w != "0")
                .collect(),
        ),
    };
    let timeout_us = match c.args.get(2).and_then(Expr::int) {
        Some(t) if t >= 0 => Some(t * 1000),
        _ => None,
    };
    Ok((events, revents, timeout_us))
}

/// The events a poll reported against the script's.
fn check_revents(name: &str, want: &Option<Vec<String>>, got: &[String]) -> Result<(), Stop> {
    let Some(want) = want else {
        return Ok(());
    };
    let norm = |v: &[String]| {
        let mut v: Vec<String> = v.to_vec();
        v.sort();
        v.join("|")
    };
    if norm(want) != norm(got) {
        let show = |v: &[String]| {
            if v.is_empty() {
                "0".to_string()
            } else {
                v.join("|")
            }
        };
        return Err(Stop::Fail(Failure {
            line: 0,
            message: format!(
                "{name}: expected events {} but got {}",
                show(want),
                show(got)
            ),
            expected: Some(show(want)),
            actual: Some(show(got)),
        }));
    }
    Ok(())
}

/// The bytes of a `struct msghdr`'s `msg_iov(N)=[{..., len}, ...]`.
fn iov_len(e: &Expr) -> Option<i64> {
    let Expr::Struct(fields) = e else {
        return None;
    };
    for (k, v) in fields {
        if matches!(k, Expr::Call(n, _) if n == "msg_iov") {
            let Some(Expr::List(iovs)) = v else {
                return None;
            };
            let mut total = 0;
            for iov in iovs {
                let Expr::Struct(parts) = iov else {
                    return None;
                };
                total += parts.last()?.0.int()?;
            }
            return Some(total);
        }
    }
    None
}

/// The options of the script's first inbound SYN.
fn first_syn(s: &Script) -> SynOpts {
    for e in &s.events {
        if let Action::Packet(p) = &e.action {
            if p.dir == Direction::Inbound && p.flags & tcp_flags::SYN != 0 {
                let mut o = SynOpts::default();
                for opt in p.options.iter().flatten() {
                    match opt {
                        TcpOpt::Mss(m) => o.mss = Some(*m),
                        TcpOpt::SackOk => o.sack_ok = true,
                        TcpOpt::Timestamp { .. } => o.ts = true,
                        TcpOpt::Wscale(w) => o.wscale = Some(*w),
                        _ => {}
                    }
                }
                return o;
            }
        }
    }
    SynOpts::default()
}

/// An outbound packet as the script would write it.
#[derive(Clone, Debug)]
struct Actual {
    flags: u8,
    seq: u32,
    len: u32,
    ack: u32,
    win: u32,
    options: Vec<TcpOpt>,
    /// The TS val the engine would have written (its send time, ms), with timestamps on.
    sent_ms: Option<u64>,
    text: String,
}

fn flags_text(flags: u8) -> String {
    let mut s = String::new();
    for (bit, c) in [
        (tcp_flags::FIN, 'F'),
        (tcp_flags::SYN, 'S'),
        (tcp_flags::RST, 'R'),
        (tcp_flags::PSH, 'P'),
    ] {
        if flags & bit != 0 {
            s.push(c);
        }
    }
    if flags & tcp_flags::ACK != 0 {
        s.push('.');
    }
    s
}

fn options_text(o: &[TcpOpt]) -> String {
    if o.is_empty() {
        return String::new();
    }
    format!(
        " <{}>",
        o.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )
}

/// A packet as packetdrill prints it: `P. 1:1001(1000) ack 1 win 256 <nop,nop,TS ...>`
/// (`<...>` when the options are not checked).
fn packet_text(
    flags: u8,
    seq: u32,
    len: u32,
    ack: Option<u32>,
    win: Option<u32>,
    options: Option<&[TcpOpt]>,
) -> String {
    let mut s = format!(
        "{} {}:{}({})",
        flags_text(flags),
        seq,
        seq.wrapping_add(len),
        len
    );
    if let Some(a) = ack {
        s += &format!(" ack {a}");
    }
    if let Some(w) = win {
        s += &format!(" win {w}");
    }
    match options {
        Some(o) => s += &options_text(o),
        None => s += " <...>",
    }
    s
}

fn show_script(p: &PacketSpec) -> String {
    packet_text(p.flags, p.seq, p.len, p.ack, p.win, p.options.as_deref())
}

fn show_actual(a: &Actual) -> String {
    let ack = (a.flags & tcp_flags::ACK != 0).then_some(a.ack);
    packet_text(a.flags, a.seq, a.len, ack, Some(a.win), Some(&a.options))
}

fn check(name: &str, expected: u32, actual: u32) -> Option<String> {
    (expected != actual).then(|| {
        format!(
            "live packet field {name}: expected: {expected} (0x{expected:x}) vs actual: {actual} (0x{actual:x})"
        )
    })
}

/// `verify_outbound_live_packet` minus the time: the payload length, the header fields, the
/// options. `None` when they match.
fn compare(p: &PacketSpec, a: &Actual) -> Option<String> {
    if p.len != a.len {
        return Some(format!(
            "live packet payload: expected {} bytes vs actual {} bytes",
            p.len, a.len
        ));
    }
    let bit = |f: u8, b: u8| u32::from(f & b != 0);
    use tcp_flags::*;
    check("tcp_fin", bit(p.flags, FIN), bit(a.flags, FIN))
        .or_else(|| check("tcp_syn", bit(p.flags, SYN), bit(a.flags, SYN)))
        .or_else(|| check("tcp_rst", bit(p.flags, RST), bit(a.flags, RST)))
        .or_else(|| check("tcp_psh", bit(p.flags, PSH), bit(a.flags, PSH)))
        .or_else(|| check("tcp_ack", bit(p.flags, ACK), bit(a.flags, ACK)))
        .or_else(|| check("tcp_seq", p.seq, a.seq))
        .or_else(|| check("tcp_ack_seq", p.ack.unwrap_or(0), a.ack))
        .or_else(|| p.win.and_then(|w| check("tcp_window", w, a.win)))
        .or_else(|| {
            let opts = p.options.as_ref()?;
            if opts.len() != a.options.len()
                || opts
                    .iter()
                    .zip(&a.options)
                    .any(|(s, x)| std::mem::discriminant(s) != std::mem::discriminant(x))
            {
                return Some("bad outbound TCP options".to_string());
            }
            for (s, x) in opts.iter().zip(&a.options) {
                if matches!(s, TcpOpt::Timestamp { .. }) {
                    continue; // TS val is not checked by default (--tcp_ts_tick_usecs=0)
                }
                if s != x {
                    return Some(format!(
                        "bad value in outbound TCP option: expected: {s} actual: {x}"
                    ));
                }
            }
            None
        })
}

/// `verify_time`: the actual time against the script's, within the tolerance.
fn verify_time(
    start: i64,
    end: Option<i64>,
    actual: i64,
    tol: i64,
    kind: TimeKind,
) -> Option<String> {
    let secs = |u: i64| u as f64 / 1e6;
    if let Some(end) = end {
        if actual < start - tol || actual > end + tol {
            return Some(format!(
                "timing error: expected outbound packet in {}time range {:.6}~{:.6} sec but happened at {:.6} sec",
                if kind == TimeKind::Relative { "relative " } else { "" },
                secs(start),
                secs(end),
                secs(actual)
            ));
        }
        return None;
    }
    if (actual - start).abs() > tol {
        return Some(format!(
            "timing error: expected outbound packet at {:.6} sec but happened at {:.6} sec; tolerance {:.6} sec",
            secs(start),
            secs(actual),
            secs(tol)
        ));
    }
    None
}
