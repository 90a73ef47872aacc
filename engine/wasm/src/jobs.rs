//! The site's sweep and pcap jobs (the sweep panel, "Download pcap"): plain Rust over
//! `sendpath_core::sweep` and `sendpath_core::pcap`, wrapped for wasm in `site.rs`.
//!
//! - [`sweep_grid`] checks a sweep (its keys, ranges and metrics, with the errors
//!   `sendpath sweep` gives) and lists its points; the site's workers then run each point as a
//!   session of its own and read its metrics by name (`WasmSession::metric`).
//! - [`pcap_file`] runs a configuration from its start to `to_ns` with the packet tap on and
//!   writes the packets as pcapng (`sendpath run --pcap`).

use serde::Serialize;

use sendpath_core::pcap::{Frames, Meta, Pcap, Tap, WriteOptions, DEFAULT_TAP_LIMIT};
use sendpath_core::sim::world::World;
use sendpath_core::sweep::{Point, Sweep, Vary};
use sendpath_core::trace::Trace;
use sendpath_core::Scenario;

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
}
