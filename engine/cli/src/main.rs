//! `sendpath`: run scenarios of the Linux TCP send path model from the shell.
//!
//! ```text
//! sendpath run FILE [--variant NAME] [--set KEY=VALUE]... [--json]
//! sendpath trace FILE [--variant NAME] [--set KEY=VALUE]... [--limit N]
//! sendpath bench [FILE] [--set KEY=VALUE]... [--variant NAME]
//! sendpath compare FILE [--set KEY=VALUE]...
//! sendpath keys
//! sendpath --version
//! ```
//!
//! Bad input exits with status 2 and one line naming the file, the key and the reason.

use std::process::ExitCode;
use std::time::Instant;

mod conform;

use sendpath_core::{run_source, RunOptions, RunResult, VERSION};

const USAGE: &str = "usage:
  sendpath run FILE [--variant NAME] [--set KEY=VALUE]... [--json]
  sendpath trace FILE [--variant NAME] [--set KEY=VALUE]... [--limit N]
  sendpath bench [FILE] [--variant NAME] [--set KEY=VALUE]...
  sendpath compare FILE [--set KEY=VALUE]...   (model vs the source document's numbers)
  sendpath conform [DIR] [--json] [--only ID]...   (model vs recordings of a real kernel)
  sendpath keys [--markdown]
  sendpath --version";

/// The benchmark's default workload: one 10 Gbit/s bulk flow for 20 simulated seconds.
const BENCH_SCENARIO: &str = r#"
title = "benchmark: one 10 Gbit/s bulk flow"
kernel = "6.18"
[sim]
duration_ms = 20000
[link]
rate_mbit = 10000
delay_us = 50
[app]
kind = "tcp_stream"
write_size_bytes = 65536
"#;

struct Args {
    cmd: String,
    file: Option<String>,
    opts: RunOptions,
    json: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let cmd = it.next().ok_or_else(|| USAGE.to_string())?;
    let mut a = Args {
        cmd,
        file: None,
        opts: RunOptions::default(),
        json: false,
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--json" => a.json = true,
            "--markdown" => {}
            "--variant" => a.opts.variant = Some(it.next().ok_or("--variant needs a NAME")?),
            "--set" => a.opts.sets.push(it.next().ok_or("--set needs KEY=VALUE")?),
            "--limit" => {
                let v = it.next().ok_or("--limit needs a number")?;
                a.opts.trace_limit = v
                    .parse()
                    .map_err(|_| format!("--limit: not a number: {v}"))?;
            }
            s if s.starts_with("--set=") => a.opts.sets.push(s[6..].to_string()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            s => {
                if a.file.is_some() {
                    return Err(format!("unexpected argument {s}\n{USAGE}"));
                }
                a.file = Some(s.to_string());
            }
        }
    }
    Ok(a)
}

fn read(file: &str) -> Result<String, String> {
    std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read: {e}"))
}

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("--version") => {
            println!("sendpath {VERSION}");
            return ExitCode::SUCCESS;
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some("conform") => return conform_main(std::env::args().skip(2).collect()),
        _ => {}
    }
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sendpath: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(mut args: Args) -> Result<(), String> {
    match args.cmd.as_str() {
        "run" => {
            let file = args.file.ok_or("run needs a scenario FILE")?;
            let src = read(&file)?;
            let out = run_source(&src, &file, &args.opts).map_err(|e| e.to_string())?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&out.result).unwrap());
            } else {
                print_summary(&out.result);
            }
            Ok(())
        }
        "trace" => {
            let file = args.file.ok_or("trace needs a scenario FILE")?;
            let src = read(&file)?;
            args.opts.trace = true;
            let out = run_source(&src, &file, &args.opts).map_err(|e| e.to_string())?;
            let hosts = &out.result.host_names;
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            use std::io::Write;
            for r in &out.trace.records {
                let host = hosts.get(r.host as usize).map_or("?", |h| h.as_str());
                let sk = if r.sk == sendpath_core::include::linux::skbuff::NO_SOCK {
                    "-".to_string()
                } else {
                    format!("sk{}", r.sk)
                };
                let _ = writeln!(
                    stdout,
                    "{:>12.6} {:<9} {:<5} {:<26} {}",
                    r.t_ns as f64 / 1e6,
                    host,
                    sk,
                    r.ev.func(),
                    r.ev.describe()
                );
            }
            if out.trace.truncated {
                let _ = writeln!(
                    stdout,
                    "# trace truncated at {} events (--limit)",
                    out.trace.records.len()
                );
            }
            Ok(())
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
            println!("scenario         {file}");
            println!("simulated        {:.3} s", r.elapsed_s);
            println!("events           {} (scheduled events processed)", r.events);
            println!("wall time        {:.3} s", wall);
            println!("events per sec   {:.0} (wall)", r.events as f64 / wall);
            if let Some(cpu) = cpu.filter(|c| *c > 0.0) {
                println!("cpu time         {:.3} s", cpu);
                println!("events per cpu-s {:.0}", r.events as f64 / cpu);
            }
            println!("sim/wall ratio   {:.3}", r.elapsed_s / wall);
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
            println!("{}\n", source.name);
            println!(
                "{:<22} {:<26} {:>14} {:>14} {:>9}",
                "variant", "metric", "source", "model", "model/src"
            );
            let mut results = std::collections::BTreeMap::new();
            for (variant, vals) in &source.values {
                let mut opts = args.opts.clone();
                opts.variant = Some(variant.clone());
                let out = run_source(&src, &file, &opts).map_err(|e| e.to_string())?;
                for (m, want) in vals {
                    let got = sendpath_core::metric(&out.result, m).unwrap_or(f64::NAN);
                    println!(
                        "{:<22} {:<26} {:>14} {:>14} {:>9.2}",
                        variant,
                        m,
                        fmt_num(*want),
                        fmt_num(got),
                        got / want
                    );
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
                            println!(
                                "{:<22} {:<26} {:>14} {:>14}",
                                format!("{a}/{b}"),
                                m,
                                format!("{:.3}", sa / sb),
                                format!("{:.3}", ra / rb)
                            );
                        }
                    }
                }
            }
            Ok(())
        }
        "keys"
            if args.file.as_deref() == Some("--markdown")
                || std::env::args().any(|a| a == "--markdown") =>
        {
            print!("{}", sendpath_core::scenario::keys::markdown_table());
            Ok(())
        }
        "keys" => {
            for k in sendpath_core::scenario::keys::KEYS {
                println!("{:<34} {:<18} {}", k.name, k.group.name(), k.doc);
            }
            Ok(())
        }
        _ => Err(format!("unknown command {}\n{USAGE}", args.cmd)),
    }
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 || x.abs() >= 1000.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

fn print_summary(r: &RunResult) {
    println!(
        "kernel {}{}",
        r.kernel,
        r.variant
            .as_ref()
            .map(|v| format!(", variant {v}"))
            .unwrap_or_default()
    );
    println!("elapsed {:.6} s, {} events", r.elapsed_s, r.events);
    for a in &r.apps {
        println!(
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
        );
    }
    for w in &r.warnings {
        println!("warning: {w}");
    }
    for (name, h) in &r.hosts {
        println!(
            "\n# host {name}: tcp_mem_pages {} (avg {:.0}), cpus utilized {:.3}",
            h.tcp_mem_pages, h.tcp_mem_pages_avg, h.cpus_utilized
        );
        // The layout `nstat -a` prints, in /proc/net/snmp + netstat order.
        println!("#kernel");
        for m in sendpath_core::include::uapi::linux::snmp::Mib::ALL {
            if let Some(v) = h.counters.get(m.name()) {
                println!("{:<32}{v:<16}{:6.1}", m.name(), 0.0);
            }
        }
    }
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
    let rows = dir
        .map(Ok)
        .unwrap_or_else(conform::default_dir)
        .and_then(|d| conform::rows(&d, &only));
    let rows = match rows {
        Ok(r) => r,
        Err(e) => {
            eprintln!("sendpath conform: {e}");
            return ExitCode::from(2);
        }
    };
    let pass = if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).expect("rows serialize")
        );
        conform::passes(&rows)
    } else {
        conform::print_table(&rows)
    };
    if pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
