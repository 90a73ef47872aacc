//! Issue 15, CLI side: a closed pipe, an option a command does not take, an endless or binary
//! file, and warnings where the user looks.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_sendpath");
const SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");

fn sendpath(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    let tsq = format!("{SCENARIOS}/tcp-small-queues.toml");
    let conformance = format!("{SCENARIOS}/conformance");
    for args in [
        vec![
            "conform",
            conformance.as_str(),
            "--only",
            "pingpong-lo-default",
        ],
        vec!["keys"],
        vec!["keys", "--markdown"],
        vec!["--help"],
        vec!["trace", tsq.as_str(), "--set", "sim.duration_ms=50"],
        vec!["run", tsq.as_str(), "--json"],
    ] {
        let mut child = Command::new(BIN)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the first write (`sendpath keys | head -0`).
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(stderr(&out), "", "{args:?}");
        assert!(
            matches!(out.status.code(), Some(0 | 141)),
            "{args:?}: {:?}",
            out.status
        );
    }
}

#[test]
fn an_option_the_command_does_not_take_is_an_error_naming_both() {
    let tsq = format!("{SCENARIOS}/tcp-small-queues.toml");
    let o = sendpath(&["run", &tsq, "--limit", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(
            "sendpath run: --limit is not an option of run; run takes --variant, --set, --json, --show-config"
        ),
        "{}",
        stderr(&o)
    );
    let o = sendpath(&["keys", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("sendpath keys: --json is not an option of keys"));
    let o = sendpath(&["compare", &tsq, "--variant", "x"]);
    assert!(stderr(&o).starts_with("sendpath compare: --variant is not an option of compare"));
    let o = sendpath(&["trace", &tsq, "--frobnicate"]);
    assert!(stderr(&o).starts_with("sendpath trace: unknown option --frobnicate"));
    let o = sendpath(&["keys", "extra"]);
    assert!(stderr(&o).starts_with("sendpath keys: unexpected argument extra"));
    // --set=K=V and --limit=N still work.
    let o = sendpath(&["trace", &tsq, "--set=sim.duration_ms=5", "--limit=3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("# trace truncated at 3 events"));
}

#[test]
fn an_endless_or_binary_file_is_rejected_at_once() {
    let t0 = Instant::now();
    let o = sendpath(&["run", "/dev/zero"]);
    assert!(t0.elapsed() < Duration::from_secs(2));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "sendpath: /dev/zero: larger than 1048576 bytes: a scenario file is at most 1 MiB\n"
    );
    let dir = std::env::temp_dir().join(format!("sendpath-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("binary.toml");
    std::fs::File::create(&bin)
        .unwrap()
        .write_all(b"title = \"t\"\n\x7fELF\x02\x01\x01\x00\x00\xff")
        .unwrap();
    let o = sendpath(&["run", bin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).ends_with(
            "binary.toml: line 2: not UTF-8 text (byte offset 21): a scenario is a UTF-8 TOML file\n"
        ),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn warnings_come_first_in_text_and_are_in_json() {
    let tsq = format!("{SCENARIOS}/tcp-small-queues.toml");
    let o = sendpath(&[
        "run",
        &tsq,
        "--set",
        "kernel=6.18",
        "--set",
        "sim.duration_ms=5",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("warning: kernel 6.18 (from --set) keeps the scenario's net.ipv4.tcp_limit_output_bytes = 131072"),
        "{text}"
    );
    let o = sendpath(&[
        "run",
        &tsq,
        "--set",
        "kernel=3.13",
        "--set",
        "net.ipv4.tcp_autocorking=1",
        "--set",
        "sim.duration_ms=5",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let warnings: Vec<&str> = json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        warnings.contains(
            &"net.ipv4.tcp_autocorking does not exist in kernel 3.13 (added in 3.14): ignored"
        ),
        "{warnings:?}"
    );
    assert!(stdout(&sendpath(&[
        "run",
        &tsq,
        "--set",
        "kernel=3.13",
        "--set",
        "net.ipv4.tcp_autocorking=1",
        "--set",
        "sim.duration_ms=5",
    ]))
    .starts_with("warning: net.ipv4.tcp_autocorking does not exist in kernel 3.13"));
}

#[test]
fn show_config_prints_every_key_with_its_origin() {
    let tsq = format!("{SCENARIOS}/tcp-small-queues.toml");
    let o = sendpath(&["run", &tsq, "--set", "kernel=6.18", "--show-config"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let line = |key: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(key))
            .unwrap_or_else(|| panic!("{key} missing:\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        text.starts_with("warning: kernel 6.18 (from --set)"),
        "{text}"
    );
    assert_eq!(line("kernel"), "kernel 6.18 --set");
    assert_eq!(
        line("net.ipv4.tcp_limit_output_bytes"),
        "net.ipv4.tcp_limit_output_bytes 131072 scenario"
    );
    assert_eq!(line("sim.seed"), "sim.seed 1 kernel 6.18 default");
    let keys = text.lines().filter(|l| !l.starts_with("warning:")).count();
    assert!(keys >= sendpath_keys(), "{keys} lines");
}

fn sendpath_keys() -> usize {
    stdout(&sendpath(&["keys"])).lines().count()
}
