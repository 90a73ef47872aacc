//! The source documents' measurements, reproduced by the model from the kernel's logic.
//! Tolerances are the ones the engine issue sets; a number the model misses stays as a
//! `known_failure` with its reason.

mod common;
use common::*;

// ---- The Nagle / delayed-ACK / TCP_QUICKACK article (Linux 4.4, HZ 250, loopback) ----

#[test]
fn pingpong_with_nagle_and_delayed_acks_takes_about_two_delayed_ack_timeouts_per_round() {
    let r = run("nagle-delayed-ack.toml", Some("default"), &[]);
    // The article: server 7.927 s, client 8.128 s for 100 rounds.
    assert!(
        (7.9..=8.1).contains(&r.elapsed_s),
        "elapsed {} s",
        r.elapsed_s
    );
    let delayed = counter(&r, "localhost", "TcpExtDelayedACKs");
    assert!(
        (180..=200).contains(&delayed),
        "{delayed} delayed ACKs for 100 rounds"
    );
}

#[test]
fn pingpong_with_tcp_nodelay_is_fast_but_sends_five_to_eight_times_the_bytes() {
    let d = run("nagle-delayed-ack.toml", Some("default"), &[]);
    let n = run("nagle-delayed-ack.toml", Some("no_delay"), &[]);
    assert!(n.elapsed_s < 0.3, "TCP_NODELAY took {} s", n.elapsed_s);
    let ratio = counter(&n, "localhost", "IpExtOutOctets") as f64
        / counter(&d, "localhost", "IpExtOutOctets") as f64;
    // The article: 846.3K vs 123.7K bytes seen by tshark (6.8x). With the TCP_NODELAY bytes
    // being the 10-byte segments plus the reader's pure ACKs, the ratio follows how many reads
    // end in a pure ACK: since loopback's NET_RX runs in the writer's context, as Linux runs it,
    // the model's is 5.3x.
    assert!((5.0..=8.0).contains(&ratio), "bytes ratio {ratio}");
    // This machine's kernel (scenarios/conformance/pingpong-lo-{nodelay,default}.toml, 6.18 on
    // lo): 1,232,060 vs 253,160 bytes, 4.87x.
    within(ratio, 1_232_060.0 / 253_160.0, 0.10).unwrap();
}

#[test]
fn tcp_quickack_set_once_barely_helps() {
    let d = run("nagle-delayed-ack.toml", Some("default"), &[]);
    let q = run("nagle-delayed-ack.toml", Some("quickack"), &[]);
    // The article: 8.084 s with TCP_QUICKACK vs 7.927 s without.
    assert!(
        q.elapsed_s >= 0.9 * d.elapsed_s,
        "quickack {} s vs default {} s",
        q.elapsed_s,
        d.elapsed_s
    );
}

#[test]
fn under_6_18_the_receiver_still_delays_its_acks_as_the_real_6_18_recording_does() {
    // public/samples/pingpong-default.jsonl, recorded on this project's 6.18 VM (HZ 250): 9.22 s,
    // TcpExtDelayedACKs 197, 868 segments. 6.6+ counts every reply within ato toward pingpong
    // mode, so the receiver becomes interactive although it replies in the jiffy it received.
    let r = run("nagle-delayed-ack.toml", Some("default"), &["kernel=6.18"]);
    let delayed = counter(&r, "localhost", "TcpExtDelayedACKs");
    assert!(
        (180..=210).contains(&delayed),
        "{delayed} delayed ACKs for 100 rounds"
    );
    assert!(
        (7.5..=9.5).contains(&r.elapsed_s),
        "elapsed {} s",
        r.elapsed_s
    );
    let segs = counter(&r, "localhost", "TcpOutSegs");
    assert!(segs < 2000, "{segs} segments: Nagle held nothing");
}

// ---- Commit 605ad7f1 "tcp: refine TSO autosizing" (3.18 vs 3.19) ----

fn tso(kernel_variant: &str) -> sendpath_core::RunResult {
    run("tso-autosizing.toml", Some(kernel_variant), &[])
}

#[test]
fn tso_autosizing_keeps_the_segment_count_and_the_bytes() {
    for v in ["before", "after"] {
        let r = tso(v);
        within(counter(&r, "sender", "TcpOutSegs") as f64, 1397.0, 0.05).unwrap();
        let octets = counter(&r, "sender", "IpExtOutOctets") as f64;
        let want = if v == "before" {
            2_033_249.0
        } else {
            2_013_953.0
        };
        within(octets, want, 0.03).unwrap();
    }
}

#[test]
fn sizing_at_sendmsg_time_in_3_18_sends_about_600_packets_and_gets_600_acks() {
    let r = tso("before");
    within(counter(&r, "sender", "IpOutRequests") as f64, 599.0, 0.15).unwrap();
    known_failure(
        ACKS_3_18,
        within(counter(&r, "sender", "IpInReceives") as f64, 600.0, 0.20),
    );
}

const ACKS_3_18: &str = "the 3.18 receiver ACKs from its reader's context (tcp_cleanup_rbuf \
after a read that opens the window) or every second full segment, so its ACK count follows when \
the reader runs against the arrivals: 523 ACKs with the cost table measured under load, 469 with \
the one measured on a quiet machine (recvmsg 200 ns instead of 900), where the commit's host \
counted 600; its reader's timing is not known";

#[test]
fn sizing_at_xmit_time_in_3_19_sends_fewer_bigger_packets() {
    let before = tso("before");
    let after = tso("after");
    // The direction and size of the change reproduce...
    let b = counter(&before, "sender", "IpOutRequests");
    let a = counter(&after, "sender", "IpOutRequests");
    assert!(a * 10 < b * 6, "3.19 {a} packets vs 3.18 {b}");
    // ...and so do the commit's absolute numbers, now that the receiver offers 3.19's initial
    // window of 20 MSS (tcp_default_init_rwnd), which bounds the first skbs at 10 MSS.
    within(a as f64, 232.0, 0.15).unwrap();
    within(
        counter(&after, "sender", "IpInReceives") as f64,
        221.0,
        0.20,
    )
    .unwrap();
}

#[test]
fn the_2_mb_transfer_takes_about_as_long_as_the_commits_0_36_s() {
    for v in ["before", "after"] {
        let r = tso(v);
        within(r.elapsed_s, 0.36, 0.15).unwrap();
    }
}

// ---- Commit f54b3111 "tcp: auto corking" (3.14, 4 flows of 128-byte writes, 10 Gbit/s) ----

fn sender_cpu_s(r: &sendpath_core::RunResult) -> f64 {
    r.apps
        .iter()
        .filter(|a| a.kind == "tcp_stream")
        .map(|a| a.cpu_s)
        .sum()
}

fn segs_per_packet(r: &sendpath_core::RunResult) -> f64 {
    counter(r, "sender", "TcpOutSegs") as f64 / counter(r, "sender", "IpOutRequests") as f64
}

#[test]
fn autocorking_counts_only_when_it_is_on() {
    let on = run("autocorking.toml", Some("on"), &["sim.duration_ms=50"]);
    let off = run("autocorking.toml", Some("off"), &["sim.duration_ms=50"]);
    assert!(counter(&on, "sender", "TcpExtTCPAutoCorking") > 0);
    assert_eq!(counter(&off, "sender", "TcpExtTCPAutoCorking"), 0);
}

#[test]
fn autocorking_throughput_ratio_matches_the_commit() {
    // The commit: 9410 Mbit/s with autocorking, 6625 without (4 flows of 128-byte writes). With
    // the cost table measured on a quiet machine the model's senders reach the line rate with
    // autocorking (coalesced tails cost less CPU per byte) and stay CPU-bound without it.
    let on = run("autocorking.toml", Some("on"), &["sim.duration_ms=200"]);
    let off = run("autocorking.toml", Some("off"), &["sim.duration_ms=200"]);
    within(stream_mbps(&on) / stream_mbps(&off), 9410.0 / 6625.0, 0.15).unwrap();
    assert!(
        segs_per_packet(&on) > 1.5 * segs_per_packet(&off),
        "segments per packet {:.2} on vs {:.2} off",
        segs_per_packet(&on),
        segs_per_packet(&off)
    );
}

#[test]
fn autocorking_tips_cpu_bound_flows_into_line_rate() {
    // The mechanism behind the commit's numbers: coalesced tails cost less CPU per byte, the
    // flows reach the link rate, TSQ and the qdisc then hold packets and every skb fills up.
    let sets = ["sim.duration_ms=200"];
    let on = run("autocorking.toml", Some("on"), &sets);
    let off = run("autocorking.toml", Some("off"), &sets);
    assert!(stream_mbps(&on) > 9000.0, "on: {} Mbit/s", stream_mbps(&on));
    assert!(
        stream_mbps(&off) < 7500.0,
        "off: {} Mbit/s",
        stream_mbps(&off)
    );
    assert!(segs_per_packet(&on) > 10.0 && segs_per_packet(&off) < 2.0);
    let cpu_per_byte = |r: &sendpath_core::RunResult| sender_cpu_s(r) / stream_mbps(r);
    assert!(cpu_per_byte(&on) < cpu_per_byte(&off));
    within(stream_mbps(&on) / stream_mbps(&off), 9410.0 / 6625.0, 0.15).unwrap();
}

// ---- Commit c9bee3b7 "tcp: TCP_NOTSENT_LOWAT socket option" (200 flows) ----

const LOWAT_MEM: &str = "with 131072 the model's memory (15515 pages) is below the commit's (20567), and \
without it the model holds 1.16x the commit's 45458 pages (52550): on a lossless link every flow's cwnd, and \
the send buffer autotuned to twice it, grows further than on the commit's network, where losses \
bound cwnd; the ratio comes out 0.30 instead of 0.45";

#[test]
fn notsent_lowat_halves_tcp_memory_of_200_flows() {
    let off = run("notsent-lowat.toml", Some("off"), &["sim.duration_ms=300"]);
    let on = run("notsent-lowat.toml", Some("on"), &["sim.duration_ms=300"]);
    let pages = |r: &sendpath_core::RunResult| r.hosts["sender"].tcp_mem_pages_avg;
    assert!(
        pages(&on) < pages(&off) * 0.6,
        "{} vs {}",
        pages(&on),
        pages(&off)
    );
    known_failure(
        LOWAT_MEM,
        within(pages(&on) / pages(&off), 20567.0 / 45458.0, 0.15),
    );
    // The commit: throughput -0.7 %. Throughput is what arrived (bytes still in a send buffer
    // when the run ends are not counted): the unsent bytes TCP_NOTSENT_LOWAT keeps out of the
    // kernel were never delivered.
    let change = (stream_mbps(&on) - stream_mbps(&off)).abs() / stream_mbps(&off);
    assert!(
        change < 0.01,
        "throughput changed by {:.1}%",
        change * 100.0
    );
}

/// Mean voluntary context switches of the run's netperf-like writers.
fn writer_ctxt_switches(r: &sendpath_core::RunResult) -> f64 {
    let v: Vec<f64> = r
        .apps
        .iter()
        .filter(|a| a.kind == "tcp_stream")
        .map(|a| a.voluntary_ctxt_switches as f64)
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

#[test]
fn notsent_lowat_makes_each_of_200_writers_wake_several_times_as_often() {
    // The commit counted context switches of one flow only (next test); with 200 flows the
    // direction is the same: a writer sleeps each time 128 KB are unsent instead of a full
    // send buffer.
    let off = run("notsent-lowat.toml", Some("off"), &["sim.duration_ms=300"]);
    let on = run("notsent-lowat.toml", Some("on"), &["sim.duration_ms=300"]);
    let ratio = writer_ctxt_switches(&on) / writer_ctxt_switches(&off);
    assert!(ratio > 3.0, "on/off context switches {ratio:.2}");
}

const SINGLE_FLOW_RATE: &str = "the single netperf flow of 16 KB writes is bound by its \
receiver's CPU in the model (one core busy, the sender's 0.44) at about 31.6 Gbit/s with this \
VM's measured per-byte and per-skb costs, where the commit's 2013 host reached 17.4 Gbit/s; the \
commit gives no CPU figures for this run, so which cost of its hardware made the difference is \
not known";

#[test]
fn notsent_lowat_barely_changes_a_single_flows_throughput() {
    let off = run("notsent-lowat.toml", Some("single_off"), &[]);
    let on = run("notsent-lowat.toml", Some("single_on"), &[]);
    // The commit: 17321 vs 17448 Mbit/s (-0.7 %).
    within(
        stream_mbps(&on) / stream_mbps(&off),
        17321.0 / 17448.0,
        0.03,
    )
    .unwrap();
    known_failure(SINGLE_FLOW_RATE, within(stream_mbps(&off), 17448.0, 0.15));
}

#[test]
fn notsent_lowat_makes_a_single_writer_wake_about_six_times_as_often() {
    let off = run(
        "notsent-lowat.toml",
        Some("single_off"),
        &["sim.duration_ms=100"],
    );
    let on = run(
        "notsent-lowat.toml",
        Some("single_on"),
        &["sim.duration_ms=100"],
    );
    let ratio = writer_ctxt_switches(&on) / writer_ctxt_switches(&off);
    // The commit: 412,514 vs 2,675,818 context switches (6.5x).
    within(ratio, 2_675_818.0 / 412_514.0, 0.35).unwrap();
}
