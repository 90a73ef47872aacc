//! Two configurations of a scenario compared, kernel against kernel: `sendpath diff` and the
//! site's "Compare kernels". Not kernel code.
//!
//! - [`keys`]: the keys whose resolved value differs (a default of one kernel, or a key the
//!   other kernel does not have), each cell as `run --show-config` says where it came from;
//! - [`switches`]: the behaviour switches of the two kernel profiles
//!   ([`crate::scenario::profile::SWITCHES`]) whose value differs, with their commits;
//! - [`evidence`]: how often a switch's code path showed in a run with a summary (an event, a
//!   hold or a counter), to say whether it fired.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::scenario::profile::{Kernel, SWITCHES};
use crate::{RunResult, Scenario};

/// A key whose value differs, with each side's cell (`131072 (default)`, `not in 3.13`,
/// `1 (scenario)`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KeyDiff {
    /// The key, `HOST:KEY` where the hosts differ.
    pub key: String,
    pub a: String,
    pub b: String,
}

/// A behaviour switch whose value differs between the two kernels.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SwitchDiff {
    pub name: String,
    /// Its value on each kernel (`false`, `AtXmitRtt`, `2304`).
    pub a: String,
    pub b: String,
    /// The commits that changed it, with the release each reached.
    pub commit: String,
    /// What it decides.
    pub what: String,
    /// What shows its path was taken: `kind:NAME`, `hold:GATE`, `ack:REASON`, `counter:NAME`,
    /// `pingpong_delacks`, or "" (see [`evidence`]).
    pub evidence: String,
}

/// The keys and switches that differ between two configurations of one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KernelDiff {
    pub kernel_a: String,
    pub kernel_b: String,
    pub keys: Vec<KeyDiff>,
    pub switches: Vec<SwitchDiff>,
}

/// A configuration's resolved keys (but `kernel`): key -> (value, where it came from).
pub type Shown = BTreeMap<String, (String, String)>;

/// `sc` with `variant` and `sets` resolved, as [`keys`] compares it, and its kernel.
pub fn shown(
    sc: &Scenario,
    variant: Option<&str>,
    sets: &[String],
) -> Result<(Shown, Kernel), String> {
    let kernel = sc.config(variant, sets).map_err(|e| e.to_string())?.kernel;
    let (lines, _) = sc.show_config(variant, sets).map_err(|e| e.to_string())?;
    let keys = lines
        .into_iter()
        .filter(|l| l.key != "kernel")
        .map(|l| {
            let key = match &l.host {
                Some(h) => format!("{h}:{}", l.key),
                None => l.key.to_string(),
            };
            (key, (l.value, l.origin))
        })
        .collect();
    Ok((keys, kernel))
}

/// A resolved value as the key table shows it: `131072 (default)`, `not in 3.14`, or the value
/// with where it came from.
pub fn cell(v: &str, origin: &str, kernel: &str) -> String {
    if origin.contains("not in this kernel") {
        format!("not in {kernel}")
    } else if origin == format!("kernel {kernel} default") {
        format!("{v} (default)")
    } else {
        format!("{v} ({origin})")
    }
}

/// The keys whose value differs between `a` (on kernel `ka`) and `b` (on `kb`), in key order.
pub fn keys(a: &Shown, ka: &str, b: &Shown, kb: &str) -> Vec<KeyDiff> {
    let mut out = Vec::new();
    for (k, (va, fa)) in a {
        let Some((vb, fb)) = b.get(k) else { continue };
        if va != vb || fa.contains("not in this kernel") != fb.contains("not in this kernel") {
            out.push(KeyDiff {
                key: k.clone(),
                a: cell(va, fa, ka),
                b: cell(vb, fb, kb),
            });
        }
    }
    out
}

/// The behaviour switches whose value differs between kernels `a` and `b`, in
/// [`SWITCHES`]' order.
pub fn switches(a: Kernel, b: Kernel) -> Vec<SwitchDiff> {
    let (pa, pb) = (a.profile(), b.profile());
    SWITCHES
        .iter()
        .filter_map(|s| {
            let (va, vb) = ((s.value)(&pa), (s.value)(&pb));
            (va != vb).then(|| SwitchDiff {
                name: s.name.to_string(),
                a: va,
                b: vb,
                commit: s.commit.to_string(),
                what: s.what.to_string(),
                evidence: s.evidence.to_string(),
            })
        })
        .collect()
}

/// Both configurations compared: [`keys`] and [`switches`].
pub fn kernel_diff(
    sc_a: &Scenario,
    a: (Option<&str>, &[String]),
    sc_b: &Scenario,
    b: (Option<&str>, &[String]),
) -> Result<KernelDiff, String> {
    let (sa, ka) = shown(sc_a, a.0, a.1)?;
    let (sb, kb) = shown(sc_b, b.0, b.1)?;
    Ok(KernelDiff {
        kernel_a: ka.name().to_string(),
        kernel_b: kb.name().to_string(),
        keys: keys(&sa, ka.name(), &sb, kb.name()),
        switches: switches(ka, kb),
    })
}

/// How often a switch's code path shows in a run with a summary (`evidence` as in
/// [`SwitchDiff::evidence`]); None when no event shows it or the run has no summary.
pub fn evidence(e: &str, r: &RunResult) -> Option<u64> {
    let s = r.summary.as_ref()?;
    let (what, name) = e.split_once(':').unwrap_or((e, ""));
    Some(match what {
        "kind" => s.events_by_kind.get(name).copied().unwrap_or(0),
        "hold" => s
            .holds
            .iter()
            .find(|h| h.gate == name)
            .map_or(0, |h| h.ns.count),
        "ack" => s.acks_by_reason.get(name).copied().unwrap_or(0),
        "counter" => r
            .hosts
            .values()
            .map(|h| h.counters.get(name).copied().unwrap_or(0))
            .sum(),
        "pingpong_delacks" => s.pingpong_delacks,
        _ => return None,
    })
}

/// What [`evidence`] counts, in words (`skbs held at tsq`).
pub fn evidence_name(e: &str) -> String {
    let (what, name) = e.split_once(':').unwrap_or((e, ""));
    match what {
        "kind" => format!("{name} events"),
        "hold" => format!("skbs held at {name}"),
        "ack" => format!("ACKs sent for {name}"),
        "counter" => name.to_string(),
        "pingpong_delacks" => "delayed ACKs in pingpong mode".to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn autocorking() -> Scenario {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/autocorking.toml"
        ))
        .unwrap();
        Scenario::parse(&src, "autocorking.toml").unwrap()
    }

    #[test]
    fn three_thirteen_against_six_eighteen_lists_keys_and_switches() {
        let sc = autocorking();
        let a = ["kernel=3.13".to_string()];
        let b = ["kernel=6.18".to_string()];
        let d = kernel_diff(&sc, (None, &a), &sc, (None, &b)).unwrap();
        assert_eq!((d.kernel_a.as_str(), d.kernel_b.as_str()), ("3.13", "6.18"));
        let tlo = d
            .keys
            .iter()
            .find(|k| k.key == "net.ipv4.tcp_limit_output_bytes")
            .unwrap();
        assert_eq!(
            (tlo.a.as_str(), tlo.b.as_str()),
            ("131072 (default)", "4194304 (default)")
        );
        let ac = d
            .keys
            .iter()
            .find(|k| k.key == "net.ipv4.tcp_autocorking")
            .unwrap();
        assert_eq!(ac.a, "not in 3.13");
        let sw = &d.switches[0];
        assert_eq!(
            (sw.name.as_str(), sw.a.as_str(), sw.b.as_str()),
            ("autocorking", "false", "true")
        );
        assert!(sw.commit.starts_with("f54b311142a9"), "{}", sw.commit);
        let same = kernel_diff(&sc, (None, &b), &sc, (None, &b)).unwrap();
        assert!(same.keys.is_empty() && same.switches.is_empty());
    }
}
