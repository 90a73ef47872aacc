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
    // The article: 846.3K vs 123.7K bytes seen by tshark (6.8x).
    assert!((5.0..=8.0).contains(&ratio), "bytes ratio {ratio}");
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
    within(counter(&r, "sender", "IpInReceives") as f64, 600.0, 0.20).unwrap();
}

const TSO_219: &str = "the 2 MB send() copies at connect time, when tcp_bound_to_half_wnd caps the size \
goal at half the receiver's initial window (10 MSS, TCP_DEFAULT_INIT_RCVWND): 245 skbs of 7240 B are \
queued, so at least 246 packets leave. The commit's 232 needs skbs of more than 9 MSS from the start, \
i.e. a larger initial receive window than the commit states";

#[test]
fn sizing_at_xmit_time_in_3_19_sends_fewer_bigger_packets() {
    let before = tso("before");
    let after = tso("after");
    // The direction and size of the change reproduce...
    let b = counter(&before, "sender", "IpOutRequests");
    let a = counter(&after, "sender", "IpOutRequests");
    assert!(a * 10 < b * 6, "3.19 {a} packets vs 3.18 {b}");
    // ...the commit's absolute numbers do not.
    known_failure(TSO_219, within(a as f64, 232.0, 0.15));
    known_failure(
        TSO_219,
        within(
            counter(&after, "sender", "IpInReceives") as f64,
            221.0,
            0.20,
        ),
    );
}

#[test]
fn the_2_mb_transfer_takes_about_as_long_as_the_commits_0_36_s() {
    for v in ["before", "after"] {
        let r = tso(v);
        within(r.elapsed_s, 0.36, 0.15).unwrap();
    }
}
