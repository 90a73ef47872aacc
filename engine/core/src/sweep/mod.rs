//! Parameter sweeps (`sendpath sweep`, the site's sweep panel): a grid of configurations of one
//! scenario, each a run whose named metrics ([`crate::metric`]) are read at its end.
//!
//! This module holds what the command line and the site share, so that neither writes it
//! again: the `--vary` syntax ([`Vary::parse`]: `KEY=A..B`, `KEY=A..B:STEP`, `KEY=A..BxFACTOR`
//! or `KEY=V1,V2,...`), the grid ([`Sweep::points`]: every combination, the first key varying
//! slowest), the checks of keys and metrics with errors that name them, and one point's run
//! ([`Sweep::run_point`]). How the points are spread over cores is the caller's: threads in the
//! CLI, Web Workers in the site.

use serde::Serialize;

use crate::scenario::keys::{self, Kind};
use crate::{RunOptions, RunResult, Scenario};

/// The most points a sweep may have: a grid beyond it is refused before it runs.
pub const MAX_POINTS: usize = 10_000;

/// One varied key and the values it takes, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Vary {
    /// `KEY` or `HOST:KEY`.
    pub key: String,
    pub values: Vec<String>,
}

impl Vary {
    /// Parse `KEY=A..B` (integers from A to B by 1), `KEY=A..B:STEP`, `KEY=A..BxFACTOR` (A,
    /// A x FACTOR, ... up to B, rounded to integers) or `KEY=V1,V2,...`. The key must be a
    /// scenario key (`sendpath keys`); ranges are for integer keys, lists for any.
    pub fn parse(spec: &str) -> Result<Vary, String> {
        let (key, range) = spec.split_once('=').ok_or_else(|| {
            format!("{spec:?}: expected KEY=A..B[:STEP|xFACTOR] or KEY=V1,V2,...")
        })?;
        let key = key.trim();
        let name = key.split_once(':').map_or(key, |(_, k)| k);
        let def = keys::key(name).ok_or_else(|| {
            let mut m = format!("{key}: unknown key");
            if let Some(s) = keys::suggest(name) {
                m.push_str(&format!("; did you mean \"{s}\"?"));
            }
            m + " (sendpath keys lists them)"
        })?;
        let range = range.trim();
        let values = if let Some((a, rest)) = range.split_once("..") {
            let (min, max) = match def.kind {
                Kind::Int { min, max } => (min, max),
                Kind::Bool => (0, 1),
                _ => {
                    return Err(format!(
                        "{key}: takes no range (its values are not integers); list them: {key}=V1,V2,..."
                    ))
                }
            };
            let int = |s: &str, what: &str| -> Result<i64, String> {
                s.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("{key}: {what} {s:?} is not an integer"))
            };
            let a = int(a, "start")?;
            let (b, step) = if let Some((b, step)) = rest.split_once(':') {
                (int(b, "end")?, Step::Add(int(step, "step")?))
            } else if let Some((b, f)) = rest.split_once('x') {
                let f: f64 = f
                    .trim()
                    .parse()
                    .map_err(|_| format!("{key}: factor {f:?} is not a number"))?;
                (int(b, "end")?, Step::Times(f))
            } else {
                (int(rest, "end")?, Step::Add(1))
            };
            if b < a {
                return Err(format!(
                    "{key}: the range ends ({b}) before it starts ({a})"
                ));
            }
            for v in [a, b] {
                if !(min..=max).contains(&v) {
                    return Err(format!("{key}: accepts {min}..{max} (got {v})"));
                }
            }
            range_values(key, a, b, step)?
        } else {
            let v: Vec<String> = range.split(',').map(|v| v.trim().to_string()).collect();
            if v.iter().any(String::is_empty) {
                return Err(format!("{key}: an empty value in {range:?}"));
            }
            v
        };
        Ok(Vary {
            key: key.to_string(),
            values,
        })
    }
}

enum Step {
    Add(i64),
    Times(f64),
}

fn range_values(key: &str, a: i64, b: i64, step: Step) -> Result<Vec<String>, String> {
    let mut out: Vec<i64> = Vec::new();
    match step {
        Step::Add(s) if s <= 0 => return Err(format!("{key}: the step must be above 0 (got {s})")),
        Step::Add(s) => {
            let mut v = a;
            while v <= b {
                out.push(v);
                if out.len() > MAX_POINTS {
                    break;
                }
                v = match v.checked_add(s) {
                    Some(v) => v,
                    None => break,
                };
            }
        }
        Step::Times(f) if !(f > 1.0 && f.is_finite()) => {
            return Err(format!("{key}: the factor must be above 1 (got {f})"));
        }
        Step::Times(_) if a <= 0 => {
            return Err(format!(
                "{key}: a range by a factor must start above 0 (got {a})"
            ));
        }
        Step::Times(f) => {
            let mut x = a as f64;
            // A value within a millionth of the end counts as the end (0.1 x 10 is not 1.0).
            while x <= b as f64 * (1.0 + 1e-9) {
                let v = (x.round() as i64).min(b);
                if out.last() != Some(&v) {
                    out.push(v);
                }
                if out.len() > MAX_POINTS {
                    break;
                }
                x *= f;
            }
        }
    }
    if out.len() > MAX_POINTS {
        return Err(format!(
            "{key}: more than {MAX_POINTS} values; take a larger step"
        ));
    }
    Ok(out.iter().map(i64::to_string).collect())
}

/// A sweep: a scenario, its base configuration, the varied keys and the metrics read.
#[derive(Clone, Debug)]
pub struct Sweep {
    pub source: String,
    pub file: String,
    pub variant: Option<String>,
    /// `KEY=VALUE` overrides applied before the varied keys.
    pub sets: Vec<String>,
    pub vary: Vec<Vary>,
    pub metrics: Vec<String>,
}

/// One point of the grid: the value of each varied key, as `KEY=VALUE` overrides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Point {
    /// The values, one per varied key, in the order of [`Sweep::vary`].
    pub values: Vec<String>,
    /// The base overrides followed by the point's `KEY=VALUE`: what `sendpath run --set`
    /// (or the site's link) takes to run it again.
    pub sets: Vec<String>,
}

/// What one point's run gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PointResult {
    /// One per metric, in the order of [`Sweep::metrics`]; `null` where a metric has no value
    /// for the run (a mean over no stream sender).
    pub metrics: Vec<Option<f64>>,
    pub warnings: Vec<String>,
}

impl Sweep {
    /// Every combination of the varied keys' values, the first key varying slowest.
    pub fn points(&self) -> Result<Vec<Point>, String> {
        if self.vary.is_empty() {
            return Err("nothing to vary: give --vary KEY=A..B".into());
        }
        let total = self
            .vary
            .iter()
            .try_fold(1usize, |n, v| n.checked_mul(v.values.len()))
            .filter(|&n| n <= MAX_POINTS)
            .ok_or_else(|| {
                format!(
                    "the grid has more than {MAX_POINTS} points ({}); vary fewer keys or take larger steps",
                    self.vary
                        .iter()
                        .map(|v| format!("{} values of {}", v.values.len(), v.key))
                        .collect::<Vec<_>>()
                        .join(" x ")
                )
            })?;
        for (i, v) in self.vary.iter().enumerate() {
            if self.vary[..i].iter().any(|u| u.key == v.key) {
                return Err(format!("{}: varied twice", v.key));
            }
        }
        let mut out = Vec::with_capacity(total);
        for mut i in 0..total {
            let mut values = vec![String::new(); self.vary.len()];
            for (k, v) in self.vary.iter().enumerate().rev() {
                values[k] = v.values[i % v.values.len()].clone();
                i /= v.values.len();
            }
            let mut sets = self.sets.clone();
            sets.extend(
                self.vary
                    .iter()
                    .zip(&values)
                    .map(|(v, x)| format!("{}={x}", v.key)),
            );
            out.push(Point { values, sets });
        }
        Ok(out)
    }

    /// Check the sweep before it runs: the grid's size, the scenario with each key's first and
    /// last value (an error names the file and the key), and every metric's name against the
    /// engine's metrics and the scenario's hosts.
    pub fn check(&self) -> Result<Vec<Point>, String> {
        let points = self.points()?;
        let sc = Scenario::parse(&self.source, &self.file).map_err(|e| e.to_string())?;
        let mut hosts = Vec::new();
        for p in [points.first(), points.last()].into_iter().flatten() {
            let cfg = sc
                .config(self.variant.as_deref(), &p.sets)
                .map_err(|e| e.to_string())?;
            hosts = cfg.hosts.iter().map(|h| h.name.clone()).collect();
        }
        if self.metrics.is_empty() {
            return Err(format!(
                "no metric to read: give --metric NAME ({})",
                METRIC_HELP
            ));
        }
        for m in &self.metrics {
            check_metric(m, &hosts)?;
        }
        Ok(points)
    }

    /// Run one point to its end and read the metrics.
    pub fn run_point(&self, p: &Point) -> Result<PointResult, String> {
        let opts = RunOptions {
            variant: self.variant.clone(),
            sets: p.sets.clone(),
            ..Default::default()
        };
        let out = crate::run_source(&self.source, &self.file, &opts).map_err(|e| e.to_string())?;
        Ok(self.read(&out.result))
    }

    /// The metrics of a finished run.
    pub fn read(&self, r: &RunResult) -> PointResult {
        PointResult {
            metrics: self.metrics.iter().map(|m| crate::metric(r, m)).collect(),
            warnings: r.warnings.clone(),
        }
    }
}

/// What `--metric` takes, for the error of an unknown one.
pub const METRIC_HELP: &str = "elapsed_s, throughput_mbit, cpu_per_byte_ns, ctxt_switches, send_calls, an nstat counter summed over the hosts (TcpExtTCPAutoCorking), or HOST:counter, HOST:tcp_mem_pages, HOST:qdisc_backlog_bytes";

/// `name` is a metric [`crate::metric`] reads, and a host it names is one of `hosts`.
pub fn check_metric(name: &str, hosts: &[String]) -> Result<(), String> {
    if let Some((h, _)) = name.split_once(':') {
        if !hosts.iter().any(|x| x == h) {
            return Err(format!(
                "metric {name}: no host {h:?} in this scenario (its hosts: {})",
                hosts.join(", ")
            ));
        }
    }
    if crate::metric_name_is_valid(name) {
        return Ok(());
    }
    let counter = name.split_once(':').map_or(name, |(_, c)| c);
    let close = crate::include::uapi::linux::snmp::Mib::ALL
        .iter()
        .map(|m| m.name())
        .chain([
            "throughput_mbit",
            "cpu_per_byte_ns",
            "elapsed_s",
            "tcp_mem_pages",
        ])
        .find(|n| n.eq_ignore_ascii_case(counter));
    let mut m = format!("unknown metric {name}");
    if let Some(c) = close {
        m.push_str(&format!("; did you mean {c}?"));
    }
    Err(format!("{m}; metrics are {METRIC_HELP}"))
}

#[cfg(test)]
mod tests;
