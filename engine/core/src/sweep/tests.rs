use super::*;

fn values(spec: &str) -> Vec<String> {
    Vary::parse(spec).unwrap().values
}

fn autocorking(vary: &[&str], metrics: &[&str]) -> Sweep {
    let file = "autocorking.toml";
    Sweep {
        source: std::fs::read_to_string(format!(
            "{}/../../scenarios/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
        file: file.into(),
        variant: None,
        sets: vec!["sim.duration_ms=2".into()],
        vary: vary.iter().map(|v| Vary::parse(v).unwrap()).collect(),
        metrics: metrics.iter().map(|m| m.to_string()).collect(),
    }
}

#[test]
fn a_range_steps_by_one_by_a_step_or_by_a_factor_and_ends_at_or_before_its_end() {
    assert_eq!(values("app.write_size_bytes=1..4"), ["1", "2", "3", "4"]);
    assert_eq!(
        values("app.write_size_bytes=100..350:100"),
        ["100", "200", "300"]
    );
    assert_eq!(
        values("app.write_size_bytes=128..1024x2"),
        ["128", "256", "512", "1024"]
    );
    // Rounded to integers, repeats dropped, never beyond the end.
    assert_eq!(values("app.flows=1..6x1.5"), ["1", "2", "3", "5"]);
    assert_eq!(values("net.ipv4.tcp_autocorking=0..1"), ["0", "1"]);
    assert_eq!(
        values("net.core.default_qdisc=fq,pfifo_fast"),
        ["fq", "pfifo_fast"]
    );
    assert_eq!(
        Vary::parse("sender:app.flows=1,2").unwrap().key,
        "sender:app.flows"
    );
}

#[test]
fn a_bad_vary_is_an_error_naming_the_key_and_what_is_wrong() {
    let err = |s: &str| Vary::parse(s).unwrap_err();
    let e = err("app.write_sise_bytes=1..2");
    assert!(
        e.contains("app.write_sise_bytes: unknown key")
            && e.contains("did you mean \"app.write_size_bytes\""),
        "{e}"
    );
    let e = err("app.write_size_bytes=0..10");
    assert!(
        e.contains("app.write_size_bytes") && e.contains("accepts 1.."),
        "{e}"
    );
    let e = err("app.write_size_bytes=10..1");
    assert!(e.contains("ends (1) before it starts (10)"), "{e}");
    let e = err("app.write_size_bytes=1..10:0");
    assert!(e.contains("step must be above 0"), "{e}");
    let e = err("app.write_size_bytes=1..10x1");
    assert!(e.contains("factor must be above 1"), "{e}");
    let e = err("app.write_size_bytes=a..10");
    assert!(e.contains("start \"a\" is not an integer"), "{e}");
    let e = err("net.core.default_qdisc=fq..pfifo");
    assert!(e.contains("takes no range"), "{e}");
    let e = err("app.write_size_bytes");
    assert!(e.contains("KEY=A..B"), "{e}");
    let e = err("app.write_size_bytes=1..20000");
    assert!(e.contains("more than 10000 values"), "{e}");
}

#[test]
fn the_grid_is_every_combination_with_the_first_key_varying_slowest() {
    let s = autocorking(
        &[
            "net.ipv4.tcp_autocorking=0..1",
            "app.write_size_bytes=128..512x2",
        ],
        &["throughput_mbit"],
    );
    let p = s.points().unwrap();
    let vals: Vec<String> = p.iter().map(|p| p.values.join("/")).collect();
    assert_eq!(vals, ["0/128", "0/256", "0/512", "1/128", "1/256", "1/512"]);
    assert_eq!(
        p[4].sets,
        [
            "sim.duration_ms=2",
            "net.ipv4.tcp_autocorking=1",
            "app.write_size_bytes=256"
        ]
    );
}

#[test]
fn a_grid_beyond_the_limit_or_a_key_varied_twice_is_refused() {
    let s = autocorking(
        &["app.write_size_bytes=1..200", "app.read_size_bytes=1..100"],
        &["throughput_mbit"],
    );
    let e = s.points().unwrap_err();
    assert!(
        e.contains("more than 10000 points") && e.contains("200 values of app.write_size_bytes"),
        "{e}"
    );
    let s = autocorking(&["app.flows=1..2", "app.flows=3..4"], &["throughput_mbit"]);
    assert!(s.points().unwrap_err().contains("app.flows: varied twice"));
}

#[test]
fn check_names_an_unknown_metric_or_host_and_a_value_the_scenario_refuses() {
    let e = autocorking(&["app.flows=1..2"], &["throughput"])
        .check()
        .unwrap_err();
    assert!(
        e.contains("unknown metric throughput") && e.contains("throughput_mbit"),
        "{e}"
    );
    let e = autocorking(&["app.flows=1..2"], &["tcpextTCPAutoCorking"])
        .check()
        .unwrap_err();
    assert!(e.contains("did you mean TcpExtTCPAutoCorking"), "{e}");
    let e = autocorking(&["app.flows=1..2"], &["client:TcpOutSegs"])
        .check()
        .unwrap_err();
    assert!(
        e.contains("no host \"client\"") && e.contains("sender, receiver"),
        "{e}"
    );
    let e = autocorking(&["app.flows=1..2"], &[]).check().unwrap_err();
    assert!(e.contains("--metric"), "{e}");
    // The scenario's own checks: a value the key accepts but the scenario cannot run.
    let e = autocorking(&["sender:app.flows=1..2"], &["throughput_mbit"]).check();
    assert!(e.is_err(), "app.flows is not per host: {e:?}");
    assert!(e.unwrap_err().contains("app.flows"));
}

#[test]
fn a_points_metrics_are_those_of_the_same_run_made_by_hand() {
    let s = autocorking(
        &["net.ipv4.tcp_autocorking=0..1"],
        &[
            "throughput_mbit",
            "TcpExtTCPAutoCorking",
            "sender:TcpOutSegs",
            "cpu_per_byte_ns",
        ],
    );
    let points = s.check().unwrap();
    for p in &points {
        let got = s.run_point(p).unwrap();
        let opts = RunOptions {
            sets: p.sets.clone(),
            ..Default::default()
        };
        let r = crate::run_source(&s.source, &s.file, &opts).unwrap().result;
        let autocorks: u64 = r
            .hosts
            .values()
            .map(|h| h.counters.get("TcpExtTCPAutoCorking").copied().unwrap_or(0))
            .sum();
        assert_eq!(got.metrics[1], Some(autocorks as f64));
        assert_eq!(
            got.metrics[2],
            Some(r.hosts["sender"].counters["TcpOutSegs"] as f64)
        );
        assert_eq!(got.metrics[0], crate::metric(&r, "throughput_mbit"));
        assert!(got.metrics[3].unwrap() > 0.0);
    }
    // Autocorking off never autocorks; on, it does.
    assert_eq!(s.run_point(&points[0]).unwrap().metrics[1], Some(0.0));
    assert!(s.run_point(&points[1]).unwrap().metrics[1].unwrap() > 0.0);
}
