//! Conformance against a real kernel: experiments recorded on Linux (`scenarios/conformance/`,
//! made by `capture/lab/conform-record`) and the same setups run in the model.
//!
//! An experiment file names an engine scenario, a variant and `--set` overrides that mirror the
//! real setup, and the values the real kernel gave (median, min and max over the repetitions).
//! [`compare`] runs the scenario and puts each recorded value beside the model's. A value is
//! *in band* when the model is within ±10 % of the real median, or inside the recorded min..max
//! when the kernel itself varies more than that. A value that misses must carry a known failure
//! (`scenarios/conformance/known-failures.toml`) naming the mechanism the model lacks or gets
//! wrong; a known failure whose value is back in band is reported too, so stale ones go.
//!
//! This is the simulator's machinery, not kernel code.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::scenario::tomldoc::{self, Table, Tv};
use crate::trace::{Ev, Trace};
use crate::{metric, run_source, RunOptions, RunResult};

/// How far from the real median the model may be and still be in band.
pub const BAND: f64 = 0.10;

/// One recorded value: the median of the repetitions and their range.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "RecordedValue"))]
pub struct Recorded {
    pub name: String,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

/// An experiment file (the site's `ConformExperiment`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ConformExperiment"))]
pub struct Experiment {
    /// The file's name without `.toml`.
    pub id: String,
    pub title: String,
    pub mechanism: String,
    /// The claim: the file's first comment line.
    pub claim: String,
    /// The engine scenario, relative to `scenarios/`.
    pub scenario: String,
    pub variant: Option<String>,
    pub sets: Vec<String>,
    /// What the engine lacks to mirror the real setup (one line each).
    pub missing_keys: Vec<String>,
    /// The real setup in words (`[real]`), key by key, for display.
    pub real: Vec<(String, String)>,
    /// Kernel, HZ, date, machine, repetitions (`[recorded]`), for display.
    pub recorded: Vec<(String, String)>,
    pub values: Vec<Recorded>,
}

/// One compared value, as `sendpath conform --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Row {
    pub experiment: String,
    pub value: String,
    /// The model's value; `None` when the model does not compute it.
    pub model: Option<f64>,
    /// The real median.
    pub real: f64,
    pub real_min: f64,
    pub real_max: f64,
    /// model / real (`None` without a model value or with a real value of 0).
    pub ratio: Option<f64>,
    pub in_band: bool,
    /// The mechanism that explains a miss, if one is recorded.
    pub known_failure: Option<String>,
}

impl Row {
    /// A miss without a known failure: `sendpath conform` exits 1.
    pub fn unexplained_miss(&self) -> bool {
        !self.in_band && self.known_failure.is_none()
    }

    /// A known failure on a value now in band: the marker is stale.
    pub fn stale_known_failure(&self) -> bool {
        self.in_band && self.known_failure.is_some()
    }
}

fn err(file: &str, what: impl std::fmt::Display) -> String {
    format!("{file}: {what}")
}

fn get<'a>(t: &'a Table, key: &str) -> Option<&'a Tv> {
    t.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn as_text(v: &Tv) -> String {
    match v {
        Tv::String(s) => s.clone(),
        Tv::Integer(i) => i.to_string(),
        Tv::Float(f) => f.to_string(),
        Tv::Boolean(b) => b.to_string(),
        Tv::Datetime => "(a date)".into(),
        Tv::Array(a) => a.iter().map(as_text).collect::<Vec<_>>().join(", "),
        Tv::Table(t) => t
            .iter()
            .map(|(k, v)| format!("{k} = {}", as_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Parse an experiment file (`file` names it in errors; `id` is its name without `.toml`).
pub fn parse_experiment(text: &str, file: &str, id: &str) -> Result<Experiment, String> {
    let doc = tomldoc::parse(text).map_err(|e| err(file, e))?;
    let table = |name: &str| -> Result<&Table, String> {
        get(&doc, name)
            .and_then(|v| v.as_table())
            .ok_or_else(|| err(file, format!("missing the [{name}] table")))
    };
    let exp = table("experiment")?;
    let s = |key: &str| -> Result<String, String> {
        get(exp, key)
            .and_then(|v| v.as_str())
            .map(str::to_string)
            .ok_or_else(|| err(file, format!("experiment.{key}: missing, or not a string")))
    };
    let list = |key: &str| -> Result<Vec<String>, String> {
        match get(exp, key) {
            None => Ok(Vec::new()),
            Some(Tv::Array(a)) => a
                .iter()
                .map(|v| {
                    v.as_str().map(str::to_string).ok_or_else(|| {
                        err(
                            file,
                            format!("experiment.{key}: every entry must be a string"),
                        )
                    })
                })
                .collect(),
            Some(_) => Err(err(file, format!("experiment.{key}: not a list"))),
        }
    };
    let mut values = Vec::new();
    for (name, v) in table("values")? {
        let t = v.as_table().ok_or_else(|| {
            err(
                file,
                format!("values.{name}: not a {{ median, min, max }} table"),
            )
        })?;
        let num = |k: &str| -> Result<f64, String> {
            match get(t, k) {
                Some(Tv::Integer(i)) => Ok(*i as f64),
                Some(Tv::Float(f)) => Ok(*f),
                _ => Err(err(
                    file,
                    format!("values.\"{name}\".{k}: missing, or not a number"),
                )),
            }
        };
        let (median, min, max) = (num("median")?, num("min")?, num("max")?);
        if !(min <= median && median <= max) {
            return Err(err(
                file,
                format!(
                    "values.\"{name}\": min {min} <= median {median} <= max {max} does not hold"
                ),
            ));
        }
        values.push(Recorded {
            name: name.clone(),
            median,
            min,
            max,
        });
    }
    let flat = |name: &str| -> Vec<(String, String)> {
        get(&doc, name)
            .and_then(|v| v.as_table())
            .map(|t| t.iter().map(|(k, v)| (k.clone(), as_text(v))).collect())
            .unwrap_or_default()
    };
    let claim = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix('#'))
        .map(|l| l.trim().to_string())
        .unwrap_or_default();
    Ok(Experiment {
        id: id.to_string(),
        title: s("title")?,
        mechanism: s("mechanism")?,
        claim,
        scenario: s("scenario")?,
        variant: get(exp, "variant")
            .and_then(|v| v.as_str())
            .map(str::to_string),
        sets: list("set")?,
        missing_keys: list("missing_keys")?,
        real: flat("real"),
        recorded: flat("recorded"),
        values,
    })
}

/// Known failures: `[experiment-id]` tables of `"value" = "the mechanism"`.
pub type KnownFailures = BTreeMap<String, BTreeMap<String, String>>;

pub fn parse_known_failures(text: &str, file: &str) -> Result<KnownFailures, String> {
    let doc = tomldoc::parse(text).map_err(|e| err(file, e))?;
    let mut out = KnownFailures::new();
    for (exp, v) in doc {
        let t = v
            .as_table()
            .ok_or_else(|| err(file, format!("{exp}: not a table of value = \"reason\"")))?;
        let mut m = BTreeMap::new();
        for (value, reason) in t {
            let r = reason.as_str().ok_or_else(|| {
                err(
                    file,
                    format!("{exp}.\"{value}\": the reason must be a string"),
                )
            })?;
            if r.trim().is_empty() {
                return Err(err(file, format!("{exp}.\"{value}\": the reason is empty")));
            }
            m.insert(value.clone(), r.to_string());
        }
        out.insert(exp, m);
    }
    Ok(out)
}

/// Whether `model` is in band of a recorded value.
pub fn in_band(model: f64, r: &Recorded) -> bool {
    if !model.is_finite() {
        return false;
    }
    let within = if r.median == 0.0 {
        model == 0.0
    } else {
        ((model - r.median) / r.median).abs() <= BAND
    };
    within || (r.min <= model && model <= r.max)
}

/// `HOST:xmit_len_p50|p90|max`: the lengths of the packets `HOST`'s device transmits
/// (`net:net_dev_start_xmit`'s `len`, link-layer header included). A TSO skb is one packet
/// (the trace's `xmit`); an skb that software GSO split (`gso_segment`: TSO or GSO off) is
/// its segments, each of one MSS of payload with the skb's headers, the last one shorter.
fn xmit_len(trace: &Trace, host_index: u16, which: &str) -> Option<f64> {
    let split: std::collections::BTreeSet<u64> = trace
        .records
        .iter()
        .filter(|r| r.host == host_index)
        .filter_map(|r| match r.ev {
            Ev::GsoSegment { pkt, segs } if segs > 1 => Some(pkt),
            _ => None,
        })
        .collect();
    let mut lens: Vec<u64> = Vec::new();
    for r in trace.records.iter().filter(|r| r.host == host_index) {
        if let Ev::Xmit {
            pkt,
            seq,
            end_seq,
            segs,
            len,
            ..
        } = r.ev
        {
            let payload = end_seq - seq;
            if segs > 1 && split.contains(&pkt) && payload > 0 {
                let hdr = len - payload;
                let mss = payload.div_ceil(segs);
                let full = payload / mss;
                lens.extend(std::iter::repeat_n(mss + hdr, full as usize));
                if payload % mss != 0 {
                    lens.push(payload % mss + hdr);
                }
            } else {
                lens.push(len);
            }
        }
    }
    if lens.is_empty() {
        return None;
    }
    lens.sort_unstable();
    let pick = |q: f64| lens[((lens.len() - 1) as f64 * q).round() as usize] as f64;
    match which {
        "xmit_len_p50" => Some(pick(0.5)),
        "xmit_len_p90" => Some(pick(0.9)),
        "xmit_len_max" => lens.last().map(|&l| l as f64),
        _ => None,
    }
}

/// The model's value of a recorded value's name: [`metric`]'s names, plus `cpu_s` (mean CPU
/// seconds of the sending applications) and `HOST:xmit_len_*`.
pub fn model_value(result: &RunResult, trace: &Trace, name: &str) -> Option<f64> {
    let senders: Vec<_> = result
        .apps
        .iter()
        .filter(|a| a.kind == "tcp_stream" || a.kind == "pingpong_client")
        .collect();
    match name {
        "cpu_s" => (!senders.is_empty())
            .then(|| senders.iter().map(|a| a.cpu_s).sum::<f64>() / senders.len() as f64),
        _ => {
            if let Some((host, what)) = name.split_once(':') {
                if what.starts_with("xmit_len_") {
                    let i = result.host_names.iter().position(|h| h == host)? as u16;
                    return xmit_len(trace, i, what);
                }
                if !result.host_names.iter().any(|h| h == host) {
                    return None;
                }
            }
            metric(result, name)
        }
    }
}

/// Whether any of the experiment's values needs the trace.
fn needs_trace(exp: &Experiment) -> bool {
    exp.values.iter().any(|v| v.name.contains(":xmit_len_"))
}

/// Run an experiment's scenario (its text `scenario_src`, named `scenario_file`) and compare.
pub fn compare(
    exp: &Experiment,
    scenario_src: &str,
    scenario_file: &str,
    known: &KnownFailures,
) -> Result<Vec<Row>, String> {
    let opts = RunOptions {
        variant: exp.variant.clone(),
        sets: exp.sets.clone(),
        trace: needs_trace(exp),
        trace_limit: 20_000_000,
        trace_window: None,
        pcap: false,
        ..Default::default()
    };
    let out =
        run_source(scenario_src, scenario_file, &opts).map_err(|e| format!("{}: {e}", exp.id))?;
    let kf = known.get(&exp.id);
    Ok(exp
        .values
        .iter()
        .map(|r| {
            let model = model_value(&out.result, &out.trace, &r.name);
            let in_band = model.is_some_and(|m| in_band(m, r));
            Row {
                experiment: exp.id.clone(),
                value: r.name.clone(),
                model,
                real: r.median,
                real_min: r.min,
                real_max: r.max,
                ratio: model.filter(|_| r.median != 0.0).map(|m| m / r.median),
                in_band,
                known_failure: kf.and_then(|m| m.get(&r.name)).cloned(),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXP: &str = r#"# A claim.
[experiment]
title = "t"
mechanism = "nagle"
scenario = "nagle-delayed-ack.toml"
variant = "default"
set = ["kernel=6.18"]
[real]
topology = "lo"
[recorded]
hz = 250
[values]
elapsed_s = { median = 8.8, min = 8.7, max = 9.0 }
"localhost:TcpOutSegs" = { median = 868, min = 848, max = 1032 }
"#;

    #[test]
    fn an_experiment_file_parses_with_its_claim_and_values() {
        let e = parse_experiment(EXP, "x.toml", "x").unwrap();
        assert_eq!(e.claim, "A claim.");
        assert_eq!(e.variant.as_deref(), Some("default"));
        assert_eq!(e.sets, vec!["kernel=6.18"]);
        assert_eq!(e.values.len(), 2);
        assert_eq!(e.values[1].name, "localhost:TcpOutSegs");
        assert_eq!(e.values[1].max, 1032.0);
    }

    #[test]
    fn a_value_whose_median_lies_outside_its_range_is_rejected_with_its_name() {
        let bad = EXP.replace("median = 868", "median = 2000");
        let e = parse_experiment(&bad, "x.toml", "x").unwrap_err();
        assert!(
            e.contains("x.toml") && e.contains("localhost:TcpOutSegs"),
            "{e}"
        );
    }

    #[test]
    fn in_band_is_ten_percent_of_the_median_or_inside_the_recorded_range() {
        let r = Recorded {
            name: "v".into(),
            median: 100.0,
            min: 95.0,
            max: 130.0,
        };
        assert!(in_band(109.9, &r));
        assert!(in_band(125.0, &r)); // outside ±10 %, inside min..max
        assert!(!in_band(131.0, &r));
        assert!(!in_band(89.0, &r));
        assert!(!in_band(f64::NAN, &r));
    }

    #[test]
    fn known_failures_need_a_reason() {
        let k = parse_known_failures("[x]\n\"elapsed_s\" = \"no veth\"\n", "k.toml").unwrap();
        assert_eq!(k["x"]["elapsed_s"], "no veth");
        assert!(parse_known_failures("[x]\n\"elapsed_s\" = \"\"\n", "k.toml").is_err());
    }
}
