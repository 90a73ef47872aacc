//! sendpath-core: a deterministic discrete-event model of the Linux TCP send path.
//!
//! Every decision the kernel makes on the send path is made here by a function named after the
//! kernel function that makes it. Modules are named after kernel files (`tcp_output`,
//! `sch_fq`, `dynamic_queue_limits`, ...). Pure Rust: no wasm or JavaScript dependency; the
//! `sendpath-wasm` crate exposes it to the site and `sendpath-cli` to the shell.
//!
//! Entry point: [`run_source`] parses a scenario (TOML, see `docs/scenario-format.md`), applies
//! a variant and `--set` overrides, runs it and returns the [`RunResult`] and the event stream.

pub mod conform;
pub mod diff;
pub mod drivers;
pub mod include;
pub mod kernel;
#[path = "lib/mod.rs"]
pub mod lib;
pub mod net;
pub mod packetdrill;
pub mod path;
pub mod pcap;
pub mod scenario;
pub mod sim;
pub mod sweep;
pub mod trace;

use std::collections::BTreeMap;

pub use scenario::{Config, Scenario, ScenarioError};
pub use sim::result::{AppResult, HostResult, RunResult, SockInfo};

/// The engine's version, shown by the site and `sendpath --version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How to run a scenario.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Variant to apply (`[variants.NAME]`), if any.
    pub variant: Option<String>,
    /// `KEY=VALUE` / `HOST:KEY=VALUE` overrides.
    pub sets: Vec<String>,
    /// Record the event stream.
    pub trace: bool,
    /// Stop recording after this many events (0 = 2 million).
    pub trace_limit: usize,
    /// Record only events in `[from_ns, to_ns)` (the run itself always covers the whole
    /// duration).
    pub trace_window: Option<(u64, u64)>,
    /// Record every packet the devices put on their wires, for a pcapng file
    /// ([`RunOutput::pcap`]).
    pub pcap: bool,
    /// Read the whole event stream for the run's summary (`RunResult::summary`): figures per
    /// flow, backlog over the run, holds per gate ([`trace::summary`]).
    pub summary: bool,
    /// With `summary`: sample the time series every this many ns (0 = none).
    pub series_interval_ns: u64,
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub result: RunResult,
    pub trace: trace::Trace,
    /// The packets and endpoints of the run, with [`RunOptions::pcap`].
    pub pcap: Option<pcap::Pcap>,
    /// The time series, when `RunOptions::series_interval_ns` asked for one.
    pub series: Option<trace::summary::Series>,
}

/// Parse `src` (named `file` in errors), resolve it with `opts` and run it.
pub fn run_source(src: &str, file: &str, opts: &RunOptions) -> Result<RunOutput, ScenarioError> {
    let sc = Scenario::parse(src, file)?;
    let cfg = sc.config(opts.variant.as_deref(), &opts.sets)?;
    Ok(run_config(cfg, opts))
}

/// Run a resolved configuration.
pub fn run_config(cfg: Config, opts: &RunOptions) -> RunOutput {
    let mut w = start_run(cfg, opts);
    w.run();
    finish_run(w)
}

/// The world of a run of `cfg` with `opts`' trace, tap and summary set up, before its first
/// event: [`run_config`] runs it through; the site's summary job runs it in slices
/// (`World::step`) and then hands it to [`finish_run`].
pub fn start_run(cfg: Config, opts: &RunOptions) -> sim::world::World {
    let limit = if opts.trace_limit == 0 {
        2_000_000
    } else {
        opts.trace_limit
    };
    let mut tr = trace::Trace::new(opts.trace, limit);
    if let Some((from, to)) = opts.trace_window {
        tr.window = (from, to);
    }
    if opts.pcap {
        tr.capture = Some(pcap::Tap::new(pcap::DEFAULT_TAP_LIMIT));
    }
    if opts.summary {
        tr.collector = Some(Box::new(trace::summary::Collector::new(
            opts.series_interval_ns,
        )));
    }
    sim::world::World::new(cfg, tr)
}

/// The output of a run [`start_run`] began, once it is over: its result, with the summary and
/// the time series when asked for, the trace and the packets.
pub fn finish_run(mut w: sim::world::World) -> RunOutput {
    let mut result = result_of(&w);
    let mut series = None;
    if let Some(c) = w.stack.trace.collector.take() {
        let end_ns = elapsed_ns(&w);
        let socks = &result.sockets;
        let (summary, s) = c.finish(
            end_ns,
            |sk| {
                socks
                    .get(sk as usize)
                    .map(|i| (i.peer, i.flow, i.app.clone()))
            },
            &result.host_names,
        );
        result.summary = Some(summary);
        series = s;
    }
    let pcap = w.stack.trace.capture.take().map(|tap| {
        if tap.truncated {
            result.warnings.push(format!(
                "the packet capture stopped after {} packets (the run went on)",
                tap.limit
            ));
        }
        pcap::Pcap {
            tap,
            meta: pcap::Meta::of(&w),
        }
    });
    RunOutput {
        result,
        trace: w.stack.trace,
        pcap,
        series,
    }
}

/// The span a run's figures cover: until the workload finished, or the duration.
pub fn elapsed_ns(w: &sim::world::World) -> u64 {
    if w.finished() {
        w.apps
            .iter()
            .filter_map(|a| a.finished_ns)
            .max()
            .unwrap_or(w.now_ns)
    } else {
        w.end_ns
    }
}

/// The [`RunResult`] of a world at the end of its run.
pub fn result_of(w: &sim::world::World) -> RunResult {
    let finished = w.finished();
    let elapsed_ns = elapsed_ns(w);
    let elapsed_s = elapsed_ns as f64 / 1e9;
    let mut hosts = BTreeMap::new();
    for (i, h) in w.hosts.iter().enumerate() {
        hosts.insert(
            h.name.clone(),
            HostResult {
                counters: h
                    .mib
                    .nonzero()
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
                tcp_mem_pages: w.tcp_mem_pages(i as u16),
                tcp_mem_pages_avg: if h.mem_samples > 0 {
                    h.mem_pages_sum as f64 / h.mem_samples as f64
                } else {
                    0.0
                },
                qdisc: match h.dev.qdisc {
                    net::sched::sch_api::Qdisc::Noqueue => None,
                    ref q => Some(q.stats()),
                },
                cpus_utilized: w.cpus[i].utilization(elapsed_ns),
                nic: (!w.cfg.link.loopback && !w.cfg.link.veth).then(|| h.dev.stats()),
                bottleneck: h
                    .link_out
                    .and_then(|l| w.links[l as usize].bottleneck.as_ref())
                    .map(|b| b.stats.clone()),
            },
        );
    }
    // The bytes of an application's peer (the other end of its connection) read: what of its
    // writes reached the other application.
    let delivered = |a: &sim::app::App| -> u64 {
        let peer_sk = w.socks[a.sk as usize].peer;
        let peer_app = w.socks[peer_sk as usize].app;
        w.apps[peer_app as usize].bytes_read
    };
    let apps = w
        .apps
        .iter()
        .map(|a| {
            let end = a.finished_ns.unwrap_or(elapsed_ns);
            let dur = end.saturating_sub(a.started_ns.unwrap_or(0));
            AppResult {
                host: w.hosts[a.host as usize].name.clone(),
                kind: a.role.name().to_string(),
                flow: a.flow,
                bytes_written: a.bytes_written,
                bytes_read: a.bytes_read,
                // What arrived, not what the send buffer accepted: bytes still queued at the
                // sender when the run ends are not throughput (sp-tcp --drain and netperf stop
                // their clocks once the data is delivered).
                throughput_bps: if elapsed_ns > 0 {
                    delivered(a) as f64 * 8.0 / (elapsed_ns as f64 / 1e9)
                } else {
                    0.0
                },
                // Work still queued on the core at the end was not done within the run.
                cpu_s: a.cpu_ns.saturating_sub(
                    w.cpus[a.host as usize]
                        .core(a.core as usize)
                        .busy_until_ns
                        .saturating_sub(elapsed_ns),
                ) as f64
                    / 1e9,
                voluntary_ctxt_switches: a.voluntary_ctxt_switches,
                send_calls: a.send_calls,
                finished_s: a.finished_ns.map(|_| dur as f64 / 1e9),
            }
        })
        .collect();
    let mut warnings = w.warnings.clone();
    // The CPU model runs softirq work at the instant it is due and queues it on the flow's core;
    // if that alone needs more than the core, the core's backlog runs ahead of the clock.
    for (h, cpu) in w.hosts.iter().zip(&w.cpus) {
        for c in 0..cpu.cores() {
            let ahead = cpu.core(c).busy_until_ns.saturating_sub(elapsed_ns);
            if ahead > 10_000_000 {
                warnings.push(format!(
                    "core {c} of {} is saturated: {} ms of work were still queued at the end (the model runs softirq work on time and lets the core fall behind)",
                    h.name,
                    ahead / 1_000_000
                ));
            }
        }
    }
    // Every flow delivers, or the result says why (issue 15): a finite workload (app.bytes, or
    // the ping-pong's rounds) that did not finish, and a flow that delivered nothing.
    let finite = w.cfg.app.bytes > 0 || w.cfg.app.kind == scenario::AppKind::Pingpong;
    if !finished && finite {
        warnings.push(format!(
            "the workload did not finish within sim.duration_ms = {}",
            w.cfg.duration_ns / 1_000_000
        ));
    }
    let silent: Vec<u32> = w
        .apps
        .iter()
        .filter(|a| {
            matches!(
                a.role,
                sim::app::Role::StreamSender | sim::app::Role::PingpongServer
            )
        })
        .filter(|a| {
            let peer = w.socks[a.sk as usize].peer;
            w.apps[w.socks[peer as usize].app as usize].bytes_read == 0
        })
        .map(|a| a.flow)
        .collect();
    if !silent.is_empty() {
        warnings.push(format!(
            "flow{} {} delivered no byte to the application at the other end within sim.duration_ms = {} (the connection's first RTT, or a window of zero, takes longer)",
            if silent.len() == 1 { "" } else { "s" },
            silent.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
            w.cfg.duration_ns / 1_000_000
        ));
    }
    RunResult {
        elapsed_s,
        kernel: w.cfg.kernel.name().to_string(),
        variant: w.cfg.variant.clone(),
        hosts,
        host_names: w.hosts.iter().map(|h| h.name.clone()).collect(),
        sockets: w
            .socks
            .iter()
            .map(|s| {
                let a = &w.apps[s.app as usize];
                SockInfo {
                    host: s.host,
                    peer: s.peer,
                    flow: a.flow,
                    app: a.role.name().to_string(),
                    active: w.sock_is_active(s.id),
                }
            })
            .collect(),
        apps,
        events: w.events,
        warnings,
        summary: None,
    }
}

/// A named number of a run, for comparing with what a source document measured and for
/// sweeps: `elapsed_s`; `throughput_mbit` (sum over the stream senders); `cpu_per_byte_ns`
/// (the stream senders' CPU time per byte written); `ctxt_switches` (mean voluntary context
/// switches of the stream senders); `send_calls` (mean `send()` calls of the stream senders);
/// `<nstat counter>` (summed over the hosts); `HOST:tcp_mem_pages` (mean over the run);
/// `HOST:qdisc_backlog_bytes` (the qdisc's backlog at the end); `HOST:<nstat counter>`.
pub fn metric(r: &RunResult, name: &str) -> Option<f64> {
    let senders = || r.apps.iter().filter(|a| a.kind == "tcp_stream");
    match name {
        "elapsed_s" => Some(r.elapsed_s),
        "throughput_mbit" => Some(senders().map(|a| a.throughput_bps).sum::<f64>() / 1e6),
        "cpu_per_byte_ns" => {
            let bytes: u64 = senders().map(|a| a.bytes_written).sum();
            (bytes > 0).then(|| senders().map(|a| a.cpu_s).sum::<f64>() * 1e9 / bytes as f64)
        }
        "ctxt_switches" => {
            let n = senders().count();
            (n > 0).then(|| {
                senders()
                    .map(|a| a.voluntary_ctxt_switches as f64)
                    .sum::<f64>()
                    / n as f64
            })
        }
        "send_calls" => {
            let n = senders().count();
            (n > 0).then(|| senders().map(|a| a.send_calls as f64).sum::<f64>() / n as f64)
        }
        _ if !name.contains(':') => {
            let m = include::uapi::linux::snmp::Mib::ALL
                .iter()
                .find(|m| m.name() == name)?;
            Some(
                r.hosts
                    .values()
                    .map(|h| h.counters.get(m.name()).copied().unwrap_or(0) as f64)
                    .sum(),
            )
        }
        _ => {
            let (host, what) = name.split_once(':')?;
            let h = r.hosts.get(host)?;
            if what == "tcp_mem_pages" {
                Some(h.tcp_mem_pages_avg)
            } else if what == "qdisc_backlog_bytes" {
                // `tc -s qdisc`'s "backlog" at the end of the run; 0 without a qdisc.
                Some(h.qdisc.as_ref().map_or(0.0, |q| q.backlog_bytes as f64))
            } else {
                Some(h.counters.get(what).copied().unwrap_or(0) as f64)
            }
        }
    }
}

/// Whether `name` is a metric [`metric`] knows (counters are checked against the model's).
pub fn metric_name_is_valid(name: &str) -> bool {
    match name {
        "elapsed_s" | "throughput_mbit" | "cpu_per_byte_ns" | "ctxt_switches" | "send_calls" => {
            true
        }
        _ => match name.split_once(':') {
            Some((_, "tcp_mem_pages" | "qdisc_backlog_bytes")) => true,
            Some((_, c)) => include::uapi::linux::snmp::Mib::ALL
                .iter()
                .any(|m| m.name() == c),
            None => include::uapi::linux::snmp::Mib::ALL
                .iter()
                .any(|m| m.name() == name),
        },
    }
}
