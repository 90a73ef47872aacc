//! The commands a kernel engineer reaches for (issue 21): the run summary and its CSV, `--at`
//! as `ss -ti`/`tc -s qdisc`, the trace filters, `skb` and `diff`.

mod common;

use common::sendpath;
use serde_json::Value;

/// The word right after the first `what` in `text`.
fn word_after<'a>(text: &'a str, what: &str) -> &'a str {
    let rest = text
        .split(what)
        .nth(1)
        .unwrap_or_else(|| panic!("{what} in {text}"));
    rest.split([' ', '\n']).next().unwrap()
}

/// Runs `args`, expects the refusal of bad input (status 2) and returns its message.
fn refused(args: &[&str]) -> String {
    let o = sendpath(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    String::from_utf8(o.stderr).unwrap()
}

fn stdout(args: &[&str]) -> String {
    let o = sendpath(args);
    assert!(
        o.status.success(),
        "{args:?}: exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The event lines of a trace (the header and notes start with `#`).
fn events(out: &str) -> Vec<Vec<&str>> {
    out.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect())
        .collect()
}

const TSQ: &str = "scenarios/tcp-small-queues.toml";

#[test]
fn run_prints_flows_devices_and_holds_and_json_carries_the_same_summary() {
    let args = [
        "run",
        "scenarios/autocorking.toml",
        "--set",
        "sim.duration_ms=10",
    ];
    let text = stdout(&args);
    for heading in ["# flows:", "# devices:", "# holds:"] {
        assert!(text.contains(heading), "{heading} in {text}");
    }
    let v: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat())).unwrap();
    let s = &v["summary"];
    let flows = s["flows"].as_array().expect("summary.flows");
    assert_eq!(flows.len(), 4, "four autocorking flows");
    let f = &flows[0];
    // The text line says the same throughput as the JSON.
    let mbit = f["throughput_bps"].as_f64().unwrap() / 1e6;
    assert!(
        text.contains(&format!("throughput {mbit:.2} Mbit/s")),
        "{mbit:.2} in {text}"
    );
    let nagle = s["holds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["gate"] == "nagle")
        .unwrap();
    let n = nagle["ns"]["count"].as_u64().unwrap();
    assert!(n > 0);
    let row = text
        .lines()
        .find(|l| l.starts_with("nagle "))
        .expect("a nagle row");
    assert_eq!(row.split_whitespace().nth(2), Some(n.to_string().as_str()));
}

#[test]
fn csv_writes_a_flow_and_a_device_table_at_the_interval() {
    let dir = std::env::temp_dir().join(format!("sendpath-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prefix = dir.join("tsq");
    let prefix = prefix.to_str().unwrap();
    let json: Value = serde_json::from_str(&stdout(&[
        "run",
        TSQ,
        "--set",
        "sim.duration_ms=100",
        "--csv",
        prefix,
        "--interval",
        "5ms",
        "--json",
    ]))
    .unwrap();
    let flows = std::fs::read_to_string(format!("{prefix}.flows.csv")).unwrap();
    let mut lines = flows.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(head[0], "t_ms");
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines
        .map(|l| l.split(',').collect())
        .filter(|r: &Vec<&str>| r[col("sk")] == "0")
        .collect();
    let times: Vec<f64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    assert!(
        times.windows(2).all(|w| (w[1] - w[0] - 5.0).abs() < 1e-9),
        "{times:?}"
    );
    assert_eq!(*times.last().unwrap(), 100.0);
    // The last row's cumulative bytes are the summary's.
    let sent: u64 = rows.last().unwrap()[col("sent_bytes")].parse().unwrap();
    assert_eq!(
        sent,
        json["summary"]["flows"][0]["sent_bytes"].as_u64().unwrap()
    );
    // The interval rates add up to the bytes sent.
    let total_mbit: f64 = rows
        .iter()
        .map(|r| r[col("throughput_mbit")].parse::<f64>().unwrap())
        .sum();
    let bytes = total_mbit * 1e6 / 8.0 * 0.005;
    assert!(
        (bytes - sent as f64).abs() < rows.len() as f64,
        "{bytes} vs {sent}"
    );
    let devices = std::fs::read_to_string(format!("{prefix}.devices.csv")).unwrap();
    assert!(devices.starts_with("t_ms,host,qdisc_bytes,qdisc_packets,ring_descs"));
    assert!(devices.lines().any(|l| l.starts_with("100,sender,")));
    // --interval alone is an error that says what it is for.
    assert!(refused(&["run", TSQ, "--interval", "5ms"]).contains("--csv"));
}

#[test]
fn at_prints_ss_and_tc_with_the_state_the_trace_reached_by_then() {
    let out = stdout(&["run", TSQ, "--at", "25ms"]);
    assert!(
        out.contains("# sender: ss -tin\nState  Recv-Q Send-Q"),
        "{out}"
    );
    assert!(
        out.contains("qdisc pfifo_fast 0: dev eth0 root refcnt 2"),
        "{out}"
    );
    assert!(out.contains("\n Sent "), "{out}");
    let info = out
        .lines()
        .find(|l| l.starts_with("\t cubic") && l.contains("bytes_acked"))
        .expect("the sender's tcp_info line");
    let field = |name: &str| {
        info.split_whitespace()
            .find_map(|f| f.strip_prefix(name))
            .unwrap_or_else(|| panic!("{name} in {info}"))
            .to_string()
    };
    // The last ACK the trace shows before 25 ms set this cwnd.
    let acks = stdout(&[
        "trace", TSQ, "--sk", "0", "--func", "tcp_ack", "--to", "25ms",
    ]);
    let last = acks.lines().rfind(|l| !l.starts_with('#')).unwrap();
    let cwnd = last
        .split("cwnd ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    assert_eq!(field("cwnd:"), cwnd, "{last}");
    assert!(refused(&["run", TSQ, "--at", "120"]).contains("no unit"));
}

#[test]
fn trace_filters_by_socket_function_and_time_under_a_header() {
    let out = stdout(&[
        "trace",
        TSQ,
        "--set",
        "sim.duration_ms=40",
        "--sk",
        "1",
        "--from",
        "15ms",
        "--to",
        "20ms",
    ]);
    assert!(out.starts_with("# sendpath trace scenarios/tcp-small-queues.toml"));
    assert!(out.contains("# columns: t_ms"), "{out}");
    let ev = events(&out);
    assert!(!ev.is_empty());
    for e in &ev {
        assert_eq!(e[2], "sk1", "{e:?}");
        let t: f64 = e[0].parse().unwrap();
        assert!((15.0..20.0).contains(&t), "{e:?}");
    }
    let out = stdout(&[
        "trace",
        TSQ,
        "--set",
        "sim.duration_ms=40",
        "--func",
        "tcp_write_xmit",
    ]);
    let ev = events(&out);
    assert!(!ev.is_empty());
    assert!(ev.iter().all(|e| e[3] == "tcp_write_xmit"));
    assert!(refused(&["trace", TSQ, "--func", "tcp_frobnicate"]).contains("tcp_write_xmit"));
}

#[test]
fn trace_names_the_passive_sides_functions() {
    let out = stdout(&[
        "trace",
        "scenarios/nagle-delayed-ack.toml",
        "--variant",
        "default",
        "--func",
        "established",
    ]);
    let ev = events(&out);
    assert_eq!(ev.len(), 2, "{out}");
    // sk0 connects, sk1 is the server's child socket.
    assert_eq!((ev[0][2], ev[0][3]), ("sk0", "tcp_finish_connect"));
    assert_eq!((ev[1][2], ev[1][3]), ("sk1", "tcp_rcv_state_process"));
    let all = stdout(&["trace", TSQ, "--set", "sim.duration_ms=30"]);
    for e in events(&all) {
        if e[1] == "receiver" {
            assert_ne!(e[3], "tcp_finish_connect", "{e:?}");
        }
    }
}

#[test]
fn trace_skb_follows_the_skb_and_its_packets() {
    let out = stdout(&["trace", TSQ, "--set", "sim.duration_ms=40", "--skb", "5"]);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() >= 4, "{out}");
    let pkt = lines
        .iter()
        .find_map(|l| l.split("as packet #").nth(1))
        .and_then(|s| s.split(':').next())
        .expect("its xmit line");
    // `skb#5` or `packet #8`, not `skb#50` or `packet #80`.
    let names = |l: &str, what: &str| {
        l.match_indices(what)
            .any(|(i, _)| !l[i + what.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    for l in &lines {
        assert!(
            names(l, "skb#5") || names(l, &format!("packet #{pkt}")),
            "{l}"
        );
    }
}

#[test]
fn skb_prints_one_life_from_sendmsg_to_the_ack_that_freed_it() {
    let out = stdout(&["skb", TSQ, "--set", "sim.duration_ms=40", "5"]);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        lines[0].contains("tcp_sendmsg_locked") && lines[0].contains("skb#5"),
        "{out}"
    );
    let last = lines.last().unwrap();
    assert!(last.contains("tcp_ack"), "{out}");
    // The ACK covers the skb's last byte.
    let range = out
        .split("bytes [")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let end: u64 = range.split(", ").nth(1).unwrap().parse().unwrap();
    let acked: u64 = word_after(last, "ACK ").parse().unwrap();
    assert!(acked >= end, "{acked} < {end}");
    assert!(out.contains(" receiver "), "the peer's lines: {out}");
    assert!(out.contains("# life from its first byte to the ACK that freed it"));
    // The stages add up to the life.
    let total: f64 = word_after(&out, "freed it: ").parse().unwrap();
    let stages: f64 = out
        .lines()
        .filter(|l| l.starts_with("#   ") && l.ends_with(" µs"))
        .map(|l| {
            l.split_whitespace()
                .rev()
                .nth(1)
                .unwrap()
                .parse::<f64>()
                .unwrap()
        })
        .sum();
    assert!((total - stages).abs() < 0.01, "{total} vs {stages}");
    // A held skb: its hold and the reason.
    let held = stdout(&[
        "skb",
        "scenarios/autocorking.toml",
        "--set",
        "sim.duration_ms=2",
        "40",
    ]);
    assert!(
        held.contains("held: ") || held.contains("autocorked"),
        "{held}"
    );
    assert!(
        refused(&["skb", TSQ, "--set", "sim.duration_ms=40", "999999"]).contains("no skb#999999")
    );
}

#[test]
fn diff_lists_keys_switches_with_commits_and_both_summaries() {
    let out = stdout(&[
        "diff",
        "scenarios/autocorking.toml",
        "--kernel",
        "3.13",
        "--kernel",
        "6.18",
        "--set",
        "sim.duration_ms=5",
    ]);
    let keys = out.split("## keys whose value differs").nth(1).unwrap();
    let keys = keys.split("## behaviour").next().unwrap();
    let tlob = keys
        .lines()
        .find(|l| l.starts_with("net.ipv4.tcp_limit_output_bytes"))
        .expect("tcp_limit_output_bytes differs");
    assert!(
        tlob.contains("131072 (default)") && tlob.contains("4194304 (default)"),
        "{tlob}"
    );
    // autocorking: absent in 3.13, on in 6.18, and it fired on 6.18 only.
    let sw = out.split("## behaviour switches").nth(1).unwrap();
    let ac = sw
        .split("\nautocorking:")
        .nth(1)
        .expect("the autocorking switch");
    assert!(ac.contains("f54b311142a9"), "{ac}");
    assert!(
        ac.lines().nth(2).unwrap().contains("fired on 6.18 only"),
        "{ac}"
    );
    let sums = out.split("## summaries").nth(1).unwrap();
    let head = sums
        .lines()
        .find(|l| l.trim_start().starts_with("3.13"))
        .unwrap();
    assert!(head.contains("6.18"));
    assert!(sums.contains("held at autocork (skbs)"));
    assert!(refused(&[
        "diff",
        "scenarios/autocorking.toml",
        "--kernel",
        "5.10",
        "--kernel",
        "6.18",
    ])
    .contains("3.13, 3.14"));
}
