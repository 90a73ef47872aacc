//! A run the site can advance in slices and read back in columns: the engine side of the
//! site's interactive view and of its full-experiment jobs.
//!
//! [`Session`] is plain Rust (tested natively); `WasmSession` (`site.rs`, wasm32 only) is its thin
//! `#[wasm_bindgen]` wrapper. A session:
//!
//! - resolves a scenario (file text, variant, `KEY=VALUE` sets) exactly as `sendpath run` does;
//! - runs it in slices ([`Session::advance`]) so the worker can report progress between them;
//! - records the event stream in a time window `[from_ns, to_ns)`, or, when asked to calibrate,
//!   until the trace holds `calibrate_events` records and then on to the next round instant
//!   (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k ns), where the run stops: a window of about that
//!   many events whose end is a number a person can type back;
//! - samples every host's nstat counters, `tcp_mem_pages` and every application's byte counts
//!   every `sample_every_events` events and/or `sample_every_ns` of simulated time, at the
//!   window's start, and before an event that comes a while after the last sample (a gap
//!   sample, see [`Session::advance`]): the counters the samples give for an instant `t` of the
//!   window are those after the last event at or before `t` whenever that event is at least
//!   `sample_every_ns` (or, sampling by events, 1/[`GAP_SAMPLES_PER_WINDOW`] of the window)
//!   before `t`, so they follow the time cursor through a quiet stretch after a burst;
//! - keeps the records, so the few rows a page shows can be put into words on demand
//!   ([`Session::describe`]) instead of shipping a string per event.
//!
//! Nothing here decides anything about TCP: every number comes from `sendpath_core`.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use sendpath_core::include::uapi::linux::snmp::Mib;
use sendpath_core::sim::world::World;
use sendpath_core::trace::{Columns, Ev, Trace};
use sendpath_core::{RunResult, Scenario};

/// What a session runs and records.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SessionRequest {
    /// The scenario file's text (TOML, `docs/scenario-format.md`).
    pub source: String,
    /// The file's name as errors should show it (`scenarios/autocorking.toml`).
    pub file: String,
    /// The variant to apply (`[variants.NAME]`), if any.
    #[serde(default)]
    pub variant: Option<String>,
    /// `KEY=VALUE` / `HOST:KEY=VALUE` overrides, applied in order after the variant.
    #[serde(default)]
    pub sets: Vec<String>,
    /// Record the event stream.
    #[serde(default)]
    pub trace: bool,
    /// Record events from this instant on (the run before it is not recorded).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub from_ns: u64,
    /// Stop the run at this instant (before the scenario's `sim.duration_ms` if earlier).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub to_ns: Option<u64>,
    /// With `to_ns` unset: stop at the first round instant after the trace holds this many
    /// records.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub calibrate_events: Option<u64>,
    /// Most records kept (the run goes on; `truncated` says so). 0 = 2,000,000.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub trace_limit: u64,
    /// Sample the counters after this many events (0 = not by events).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub sample_every_events: u64,
    /// Sample the counters every this many ns of simulated time (0 = not by time). Either way
    /// the session also samples before an event that comes this long (or, sampling by events
    /// only, 1/1000 of the window) after the last sample, so that a sample stands at the end of
    /// every burst followed by a quiet stretch.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub sample_every_ns: u64,
}

/// How the counters samples are laid out: each sample is `t_ns` followed, for each host, by
/// its counters (in `counters` order) and `tcp_mem_pages`, then, for each application, its
/// `bytes_written` and `bytes_read`.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SampleLayout {
    pub hosts: Vec<String>,
    pub counters: Vec<String>,
    pub apps: u32,
    /// Numbers per sample: `1 + hosts * (counters + 1) + apps * 2`.
    pub stride: u32,
}

/// The state of one socket, as `ss -ti` would print it, at the instant the trace starts.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SockSnapshot {
    pub established: bool,
    pub mss_cache: u32,
    pub snd_cwnd: u32,
    pub snd_ssthresh: u32,
    pub srtt_us: u64,
    pub rttvar_us: u64,
    pub rto_ns: u64,
    /// Bytes per second; `null` when unlimited.
    pub sk_pacing_rate: Option<u64>,
    pub packets_out: u32,
    pub snd_una: u64,
    pub snd_nxt: u64,
    pub write_seq: u64,
    pub sk_wmem_alloc: u64,
    pub sk_wmem_queued: u64,
    pub sk_sndbuf: u64,
    pub sk_rcvbuf: u64,
    pub rcv_nxt: u64,
    pub copied_seq: u64,
}

/// Rows of the trace in words (`Session::describe`): each row's English line, and what a line
/// in another language needs that the row's fields do not hold.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Described {
    /// `"<kernel function>: <decision>"` per row; empty for a row the trace does not have.
    pub texts: Vec<String>,
    /// Per row: for an autocork that incremented `TcpExtTCPAutoCorking`, the counter's value on
    /// the row's host after it (from the counters at the window's start); `null` otherwise.
    #[cfg_attr(feature = "ts", ts(type = "Array<number | null>"))]
    pub autocorking: Vec<Option<u64>>,
}

/// A packet on a wire when the trace window opens: its earlier events are not in the trace.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InFlight {
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub pkt: u64,
    pub src_host: u16,
    /// Sending socket, or `null` for a packet of no socket.
    pub sk: Option<u32>,
    pub pure_ack: bool,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seq: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub end_seq: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub ack_seq: u64,
    pub len: u32,
    pub gso_segs: u32,
    /// The skb it is a clone of (0 for pure ACKs and control packets).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub orig_skb: u64,
    /// When its last bit left the sender (arrival minus the link's delay), ns.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub left_ns: u64,
    /// When it reaches the other end, ns.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub arrive_ns: u64,
}

/// A packet in a host's qdisc or TX ring when the trace window opens: its earlier events are
/// not in the trace.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Queued {
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub pkt: u64,
    /// The host whose device holds it.
    pub host: u16,
    /// Sending socket, or `null` for a packet of no socket.
    pub sk: Option<u32>,
    pub pure_ack: bool,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seq: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub end_seq: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub ack_seq: u64,
    pub len: u32,
    pub gso_segs: u32,
    /// The skb it is a clone of (0 for pure ACKs and control packets).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub orig_skb: u64,
    /// In the TX ring (posted, not yet cleaned by a completion); else in the qdisc.
    pub in_ring: bool,
}

/// What a finished session reports besides the trace and the samples.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    pub result: RunResult,
    /// The recorded window.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub from_ns: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub to_ns: u64,
    /// The run stopped at `to_ns` before its workload finished or its duration ended.
    pub cut: bool,
    /// The trace hit its record limit: events after the last record are missing.
    pub truncated: bool,
    pub samples: SampleLayout,
    /// Every socket at `from_ns`, indexed like `result.sockets`.
    pub sockets_at_start: Vec<SockSnapshot>,
    /// Every host's counters at `from_ns` (nstat names, zero ones left out).
    #[cfg_attr(feature = "ts", ts(type = "Array<Record<string, number>>"))]
    pub counters_at_start: Vec<std::collections::BTreeMap<String, u64>>,
    /// Packets on the wires at `from_ns` (packets then in a qdisc or a TX ring are in
    /// `queued_at_start`).
    pub in_flight_at_start: Vec<InFlight>,
    /// Packets in each host's qdisc and TX ring at `from_ns`.
    pub queued_at_start: Vec<Queued>,
}

/// Sampling by events, a gap sample is due once 1/this of the window has passed since the
/// last sample: a cursor on a chart about 1000 px wide points no finer than that. It bounds the
/// gap samples of a window to about this many, whatever the event rate.
pub const GAP_SAMPLES_PER_WINDOW: u64 = 1000;

/// Round instants: the mantissas, in tenths, of the instants a calibrated window may end at.
const ROUND_MANTISSAS: [u64; 10] = [10, 12, 15, 20, 25, 30, 40, 50, 60, 80];

/// The smallest round instant (`m x 10^k` ns, m in `ROUND_MANTISSAS` / 10) at or after `t_ns`.
pub fn round_up_ns(t_ns: u64) -> u64 {
    let mut scale: u64 = 1;
    loop {
        for m in ROUND_MANTISSAS {
            let v = m * scale / 10;
            if v >= t_ns.max(1) && (m * scale).is_multiple_of(10) {
                return v;
            }
        }
        scale = scale
            .checked_mul(10)
            .expect("round_up_ns: instant out of range");
    }
}

/// A run in progress, or finished.
pub struct Session {
    world: World,
    from_ns: u64,
    calibrate_events: Option<u64>,
    sample_every_events: u64,
    sample_every_ns: u64,
    last_sample_events: u64,
    last_sample_ns: u64,
    /// A gap sample is due before an event this long after the last sample (0: never).
    gap_ns: u64,
    /// The event loop looks closer ([`Session::watch`]) before an event due at or after this
    /// instant: `from_ns` until the window opens, then `last_sample_ns + gap_ns` (`u64::MAX`
    /// with `gap_ns` 0, when it does not even look at the next event's time).
    watch_ns: u64,
    samples: Vec<f64>,
    layout: SampleLayout,
    sockets_at_start: Option<Vec<SockSnapshot>>,
    counters_at_start: Option<Vec<std::collections::BTreeMap<String, u64>>>,
    in_flight_at_start: Vec<InFlight>,
    queued_at_start: Vec<Queued>,
    cut: bool,
    done: bool,
    /// Built by the first `describe` that needs it.
    autocorks: RefCell<Option<AutocorkIndex>>,
}

/// Per host, the indices of the records that incremented `TcpExtTCPAutoCorking`, in order.
struct AutocorkIndex {
    /// How many records the index covers (a session that ran on is indexed again).
    records: usize,
    by_host: BTreeMap<u16, Vec<u32>>,
}

impl Session {
    /// Resolve the request's scenario and prepare its world; errors name the file and the key.
    pub fn start(request: SessionRequest) -> Result<Session, String> {
        let sc = Scenario::parse(&request.source, &request.file).map_err(|e| e.to_string())?;
        let cfg = sc
            .config(request.variant.as_deref(), &request.sets)
            .map_err(|e| e.to_string())?;
        let limit = if request.trace_limit == 0 {
            2_000_000
        } else {
            request.trace_limit as usize
        };
        let mut trace = Trace::new(request.trace, limit);
        let scenario_end = cfg.duration_ns;
        let to_ns = request.to_ns.map_or(scenario_end, |t| t.min(scenario_end));
        if request.from_ns >= to_ns {
            return Err(format!(
                "{}: the window starts at {} ns, at or after its end ({} ns)",
                request.file, request.from_ns, to_ns
            ));
        }
        trace.window = (request.from_ns, u64::MAX);
        let mut world = World::new(cfg, trace);
        world.end_ns = to_ns;
        let apps = world.apps.len() as u32;
        let hosts: Vec<String> = world.hosts.iter().map(|h| h.name.clone()).collect();
        let counters: Vec<String> = Mib::ALL.iter().map(|m| m.name().to_string()).collect();
        let stride = 1 + hosts.len() as u32 * (counters.len() as u32 + 1) + apps * 2;
        let gap_ns = if request.sample_every_ns > 0 {
            request.sample_every_ns
        } else if request.sample_every_events > 0 {
            ((to_ns - request.from_ns) / GAP_SAMPLES_PER_WINDOW).max(1)
        } else {
            0
        };
        let mut s = Session {
            world,
            from_ns: request.from_ns,
            calibrate_events: if request.to_ns.is_none() && request.trace {
                request.calibrate_events
            } else {
                None
            },
            sample_every_events: request.sample_every_events,
            sample_every_ns: request.sample_every_ns,
            last_sample_events: 0,
            last_sample_ns: 0,
            gap_ns,
            watch_ns: request.from_ns,
            samples: Vec::new(),
            layout: SampleLayout {
                hosts,
                counters,
                apps,
                stride,
            },
            sockets_at_start: None,
            counters_at_start: None,
            in_flight_at_start: Vec::new(),
            queued_at_start: Vec::new(),
            cut: false,
            done: false,
            autocorks: RefCell::new(None),
        };
        s.sample();
        if s.from_ns == 0 {
            s.snapshot_start();
            s.arm_watch();
        }
        Ok(s)
    }

    /// Run at most `max_events` more events; true once the run is over.
    ///
    /// Besides the samples by events and by time, taken after an event, a gap sample is taken
    /// in the window *before* an event due at least `gap_ns` after the last sample, when events
    /// ran since it and the event is at a later instant than the last one: the sample then holds
    /// the counters after the last event of a burst, where a sample after an event would wait
    /// for the next burst (the TSO lesson's counters read the handshake's for 40 ms of segments
    /// on the wire). The event loop pays for it a look at the next event's time and one
    /// comparison, and with no sampling asked for only the comparison it made before.
    pub fn advance(&mut self, max_events: u32) -> bool {
        if self.done {
            return true;
        }
        if self.world.finished() {
            return self.finish();
        }
        for _ in 0..max_events {
            if let Some(n) = self.calibrate_events {
                if self.world.trace.records.len() as u64 >= n {
                    // Stop at the next round instant after the event just run.
                    self.calibrate_events = None;
                    self.world.end_ns = round_up_ns(self.world.now_ns + 1).min(self.world.end_ns);
                }
            }
            if self.watch_ns != u64::MAX {
                let next = self.world.next_event_ns();
                if next >= Some(self.watch_ns) {
                    self.watch(next);
                }
            }
            if !self.world.step() {
                return self.finish();
            }
            let w = &self.world;
            if (self.sample_every_events > 0
                && w.events - self.last_sample_events >= self.sample_every_events)
                || (self.sample_every_ns > 0
                    && w.now_ns - self.last_sample_ns >= self.sample_every_ns)
            {
                self.sample();
            }
            // Only an application's step can finish the workload: ask then, not after every
            // event (`finished` looks at every application, 400 of them with 200 flows).
            if self.world.app_stepped() && self.world.finished() {
                return self.finish();
            }
        }
        false
    }

    /// Before an event due at `next`, at or after `watch_ns`: the window opens (the sockets and
    /// counters at its start, and a sample of them), or a gap sample is due.
    fn watch(&mut self, next: Option<u64>) {
        let ran = self.world.events > self.last_sample_events;
        if self.sockets_at_start.is_none() {
            self.snapshot_start();
            // The counters at the window's start: the last sample may be long before it.
            if self.gap_ns > 0 && ran {
                self.sample();
            } else {
                self.arm_watch();
            }
        } else if ran && next > Some(self.world.now_ns) {
            // After the last event of an instant, a gap after the last sample.
            self.sample();
        }
    }

    fn finish(&mut self) -> bool {
        if !self.done {
            self.done = true;
            if self.sockets_at_start.is_none() {
                self.snapshot_start();
            }
            self.cut = !self.world.finished() && self.world.end_ns < self.world.cfg.duration_ns;
            // The last sample shows the counters at the end of the run.
            self.sample();
        }
        true
    }

    /// Simulated time reached, ns.
    pub fn now_ns(&self) -> u64 {
        self.world.now_ns
    }

    /// Where the run will stop at the latest, ns.
    pub fn end_ns(&self) -> u64 {
        self.world.end_ns
    }

    pub fn done(&self) -> bool {
        self.done
    }

    fn sample(&mut self) {
        let w = &self.world;
        self.last_sample_events = w.events;
        self.last_sample_ns = w.now_ns;
        // The final sample stands at the end of the window: the run's end, or the instant
        // its workload finished.
        let t = if self.done && !w.finished() {
            w.end_ns
        } else {
            w.now_ns
        };
        self.samples.push(t as f64);
        for (i, h) in w.hosts.iter().enumerate() {
            for m in Mib::ALL {
                self.samples.push(h.mib.get(m) as f64);
            }
            self.samples.push(w.tcp_mem_pages(i as u16) as f64);
        }
        for a in &w.apps {
            self.samples.push(a.bytes_written as f64);
            self.samples.push(a.bytes_read as f64);
        }
        self.arm_watch();
    }

    /// Where the event loop looks next: the window's start, then `gap_ns` after the last sample.
    fn arm_watch(&mut self) {
        self.watch_ns = if self.sockets_at_start.is_none() {
            self.from_ns
        } else if self.gap_ns > 0 {
            self.last_sample_ns.saturating_add(self.gap_ns)
        } else {
            u64::MAX
        };
    }

    fn snapshot_start(&mut self) {
        let w = &self.world;
        self.sockets_at_start = Some(
            w.socks
                .iter()
                .map(|s| SockSnapshot {
                    established: s.state == sendpath_core::net::core::sock::TcpState::Established,
                    mss_cache: s.mss_cache,
                    snd_cwnd: s.snd_cwnd,
                    snd_ssthresh: s.snd_ssthresh,
                    srtt_us: s.srtt_us,
                    rttvar_us: s.rttvar_us,
                    rto_ns: s.rto_ns,
                    // Unlimited is ~0U in 3.x (a u32), ~0UL from 4.x on.
                    sk_pacing_rate: (s.sk_pacing_rate < s.profile.pacing_unlimited())
                        .then_some(s.sk_pacing_rate),
                    packets_out: s.packets_out,
                    snd_una: s.snd_una,
                    snd_nxt: s.snd_nxt,
                    write_seq: s.write_seq,
                    sk_wmem_alloc: s.sk_wmem_alloc,
                    sk_wmem_queued: s.sk_wmem_queued,
                    sk_sndbuf: s.sk_sndbuf,
                    sk_rcvbuf: s.sk_rcvbuf,
                    rcv_nxt: s.rcv_nxt,
                    copied_seq: s.copied_seq,
                })
                .collect(),
        );
        self.in_flight_at_start = w
            .links
            .iter()
            .flat_map(|l| {
                l.in_flight.iter().map(move |(arrive, p)| InFlight {
                    pkt: p.id,
                    src_host: p.src_host,
                    sk: (p.sk != sendpath_core::include::linux::skbuff::NO_SOCK).then_some(p.sk),
                    pure_ack: p.pure_ack,
                    seq: p.seq,
                    end_seq: p.end_seq,
                    ack_seq: p.ack_seq,
                    len: p.len,
                    gso_segs: p.gso_segs,
                    orig_skb: p.orig_skb,
                    left_ns: arrive.saturating_sub(l.delay_ns),
                    arrive_ns: *arrive,
                })
            })
            .collect();
        self.queued_at_start = w
            .hosts
            .iter()
            .enumerate()
            .flat_map(|(h, host)| {
                let queued = host.dev.qdisc.packets().map(|p| (p, false));
                let posted = host.dev.ring_packets().map(|p| (p, true));
                queued.chain(posted).map(move |(p, in_ring)| Queued {
                    pkt: p.id,
                    host: h as u16,
                    sk: (p.sk != sendpath_core::include::linux::skbuff::NO_SOCK).then_some(p.sk),
                    pure_ack: p.pure_ack,
                    seq: p.seq,
                    end_seq: p.end_seq,
                    ack_seq: p.ack_seq,
                    len: p.len,
                    gso_segs: p.gso_segs,
                    orig_skb: p.orig_skb,
                    in_ring,
                })
            })
            .collect();
        self.counters_at_start = Some(
            w.hosts
                .iter()
                .map(|h| {
                    h.mib
                        .nonzero()
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect()
                })
                .collect(),
        );
    }

    /// A metric of the finished run as `sendpath compare` reads it ([`sendpath_core::metric`]:
    /// `elapsed_s`, `throughput_mbit`, `HOST:<nstat counter>`, ...); None for a name the engine
    /// does not know. The lessons' A/B tables use it.
    pub fn metric(&self, name: &str) -> Option<f64> {
        if !sendpath_core::metric_name_is_valid(name) {
            return None;
        }
        sendpath_core::metric(&self.summary().result, name)
    }

    /// The result, window and layouts; call once [`Session::advance`] returned true.
    pub fn summary(&self) -> SessionSummary {
        assert!(self.done, "summary of a session that has not finished");
        let w = &self.world;
        let mut result = sendpath_core::result_of(w);
        if self.cut {
            // The run was stopped on purpose at the window's end: that it did not finish its
            // workload within sim.duration_ms is no news to the reader.
            result
                .warnings
                .retain(|m| !m.starts_with("the workload did not finish within"));
        }
        let to_ns = if w.finished() { w.now_ns } else { w.end_ns };
        SessionSummary {
            result,
            from_ns: self.from_ns,
            to_ns,
            cut: self.cut,
            truncated: w.trace.truncated,
            samples: self.layout.clone(),
            sockets_at_start: self.sockets_at_start.clone().unwrap_or_default(),
            counters_at_start: self.counters_at_start.clone().unwrap_or_default(),
            in_flight_at_start: self.in_flight_at_start.clone(),
            queued_at_start: self.queued_at_start.clone(),
        }
    }

    /// The counter samples, `layout.stride` numbers each.
    pub fn samples(&self) -> &[f64] {
        &self.samples
    }

    /// The recorded events as columns.
    pub fn columns(&self) -> Columns {
        Columns::from_records(&self.world.trace.records)
    }

    /// Number of recorded events.
    pub fn records(&self) -> usize {
        self.world.trace.records.len()
    }

    /// How many records up to and including record `row` incremented `TcpExtTCPAutoCorking` on
    /// `host`: a binary search in an index built once, not a scan of the records before `row`
    /// (which took 0.8 s for 50 rows at the end of a 2,000,000-record trace).
    fn autocorks_upto(&self, host: u16, row: u32) -> u64 {
        let records = &self.world.trace.records;
        let mut index = self.autocorks.borrow_mut();
        if index.as_ref().is_none_or(|x| x.records != records.len()) {
            let mut by_host: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
            for (i, o) in records.iter().enumerate() {
                if matches!(o.ev, Ev::Autocork { counted: true, .. }) {
                    by_host.entry(o.host).or_default().push(i as u32);
                }
            }
            *index = Some(AutocorkIndex {
                records: records.len(),
                by_host,
            });
        }
        index
            .as_ref()
            .expect("built above")
            .by_host
            .get(&host)
            .map_or(0, |rows| rows.partition_point(|&i| i <= row) as u64)
    }

    /// Rows `rows` of the trace in words: `"<kernel function>: <decision>"`. An autocork that
    /// incremented `TcpExtTCPAutoCorking` names the counter's value after it, in the English
    /// line and in `autocorking` (for the log's other languages).
    pub fn describe(&self, rows: &[u32]) -> Described {
        let records = &self.world.trace.records;
        let mut out = Described::default();
        for &i in rows {
            let Some(r) = records.get(i as usize) else {
                out.texts.push(String::new());
                out.autocorking.push(None);
                continue;
            };
            let active = r.sk == sendpath_core::include::linux::skbuff::NO_SOCK
                || self.world.sock_is_active(r.sk);
            let mut text = format!("{}: {}", r.ev.func_on(active), r.ev.describe());
            let mut count = None;
            if let Ev::Autocork { counted: true, .. } = r.ev {
                let base = self
                    .counters_at_start
                    .as_ref()
                    .and_then(|c| c.get(r.host as usize))
                    .and_then(|c| c.get("TcpExtTCPAutoCorking"))
                    .copied()
                    .unwrap_or(0);
                let n = base + self.autocorks_upto(r.host, i);
                text = text.replace(
                    "(TcpExtTCPAutoCorking +1)",
                    &format!("(TcpExtTCPAutoCorking {n})"),
                );
                count = Some(n);
            }
            out.texts.push(text);
            out.autocorking.push(count);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTOCORKING: &str = include_str!("../../../scenarios/autocorking.toml");

    fn request() -> SessionRequest {
        SessionRequest {
            source: AUTOCORKING.to_string(),
            file: "scenarios/autocorking.toml".to_string(),
            variant: Some("on".to_string()),
            sets: Vec::new(),
            trace: true,
            from_ns: 0,
            to_ns: Some(1_000_000),
            calibrate_events: None,
            trace_limit: 0,
            sample_every_events: 500,
            sample_every_ns: 0,
        }
    }

    fn run(mut s: Session) -> Session {
        while !s.advance(10_000) {}
        s
    }

    #[test]
    fn round_instants_are_the_next_of_the_series() {
        assert_eq!(round_up_ns(1), 1);
        assert_eq!(round_up_ns(11), 12);
        assert_eq!(round_up_ns(13), 15);
        assert_eq!(round_up_ns(2_600_000), 3_000_000);
        assert_eq!(round_up_ns(8_000_001), 10_000_000);
        assert_eq!(round_up_ns(1_100_000), 1_200_000);
    }

    #[test]
    fn a_windowed_session_counts_what_run_source_counts_for_the_same_duration() {
        let s = run(Session::start(request()).unwrap());
        let sum = s.summary();
        assert_eq!(sum.to_ns, 1_000_000);
        assert!(sum.cut);
        let direct = sendpath_core::run_source(
            AUTOCORKING,
            "autocorking",
            &sendpath_core::RunOptions {
                variant: Some("on".into()),
                sets: vec!["sim.duration_ms=1".into()],
                ..Default::default()
            },
        )
        .unwrap()
        .result;
        assert_eq!(sum.result.hosts, direct.hosts);
        assert_eq!(sum.result.events, direct.events);
        assert!(sum.result.warnings.is_empty(), "{:?}", sum.result.warnings);
    }

    #[test]
    fn the_last_sample_holds_the_final_counters() {
        let s = run(Session::start(request()).unwrap());
        let sum = s.summary();
        let stride = sum.samples.stride as usize;
        let last = &s.samples()[s.samples().len() - stride..];
        let autocork = sum
            .samples
            .counters
            .iter()
            .position(|c| c == "TcpExtTCPAutoCorking")
            .unwrap();
        let sender = sum
            .samples
            .hosts
            .iter()
            .position(|h| h == "sender")
            .unwrap();
        let per_host = sum.samples.counters.len() + 1;
        let shown = last[1 + sender * per_host + autocork];
        assert_eq!(
            shown as u64,
            sum.result.hosts["sender"].counters["TcpExtTCPAutoCorking"]
        );
        assert!(shown > 0.0);
        assert_eq!(s.samples().len() % stride, 0);
    }

    #[test]
    fn calibration_stops_at_a_round_instant_after_the_event_budget() {
        let mut req = request();
        req.to_ns = None;
        req.calibrate_events = Some(20_000);
        let s = run(Session::start(req).unwrap());
        let sum = s.summary();
        assert!(s.records() >= 20_000);
        assert_eq!(round_up_ns(sum.to_ns), sum.to_ns);
        assert!(sum.cut);
    }

    #[test]
    fn a_window_records_only_its_events_and_snapshots_the_sockets_at_its_start() {
        let mut req = request();
        req.from_ns = 500_000;
        let s = run(Session::start(req).unwrap());
        let c = s.columns();
        assert!(c.t_ns.iter().all(|&t| t >= 500_000.0));
        let sum = s.summary();
        assert!(sum
            .sockets_at_start
            .iter()
            .any(|k| k.established && k.snd_una > 1));
        assert!(sum.counters_at_start[0].values().any(|&v| v > 0));
    }

    #[test]
    fn describe_names_the_function_and_the_autocorking_count() {
        let s = run(Session::start(request()).unwrap());
        let c = s.columns();
        let autocork = sendpath_core::trace::KINDS
            .iter()
            .position(|k| k.name == "autocork")
            .unwrap() as u16;
        let counted: Vec<u32> = (0..c.kind.len() as u32)
            .filter(|&i| c.kind[i as usize] == autocork && c.values[i as usize * 7 + 5] == 1.0)
            .take(2)
            .collect();
        let d = s.describe(&counted);
        let texts = &d.texts;
        assert!(texts[0].starts_with("tcp_push: "), "{}", texts[0]);
        assert_eq!(d.autocorking[0], Some(1));
        assert!(
            texts[0].ends_with("(TcpExtTCPAutoCorking 1)"),
            "{}",
            texts[0]
        );
        // The second counted autocork of the same host reads 2 (hosts differ only for acks).
        assert!(texts[1].contains("(TcpExtTCPAutoCorking "), "{}", texts[1]);
    }

    #[test]
    fn describe_names_each_sides_function_for_its_connection() {
        let s = run(Session::start(request()).unwrap());
        let c = s.columns();
        let est = sendpath_core::trace::KINDS
            .iter()
            .position(|k| k.name == "established")
            .unwrap() as u16;
        let rows: Vec<u32> = (0..c.kind.len() as u32)
            .filter(|&i| c.kind[i as usize] == est)
            .collect();
        assert_eq!(rows.len(), 8, "four flows, two ends each");
        let d = s.describe(&rows);
        for (&r, text) in rows.iter().zip(&d.texts) {
            let sk = c.sk[r as usize];
            // Even sockets connect, odd ones are the server's children.
            let want = if sk.is_multiple_of(2) {
                "tcp_finish_connect: "
            } else {
                "tcp_rcv_state_process: "
            };
            assert!(text.starts_with(want), "sk{sk}: {text}");
        }
    }

    #[test]
    fn every_counted_autocork_is_named_with_the_count_the_counter_had_after_it() {
        // A window that starts late: the count goes on from the counters at its start.
        let s = run(Session::start(SessionRequest {
            from_ns: 500_000,
            to_ns: Some(3_000_000),
            ..request()
        })
        .unwrap());
        let records = &s.world.trace.records;
        let at_start = s.summary().counters_at_start;
        let base = |host: u16| at_start[host as usize]["TcpExtTCPAutoCorking"];
        let mut seen: BTreeMap<u16, u64> = BTreeMap::new();
        let mut rows = Vec::new();
        let mut want = Vec::new();
        for (i, r) in records.iter().enumerate() {
            if let Ev::Autocork { counted: true, .. } = r.ev {
                let n = seen.entry(r.host).or_insert(0);
                *n += 1;
                rows.push(i as u32);
                want.push(base(r.host) + *n);
            }
        }
        assert!(rows.len() > 100, "only {} counted autocorks", rows.len());
        assert!(base(records[rows[0] as usize].host) > 0);
        // Out of order and repeated, as a scrolled log asks.
        let asked: Vec<u32> = rows.iter().rev().chain(rows.iter()).copied().collect();
        let d = s.describe(&asked);
        let texts = &d.texts;
        for (k, text) in texts.iter().enumerate() {
            let j = if k < rows.len() {
                rows.len() - 1 - k
            } else {
                k - rows.len()
            };
            assert!(
                text.ends_with(&format!("(TcpExtTCPAutoCorking {})", want[j])),
                "row {}: {text} (want {})",
                asked[k],
                want[j]
            );
            assert_eq!(d.autocorking[k], Some(want[j]), "row {}", asked[k]);
        }
        // Any other row, and a row past the trace, has no count.
        let other = (0..records.len())
            .find(|&i| !matches!(records[i].ev, Ev::Autocork { .. }))
            .unwrap() as u32;
        let d = s.describe(&[other, records.len() as u32]);
        assert_eq!(d.autocorking, vec![None, None]);
        assert_eq!(d.texts[1], "");
    }

    #[test]
    fn a_workload_that_finishes_early_ends_its_window_and_samples_at_its_finish() {
        let req = SessionRequest {
            source: include_str!("../../../scenarios/tso-autosizing.toml").to_string(),
            file: "scenarios/tso-autosizing.toml".to_string(),
            variant: Some("after".to_string()),
            to_ns: None,
            sample_every_events: 1000,
            ..request()
        };
        let s = run(Session::start(req).unwrap());
        let sum = s.summary();
        assert!(!sum.cut);
        assert!(sum.to_ns < 5_000_000_000, "finished at {}", sum.to_ns);
        let stride = sum.samples.stride as usize;
        let last_t = s.samples()[s.samples().len() - stride];
        assert_eq!(last_t as u64, sum.to_ns);
    }

    /// The Nagle scenario's `variant` run to its end as a session (no trace) and directly.
    fn full_nagle(variant: Option<&str>) -> (Session, RunResult) {
        const NAGLE: &str = include_str!("../../../scenarios/nagle-delayed-ack.toml");
        let req = SessionRequest {
            source: NAGLE.to_string(),
            file: "nagle".to_string(),
            variant: variant.map(str::to_string),
            trace: false,
            to_ns: None,
            sample_every_ns: 100_000_000,
            sample_every_events: 0,
            ..request()
        };
        let s = run(Session::start(req).unwrap());
        let opts = sendpath_core::RunOptions {
            variant: variant.map(str::to_string),
            ..Default::default()
        };
        let direct = sendpath_core::run_source(NAGLE, "nagle", &opts)
            .unwrap()
            .result;
        (s, direct)
    }

    #[test]
    fn a_full_session_ends_with_exactly_what_run_source_computes() {
        for variant in [None, Some("no_delay")] {
            let (s, direct) = full_nagle(variant);
            assert_eq!(s.summary().result, direct);
            assert!(!s.summary().cut);
        }
    }

    #[test]
    fn a_full_session_reads_the_metrics_sendpath_compare_reads() {
        let (s, direct) = full_nagle(Some("no_delay"));
        for name in [
            "elapsed_s",
            "localhost:IpOutRequests",
            "localhost:IpExtOutOctets",
        ] {
            assert_eq!(
                s.metric(name),
                sendpath_core::metric(&direct, name),
                "{name}"
            );
        }
        assert!(s.metric("localhost:IpOutRequests").unwrap() > 1000.0);
        assert_eq!(s.metric("no_such_metric"), None);
        assert_eq!(s.metric("localhost:NoSuchCounter"), None);
    }

    /// The TSO lesson's slow-start step (3.19, 40 .. 250 ms): a burst of segments once the
    /// handshake is done, then nothing until its ACKs come back an RTT (40 ms) later.
    fn tso_slow_start(sample_every_events: u64, sample_every_ns: u64) -> SessionRequest {
        SessionRequest {
            source: include_str!("../../../scenarios/tso-autosizing.toml").to_string(),
            file: "scenarios/tso-autosizing.toml".to_string(),
            variant: Some("after".to_string()),
            from_ns: 40_000_000,
            to_ns: Some(250_000_000),
            sample_every_events,
            sample_every_ns,
            ..request()
        }
    }

    /// Every instant with an event, and the counters after its last event, laid out as a
    /// sample without its time: the truth a sample for a time is checked against.
    fn counters_after_each_instant(req: SessionRequest) -> Vec<(u64, Vec<f64>)> {
        let mut s = Session::start(req).unwrap();
        let mut out: Vec<(u64, Vec<f64>)> = Vec::new();
        while !s.advance(1) {
            let w = &s.world;
            let mut row = Vec::new();
            for (i, h) in w.hosts.iter().enumerate() {
                row.extend(Mib::ALL.iter().map(|&m| h.mib.get(m) as f64));
                row.push(w.tcp_mem_pages(i as u16) as f64);
            }
            for a in &w.apps {
                row.extend([a.bytes_written as f64, a.bytes_read as f64]);
            }
            match out.last_mut() {
                Some((t, last)) if *t == w.now_ns => *last = row,
                _ => out.push((w.now_ns, row)),
            }
        }
        out
    }

    /// The sample the site shows for time `t` (`model/counters.ts`, `sampleAt`: the last
    /// sample at or before `t`), without its time.
    fn sample_for(s: &Session, t: u64) -> &[f64] {
        let stride = s.layout.stride as usize;
        let rows: Vec<&[f64]> = s.samples().chunks(stride).collect();
        let i = rows.partition_point(|r| r[0] <= t as f64).max(1) - 1;
        &rows[i][1..]
    }

    #[test]
    fn the_counters_for_a_time_after_a_burst_are_those_after_its_last_event() {
        let truth = counters_after_each_instant(tso_slow_start(100, 0));
        // The sender's TcpOutSegs within a sample without its time.
        let probe = Session::start(tso_slow_start(100, 0)).unwrap();
        let sender = probe
            .layout
            .hosts
            .iter()
            .position(|h| h == "sender")
            .unwrap();
        let segs = sender * (Mib::ALL.len() + 1)
            + Mib::ALL
                .iter()
                .position(|m| m.name() == "TcpOutSegs")
                .unwrap();
        for (every_events, every_ns) in [(100, 0), (0, 1_000_000)] {
            let req = tso_slow_start(every_events, every_ns);
            let (from, to) = (req.from_ns, req.to_ns.unwrap());
            let s = run(Session::start(req).unwrap());
            let mode = format!("sampling every {every_events} events / {every_ns} ns");
            // The first burst in the window: the first instant followed by 1 ms without events.
            let burst = truth
                .windows(2)
                .find(|p| p[0].0 >= from && p[1].0 - p[0].0 >= 1_000_000)
                .map(|p| (p[0].0, p[1].0))
                .unwrap();
            let t = (burst.0 + burst.1) / 2;
            let sent = truth.iter().rfind(|(u, _)| *u <= t).unwrap().1[segs];
            assert!(sent >= 10.0, "only {sent} segments out by {t} ns");
            assert_eq!(
                sample_for(&s, t)[segs],
                sent,
                "{mode}: TcpOutSegs at {t} ns, after the burst that ended at {} ns",
                burst.0
            );
            // Every counter, every 50 us of the window, once the last event is a gap back.
            let gap = if every_ns > 0 {
                every_ns
            } else {
                (to - from) / GAP_SAMPLES_PER_WINDOW
            };
            let mut checked = 0;
            for t in (from..to).step_by(50_000) {
                let (t_e, want) = truth.iter().rfind(|(u, _)| *u <= t).unwrap();
                if t - t_e >= gap {
                    assert_eq!(sample_for(&s, t), &want[..], "{mode}: at {t} ns");
                    checked += 1;
                }
            }
            assert!(checked > 1000, "{mode}: only {checked} instants checked");
            // Bounded: the samples by events or time, and about one per gap.
            let samples = s.samples().len() / s.layout.stride as usize;
            let events = s.summary().result.events;
            let by_rule = events
                .checked_div(every_events)
                .unwrap_or_else(|| to / every_ns);
            assert!(
                samples as u64 <= by_rule + 2 * (to - from) / gap + 3,
                "{mode}: {samples} samples for {events} events"
            );
        }
    }

    #[test]
    fn a_bad_value_is_reported_with_the_file_and_the_key() {
        let mut req = request();
        req.sets = vec!["net.ipv4.tcp_autocorking=7".into()];
        let err = Session::start(req).err().unwrap();
        assert!(
            err.starts_with("scenarios/autocorking.toml: net.ipv4.tcp_autocorking: "),
            "{err}"
        );
    }
}
