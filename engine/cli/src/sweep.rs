//! `sendpath sweep FILE --vary KEY=A..B[:STEP|xFACTOR] [--vary ...] --metric NAME...`: run a
//! grid of configurations of one scenario on every core (std threads, one run per point) and
//! print each point's metrics as a table, `--csv` or `--json`. The grid, its checks and a
//! point's run are `sendpath_core::sweep`'s, shared with the site.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use sendpath_core::sweep::{Point, PointResult, Sweep, Vary};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Table,
    Csv,
    Json,
}

const OPTIONS: &str =
    "--vary KEY=A..B[:STEP|xFACTOR] or KEY=V1,V2,..., --metric NAME, --variant NAME, --set KEY=VALUE, --jobs N, --csv, --json";

/// `sendpath sweep`: exit 0 when every point ran, 1 when one failed, 2 on bad input.
pub fn main(args: Vec<String>) -> ExitCode {
    let (sweep, format, jobs) = match parse(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sendpath sweep: {e}");
            return ExitCode::from(2);
        }
    };
    let points = match sweep.check() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sendpath sweep: {e}");
            return ExitCode::from(2);
        }
    };
    let t0 = Instant::now();
    let jobs = jobs.min(points.len()).max(1);
    let results = run_all(&sweep, &points, jobs);
    let wall_s = t0.elapsed().as_secs_f64();
    let text = match format {
        Format::Table => table(&sweep, &points, &results),
        Format::Csv => csv(&sweep, &points, &results),
        Format::Json => json(&sweep, &points, &results, jobs, wall_s),
    };
    let mut o = io::stdout().lock();
    if let Err(e) = o.write_all(text.as_bytes()).and_then(|_| o.flush()) {
        return crate::write_failed(&e);
    }
    // How long it took goes to standard error: the output stays the same from run to run.
    eprintln!(
        "sendpath sweep: {} points on {jobs} thread{} in {wall_s:.2} s",
        points.len(),
        if jobs == 1 { "" } else { "s" }
    );
    if results.iter().all(Result::is_ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn parse(args: Vec<String>) -> Result<(Sweep, Format, usize), String> {
    let mut file = None;
    let mut sweep = Sweep {
        source: String::new(),
        file: String::new(),
        variant: None,
        sets: Vec::new(),
        vary: Vec::new(),
        metrics: Vec::new(),
    };
    let mut format = Format::Table;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |what: &str| {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{name} needs {what}"))
        };
        match name.as_str() {
            "--vary" => sweep.vary.push(Vary::parse(&value("KEY=A..B")?)?),
            // `--metric a b c` and `--metric a --metric b` both name several.
            "--metric" => sweep.metrics.push(value("a metric NAME")?),
            "--variant" => sweep.variant = Some(value("a variant NAME")?),
            "--set" => sweep.sets.push(value("KEY=VALUE")?),
            "--jobs" => {
                let v = value("a number of threads")?;
                jobs = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--jobs: not a number of threads: {v}"))?;
            }
            "--csv" | "--json" if inline.is_some() => return Err(format!("{name} takes no value")),
            "--csv" => format = Format::Csv,
            "--json" => format = Format::Json,
            s if s.starts_with("--") => {
                return Err(format!("unknown option {s}; sweep takes {OPTIONS}"))
            }
            s if file.is_none() => file = Some(s.to_string()),
            // A bare word after --metric's value names another metric.
            s if !sweep.metrics.is_empty() => sweep.metrics.push(s.to_string()),
            s => return Err(format!("unexpected argument {s}\n{}", crate::USAGE)),
        }
    }
    let file = file.ok_or_else(|| format!("name a scenario FILE\n{}", crate::USAGE))?;
    sweep.source = crate::read(&file)?;
    sweep.file = file;
    Ok((sweep, format, jobs))
}

/// Every point's result, in grid order, computed on `jobs` threads that each take the next
/// point not yet taken.
fn run_all(sweep: &Sweep, points: &[Point], jobs: usize) -> Vec<Result<PointResult, String>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<PointResult, String>>>> =
        Mutex::new(vec![None; points.len()]);
    let progress = Mutex::new(crate::progress::Progress::new(points.len()));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = points.get(i) else { break };
                let r = sweep.run_point(p);
                results.lock().unwrap()[i] = Some(r);
                progress.lock().unwrap().inc(&p.values.join(" "));
            });
        }
    });
    progress.into_inner().unwrap().finish();
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every point ran"))
        .collect()
}

/// A metric's value as the table and the CSV print it: up to 6 significant digits.
fn num(x: Option<f64>) -> String {
    match x {
        None => String::new(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
        Some(x) => {
            let digits = (5 - x.abs().log10().floor() as i32).clamp(0, 9) as usize;
            let s = format!("{x:.digits$}");
            if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            }
        }
    }
}

fn header(sweep: &Sweep) -> Vec<String> {
    sweep
        .vary
        .iter()
        .map(|v| v.key.clone())
        .chain(sweep.metrics.iter().cloned())
        .collect()
}

fn rows(points: &[Point], results: &[Result<PointResult, String>]) -> Vec<Vec<String>> {
    points
        .iter()
        .zip(results)
        .map(|(p, r)| {
            let mut row = p.values.clone();
            match r {
                Ok(r) => row.extend(r.metrics.iter().map(|&m| num(m))),
                Err(e) => row.push(format!("error: {e}")),
            }
            row
        })
        .collect()
}

/// Aligned columns, numbers to the right; each point's warnings after the table.
fn table(sweep: &Sweep, points: &[Point], results: &[Result<PointResult, String>]) -> String {
    let head = header(sweep);
    let body = rows(points, results);
    let mut width: Vec<usize> = head.iter().map(String::len).collect();
    for r in &body {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: &[String]| {
        let mut l = cells
            .iter()
            .zip(&width)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect::<Vec<_>>()
            .join("  ");
        // An error row is longer than its columns: it runs on.
        for c in cells.iter().skip(width.len()) {
            l.push_str("  ");
            l.push_str(c);
        }
        l.trim_end().to_string() + "\n"
    };
    let mut out = line(&head);
    for r in &body {
        out.push_str(&line(r));
    }
    // Each point's first warning, and how many more it had (`--json` has them all).
    for (p, r) in points.iter().zip(results) {
        let Some(w) = r.as_ref().ok().and_then(|r| r.warnings.first()) else {
            continue;
        };
        let more = r.as_ref().map_or(0, |r| r.warnings.len() - 1);
        out.push_str(&format!("warning at {}: {w}", p.values.join(" ")));
        if more > 0 {
            out.push_str(&format!(" (and {more} more)"));
        }
        out.push('\n');
    }
    out
}

/// RFC 4180 CSV: a header row, one row per point; a cell with a comma or a quote is quoted.
fn csv(sweep: &Sweep, points: &[Point], results: &[Result<PointResult, String>]) -> String {
    let cell = |c: &String| {
        if c.contains([',', '"', '\n']) {
            format!("\"{}\"", c.replace('"', "\"\""))
        } else {
            c.clone()
        }
    };
    let mut out = String::new();
    for r in std::iter::once(header(sweep)).chain(rows(points, results)) {
        out.push_str(&r.iter().map(cell).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

fn json(
    sweep: &Sweep,
    points: &[Point],
    results: &[Result<PointResult, String>],
    jobs: usize,
    wall_s: f64,
) -> String {
    let v = serde_json::json!({
        "scenario": sweep.file,
        "variant": sweep.variant,
        "sets": sweep.sets,
        "vary": sweep.vary,
        "metrics": sweep.metrics,
        "threads": jobs,
        "wall_s": wall_s,
        "points": points.iter().zip(results).map(|(p, r)| {
            let mut o = serde_json::json!({ "values": p.values, "sets": p.sets });
            match r {
                Ok(r) => {
                    o["metrics"] = serde_json::json!(r.metrics);
                    o["warnings"] = serde_json::json!(r.warnings);
                }
                Err(e) => o["error"] = serde_json::json!(e),
            }
            o
        }).collect::<Vec<_>>(),
    });
    let mut t = serde_json::to_string_pretty(&v).expect("a sweep serializes");
    t.push('\n');
    t
}

#[cfg(test)]
mod tests {
    use super::num;

    #[test]
    fn numbers_print_with_six_significant_digits_and_no_trailing_zeros() {
        assert_eq!(num(Some(990.3712345)), "990.371");
        assert_eq!(num(Some(0.000123456789)), "0.000123457");
        assert_eq!(num(Some(42.0)), "42");
        assert_eq!(num(Some(1.5)), "1.5");
        assert_eq!(num(None), "");
    }
}
