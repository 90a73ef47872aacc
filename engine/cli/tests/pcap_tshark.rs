//! `sendpath run --pcap` read back by Wireshark's `tshark` (Debian's package): for each seed
//! scenario, the frames, bytes, handshakes and retransmissions tshark counts per host are the
//! engine's own counters, tshark's TCP analysis finds no segment missing from the capture, and
//! it verifies every checksum. Skipped, with one line saying so, where tshark is missing; the
//! writer's own tests (`engine/core/src/pcap/tests.rs`) read the files without it.
//!
//! The scenarios run for at most 100 ms of simulated time (`SENDPATH_PCAP_FULL=1`: as
//! written; notsent-lowat's 200 flows then make a 570 MB file that tshark reads in two minutes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Why the tests cannot run here, if they cannot.
fn tshark_missing() -> Option<String> {
    match Command::new("tshark").arg("-v").output() {
        Ok(o) if o.status.success() => None,
        _ => Some("skipped: tshark is not installed (Debian: apt-get install tshark)".into()),
    }
}

/// Run `sendpath run ARGS --json --pcap FILE` and return the result and the file.
fn run_with_pcap(args: &[&str], file: &Path) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_sendpath"))
        .arg("run")
        .args(args)
        .args(["--json", "--pcap"])
        .arg(file)
        .current_dir(ROOT)
        .output()
        .expect("sendpath runs");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// One row per frame of `file`: the `fields`, as tshark prints them ("" for an absent one).
fn tshark(file: &Path, fields: &[&str], prefs: &[&str]) -> Vec<Vec<String>> {
    let mut c = Command::new("tshark");
    c.arg("-r")
        .arg(file)
        .args(["-T", "fields", "-E", "separator=,"]);
    for p in prefs {
        c.args(["-o", p]);
    }
    for f in fields {
        c.args(["-e", f]);
    }
    let o = c.output().expect("tshark runs");
    assert!(
        o.status.success(),
        "tshark -r {}: {}",
        file.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn counter(v: &Value, host: &str, name: &str) -> u64 {
    v["hosts"][host]["counters"][name].as_u64().unwrap_or(0)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sendpath-{}-{name}", std::process::id()))
}

/// What tshark counted for one host (the frames on its interface).
#[derive(Debug, Default)]
struct Counts {
    frames: u64,
    frame_bytes: u64,
    ip_bytes: u64,
    syns: u64,
    syn_acks: u64,
    /// Frames tshark's analysis calls a retransmission, fast retransmission, spurious
    /// retransmission or out-of-order segment: from the sender's own tap (which never reorders)
    /// each is a segment sent again. Wireshark calls a SACK retransmission within an RTT of the
    /// newest data "out-of-order".
    resent: u64,
    /// Frames after a gap in the sequence space, or ACKs for data not in the file.
    missing: u64,
}

const FIELDS: [&str; 10] = [
    "frame.interface_name",
    "frame.len",
    "ip.len",
    "tcp.flags.syn",
    "tcp.flags.ack",
    "tcp.analysis.retransmission",
    "tcp.analysis.fast_retransmission",
    "tcp.analysis.spurious_retransmission",
    "tcp.analysis.out_of_order",
    "tcp.analysis.lost_segment",
];

fn counts(file: &Path) -> BTreeMap<String, Counts> {
    let mut per_host: BTreeMap<String, Counts> = BTreeMap::new();
    let mut fields = FIELDS.to_vec();
    fields.push("tcp.analysis.ack_lost_segment");
    for row in tshark(file, &fields, &[]) {
        let c = per_host.entry(row[0].clone()).or_default();
        let num = |i: usize| row[i].parse::<u64>().unwrap_or(0);
        let set = |i: usize| !row[i].is_empty();
        c.frames += 1;
        c.frame_bytes += num(1);
        c.ip_bytes += num(2);
        let (syn, ack) = (
            row[3] == "1" || row[3] == "True",
            row[4] == "1" || row[4] == "True",
        );
        c.syns += (syn && !ack) as u64;
        c.syn_acks += (syn && ack) as u64;
        c.resent += (set(5) || set(6) || set(7) || set(8)) as u64;
        c.missing += (set(9) || set(10)) as u64;
    }
    per_host
}

/// Each host's frames, bytes, handshakes and retransmissions in `file` are `v`'s counters.
fn assert_counts_match(what: &str, v: &Value, file: &Path) {
    let per_host = counts(file);
    let none = Counts::default();
    for host in v["host_names"].as_array().unwrap() {
        let host = host.as_str().unwrap();
        let c = per_host.get(host).unwrap_or(&none);
        let n = |name| counter(v, host, name);
        assert_eq!(
            c.missing, 0,
            "{what}: {host}: tshark found segments missing"
        );
        assert_eq!(c.syns, n("TcpActiveOpens"), "{what}: {host}: SYNs");
        assert_eq!(c.syn_acks, n("TcpPassiveOpens"), "{what}: {host}: SYN-ACKs");
        let q = &v["hosts"][host]["qdisc"];
        if q.is_null() {
            // No qdisc: every segment TCP sent went to the driver, and IP counted its bytes.
            assert_eq!(
                c.frames,
                n("TcpOutSegs") + n("TcpRetransSegs"),
                "{what}: {host}: frames against TcpOutSegs + TcpRetransSegs"
            );
            if n("IpExtOutOctets") > 0 {
                assert_eq!(c.ip_bytes, n("IpExtOutOctets"), "{what}: {host}: IP bytes");
            }
            assert_eq!(
                c.resent,
                n("TcpRetransSegs"),
                "{what}: {host}: retransmissions"
            );
            continue;
        }
        // `tc -s qdisc`: what left the qdisc is what the driver took, every segment and every
        // segment's headers counted. An skb the driver refused (requeued) is in the qdisc's
        // Sent and in its backlog until the driver takes it.
        let (sent, sent_bytes) = (
            q["sent_packets"].as_u64().unwrap(),
            q["sent_bytes"].as_u64().unwrap(),
        );
        let backlog_bytes = q["backlog_bytes"].as_u64().unwrap();
        if backlog_bytes == 0 {
            assert_eq!(
                (c.frames, c.frame_bytes),
                (sent, sent_bytes),
                "{what}: {host}: frames and bytes against the qdisc's Sent"
            );
        } else {
            assert!(
                c.frames <= sent && (sent_bytes - backlog_bytes..=sent_bytes).contains(&c.frame_bytes),
                "{what}: {host}: {} B against the qdisc's Sent {sent_bytes} B, backlog {backlog_bytes} B",
                c.frame_bytes
            );
        }
        if q["backlog_packets"].as_u64() == Some(0) && q["dropped"].as_u64() == Some(0) {
            assert_eq!(
                c.resent,
                n("TcpRetransSegs"),
                "{what}: {host}: retransmissions"
            );
        } else {
            assert!(c.resent <= n("TcpRetransSegs"), "{what}: {host}");
        }
    }
}

fn seed_scenarios() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(format!("{ROOT}/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| format!("scenarios/{}", p.file_name().unwrap().to_str().unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn each_seed_scenarios_pcap_reads_in_tshark_with_the_engines_counts() {
    if let Some(why) = tshark_missing() {
        eprintln!("{why}");
        return;
    }
    let full = std::env::var_os("SENDPATH_PCAP_FULL").is_some();
    for scenario in seed_scenarios() {
        let file = temp("seed.pcapng");
        let mut args = vec![scenario.as_str(), "--pcap-frames", "wire"];
        if !full {
            args.extend(["--set", "sim.duration_ms=100"]);
        }
        let v = run_with_pcap(&args, &file);
        assert_counts_match(&scenario, &v, &file);
        std::fs::remove_file(&file).unwrap();
    }
}

#[test]
fn retransmissions_tshark_finds_are_the_engines_tcp_retrans_segs() {
    if let Some(why) = tshark_missing() {
        eprintln!("{why}");
        return;
    }
    // A bottleneck with a short queue: slow start overflows it, SACK recovery resends.
    let file = temp("loss.pcapng");
    let v = run_with_pcap(
        &[
            "scenarios/conformance/setups/loss-recovery.toml",
            "--set",
            "kernel=6.18",
            "--set",
            "TCP_CONGESTION=cubic",
            "--set",
            "sim.duration_ms=2000",
            "--pcap-frames",
            "wire",
        ],
        &file,
    );
    assert!(counter(&v, "sender", "TcpRetransSegs") > 20);
    assert_counts_match("loss-recovery", &v, &file);
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn tshark_finds_every_checksum_good_and_tso_frames_carry_the_same_bytes() {
    if let Some(why) = tshark_missing() {
        eprintln!("{why}");
        return;
    }
    let (tso, wire) = (temp("tso.pcapng"), temp("wire.pcapng"));
    let args = ["scenarios/tso-autosizing.toml", "--pcap-snaplen", "0"];
    let v = run_with_pcap(&args, &tso);
    run_with_pcap(&[&args[..], &["--pcap-frames", "wire"]].concat(), &wire);
    let prefs = ["ip.check_checksum:TRUE", "tcp.check_checksum:TRUE"];
    let rows = tshark(
        &tso,
        &["ip.checksum.status", "tcp.checksum.status", "tcp.len"],
        &prefs,
    );
    assert!(rows.len() > 100);
    // Status 1 is "Good" (0 is "Bad", 2 "Unverified").
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            (r[0].as_str(), r[1].as_str()),
            ("1", "1"),
            "frame {}",
            i + 1
        );
    }
    // The sender's TSO skbs are the skbs IP sent (no qdisc held any at the end); cut into MSS
    // frames they carry the same payload.
    let payload = |rows: &[Vec<String>], i: usize| -> u64 {
        rows.iter().map(|r| r[i].parse::<u64>().unwrap()).sum()
    };
    let senders = |f: &Path| {
        tshark(f, &["tcp.len"], &[])
            .into_iter()
            .zip(tshark(f, &["frame.interface_name"], &[]))
            .filter(|(_, h)| h[0] == "sender")
            .map(|(l, _)| l)
            .collect::<Vec<_>>()
    };
    let (tso_rows, wire_rows) = (senders(&tso), senders(&wire));
    assert_eq!(
        tso_rows.len() as u64,
        counter(&v, "sender", "IpOutRequests")
    );
    assert!(
        wire_rows.len() > tso_rows.len() * 2,
        "TSO skbs of several MSS"
    );
    assert_eq!(payload(&tso_rows, 0), payload(&wire_rows, 0));
    for f in [tso, wire] {
        std::fs::remove_file(f).unwrap();
    }
}
