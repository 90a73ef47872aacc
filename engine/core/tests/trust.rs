//! Issue 15, engine side: nothing a scenario or a `--set` holds can freeze, crash or mislead.
//! One regression test per example found; each ran forever, panicked or said nothing before
//! its fix.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use sendpath_core::scenario::{self, Scenario};
use sendpath_core::{run_config, run_source, RunOptions};

/// Run `f` on a thread; fail (instead of hanging the suite) when it takes longer than `limit`.
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("did not finish within {limit:?}"))
}

const LOOPBACK_FREE: &str = "title = \"t\"\n[link]\nkind = \"loopback\"\n[cpu]\nmodel = \"free\"\n";

#[test]
fn loopback_with_a_free_cpu_is_rejected_naming_the_key_not_run_forever() {
    let e = within(Duration::from_secs(2), || {
        run_source(LOOPBACK_FREE, "lo.toml", &RunOptions::default()).map(|_| ())
    })
    .unwrap_err();
    assert_eq!(e.key.as_deref(), Some("cpu.model"), "{e}");
    assert!(
        e.to_string()
            .starts_with("lo.toml: cpu.model: \"free\" with link.kind = \"loopback\""),
        "{e}"
    );
    // The same through --set, and a ping-pong (whose timers advance time) still runs.
    let sc = Scenario::parse("title = \"t\"\n", "x.toml").unwrap();
    assert!(sc
        .config(
            None,
            &["link.kind=loopback".into(), "cpu.model=free".into()]
        )
        .is_err());
    assert!(sc
        .config(
            None,
            &[
                "link.kind=loopback".into(),
                "cpu.model=free".into(),
                "app.kind=pingpong".into()
            ]
        )
        .is_ok());
}

#[test]
fn a_run_whose_time_stops_advancing_ends_with_a_warning() {
    // The configuration the parser now refuses, built by hand: nothing in it takes time.
    let sc = Scenario::parse("title = \"t\"\n[link]\nkind = \"loopback\"\n", "lo.toml").unwrap();
    let mut cfg = sc.config(None, &[]).unwrap();
    for h in &mut cfg.hosts {
        h.cpu.model = sendpath_core::scenario::CpuModel::Free;
    }
    let t0 = Instant::now();
    let out = within(Duration::from_secs(60), move || {
        run_config(cfg, &RunOptions::default())
    });
    let r = &out.result;
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("without simulated time advancing")),
        "{:?}",
        r.warnings
    );
    assert_eq!(
        r.elapsed_s, 0.0,
        "the figures cover the run up to the stall"
    );
    assert!(t0.elapsed() < Duration::from_secs(60));
}

#[test]
fn tcp_tso_rtt_log_accepts_the_kernels_whole_u8_range_without_overflow() {
    let def = scenario::keys::key("net.ipv4.tcp_tso_rtt_log").unwrap();
    // proc_dou8vec_minmax without bounds: 0..255.
    assert_eq!(
        def.kind,
        scenario::keys::Kind::Int { min: 0, max: 255 },
        "the kernel's range"
    );
    for v in [31, 32, 63, 64, 200, 255] {
        let opts = RunOptions {
            sets: vec![
                format!("net.ipv4.tcp_tso_rtt_log={v}"),
                "sim.duration_ms=20".into(),
            ],
            ..Default::default()
        };
        let out = run_source("title = \"t\"\nkernel = \"6.18\"\n", "x.toml", &opts)
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert!(out.result.apps[0].bytes_written > 0, "{v}");
    }
    assert!(Scenario::parse("title = \"t\"\n", "x.toml")
        .unwrap()
        .config(None, &["net.ipv4.tcp_tso_rtt_log=256".into()])
        .unwrap_err()
        .to_string()
        .contains("accepts 0..255 (got 256)"));
}

#[test]
fn a_megabyte_unknown_key_is_rejected_in_milliseconds_with_a_short_error() {
    let key = "a".repeat(1_000_000);
    for src in [
        format!("title = \"t\"\n[sysctl]\n\"net.{key}\" = 1\n"),
        format!("title = \"t\"\n[link]\n{key} = 1\n"),
        format!("title = \"t\"\n[{key}]\nx = 1\n"),
    ] {
        let t0 = Instant::now();
        let e = within(Duration::from_secs(2), move || {
            Scenario::parse(&src, "big.toml").unwrap_err()
        });
        assert!(
            t0.elapsed() < Duration::from_millis(500),
            "{:?}",
            t0.elapsed()
        );
        let text = e.to_string();
        assert!(
            text.len() < 400,
            "the error quotes the key in full: {} bytes",
            text.len()
        );
        assert!(text.starts_with("big.toml: "), "{}", &text[..100]);
    }
    let e = Scenario::parse("title = \"t\"\n", "x.toml")
        .unwrap()
        .config(None, &[format!("{key}=1")])
        .unwrap_err();
    assert!(
        e.to_string().contains("key names have at most 128"),
        "{}",
        &e.to_string()[..200]
    );
}

#[test]
fn a_file_too_large_or_binary_is_rejected_with_the_limit_or_the_place() {
    let zeros = vec![0u8; scenario::MAX_SCENARIO_BYTES + 1];
    assert_eq!(
        scenario::decode(&zeros, "/dev/zero")
            .unwrap_err()
            .to_string(),
        "/dev/zero: larger than 1048576 bytes: a scenario file is at most 1 MiB"
    );
    assert_eq!(
        scenario::decode(b"title = \"t\"\n\xff\xfe", "b.toml")
            .unwrap_err()
            .to_string(),
        "b.toml: line 2: not UTF-8 text (byte offset 12): a scenario is a UTF-8 TOML file"
    );
    assert_eq!(
        scenario::decode(b"title = \"t\"\n\0\0", "n.toml")
            .unwrap_err()
            .to_string(),
        "n.toml: line 2: a NUL byte (offset 12): a binary file, not a scenario (TOML text)"
    );
    let big = format!("title = \"{}\"\n", "x".repeat(scenario::MAX_SCENARIO_BYTES));
    assert!(Scenario::parse(&big, "big.toml")
        .unwrap_err()
        .to_string()
        .contains("at most 1 MiB"));
}

const TSQ: &str = include_str!("../../../scenarios/tcp-small-queues.toml");

#[test]
fn a_kernel_set_on_a_scenario_that_pins_older_values_says_so() {
    let sc = Scenario::parse(TSQ, "tcp-small-queues.toml").unwrap();
    let cfg = sc.config(None, &["kernel=6.18".into()]).unwrap();
    assert!(
        cfg.warnings.iter().any(|w| w
            == "kernel 6.18 (from --set) keeps the scenario's net.ipv4.tcp_limit_output_bytes = 131072, written for kernel 3.14; kernel 6.18's default is 4194304 (--set net.ipv4.tcp_limit_output_bytes=4194304 to use it)"),
        "{:?}",
        cfg.warnings
    );
    // The file's own kernel: nothing to say.
    assert!(sc.config(None, &[]).unwrap().warnings.is_empty());
    // And the warning reaches the result (--json).
    let opts = RunOptions {
        sets: vec!["kernel=6.18".into(), "sim.duration_ms=5".into()],
        ..Default::default()
    };
    let out = run_source(TSQ, "tcp-small-queues.toml", &opts).unwrap();
    let json = serde_json::to_string(&out.result).unwrap();
    assert!(json.contains("keeps the scenario's net.ipv4.tcp_limit_output_bytes"));
}

#[test]
fn a_key_absent_from_the_kernel_is_a_warning_in_the_result() {
    let opts = RunOptions {
        sets: vec![
            "kernel=3.13".into(),
            "net.ipv4.tcp_autocorking=0".into(),
            "sim.duration_ms=5".into(),
        ],
        ..Default::default()
    };
    let out = run_source("title = \"t\"\n", "x.toml", &opts).unwrap();
    let json = serde_json::to_value(&out.result).unwrap();
    assert!(json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains(
            "net.ipv4.tcp_autocorking does not exist in kernel 3.13 (added in 3.14): ignored"
        )));
}

#[test]
fn show_config_names_where_every_value_came_from() {
    let sc = Scenario::parse(TSQ, "tcp-small-queues.toml").unwrap();
    let (lines, warnings) = sc
        .show_config(None, &["kernel=6.18".into(), "sender:TCP_NODELAY=1".into()])
        .unwrap();
    assert_eq!(
        lines.iter().filter(|l| l.host.is_none()).count() + 2,
        lines.len()
    );
    let find = |host: Option<&str>, key: &str| {
        lines
            .iter()
            .find(|l| l.host.as_deref() == host && l.key == key)
            .unwrap_or_else(|| panic!("{key}"))
    };
    assert_eq!(find(None, "kernel").origin, "--set");
    assert_eq!(
        find(None, "net.ipv4.tcp_limit_output_bytes").origin,
        "scenario"
    );
    assert_eq!(
        find(None, "net.ipv4.tcp_limit_output_bytes").value,
        "131072"
    );
    assert_eq!(find(None, "sim.seed").origin, "kernel 6.18 default");
    assert_eq!(find(Some("sender"), "TCP_NODELAY").origin, "--set");
    assert_eq!(
        find(Some("receiver"), "TCP_NODELAY").origin,
        "kernel 6.18 default"
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let (lines, _) = sc.show_config(None, &["kernel=3.13".into()]).unwrap();
    assert!(lines
        .iter()
        .find(|l| l.key == "net.ipv4.tcp_autocorking")
        .unwrap()
        .origin
        .ends_with("(not in this kernel: ignored)"));
}

#[test]
fn keys_the_rest_of_the_configuration_makes_meaningless_are_named_in_a_warning() {
    let warnings = |src: &str, sets: &[&str]| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Scenario::parse(src, "k.toml")
            .unwrap()
            .config(None, &sets)
            .unwrap()
            .warnings
    };
    let t = "title = \"t\"\n";
    assert_eq!(
        warnings(t, &["link.kind=loopback", "link.rate_mbit=100"]),
        ["link.rate_mbit = 100 has no effect with link.kind = \"loopback\" (lo has no line rate); kept, ignored"]
    );
    assert_eq!(
        warnings(
            &format!("{t}[tc]\nqdisc = \"fq\"\n\"tbf.rate_mbit\" = 100\n"),
            &[]
        ),
        ["tc.tbf.rate_mbit = 100 has no effect with no host running tbf; kept, ignored"]
    );
    assert_eq!(
        warnings(t, &["app.kind=pingpong", "app.flows=4"]),
        ["app.flows = 4 has no effect with app.kind = \"pingpong\" (a stream key); kept, ignored"]
    );
    // Every shipped scenario, with each variant, sets only keys that apply.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let src = std::fs::read_to_string(&p).unwrap();
        let sc = Scenario::parse(&src, "s.toml").unwrap();
        let mut names: Vec<Option<&str>> = vec![None];
        names.extend(sc.variants.iter().map(|v| Some(v.name.as_str())));
        for v in names {
            let w = sc.config(v, &[]).unwrap().warnings;
            assert!(
                w.iter().all(|w| !w.contains("has no effect")),
                "{}: {v:?}: {w:?}",
                p.display()
            );
        }
    }
}

/// A minimal scenario with `--set` overrides, resolved as `sendpath run` resolves it.
fn config_with(sets: &[&str]) -> Result<scenario::Config, scenario::ScenarioError> {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scenario::parse("title = \"t\"\n", "t.toml")
        .unwrap()
        .config(None, &sets)
}

#[test]
fn a_free_cpu_stream_through_the_forwarder_without_a_bottleneck_is_refused() {
    // It froze CI: the forwarder only delays, so a 1-byte writer without CPU costs moved
    // 160 Gbit/s (a window per 2 µs round trip) in 20 M writes per simulated millisecond.
    let base = ["link.kind=veth", "link.delay_us=1", "cpu.model=free"];
    let e = config_with(&base).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("cpu.model"));
    assert!(e.message.contains("path.bottleneck_mbit"), "{}", e.message);
    // With a bottleneck the forwarder has a rate, and the stream a size.
    let mut with_rate = base.to_vec();
    with_rate.push("path.bottleneck_mbit=100");
    assert!(config_with(&with_rate).is_ok());
}

#[test]
fn free_cpu_writes_count_in_the_run_size() {
    let size = |sets: &[&str]| config_with(sets).unwrap().run_size();
    let free = [
        "cpu.model=free",
        "sim.duration_ms=10",
        "app.write_size_bytes=1",
    ];
    let (n, how) = size(&free);
    let (reference, _) = size(&["sim.duration_ms=10", "app.write_size_bytes=1"]);
    // Each of the 1448 one-byte writes of a packet counts: 1449 times the packets.
    assert_eq!(n, reference * 1449, "{how}");
    assert!(how.contains("1-byte write"), "{how}");
    // The fuzz run's slow configurations: free CPU and 2-byte reads (230 M reads in 28 ms).
    let (reads, how) = size(&[
        "cpu.model=free",
        "sim.duration_ms=10",
        "app.read_size_bytes=2",
    ]);
    let (plain, _) = size(&["cpu.model=free", "sim.duration_ms=10"]);
    assert_eq!(reads, plain + plain * 1448 / 2, "{how}");
    assert!(how.contains("2-byte read"), "{how}");
}

#[test]
fn a_run_too_large_is_refused_before_it_starts_and_a_large_one_is_announced() {
    let config = |sets: &[&str]| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Scenario::parse("title = \"t\"\n", "big.toml")
            .unwrap()
            .config(None, &sets)
    };
    let e = within(Duration::from_secs(2), move || {
        config(&["sim.duration_ms=600000", "link.rate_mbit=800000"]).map(|_| ())
    })
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "big.toml: sim.duration_ms: sim.duration_ms = 600000 at 800000 Mbit/s is about 41436 M packets; a run carries at most 2400 M (the run size limit: it would take minutes or hours); lower sim.duration_ms, link.rate_mbit or app.flows, or set app.bytes"
    );
    let big = config(&["sim.duration_ms=200000", "link.rate_mbit=10000"]).unwrap();
    assert_eq!(
        big.warnings,
        ["sim.duration_ms = 200000 at 10000 Mbit/s is about 172 M packets: this run may take a minute or more (the run size limit is 2400 M)"]
    );
    // The same duration and rate with a bounded transfer is small.
    let bounded = config(&[
        "sim.duration_ms=600000",
        "link.rate_mbit=800000",
        "app.bytes=1000000",
    ]);
    assert!(bounded.unwrap().warnings.is_empty());
}

#[test]
fn a_run_that_reaches_the_event_limit_stops_and_says_so() {
    let cfg = Scenario::parse("title = \"t\"\n", "limit.toml")
        .unwrap()
        .config(None, &[])
        .unwrap();
    let mut w =
        sendpath_core::sim::world::World::new(cfg, sendpath_core::trace::Trace::new(false, 0));
    w.max_events = 10_000;
    w.run();
    let r = sendpath_core::result_of(&w);
    assert_eq!(r.events, 10_000);
    assert!(
        r.warnings[0].starts_with("the run stopped at t = ")
            && r.warnings[0].ends_with(
                "after 0.01 M events (the event limit); the figures cover the run up to that instant: lower sim.duration_ms, link.rate_mbit or app.flows"
            ),
        "{:?}",
        r.warnings
    );
}
