//! The `sendpath` command line as other tools use it (the contract in the engine issue): the
//! `--json` object, the `nstat -a` layout, `--set` with hosts and kernel profiles, the trace
//! lines, and bad input that exits with status 2 and one line naming the file, key and reason.

mod common;

use common::sendpath;
use common::stdout_ok as stdout;
use serde_json::Value;

/// A short autocorking run: 4 flows of 128-byte writes for 5 ms.
const AUTOCORK: [&str; 4] = [
    "scenarios/autocorking.toml",
    "--set",
    "sim.duration_ms=5",
    "--json",
];

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(&sendpath(args))).expect("one JSON object")
}

/// A host's counter; like `nstat`, the JSON leaves out counters that are zero.
fn counter(v: &Value, host: &str, name: &str) -> u64 {
    let counters = v["hosts"][host]["counters"]
        .as_object()
        .unwrap_or_else(|| panic!("no counters for {host}: {v}"));
    counters.get(name).map_or(0, |c| {
        c.as_u64()
            .unwrap_or_else(|| panic!("{host}: {name} is not an integer: {c}"))
    })
}

#[test]
fn run_json_is_one_object_with_the_documented_fields() {
    let v = json(&[
        "run",
        "scenarios/nagle-delayed-ack.toml",
        "--variant",
        "default",
        "--json",
    ]);
    let elapsed = v["elapsed_s"].as_f64().expect("elapsed_s");
    assert!((7.9..8.1).contains(&elapsed), "elapsed {elapsed} s");
    let host = &v["hosts"]["localhost"];
    assert!(host["tcp_mem_pages"].is_u64(), "tcp_mem_pages: {host}");
    assert!(counter(&v, "localhost", "TcpExtDelayedACKs") > 150);
    assert!(counter(&v, "localhost", "IpExtOutOctets") > 0);
    let apps = v["apps"].as_array().expect("apps");
    assert_eq!(apps.len(), 2, "the ping-pong client and server");
    for a in apps {
        assert_eq!(a["host"], "localhost");
        assert!(a["bytes_written"].is_u64(), "{a}");
        assert!(a["throughput_bps"].is_number(), "{a}");
        assert!(a["cpu_s"].is_number(), "{a}");
        assert!(a["voluntary_ctxt_switches"].is_u64(), "{a}");
    }
    let written: u64 = apps
        .iter()
        .map(|a| a["bytes_written"].as_u64().unwrap())
        .sum();
    assert!(written > 0);
}

#[test]
fn run_prints_each_hosts_counters_in_the_layout_nstat_a_prints() {
    let out = stdout(&sendpath(&[
        "run",
        "scenarios/nagle-delayed-ack.toml",
        "--variant",
        "no_delay",
    ]));
    let mut lines = out.lines().skip_while(|l| *l != "#kernel");
    assert_eq!(lines.next(), Some("#kernel"), "{out}");
    // iproute2 misc/nstat.c: "%-32s%-16llu%6.1f" (name, value, rate).
    let rows: Vec<&str> = lines.take_while(|l| !l.is_empty()).collect();
    assert!(rows.len() > 10, "{out}");
    for row in &rows {
        let (name, rest) = row.split_at(32);
        let (value, rate) = rest.split_at(16);
        assert!(
            name.trim_end().chars().all(|c| c.is_ascii_alphanumeric()),
            "{row}"
        );
        assert!(value.trim_end().parse::<u64>().is_ok(), "{row}");
        assert_eq!(rate, "   0.0", "{row}");
    }
    assert!(rows.iter().any(|r| r.starts_with("TcpOutSegs ")), "{out}");
}

/// The sender's `TcpExtTCPAutoCorking` after the short autocorking run with `sets` added.
fn sender_autocorks(sets: &[&str]) -> u64 {
    let mut args = vec!["run"];
    args.extend(AUTOCORK);
    for s in sets {
        args.extend(["--set", s]);
    }
    counter(&json(&args), "sender", "TcpExtTCPAutoCorking")
}

#[test]
fn set_with_a_host_prefix_changes_that_host_only() {
    let default = sender_autocorks(&[]);
    assert!(default > 0, "the sender autocorks by default");
    assert_eq!(sender_autocorks(&["sender:net.ipv4.tcp_autocorking=0"]), 0);
    assert_eq!(
        sender_autocorks(&["receiver:net.ipv4.tcp_autocorking=0"]),
        default,
        "the receiver's setting leaves the sender alone"
    );
    assert_eq!(sender_autocorks(&["net.ipv4.tcp_autocorking=0"]), 0);
}

#[test]
fn set_kernel_switches_the_profile_as_the_variant_does() {
    let run = |args: &[&str]| {
        let mut a = vec!["run", "scenarios/tso-autosizing.toml", "--json"];
        a.extend(args);
        counter(&json(&a), "sender", "IpOutRequests")
    };
    let before = run(&["--variant", "before"]);
    let after = run(&["--variant", "after"]);
    assert!(
        after < before * 2 / 3,
        "3.19 sends fewer packets: {after} vs {before}"
    );
    assert_eq!(run(&["--variant", "after", "--set", "kernel=3.18"]), before);
}

#[test]
fn trace_prints_one_line_per_event_and_says_where_the_limit_cut_it() {
    let out = stdout(&sendpath(&[
        "trace",
        "scenarios/autocorking.toml",
        "--set",
        "sim.duration_ms=5",
        "--limit",
        "40",
    ]));
    // The header (lines starting with '#') names the columns, then the events.
    assert!(
        out.starts_with("# sendpath trace scenarios/autocorking.toml"),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().skip_while(|l| l.starts_with('#')).collect();
    assert_eq!(lines.len(), 41, "{out}");
    assert_eq!(lines[40], "# trace truncated at 40 events (--limit)");
    let mut last_ms = 0.0;
    for l in &lines[..40] {
        // time (ms), host, socket, kernel function, what it decided.
        let f: Vec<&str> = l.split_whitespace().collect();
        let ms: f64 = f[0].parse().unwrap_or_else(|_| panic!("time in {l}"));
        assert!(ms >= last_ms, "time goes forward: {l}");
        last_ms = ms;
        assert!(["sender", "receiver"].contains(&f[1]), "{l}");
        assert!(f[2] == "-" || f[2].starts_with("sk"), "{l}");
        let func = f[3].chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        assert!(func, "a kernel function: {l}");
        assert!(f.len() > 4, "a decision in words: {l}");
    }
}

/// Runs `args`, expects exit status 2 and exactly one line on stderr; returns it.
fn refused(args: &[&str]) -> String {
    let o = sendpath(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    assert!(o.stdout.is_empty(), "{args:?}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err.trim_end().to_string()
}

#[test]
fn a_misspelt_key_names_the_file_the_key_and_the_key_it_probably_meant() {
    assert_eq!(
        refused(&[
            "run",
            "scenarios/autocorking.toml",
            "--set",
            "net.ipv4.tcp_autocork=1"
        ]),
        "sendpath: scenarios/autocorking.toml: net.ipv4.tcp_autocork: unknown key; \
         did you mean \"net.ipv4.tcp_autocorking\"?"
    );
    let dir = std::env::temp_dir().join(format!("sendpath-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "title = \"x\"\n[sysctl]\n\"net.ipv4.tcp_autocorkng\" = 1\n",
    )
    .unwrap();
    let err = refused(&["run", file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        err.contains("bad.toml: net.ipv4.tcp_autocorkng: unknown key"),
        "{err}"
    );
    assert!(err.contains("net.ipv4.tcp_autocorking"), "{err}");
}

#[test]
fn an_out_of_range_value_gets_the_kernels_range() {
    assert_eq!(
        refused(&[
            "run",
            "scenarios/autocorking.toml",
            "--set",
            "net.ipv4.tcp_autocorking=2"
        ]),
        "sendpath: scenarios/autocorking.toml: net.ipv4.tcp_autocorking: accepts 0..1 (got 2)"
    );
}

#[test]
fn an_unknown_variant_lists_the_scenarios_variants() {
    assert_eq!(
        refused(&["run", "scenarios/autocorking.toml", "--variant", "nope"]),
        "sendpath: scenarios/autocorking.toml: no variant \"nope\"; variants: on, off"
    );
}

#[test]
fn a_missing_file_is_named() {
    let err = refused(&["run", "scenarios/no-such-file.toml"]);
    assert!(
        err.starts_with("sendpath: scenarios/no-such-file.toml: cannot read"),
        "{err}"
    );
}

#[test]
fn keys_lists_every_key_of_the_registry_with_its_group() {
    let out = stdout(&sendpath(&["keys"]));
    for key in [
        "net.ipv4.tcp_autocorking",
        "net.ipv4.tcp_limit_output_bytes",
        "net.ipv4.tcp_notsent_lowat",
        "TCP_NODELAY",
    ] {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(key)),
            "{key} in:\n{out}"
        );
    }
}

#[test]
fn version_prints_the_engines_version() {
    let out = stdout(&sendpath(&["--version"]));
    assert_eq!(
        out.trim_end(),
        format!("sendpath {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn help_prints_the_usage_and_an_unknown_command_is_refused_with_it() {
    let out = stdout(&sendpath(&["--help"]));
    assert!(out.starts_with("usage:\n  sendpath run FILE"), "{out}");
    let o = sendpath(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with("sendpath: unknown command frobnicate\nusage:"),
        "{err}"
    );
}

#[test]
fn bench_json_reports_the_measured_runs_events_and_the_skbs_ip_sent() {
    let bench = json(&[
        "bench",
        "scenarios/autocorking.toml",
        "--set",
        "sim.duration_ms=5",
        "--json",
    ]);
    let run = json(&[&["run"], &AUTOCORK[..]].concat());
    assert_eq!(bench["events"], run["events"]);
    assert_eq!(bench["simulated_s"], run["elapsed_s"]);
    let skbs =
        counter(&run, "sender", "IpOutRequests") + counter(&run, "receiver", "IpOutRequests");
    assert_eq!(bench["skbs"].as_u64(), Some(skbs));
    assert!(bench["wall_s"].as_f64().unwrap() > 0.0, "{bench}");
}

#[test]
fn conform_into_a_pipe_shows_no_progress_bar() {
    // The experiments take more than a second in a test build (2.7 s here): on a terminal a
    // bar would be on stderr by then; piped, stderr stays empty.
    let o = sendpath(&["conform", "scenarios/conformance"]);
    assert!(!o.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}
