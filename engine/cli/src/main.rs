//! `sendpath`: run scenarios of the Linux TCP send path model from the shell.
//!
//! ```text
//! sendpath run FILE [--variant NAME] [--set KEY=VALUE]... [--json] [--show-config]
//!              [--pcap OUT [--pcap-frames tso|wire] [--pcap-snaplen BYTES]]
//!              [--at TIME] [--csv PREFIX [--interval TIME]]
//! sendpath trace FILE [--variant NAME] [--set KEY=VALUE]... [--limit N]
//!              [--sk N]... [--skb N] [--func NAME] [--from TIME] [--to TIME]
//! sendpath skb FILE N [--variant NAME] [--set KEY=VALUE]...
//! sendpath diff FILE --kernel A --kernel B [--variant NAME] [--set KEY=VALUE]...
//! sendpath bench [FILE] [--set KEY=VALUE]... [--variant NAME] [--json]
//! sendpath compare FILE [--set KEY=VALUE]...
//! sendpath sweep FILE --vary KEY=A..B[:STEP|xFACTOR]... --metric NAME... [--csv|--json]
//! sendpath keys
//! sendpath --version
//! ```
//!
//! Bad input exits with status 2 and one line naming the file, the key and the reason. A closed
//! output pipe (`sendpath keys | head -1`) ends the program quietly with status 141, as a tool
//! killed by SIGPIPE; another write error exits with status 1.

use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::Instant;

mod conform;
mod diff;
mod packetdrill;
mod pcap;
mod progress;
mod skb;
mod summary;
mod sweep;
mod trace_cmd;
mod units;

use sendpath_core::scenario::MAX_SCENARIO_BYTES;
use sendpath_core::{run_config, run_source, RunOptions, RunOutput, RunResult, Scenario, VERSION};

pub(crate) const USAGE: &str = "usage:
  sendpath run FILE [--variant NAME] [--set KEY=VALUE]... [--json] [--show-config]
               [--pcap OUT.pcapng|- [--pcap-frames tso|wire] [--pcap-snaplen BYTES]]
               [--at TIME] [--csv PREFIX [--interval TIME]]   (TIME: 120ms, 1.5s, 250us)
  sendpath trace FILE [--variant NAME] [--set KEY=VALUE]... [--limit N]
               [--sk N]... [--skb N] [--func NAME] [--from TIME] [--to TIME]
  sendpath skb FILE N [--variant NAME] [--set KEY=VALUE]...   (one skb's life)
  sendpath diff FILE --kernel A --kernel B [--variant NAME] [--set KEY=VALUE]...
  sendpath bench [FILE] [--variant NAME] [--set KEY=VALUE]... [--json]
  sendpath compare FILE [--set KEY=VALUE]...   (model vs the source document's numbers)
  sendpath conform [DIR] [--json] [--only ID]...   (model vs recordings of a real kernel, and
      the packetdrill scripts of scenarios/packetdrill/ in the text report)
  sendpath packetdrill FILE.pkt... [--json]   (packetdrill scripts against the engine)
  sendpath sweep FILE --vary KEY=A..B[:STEP|xFACTOR]... --metric NAME... [--variant NAME]
               [--set KEY=VALUE]... [--jobs N] [--csv|--json]   (a grid of runs on every core)
  sendpath keys [--markdown]
  sendpath --version";

/// The benchmark's default workload: one 10 Gbit/s bulk flow for 20 simulated seconds
/// (`bench.toml`, which `npm run bench` runs in the wasm engine too).
const BENCH_SCENARIO: &str = include_str!("bench.toml");

struct Args {
    cmd: String,
    file: Option<String>,
    opts: RunOptions,
    json: bool,
    markdown: bool,
    show_config: bool,
    pcap: pcap::PcapArgs,
    at_ns: Option<u64>,
    csv: Option<String>,
    interval_ns: Option<u64>,
    filter: trace_cmd::Filter,
    skb: Option<u64>,
    kernels: Vec<String>,
}

/// The commands whose options `options_of` lists.
const COMMANDS: [&str; 7] = ["run", "trace", "skb", "diff", "bench", "compare", "keys"];

/// The options each command takes; any other is an error naming the option and the command.
fn options_of(cmd: &str) -> Option<&'static [&'static str]> {
    Some(match cmd {
        "run" => &[
            "--variant",
            "--set",
            "--json",
            "--show-config",
            "--pcap",
            "--pcap-frames",
            "--pcap-snaplen",
            "--at",
            "--csv",
            "--interval",
        ],
        "trace" => &[
            "--variant",
            "--set",
            "--limit",
            "--sk",
            "--skb",
            "--func",
            "--from",
            "--to",
        ],
        "skb" => &["--variant", "--set"],
        "diff" => &["--variant", "--set", "--kernel"],
        "bench" => &["--variant", "--set", "--json"],
        "compare" => &["--set"],
        "keys" => &["--markdown"],
        _ => return None,
    })
}

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
    let mut it = args.into_iter();
    let cmd = it.next().ok_or_else(|| USAGE.to_string())?;
    let allowed =
        options_of(&cmd).ok_or_else(|| format!("sendpath: unknown command {cmd}\n{USAGE}"))?;
    let mut a = Args {
        cmd: cmd.clone(),
        file: None,
        opts: RunOptions::default(),
        json: false,
        markdown: false,
        show_config: false,
        pcap: pcap::PcapArgs::default(),
        at_ns: None,
        csv: None,
        interval_ns: None,
        filter: Default::default(),
        skb: None,
        kernels: Vec::new(),
    };
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        if name.starts_with("--") && !allowed.contains(&name.as_str()) {
            let known = COMMANDS
                .iter()
                .filter_map(|c| options_of(c))
                .any(|opts| opts.contains(&name.as_str()));
            let what = if known {
                format!("sendpath {cmd}: {name} is not an option of {cmd}")
            } else {
                format!("sendpath {cmd}: unknown option {name}")
            };
            return Err(format!(
                "{what}; {cmd} takes {}\n{USAGE}",
                allowed.join(", ")
            ));
        }
        let mut value = |what: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("sendpath {cmd}: {name} needs {what}"))
        };
        match name.as_str() {
            "--json" | "--markdown" | "--show-config" if inline.is_some() => {
                return Err(format!("sendpath {cmd}: {name} takes no value"));
            }
            "--json" => a.json = true,
            "--markdown" => a.markdown = true,
            "--show-config" => a.show_config = true,
            "--variant" => a.opts.variant = Some(value("a NAME")?),
            "--set" => a.opts.sets.push(value("KEY=VALUE")?),
            "--pcap" | "--pcap-frames" | "--pcap-snaplen" => {
                let v = value("a value")?;
                a.pcap
                    .set(&name, &v)
                    .map_err(|e| format!("sendpath {cmd}: {name}: {e}"))?;
            }
            "--limit" => {
                let v = value("a number")?;
                a.opts.trace_limit = v
                    .parse()
                    .map_err(|_| format!("sendpath {cmd}: --limit: not a number: {v}"))?;
            }
            "--at" => a.at_ns = Some(units::parse_time("--at", &value("a TIME")?)?),
            "--csv" => a.csv = Some(value("a file PREFIX")?),
            "--interval" => {
                a.interval_ns = Some(units::parse_time("--interval", &value("a TIME")?)?)
            }
            "--sk" => a.filter.add_sks(&value("a socket number")?)?,
            "--skb" => {
                let v = value("an skb number")?;
                a.filter.skb = Some(parse_skb(&cmd, &v)?);
            }
            "--func" => a.filter.func = Some(value("a kernel function")?),
            "--from" => a.filter.from_ns = Some(units::parse_time("--from", &value("a TIME")?)?),
            "--to" => a.filter.to_ns = Some(units::parse_time("--to", &value("a TIME")?)?),
            "--kernel" => a.kernels.push(value("a kernel version")?),
            s if cmd == "skb" && a.file.is_some() && a.skb.is_none() => {
                a.skb = Some(parse_skb(&cmd, s)?);
            }
            s => {
                let takes_file = !matches!(cmd.as_str(), "keys");
                if a.file.is_some() || !takes_file {
                    return Err(format!("sendpath {cmd}: unexpected argument {s}\n{USAGE}"));
                }
                a.file = Some(s.to_string());
            }
        }
    }
    Ok(a)
}

/// An skb number: `42` or `skb#42`.
fn parse_skb(cmd: &str, v: &str) -> Result<u64, String> {
    v.trim_start_matches("skb")
        .trim_start_matches('#')
        .parse()
        .map_err(|_| format!("sendpath {cmd}: not an skb number: {v} (write 42 or skb#42)"))
}

/// A failed command: bad input (status 2) or output that could not be written.
enum Fail {
    Input(String),
    Io(io::Error),
}

impl From<String> for Fail {
    fn from(s: String) -> Fail {
        Fail::Input(s)
    }
}

impl From<&str> for Fail {
    fn from(s: &str) -> Fail {
        Fail::Input(s.to_string())
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Fail {
        Fail::Io(e)
    }
}

/// The exit of a write error: quiet on a closed pipe (141, the status of a tool killed by
/// SIGPIPE, as `yes | head -1` gives), one line otherwise.
pub(crate) fn write_failed(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::from(141);
    }
    let _ = writeln!(io::stderr(), "sendpath: cannot write the output: {e}");
    ExitCode::from(1)
}

/// Write `text` to standard output (a closed pipe is an error the caller ends quietly on).
fn print_out(text: &str) -> ExitCode {
    let mut o = io::stdout().lock();
    match o.write_all(text.as_bytes()).and_then(|_| o.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(&e),
    }
}

/// Read a scenario file: at most [`MAX_SCENARIO_BYTES`] of UTF-8 text (so `/dev/zero` or a
/// binary file is an error, not a hang).
pub(crate) fn read(file: &str) -> Result<String, String> {
    let cannot = |e: io::Error| format!("{file}: cannot read: {e}");
    let f = std::fs::File::open(file).map_err(cannot)?;
    let mut bytes = Vec::new();
    f.take(MAX_SCENARIO_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    sendpath_core::scenario::decode(&bytes, file)
        .map(str::to_string)
        .map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("--version") => return print_out(&format!("sendpath {VERSION}\n")),
        Some("--help" | "-h" | "help") => return print_out(&format!("{USAGE}\n")),
        Some("conform") => return conform_main(std::env::args().skip(2).collect()),
        Some("packetdrill") => return packetdrill::main(std::env::args().skip(2).collect()),
        Some("sweep") => return sweep::main(std::env::args().skip(2).collect()),
        _ => {}
    }
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    match run(args, &mut out).and_then(|()| out.flush().map_err(Fail::Io)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail::Io(e)) => write_failed(&e),
        Err(Fail::Input(e)) => {
            // What was printed before the error still reaches the reader.
            if let Err(e) = out.flush() {
                return write_failed(&e);
            }
            eprintln!("sendpath: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs a scenario; a run large enough to take a minute or more says so on stderr before it
/// starts (the result repeats it among its warnings).
fn run_announced(src: &str, file: &str, opts: &RunOptions) -> Result<RunOutput, Fail> {
    let sc = Scenario::parse(src, file).map_err(|e| e.to_string())?;
    let cfg = sc
        .config(opts.variant.as_deref(), &opts.sets)
        .map_err(|e| e.to_string())?;
    for w in cfg
        .warnings
        .iter()
        .filter(|w| w.contains("the run size limit"))
    {
        eprintln!("sendpath: warning: {w}");
    }
    Ok(run_config(cfg, opts))
}

fn run(mut args: Args, o: &mut impl Write) -> Result<(), Fail> {
    match args.cmd.as_str() {
        "run" => {
            let file = args.file.ok_or("run needs a scenario FILE")?;
            let src = read(&file)?;
            if args.show_config {
                return show_config(o, &src, &file, &args.opts);
            }
            if let Some(at_ns) = args.at_ns {
                return at(o, &src, &file, &args.opts, at_ns);
            }
            if args.interval_ns.is_some() && args.csv.is_none() {
                return Err(
                    "run: --interval sets the --csv time series' step; give --csv PREFIX too"
                        .into(),
                );
            }
            args.opts.summary = true;
            if args.csv.is_some() {
                args.opts.series_interval_ns = args.interval_ns.unwrap_or(1_000_000).max(1);
            }
            args.opts.pcap = args.pcap.out.is_some();
            let out = run_announced(&src, &file, &args.opts)?;
            if let (Some(prefix), Some(series)) = (&args.csv, &out.series) {
                for name in summary::write_csv(prefix, series, &out.result)? {
                    eprintln!("sendpath: wrote {name}");
                }
            }
            if args.pcap.write(&out, o)? {
                // The file went to standard output: the results go to standard error.
                return report(&mut io::stderr().lock(), &out.result, args.json);
            }
            report(o, &out.result, args.json)
        }
        "trace" => {
            let file = args.file.ok_or("trace needs a scenario FILE")?;
            let src = read(&file)?;
            trace_cmd::run(o, &file, &src, args.opts, &args.filter)
        }
        "skb" => {
            let file = args
                .file
                .ok_or("skb needs a scenario FILE and an skb number")?;
            let n = args
                .skb
                .ok_or("skb needs an skb number after the FILE: sendpath skb FILE 42")?;
            let src = read(&file)?;
            skb::run(o, &file, &src, args.opts, n)
        }
        "diff" => {
            let file = args.file.ok_or("diff needs a scenario FILE")?;
            let src = read(&file)?;
            diff::run(o, &file, &src, &args.opts, &args.kernels)
        }
        "bench" => {
            let (src, file) = match args.file {
                Some(f) => (read(&f)?, f),
                None => (BENCH_SCENARIO.to_string(), "<bench>".to_string()),
            };
            // Warm-up run, then the measured run.
            let _ = run_source(&src, &file, &args.opts).map_err(|e| e.to_string())?;
            let (t0, c0) = (Instant::now(), thread_cpu_s());
            let out = run_source(&src, &file, &args.opts).map_err(|e| e.to_string())?;
            let wall = t0.elapsed().as_secs_f64();
            let cpu = thread_cpu_s().zip(c0).map(|(a, b)| a - b);
            let r = &out.result;
            if args.json {
                // What `npm run bench` reads (scripts/bench/engine.mjs): the measured run's
                // events, times and the skbs IP sent (every host's IpOutRequests), whose ratio
                // to the events is the engine's work per packet.
                let skbs: u64 = r
                    .hosts
                    .values()
                    .map(|h| h.counters.get("IpOutRequests").copied().unwrap_or(0))
                    .sum();
                let v = serde_json::json!({
                    "scenario": file,
                    "variant": args.opts.variant,
                    "simulated_s": r.elapsed_s,
                    "events": r.events,
                    "skbs": skbs,
                    "wall_s": wall,
                    "cpu_s": cpu,
                });
                writeln!(o, "{v}")?;
                return Ok(());
            }
            writeln!(o, "scenario         {file}")?;
            writeln!(o, "simulated        {:.3} s", r.elapsed_s)?;
            writeln!(
                o,
                "events           {} (scheduled events processed)",
                r.events
            )?;
            writeln!(o, "wall time        {:.3} s", wall)?;
            writeln!(o, "events per sec   {:.0} (wall)", r.events as f64 / wall)?;
            if let Some(cpu) = cpu.filter(|c| *c > 0.0) {
                writeln!(o, "cpu time         {:.3} s", cpu)?;
                writeln!(o, "events per cpu-s {:.0}", r.events as f64 / cpu)?;
            }
            writeln!(o, "sim/wall ratio   {:.3}", r.elapsed_s / wall)?;
            Ok(())
        }
        "compare" => {
            let file = args.file.ok_or("compare needs a scenario FILE")?;
            let src = read(&file)?;
            let sc = sendpath_core::Scenario::parse(&src, &file).map_err(|e| e.to_string())?;
            let source = sc
                .source
                .clone()
                .ok_or_else(|| format!("{file}: has no [source] measurements"))?;
            writeln!(o, "{}\n", source.name)?;
            writeln!(
                o,
                "{:<22} {:<26} {:>14} {:>14} {:>9}",
                "variant", "metric", "source", "model", "model/src"
            )?;
            let mut results = std::collections::BTreeMap::new();
            for (variant, vals) in &source.values {
                let mut opts = args.opts.clone();
                opts.variant = Some(variant.clone());
                let out = run_source(&src, &file, &opts).map_err(|e| e.to_string())?;
                for (m, want) in vals {
                    let got = sendpath_core::metric(&out.result, m).unwrap_or(f64::NAN);
                    writeln!(
                        o,
                        "{:<22} {:<26} {:>14} {:>14} {:>9.2}",
                        variant,
                        m,
                        fmt_num(*want),
                        fmt_num(got),
                        got / want
                    )?;
                }
                results.insert(variant.clone(), out.result);
            }
            for (a, b) in &source.compare {
                let (va, vb) = (
                    source.values.iter().find(|(v, _)| v == a),
                    source.values.iter().find(|(v, _)| v == b),
                );
                if let (Some((_, ma)), Some((_, mb))) = (va, vb) {
                    for (m, sa) in ma {
                        if let Some((_, sb)) = mb.iter().find(|(n, _)| n == m) {
                            let ra = sendpath_core::metric(&results[a], m).unwrap_or(f64::NAN);
                            let rb = sendpath_core::metric(&results[b], m).unwrap_or(f64::NAN);
                            writeln!(
                                o,
                                "{:<22} {:<26} {:>14} {:>14}",
                                format!("{a}/{b}"),
                                m,
                                format!("{:.3}", sa / sb),
                                format!("{:.3}", ra / rb)
                            )?;
                        }
                    }
                }
            }
            Ok(())
        }
        "keys" if args.markdown => {
            write!(o, "{}", sendpath_core::scenario::keys::markdown_table())?;
            Ok(())
        }
        "keys" => {
            for k in sendpath_core::scenario::keys::KEYS {
                writeln!(o, "{:<34} {:<18} {}", k.name, k.group.name(), k.doc)?;
            }
            Ok(())
        }
        _ => Err(format!("unknown command {}\n{USAGE}", args.cmd).into()),
    }
}

/// `run`'s results: the summary, or with `--json` the whole result.
fn report(o: &mut impl Write, r: &RunResult, json: bool) -> Result<(), Fail> {
    if json {
        let json = serde_json::to_string_pretty(r).expect("results serialize");
        writeln!(o, "{json}")?;
    } else {
        print_summary(o, r)?;
        if let Some(s) = &r.summary {
            summary::print(o, s)?;
        }
    }
    Ok(())
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 || x.abs() >= 1000.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

fn print_summary(o: &mut impl Write, r: &RunResult) -> io::Result<()> {
    // Warnings first: a key the kernel ignores or a run that stopped early changes every
    // figure below.
    for w in &r.warnings {
        writeln!(o, "warning: {w}")?;
    }
    writeln!(
        o,
        "kernel {}{}",
        r.kernel,
        r.variant
            .as_ref()
            .map(|v| format!(", variant {v}"))
            .unwrap_or_default()
    )?;
    writeln!(o, "elapsed {:.6} s, {} events", r.elapsed_s, r.events)?;
    for a in &r.apps {
        writeln!(
            o,
            "app {:<20} {:<9} flow {:<3} wrote {:>12} B read {:>12} B  {:>10.2} Mbit/s  cpu {:.3} s  nvcsw {}{}",
            a.kind,
            a.host,
            a.flow,
            a.bytes_written,
            a.bytes_read,
            a.throughput_bps / 1e6,
            a.cpu_s,
            a.voluntary_ctxt_switches,
            a.finished_s.map(|f| format!("  finished after {f:.3} s")).unwrap_or_default()
        )?;
    }
    for (name, h) in &r.hosts {
        writeln!(
            o,
            "\n# host {name}: tcp_mem_pages {} (avg {:.0}), cpus utilized {:.3}",
            h.tcp_mem_pages, h.tcp_mem_pages_avg, h.cpus_utilized
        )?;
        // The layout `nstat -a` prints, in /proc/net/snmp + netstat order.
        writeln!(o, "#kernel")?;
        for m in sendpath_core::include::uapi::linux::snmp::Mib::ALL {
            if let Some(v) = h.counters.get(m.name()) {
                writeln!(o, "{:<32}{v:<16}{:6.1}", m.name(), 0.0)?;
            }
        }
        if let Some(b) = &h.bottleneck {
            writeln!(
                o,
                "# path from {name}: bottleneck {} Mbit/s, queue {} packets: {} packets forwarded, {} dropped, queue peak {}",
                b.rate_bps / 1_000_000,
                b.queue_packets,
                b.packets,
                b.drops,
                b.max_queue_packets
            )?;
        }
    }
    Ok(())
}

/// `run FILE --at TIME`: the sockets as `ss -tin` and the qdiscs as `tc -s qdisc show` would
/// print them at that instant.
fn at(
    o: &mut impl Write,
    src: &str,
    file: &str,
    opts: &RunOptions,
    at_ns: u64,
) -> Result<(), Fail> {
    let sc = Scenario::parse(src, file).map_err(|e| e.to_string())?;
    let cfg = sc
        .config(opts.variant.as_deref(), &opts.sets)
        .map_err(|e| e.to_string())?;
    let text = sendpath_core::sim::snapshot::at_report(file, cfg, at_ns)?;
    write!(o, "{text}")?;
    Ok(())
}

/// `run FILE --show-config`: the resolved configuration, one line per key (per host where the
/// hosts differ), with where each value came from; the warnings first.
fn show_config(o: &mut impl Write, src: &str, file: &str, opts: &RunOptions) -> Result<(), Fail> {
    let sc = sendpath_core::Scenario::parse(src, file).map_err(|e| e.to_string())?;
    let (lines, warnings) = sc
        .show_config(opts.variant.as_deref(), &opts.sets)
        .map_err(|e| e.to_string())?;
    for w in &warnings {
        writeln!(o, "warning: {w}")?;
    }
    for l in &lines {
        let key = match &l.host {
            Some(h) => format!("{h}:{}", l.key),
            None => l.key.to_string(),
        };
        let value = if l.value.is_empty() {
            "\"\"".to_string()
        } else {
            l.value.clone()
        };
        writeln!(o, "{key:<44} {value:<28} {}", l.origin)?;
    }
    Ok(())
}

/// This thread's CPU time in seconds, to the nanosecond (Linux `/proc/thread-self/schedstat`:
/// time on a CPU, time waiting, timeslices), so the benchmark can be read on a machine that
/// other jobs load. The simulation runs on this thread.
fn thread_cpu_s() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let on_cpu_ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(on_cpu_ns as f64 / 1e9)
}

/// `sendpath conform [DIR] [--json] [--only ID]...`: exit 0 when every value is in band or
/// carries a known failure, 1 when not, 2 on bad input.
fn conform_main(args: Vec<String>) -> ExitCode {
    let mut dir = None;
    let mut json = false;
    let mut only = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--only" => match it.next() {
                Some(id) => only.push(id),
                None => {
                    eprintln!("sendpath conform: --only needs an experiment ID");
                    return ExitCode::from(2);
                }
            },
            s if s.starts_with("--") => {
                eprintln!("sendpath conform: unknown option {s}\n{USAGE}");
                return ExitCode::from(2);
            }
            s if dir.is_none() => dir = Some(std::path::PathBuf::from(s)),
            s => {
                eprintln!("sendpath conform: unexpected argument {s}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let dir = dir.map(Ok).unwrap_or_else(conform::default_dir);
    let pkt_dir = dir.as_ref().ok().and_then(|d| packetdrill::dir_beside(d));
    let rows = dir.and_then(|d| conform::rows(&d, &only));
    let rows = match rows {
        Ok(r) => r,
        Err(e) => {
            eprintln!("sendpath conform: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut text, mut pass) = if json {
        let mut t = serde_json::to_string_pretty(&rows).expect("rows serialize");
        t.push('\n');
        (t, conform::passes(&rows))
    } else {
        conform::table(&rows)
    };
    if !json && only.is_empty() {
        match pkt_dir.map(|d| packetdrill::conform_section(&d)) {
            Some(Ok((t, ok))) => {
                text.push_str(&t);
                pass &= ok;
            }
            Some(Err(e)) => {
                eprintln!("sendpath conform: {e}");
                return ExitCode::from(2);
            }
            None => {}
        }
    }
    // A closed pipe ends quietly, as for every other command.
    let mut o = io::stdout().lock();
    if let Err(e) = o.write_all(text.as_bytes()).and_then(|_| o.flush()) {
        return write_failed(&e);
    }
    if pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
