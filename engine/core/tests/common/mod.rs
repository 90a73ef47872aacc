//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use sendpath_core::{run_source, RunOptions, RunResult};

/// The repository's `scenarios/` directory.
pub fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// Every scenario file, sorted.
pub fn scenario_files() -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    v.sort();
    v
}

/// Run `scenarios/<name>` with a variant and overrides.
pub fn run(name: &str, variant: Option<&str>, sets: &[&str]) -> RunResult {
    let path = scenarios_dir().join(name);
    let src = std::fs::read_to_string(&path).unwrap();
    let opts = RunOptions {
        variant: variant.map(str::to_string),
        sets: sets.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    run_source(&src, name, &opts).unwrap().result
}

/// The stream writers' throughput together, Mbit/s (the `throughput_mbit` metric).
pub fn stream_mbps(r: &RunResult) -> f64 {
    sendpath_core::metric(r, "throughput_mbit").unwrap()
}

/// A counter of a host (0 when the counter never moved).
pub fn counter(r: &RunResult, host: &str, name: &str) -> u64 {
    r.hosts[host].counters.get(name).copied().unwrap_or(0)
}

/// `x` within `tol` (a fraction) of `want`.
pub fn within(x: f64, want: f64, tol: f64) -> Result<(), String> {
    let lo = want * (1.0 - tol);
    let hi = want * (1.0 + tol);
    if x >= lo && x <= hi {
        Ok(())
    } else {
        Err(format!(
            "{x} is outside {want} ±{:.0}% ({lo:.1}..{hi:.1})",
            tol * 100.0
        ))
    }
}

/// A reproduction the model does not (yet) achieve. The check must fail, for the written
/// reason; if it starts passing, this panics so that the marker is removed.
pub fn known_failure(reason: &str, check: Result<(), String>) {
    match check {
        Ok(()) => panic!("known failure now passes, remove the marker: {reason}"),
        Err(e) => eprintln!("known failure ({reason}): {e}"),
    }
}
