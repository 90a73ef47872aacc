//! The vendored packetdrill scripts (`scenarios/packetdrill/`, upstream google/packetdrill)
//! against the engine: each passes, or ends as `expected.toml` says (a known failure with its
//! mechanism, or unsupported) at the line it names. And the runner's own checks: a script
//! changed to expect something else fails at that line, unknown syntax is unsupported.

use std::path::PathBuf;

use sendpath_core::packetdrill::{self, expect, parser, Outcome};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/packetdrill")
}

fn script(rel: &str) -> String {
    std::fs::read_to_string(dir().join(rel)).unwrap()
}

#[test]
fn every_vendored_script_passes_or_ends_as_expected_toml_says() {
    let v = expect::verdicts(&dir()).unwrap();
    let table = expect::table(&v);
    println!("{table}");
    let bad: Vec<_> = v.iter().filter(|x| !x.as_expected).collect();
    assert!(bad.is_empty(), "not as expected:\n{table}");
    // Issue 19: at least 20 upstream scripts run, each passing or a known failure.
    let ran = v
        .iter()
        .filter(|x| x.outcome == "pass" || x.outcome == "fail")
        .count();
    assert!(
        ran >= 20,
        "only {ran} scripts pass or fail as known:\n{table}"
    );
}

#[test]
fn a_passing_script_runs_every_one_of_its_events() {
    for rel in expect::scripts(&dir()).unwrap() {
        let src = script(&rel);
        let r = packetdrill::run(&src, &rel);
        if r.outcome != Outcome::Pass {
            continue;
        }
        let s = parser::parse(&src).unwrap();
        let events = s.events.len() + usize::from(s.init.is_some());
        // A blocking call shows twice: when it starts and when it returns.
        let starts = r.lines.iter().filter(|l| l.kind != "return").count();
        assert_eq!(starts, events, "{rel}: events run");
    }
}

/// `nagle/sockopt_cork_nodelay.pkt` with `from` replaced by `to`: where and why it fails.
fn changed(from: &str, to: &str) -> (u32, String) {
    let src = script("nagle/sockopt_cork_nodelay.pkt");
    assert!(src.contains(from), "{from}");
    let r = packetdrill::run(&src.replacen(from, to, 1), "changed");
    match r.outcome {
        Outcome::Fail(f) => (f.line, f.message),
        o => panic!("{from} -> {to}: {o:?}"),
    }
}

#[test]
fn a_script_that_expects_another_psh_flag_fails_at_that_packet() {
    let (line, msg) = changed("   +0 > P. 1:81(80) ack 1", "   +0 > . 1:81(80) ack 1");
    assert_eq!(line, 23);
    assert!(
        msg.contains("live packet field tcp_psh: expected: 0 (0x0) vs actual: 1 (0x1)"),
        "{msg}"
    );
    assert!(
        msg.contains("actual packet: 0.070000 P. 1:81(80) ack 1"),
        "{msg}"
    );
}

#[test]
fn a_script_that_expects_another_length_or_time_fails_at_that_packet() {
    let (line, msg) = changed("   +0 > P. 81:161(80) ack 1", "   +0 > P. 81:121(40) ack 1");
    assert_eq!(line, 34);
    assert!(
        msg.contains("expected 40 bytes vs actual 80 bytes"),
        "{msg}"
    );
    // Corked: the 80 bytes leave when TCP_NODELAY is set, not 20 ms later.
    let (line, msg) = changed("   +0 > P. 81:161(80) ack 1", " +.02 > P. 81:161(80) ack 1");
    assert_eq!(line, 34);
    assert!(msg.contains("timing error"), "{msg}");
}

#[test]
fn a_script_that_waits_for_a_packet_the_engine_never_sends_times_out() {
    // Without the uncork the 80 corked bytes stay (the cork's 200 ms timer is not due yet).
    let (line, msg) = changed(
        " +.01 setsockopt(4, SOL_TCP, TCP_CORK, [0], 4) = 0",
        " +.01 setsockopt(4, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0",
    );
    assert_eq!(line, 23);
    assert!(msg.contains("timed out waiting"), "{msg}");
}

#[test]
fn unknown_syntax_and_unmodelled_calls_are_unsupported_never_a_pass() {
    let base = script("nagle/sockopt_cork_nodelay.pkt");
    for (add, what) in [
        ("+0 ioctl(4, SIOCINQ, [0]) = 0\n", "ioctl"),
        ("+0 shutdown(4, SHUT_WR) = 0\n", "shutdown"),
        ("+0 < F. 1:1(0) ack 1 win 257\n", "passive close"),
        ("+0 < R 1:1(0) win 0\n", "RST"),
        ("+0 `ethtool -K tun0 tso off`\n", "shell command"),
        ("+0 %{ assert tcpi_rtt == 100 }%\n", "tcpi_rtt"),
        (
            "+0 setsockopt(4, SOL_TCP, TCP_MAXSEG, [500], 4) = 0\n",
            "TCP_MAXSEG",
        ),
        ("+0 > SEW 1:1(0) ack 1\n", "ECN"),
    ] {
        let src = format!("{base}{add}");
        let r = packetdrill::run(&src, "u");
        match &r.outcome {
            Outcome::Unsupported { line, what: w } => {
                assert_eq!(*line as usize, src.lines().count(), "{add}");
                assert!(w.contains(what), "{add}: {w}");
            }
            o => panic!("{add}: {o:?}"),
        }
    }
}

#[test]
fn a_script_runs_the_same_way_twice() {
    let src = script("fast_recovery/prr-ss-10pkt-lost-1.pkt");
    assert_eq!(packetdrill::run(&src, "a"), packetdrill::run(&src, "a"));
}

#[test]
fn a_blocking_call_that_returns_at_another_time_than_the_script_says_fails_there() {
    let src = script("blocking/blocking-write.pkt");
    let from = "   +0...0.300 write(4, ..., 61000) = 61000";
    assert!(src.contains(from));
    // The write sleeps until the ACK of 36001 at +0.3 frees enough of the buffer.
    let r = packetdrill::run(
        &src.replacen(from, "   +0...0.200 write(4, ..., 61000) = 61000", 1),
        "b",
    );
    let Outcome::Fail(f) = r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(
        f.message
            .contains("expected write() to return at 0.400000 sec but it returned at 0.500000 sec"),
        "{}",
        f.message
    );
    let line = src.lines().position(|l| l.starts_with(from)).unwrap() as u32 + 1;
    assert_eq!(f.line, line);
    let ret = r.lines.iter().find(|l| l.kind == "return").unwrap();
    assert_eq!((ret.line, ret.t_us), (line, 500_000));
}

#[test]
fn edge_triggered_epoll_reports_each_wake_up_once() {
    let src = script("epoll/epoll_in_edge.pkt");
    // A second epoll_wait right after the first EPOLLIN|EPOLLOUT finds nothing new.
    let from = "   +0 epoll_wait(5, {events=0, ptr=0}, 1, 0) = 0\n\n   // Read some data";
    assert!(src.contains(from), "epoll_in_edge.pkt changed");
    let changed = src.replacen(
        from,
        "   +0 epoll_wait(5, {events=EPOLLIN, fd=4}, 1, 0) = 1\n\n   // Read some data",
        1,
    );
    let Outcome::Fail(f) = packetdrill::run(&changed, "e").outcome else {
        panic!("a second report of the same wake-up passed")
    };
    assert!(
        f.message
            .contains("epoll_wait: expected events EPOLLIN but got 0"),
        "{}",
        f.message
    );
}

/// The start of a script: a connection with SACK, a window of 257 << 7 and nothing sent.
const OPEN: &str = "`../common/defaults.sh`
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
  +.1 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257
   +0 accept(3, ..., ...) = 4
";

#[test]
fn close_sends_the_fin_on_its_own_skb_when_everything_was_sent() {
    // tcp_send_fin: the write queue is empty, so a new skb carries the FIN (F., no PSH); the
    // ACK of it and the peer's FIN in one segment: FIN_WAIT1 -> FIN_WAIT2 -> tcp_fin ->
    // tcp_send_ack at once and TIME_WAIT.
    let src = format!(
        "{OPEN}   +0 write(4, ..., 1000) = 1000
   +0 > P. 1:1001(1000) ack 1
  +.1 < . 1:1(0) ack 1001 win 257
  +.1 close(4) = 0
   +0 > F. 1001:1001(0) ack 1
  +.1 < F. 1:1(0) ack 1002 win 257
   +0 > . 1002:1002(0) ack 2
"
    );
    assert_eq!(packetdrill::run(&src, "fin-new-skb").outcome, Outcome::Pass);
}

#[test]
fn close_puts_the_fin_on_the_unsent_tail_and_acks_a_later_fin() {
    // Corked bytes wait in the tail skb (tcp_push marked it PSH); tcp_send_fin sets FIN on it
    // and pushes with TCP_NAGLE_OFF (tcp_nagle_test lets a FIN through): one FP. segment.
    // The ACK of the FIN alone moves the socket to FIN_WAIT2, the peer's FIN later is ACKed
    // at once.
    let src = format!(
        "{OPEN}   +0 setsockopt(4, SOL_TCP, TCP_CORK, [1], 4) = 0
   +0 write(4, ..., 500) = 500
 +.01 close(4) = 0
   +0 > FP. 1:501(500) ack 1
  +.1 < . 1:1(0) ack 502 win 257
  +.1 < F. 1:1(0) ack 502 win 257
   +0 > . 502:502(0) ack 2
"
    );
    assert_eq!(packetdrill::run(&src, "fin-tail").outcome, Outcome::Pass);
}

#[test]
fn data_after_close_and_a_segment_to_the_time_wait_socket_are_unsupported() {
    let base = format!(
        "{OPEN}   +0 close(4) = 0
   +0 > F. 1:1(0) ack 1
"
    );
    for (add, what) in [
        ("+.1 < P. 1:101(100) ack 2 win 257\n", "after close"),
        (
            "+.1 < F. 1:1(0) ack 2 win 257\n+0 > . 2:2(0) ack 2\n+.1 < F. 1:1(0) ack 2 win 257\n",
            "time-wait",
        ),
    ] {
        let src = format!("{base}{add}");
        match packetdrill::run(&src, "u").outcome {
            Outcome::Unsupported { what: w, .. } => assert!(w.contains(what), "{add}: {w}"),
            o => panic!("{add}: {o:?}"),
        }
    }
}

/// The start of a script whose peer does not offer SACK (Reno loss recovery), MSS 1460.
const OPEN_NO_SACK: &str = "`../common/defaults.sh`
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
  +.1 < S 0:0(0) win 32792 <mss 1460,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257
   +0 accept(3, ..., ...) = 4
";

fn assert_passes(name: &str, src: &str) {
    match packetdrill::run(src, name).outcome {
        Outcome::Pass => {}
        o => panic!("{name}: {o:?}"),
    }
}

#[test]
fn without_sack_duplicate_acks_count_as_sacked_and_newreno_repairs_one_hole_per_partial_ack() {
    // Six segments; the first and the third are lost, the other four arrive: four duplicate
    // ACKs. tcp_add_reno_sack counts each in sacked_out (Disorder after the first); at the
    // third, sacked_out reaches reordering (3) and tcp_newreno_mark_lost marks the head (cut
    // to one MSS) lost: Recovery (TCPRenoRecovery) and the fast retransmit. The partial ACK
    // of the first hole (tcp_remove_reno_sacks: sacked_out 4 - (2 - 1)) marks the next head
    // lost and PRR sends it at once (RFC 6582). The ACK of everything ends at high_seq, where
    // Reno holds Recovery until something above it is ACKed (RFC 2582).
    let src = format!(
        "{OPEN_NO_SACK}   +0 write(4, ..., 8760) = 8760
   +0 > P. 1:8761(8760) ack 1
  +.1 < . 1:1(0) ack 1 win 257
   +0 %{{ assert tcpi_sacked == 1 }}%
   +0 %{{ assert tcpi_ca_state == TCP_CA_Disorder }}%
   +0 < . 1:1(0) ack 1 win 257
   +0 < . 1:1(0) ack 1 win 257
   +0 > . 1:1461(1460) ack 1
   +0 %{{ assert tcpi_ca_state == TCP_CA_Recovery }}%
   +0 %{{ assert tcpi_sacked == 3 }}%
   +0 %{{ assert tcpi_lost == 1 }}%
   +0 %{{ assert tcpi_retrans == 1 }}%
   +0 < . 1:1(0) ack 1 win 257
   +0 %{{ assert tcpi_sacked == 4 }}%
  +.1 < . 1:1(0) ack 2921 win 257
   +0 > . 2921:4381(1460) ack 1
   +0 %{{ assert tcpi_sacked == 3 }}%
  +.1 < . 1:1(0) ack 8761 win 257
   +0 %{{ assert tcpi_ca_state == TCP_CA_Recovery }}%
   +0 %{{ assert tcpi_sacked == 0 }}%
   +0 %{{ assert tcpi_unacked == 0 }}%
"
    );
    assert_passes("newreno", &src);
}

#[test]
fn without_sack_more_duplicate_acks_than_packets_out_raise_reordering() {
    // fr-4pkt.pkt's four segments and one duplicate ACK more than the three that start
    // recovery: sacked_out + the one hole would exceed packets_out, so tcp_limit_reno_sacked
    // keeps sacked_out at 3 and tcp_check_reno_reordering takes the reordering to
    // packets_out (4).
    let src = format!(
        "{OPEN_NO_SACK}   +0 write(4, ..., 5840) = 5840
   +0 > P. 1:5841(5840) ack 1
  +.1 < . 1:1(0) ack 1 win 257
   +0 < . 1:1(0) ack 1 win 257
   +0 < . 1:1(0) ack 1 win 257
   +0 > . 1:1461(1460) ack 1
   +0 %{{ assert tcpi_reordering == 3 }}%
   +0 < . 1:1(0) ack 1 win 257
   +0 %{{ assert tcpi_sacked == 3 }}%
   +0 %{{ assert tcpi_reordering == 4 }}%
   +0 %{{ assert tcpi_reord_seen == 1 }}%
"
    );
    assert_passes("reno-reordering", &src);
}
