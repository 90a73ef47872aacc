//! `sendpath sweep`: the grid on several threads gives what one thread gives, in grid order;
//! the table, CSV and JSON carry the same numbers; a bad key or metric exits 2 naming it.

mod common;
use common::stdout_ok as stdout;
use std::process::{Command, Output};

use serde_json::Value;

fn sendpath(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sendpath"))
        .arg("sweep")
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("sendpath runs")
}

/// Autocorking on and off, three write sizes, 3 ms each.
const GRID: [&str; 11] = [
    "scenarios/autocorking.toml",
    "--set",
    "sim.duration_ms=3",
    "--vary",
    "net.ipv4.tcp_autocorking=0..1",
    "--vary",
    "app.write_size_bytes=128..512x2",
    "--metric",
    "throughput_mbit",
    "TcpExtTCPAutoCorking",
    "sender:TcpOutSegs",
];

#[test]
fn a_sweep_on_two_threads_prints_what_one_thread_prints() {
    let one = stdout(&sendpath(&[&GRID[..], &["--jobs", "1", "--csv"]].concat()));
    let two = stdout(&sendpath(&[&GRID[..], &["--jobs", "2", "--csv"]].concat()));
    assert_eq!(one, two);
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(
        lines[0],
        "net.ipv4.tcp_autocorking,app.write_size_bytes,throughput_mbit,TcpExtTCPAutoCorking,sender:TcpOutSegs"
    );
    let first: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split(',').collect()).collect();
    let keys: Vec<String> = first.iter().map(|r| format!("{}/{}", r[0], r[1])).collect();
    assert_eq!(keys, ["0/128", "0/256", "0/512", "1/128", "1/256", "1/512"]);
    // Autocorking off never autocorks.
    assert!(first[..3].iter().all(|r| r[3] == "0"));
    assert!(first[3..].iter().any(|r| r[3] != "0"));
}

#[test]
fn json_holds_each_points_overrides_and_the_same_numbers_as_the_table() {
    let v: Value =
        serde_json::from_str(&stdout(&sendpath(&[&GRID[..], &["--json"]].concat()))).unwrap();
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 6);
    assert_eq!(v["metrics"][1], "TcpExtTCPAutoCorking");
    assert_eq!(
        points[4]["sets"],
        serde_json::json!([
            "sim.duration_ms=3",
            "net.ipv4.tcp_autocorking=1",
            "app.write_size_bytes=256"
        ])
    );
    let table = stdout(&sendpath(&GRID));
    let row = table.lines().nth(5).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[..2], ["1", "256"]);
    assert_eq!(
        cells[3].parse::<f64>().unwrap(),
        points[4]["metrics"][1].as_f64().unwrap()
    );
}

#[test]
fn an_unknown_key_or_metric_exits_2_naming_it() {
    let o = sendpath(&[
        "scenarios/autocorking.toml",
        "--vary",
        "app.write_bytes=1..2",
        "--metric",
        "throughput_mbit",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("app.write_bytes: unknown key"), "{e}");
    let o = sendpath(&[
        "scenarios/autocorking.toml",
        "--vary",
        "app.write_size_bytes=128..256x2",
        "--metric",
        "goodput",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("unknown metric goodput") && e.contains("throughput_mbit"),
        "{e}"
    );
    assert!(o.stdout.is_empty(), "nothing ran");
}
