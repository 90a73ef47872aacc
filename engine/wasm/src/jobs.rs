//! The site's sweep and pcap jobs (the sweep panel, "Download pcap"): plain Rust over
//! `sendpath_core::sweep` and `sendpath_core::pcap`, wrapped for wasm in `site.rs`.
//!
//! - [`sweep_grid`] checks a sweep (its keys, ranges and metrics, with the errors
//!   `sendpath sweep` gives) and lists its points; the site's workers then run each point as a
//!   session of its own and read its metrics by name (`WasmSession::metric`).
//! - [`pcap_file`] runs a configuration from its start to `to_ns` with the packet tap on and
//!   writes the packets as pcapng (`sendpath run --pcap`).
//! - [`SummaryRun`] runs a configuration to its end in slices with the summary's collector on:
//!   `sendpath run`'s summary (per flow, per device, holds per gate) and its `--csv` tables
//!   (the site's "Run summary" panel).
//! - [`at_text`] is `sendpath run --at TIME`'s text: `ss -tin` and `tc -s qdisc` at an instant.
//! - [`kernel_diff`] compares two configurations' keys and kernel switches (`sendpath diff`).

use std::collections::BTreeMap;

use serde::Serialize;

use sendpath_core::diff::KernelDiff;
use sendpath_core::pcap::{Frames, Meta, Pcap, Tap, WriteOptions, DEFAULT_TAP_LIMIT};
use sendpath_core::sim::world::World;
use sendpath_core::sweep::{Point, Sweep, Vary};
use sendpath_core::trace::Trace;
use sendpath_core::{RunOptions, RunResult, Scenario};

/// A checked sweep: its varied keys with their values, and every point.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepGrid {
    pub vary: Vec<Vary>,
    pub metrics: Vec<String>,
    pub points: Vec<Point>,
}

/// The grid of a sweep of `source` (`vary`: `KEY=A..B[:STEP|xFACTOR]` or `KEY=V1,V2,...`),
/// checked; the error names the key, the value or the metric.
pub fn sweep_grid(
    source: &str,
    file: &str,
    variant: Option<&str>,
    sets: &[String],
    vary: &[String],
    metrics: &[String],
) -> Result<SweepGrid, String> {
    let sweep = Sweep {
        source: source.to_string(),
        file: file.to_string(),
        variant: variant.map(str::to_string),
        sets: sets.to_vec(),
        vary: vary
            .iter()
            .map(|v| Vary::parse(v))
            .collect::<Result<_, _>>()?,
        metrics: metrics.to_vec(),
    };
    let points = sweep.check()?;
    Ok(SweepGrid {
        vary: sweep.vary,
        metrics: sweep.metrics,
        points,
    })
}

/// The packets of a configuration's run from its start to `to_ns` (at most its duration) as a
/// pcapng file; `frames` is `tso` or `wire`, `snaplen` 0 keeps whole frames.
pub fn pcap_file(
    source: &str,
    file: &str,
    variant: Option<&str>,
    sets: &[String],
    to_ns: Option<u64>,
    frames: &str,
    snaplen: u32,
) -> Result<Vec<u8>, String> {
    let opts = WriteOptions {
        frames: Frames::parse(frames)?,
        snaplen,
    };
    let sc = Scenario::parse(source, file).map_err(|e| e.to_string())?;
    let cfg = sc.config(variant, sets).map_err(|e| e.to_string())?;
    let mut trace = Trace::new(false, 0);
    trace.capture = Some(Tap::new(DEFAULT_TAP_LIMIT));
    let mut w = World::new(cfg, trace);
    if let Some(t) = to_ns {
        w.end_ns = w.end_ns.min(t);
    }
    w.run();
    let tap = w.stack.trace.capture.take().expect("the tap was set");
    let meta = Meta::of(&w);
    Ok(Pcap { tap, meta }.pcapng(&opts))
}

/// A run to its end with `sendpath run`'s summary: [`SummaryRun::advance`] in slices, then
/// [`SummaryRun::finish`].
pub struct SummaryRun {
    world: World,
    done: bool,
}

/// What [`SummaryRun::finish`] reports: the result with its summary, the `--csv` tables, and
/// how often each kernel switch's code path showed (`sendpath diff`'s "fired").
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    pub result: RunResult,
    /// The step of the time series, ns.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub interval_ns: u64,
    /// `PREFIX.flows.csv` and `PREFIX.devices.csv` of `sendpath run --csv PREFIX --interval`.
    pub flows_csv: String,
    pub devices_csv: String,
    /// Each switch's evidence (`kind:fragment`, ...) and its count in this run; null when no
    /// event shows it.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number | null>"))]
    pub evidence: BTreeMap<String, Option<u64>>,
}

impl SummaryRun {
    /// The run of a configuration with its time series sampled every `interval_ns` (at least 1).
    pub fn start(
        source: &str,
        file: &str,
        variant: Option<&str>,
        sets: &[String],
        interval_ns: u64,
    ) -> Result<SummaryRun, String> {
        let sc = Scenario::parse(source, file).map_err(|e| e.to_string())?;
        let cfg = sc.config(variant, sets).map_err(|e| e.to_string())?;
        let opts = RunOptions {
            summary: true,
            series_interval_ns: interval_ns.max(1),
            ..Default::default()
        };
        Ok(SummaryRun {
            world: sendpath_core::start_run(cfg, &opts),
            done: false,
        })
    }

    /// Runs at most `max_events` more events (as `World::run` does); true once the run is over.
    pub fn advance(&mut self, max_events: u32) -> bool {
        for _ in 0..max_events {
            if self.done {
                break;
            }
            if !self.world.step() || (self.world.app_stepped() && self.world.finished()) {
                self.done = true;
            }
        }
        self.done
    }

    pub fn now_ns(&self) -> u64 {
        self.world.now_ns
    }

    pub fn end_ns(&self) -> u64 {
        self.world.end_ns
    }

    /// The summary of the finished run.
    pub fn finish(self) -> RunSummary {
        let out = sendpath_core::finish_run(self.world);
        let series = out.series.expect("a summary run samples its series");
        let evidence = sendpath_core::scenario::profile::SWITCHES
            .iter()
            .map(|s| {
                (
                    s.evidence.to_string(),
                    sendpath_core::diff::evidence(s.evidence, &out.result),
                )
            })
            .collect();
        RunSummary {
            interval_ns: series.interval_ns,
            flows_csv: sendpath_core::sim::csv::flows_csv(&series, &out.result),
            devices_csv: sendpath_core::sim::csv::devices_csv(&series, &out.result),
            result: out.result,
            evidence,
        }
    }
}

/// `sendpath run FILE --at TIME`'s text for a configuration at `at_ns`.
pub fn at_text(
    source: &str,
    file: &str,
    variant: Option<&str>,
    sets: &[String],
    at_ns: u64,
) -> Result<String, String> {
    let sc = Scenario::parse(source, file).map_err(|e| e.to_string())?;
    let cfg = sc.config(variant, sets).map_err(|e| e.to_string())?;
    sendpath_core::sim::snapshot::at_report(file, cfg, at_ns)
}

/// One side of a comparison: a scenario's text, its file name, a variant, overrides.
pub struct SideConfig<'a> {
    pub source: &'a str,
    pub file: &'a str,
    pub variant: Option<&'a str>,
    pub sets: &'a [String],
}

/// The keys and kernel switches that differ between two configurations (`sendpath diff`'s
/// first two parts).
pub fn kernel_diff(a: SideConfig, b: SideConfig) -> Result<KernelDiff, String> {
    let sa = Scenario::parse(a.source, a.file).map_err(|e| e.to_string())?;
    let sb = Scenario::parse(b.source, b.file).map_err(|e| e.to_string())?;
    sendpath_core::diff::kernel_diff(&sa, (a.variant, a.sets), &sb, (b.variant, b.sets))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn autocorking() -> String {
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/autocorking.toml"
        ))
        .unwrap()
    }

    #[test]
    fn a_sweep_grid_lists_every_point_with_its_overrides() {
        let g = sweep_grid(
            &autocorking(),
            "scenarios/autocorking.toml",
            None,
            &["sim.duration_ms=2".into()],
            &["app.write_size_bytes=128..512x2".into()],
            &["throughput_mbit".into()],
        )
        .unwrap();
        assert_eq!(g.points.len(), 3);
        assert_eq!(
            g.points[2].sets,
            ["sim.duration_ms=2", "app.write_size_bytes=512"]
        );
    }

    #[test]
    fn a_sweep_grid_names_a_bad_key_or_metric() {
        let e = sweep_grid(
            &autocorking(),
            "f",
            None,
            &[],
            &["app.bogus=1..2".into()],
            &[],
        )
        .unwrap_err();
        assert!(e.contains("app.bogus: unknown key"), "{e}");
        let e = sweep_grid(
            &autocorking(),
            "f",
            None,
            &[],
            &["app.flows=1..2".into()],
            &["nope".into()],
        )
        .unwrap_err();
        assert!(e.contains("unknown metric nope"), "{e}");
    }

    #[test]
    fn a_pcap_file_stops_at_the_window_end_and_is_pcapng() {
        let src = autocorking();
        let short = pcap_file(&src, "f", None, &[], Some(1_000_000), "tso", 128).unwrap();
        let longer = pcap_file(&src, "f", None, &[], Some(2_000_000), "wire", 128).unwrap();
        assert_eq!(
            short[..4],
            [0x0A, 0x0D, 0x0D, 0x0A],
            "a section header block"
        );
        assert!(longer.len() > short.len());
        let e = pcap_file(&src, "f", None, &[], None, "mss", 128).unwrap_err();
        assert!(e.contains("tso") && e.contains("wire"), "{e}");
    }

    #[test]
    fn a_summary_run_in_slices_equals_the_cli_run_and_its_csv() {
        let src = autocorking();
        let sets = vec!["sim.duration_ms=3".to_string()];
        let mut run = SummaryRun::start(&src, "f", None, &sets, 1_000_000).unwrap();
        let mut slices = 0;
        while !run.advance(10_000) {
            slices += 1;
        }
        assert!(slices > 1, "the run took several slices");
        let s = run.finish();
        let direct = sendpath_core::run_source(
            &src,
            "f",
            &RunOptions {
                sets: sets.clone(),
                summary: true,
                series_interval_ns: 1_000_000,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.result, direct.result);
        let series = direct.series.unwrap();
        assert_eq!(
            s.flows_csv,
            sendpath_core::sim::csv::flows_csv(&series, &direct.result)
        );
        assert_eq!(
            s.devices_csv,
            sendpath_core::sim::csv::devices_csv(&series, &direct.result)
        );
        assert!(s.devices_csv.starts_with("t_ms,host,qdisc_bytes,"));
        // The 8 sockets at 1, 2 and 3 ms (none has an event before t = 0 ends).
        assert_eq!(s.flows_csv.lines().count(), 1 + 8 * 3);
        assert_eq!(
            s.evidence["counter:TcpExtTCPAutoCorking"],
            Some(direct.result.hosts["sender"].counters["TcpExtTCPAutoCorking"])
        );
    }

    #[test]
    fn at_text_is_ss_and_tc_and_names_a_time_after_the_end() {
        let src = autocorking();
        let t = at_text(&src, "a.toml", None, &[], 2_000_000).unwrap();
        assert!(t.starts_with("# a.toml at t = 2.000000 ms\n"), "{t}");
        assert!(t.contains("ESTAB") && t.contains("qdisc "), "{t}");
        let e = at_text(
            &src,
            "a.toml",
            None,
            &["sim.duration_ms=1".into()],
            2_000_000,
        )
        .unwrap_err();
        assert!(e.contains("after the run ends"), "{e}");
    }

    #[test]
    fn a_kernel_diff_of_two_sides() {
        let src = autocorking();
        let (a, b) = (
            vec!["kernel=3.13".to_string()],
            vec!["kernel=6.18".to_string()],
        );
        let side = |sets| SideConfig {
            source: &src,
            file: "f",
            variant: None,
            sets,
        };
        let d = kernel_diff(side(&a), side(&b)).unwrap();
        assert!(d.keys.iter().any(|k| k.key == "sim.hz"));
        assert!(d.switches.iter().any(|s| s.name == "tsq"));
    }
}
