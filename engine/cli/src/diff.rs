//! `sendpath diff FILE --kernel A --kernel B [--variant NAME] [--set KEY=VALUE]...`: what
//! changes when the same scenario runs on two kernels. Three parts:
//!
//! 1. the keys whose resolved value differs (a default of one kernel, or a key the other kernel
//!    does not have), with where each value came from, as `run --show-config` says it;
//! 2. the behaviour switches of the kernel profiles (`scenario::profile::SWITCHES`) whose value
//!    differs, with their commits, and whether each fired in each run (the event, hold or
//!    counter that shows its code path was taken);
//! 3. both runs' summaries side by side.

use std::io::Write;

use sendpath_core::diff::{self, evidence, evidence_name};
use sendpath_core::scenario::profile::Kernel;
use sendpath_core::trace::summary::Summary;
use sendpath_core::{RunOptions, RunResult, Scenario};

use crate::Fail;

/// The figures a side-by-side summary compares, as (name, value) rows.
fn figures(r: &RunResult) -> Vec<(String, String)> {
    let mut rows = vec![("elapsed s".to_string(), format!("{:.6}", r.elapsed_s))];
    let Some(s) = &r.summary else {
        return rows;
    };
    let s: &Summary = s;
    for f in &s.flows {
        let p = format!("flow {} {}:sk{}", f.flow, f.host, f.sk);
        rows.push((
            format!("{p} throughput Mbit/s"),
            format!("{:.2}", f.throughput_bps / 1e6),
        ));
        rows.push((
            format!("{p} goodput Mbit/s"),
            format!("{:.2}", f.goodput_bps / 1e6),
        ));
        if let (Some(r), Some(c)) = (&f.srtt_us, &f.cwnd) {
            rows.push((
                format!("{p} srtt µs min/avg/max"),
                format!("{}/{:.0}/{}", r.min, r.avg, r.max),
            ));
            rows.push((
                format!("{p} cwnd min/avg/max"),
                format!("{}/{:.1}/{}", c.min, c.avg, c.max),
            ));
        }
        rows.push((
            format!("{p} TSO segs p50/p99/max"),
            format!("{}/{}/{}", f.tso_segs.p50, f.tso_segs.p99, f.tso_segs.max),
        ));
    }
    for d in &s.devices {
        if let Some(q) = &d.qdisc_bytes {
            rows.push((
                format!("{} qdisc backlog B avg/p99/max", d.host),
                format!("{:.0}/{}/{}", q.avg, q.p99, q.max),
            ));
        }
        if let Some(q) = &d.ring_descs {
            rows.push((
                format!("{} TX ring descs avg/p99/max", d.host),
                format!("{:.1}/{}/{}", q.avg, q.p99, q.max),
            ));
        }
    }
    for h in &s.holds {
        rows.push((
            format!("held at {} ({}s) n, p50/p99 µs", h.gate, h.per),
            if h.ns.count == 0 {
                "0".to_string()
            } else {
                format!(
                    "{}, {:.1}/{:.1}",
                    h.ns.count,
                    h.ns.p50 as f64 / 1e3,
                    h.ns.p99 as f64 / 1e3
                )
            },
        ));
    }
    rows
}

pub fn run(
    o: &mut impl Write,
    file: &str,
    src: &str,
    opts: &RunOptions,
    kernels: &[String],
) -> Result<(), Fail> {
    let [a, b] = kernels else {
        return Err("diff needs two kernels: --kernel 3.14 --kernel 6.18".into());
    };
    for k in [a, b] {
        if Kernel::parse(k).is_none() {
            let all: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
            return Err(format!(
                "diff: --kernel {k}: the model has kernels {}",
                all.join(", ")
            )
            .into());
        }
    }
    let sc = Scenario::parse(src, file).map_err(|e| e.to_string())?;
    let with = |k: &str| {
        let mut o = opts.clone();
        o.sets.push(format!("kernel={k}"));
        o
    };
    let (oa, ob) = (with(a), with(b));
    let d = diff::kernel_diff(
        &sc,
        (oa.variant.as_deref(), &oa.sets),
        &sc,
        (ob.variant.as_deref(), &ob.sets),
    )?;
    writeln!(o, "# {file}: kernel {a} against kernel {b}")?;
    writeln!(o, "\n## keys whose value differs")?;
    writeln!(o, "{:<40} {:<32} {}", "key", a, b)?;
    for k in &d.keys {
        writeln!(o, "{:<40} {:<32} {}", k.key, k.a, k.b)?;
    }
    if d.keys.is_empty() {
        writeln!(
            o,
            "(none: the scenario sets every key whose default differs)"
        )?;
    }
    let run_one = |o: &RunOptions| -> Result<RunResult, Fail> {
        let mut o = o.clone();
        o.summary = true;
        Ok(crate::run_announced(src, file, &o)?.result)
    };
    let (ra, rb) = (run_one(&oa)?, run_one(&ob)?);
    writeln!(
        o,
        "\n## behaviour switches that differ (fired = its code path shows in the run)"
    )?;
    for s in &d.switches {
        writeln!(
            o,
            "{}: {} = {} on {a}, {} on {b} ({})",
            s.name, s.name, s.a, s.b, s.commit
        )?;
        writeln!(o, "  {}", s.what)?;
        match (evidence(&s.evidence, &ra), evidence(&s.evidence, &rb)) {
            (Some(ea), Some(eb)) => {
                let fired = match (ea > 0, eb > 0) {
                    (true, false) => format!("fired on {a} only"),
                    (false, true) => format!("fired on {b} only"),
                    (true, true) => "fired on both".to_string(),
                    (false, false) => "fired on neither".to_string(),
                };
                writeln!(
                    o,
                    "  {fired}: {} {ea} on {a}, {eb} on {b}",
                    evidence_name(&s.evidence)
                )?;
            }
            _ => writeln!(o, "  (no event of the trace shows this path)")?,
        }
    }
    if d.switches.is_empty() {
        writeln!(o, "(none)")?;
    }
    writeln!(o, "\n## summaries")?;
    for w in &ra.warnings {
        writeln!(o, "warning on {a}: {w}")?;
    }
    for w in &rb.warnings {
        writeln!(o, "warning on {b}: {w}")?;
    }
    let (fa, fb) = (figures(&ra), figures(&rb));
    let width = fa
        .iter()
        .chain(&fb)
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(10);
    writeln!(o, "{:<width$} {:>22} {:>22}", "", a, b)?;
    let mut names: Vec<&String> = fa.iter().map(|(n, _)| n).collect();
    for (n, _) in &fb {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let get = |rows: &[(String, String)], n: &str| {
        rows.iter()
            .find(|(k, _)| k == n)
            .map_or("-".to_string(), |(_, v)| v.clone())
    };
    for name in names {
        writeln!(
            o,
            "{:<width$} {:>22} {:>22}",
            name,
            get(&fa, name),
            get(&fb, name)
        )?;
    }
    Ok(())
}
