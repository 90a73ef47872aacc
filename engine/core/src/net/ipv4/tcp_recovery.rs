//! `net/ipv4/tcp_recovery.c`: RACK loss detection (RFC 8985): a packet is lost when a packet
//! sent after it was delivered (SACKed or cumulatively ACKed) more than an RTT plus a
//! reordering window ago.
//!
//! Follows Linux 6.18: `tcp_rack_reo_wnd`, `tcp_rack_skb_timeout`, `tcp_rack_detect_loss`,
//! `tcp_rack_mark_lost`, `tcp_rack_advance`, `tcp_rack_reo_timeout`, `tcp_rack_update_reo_wnd`;
//! and, for a connection without SACK, `tcp_newreno_mark_lost` (RFC 6582).
//!
//! Simplified:
//! - the skbs are scanned in sequence order and each is tested, not walked in send-time order
//!   (`tsorted_sent_queue`) with a `break` at the first one sent after the reference, because
//!   the test is per skb and the walk only saves time; visible effect: none.

use crate::include::linux::skbuff::SockId;
use crate::include::uapi::linux::snmp::Mib;
use crate::net::core::sock::*;
use crate::net::host::Stack;

/// `tcp_skb_sent_after`: `t1` (ending at `seq1`) was sent after `t2` (ending at `seq2`); the
/// sequence breaks a tie between segments of one TSO burst.
pub fn tcp_skb_sent_after(t1: u64, t2: u64, seq1: u64, seq2: u64) -> bool {
    t1 > t2 || (t1 == t2 && seq1 > seq2)
}

/// `tcp_min_rtt`, µs (`~0U` before the first sample).
fn tcp_min_rtt(tp: &TcpSock) -> u64 {
    if tp.min_rtt_us == 0 {
        u32::MAX as u64
    } else {
        tp.min_rtt_us
    }
}

/// `tcp_rack_reo_wnd`: the reordering window, µs. Without reordering seen, 0 in recovery or
/// once `reordering` packets were SACKed (the DUPACK threshold); else min_rtt/4 per step, at
/// most srtt.
pub fn tcp_rack_reo_wnd(tp: &TcpSock) -> u64 {
    if tp.lr.reord_seen == 0 {
        // "If reordering has not been observed, be aggressive during the recovery or
        // starting the recovery by DUPACK threshold."
        if tp.icsk_ca_state >= TCP_CA_RECOVERY {
            return 0;
        }
        // net.ipv4.tcp_recovery = 1: TCP_RACK_NO_DUPTHRESH is off.
        if tp.sacked_out >= tp.lr.reordering {
            return 0;
        }
    }
    ((tcp_min_rtt(tp) >> 2) * tp.rack.reo_wnd_steps as u64).min(tp.srtt_us >> 3)
}

/// `tcp_rack_skb_timeout`: µs left before skb `i` of the retransmit queue counts as lost.
pub fn tcp_rack_skb_timeout(tp: &TcpSock, i: usize, reo_wnd: u64, now_us: u64) -> i64 {
    let sent_us = tp.rtx_queue[i].tstamp_ns / 1000;
    tp.rack.rtt_us as i64 + reo_wnd as i64 - now_us.saturating_sub(sent_us) as i64
}

/// `tcp_mark_skb_lost` (tcp_input.c): mark skb `i` lost; a retransmission lost again counts
/// in TCPLostRetransmit. Adds to `tp->lost`.
pub fn tcp_mark_skb_lost(w: &mut Stack, sk: SockId, i: usize) {
    let tp = &mut w.socks[sk as usize];
    let host = tp.host;
    let skb = &mut tp.rtx_queue[i];
    let (sacked, pcount) = (skb.sacked, skb.pcount);
    if sacked & TCPCB_SACKED_ACKED != 0 {
        return;
    }
    if sacked & TCPCB_LOST != 0 {
        if sacked & TCPCB_SACKED_RETRANS != 0 {
            // "Account for retransmits that are lost again"
            skb.sacked &= !TCPCB_SACKED_RETRANS;
            tp.retrans_out -= pcount;
            tp.lr.lost += pcount;
            w.mib(host).add(Mib::TcpExtTCPLostRetransmit, pcount as u64);
        }
    } else {
        skb.sacked |= TCPCB_LOST;
        tp.lost_out += pcount;
        tp.lr.lost += pcount; // tcp_notify_skb_loss_event
    }
}

/// `tcp_newreno_mark_lost` (net/ipv4/tcp_recovery.c, 6.18): "RFC6582 NewReno recovery for
/// non-SACK connection. It simply retransmits the next unacked packet upon receiving a) three
/// or more DUPACKs to start the fast recovery b) an ACK acknowledging new data during the fast
/// recovery." Below Recovery once `sacked_out` (the duplicate ACKs counted by
/// `tcp_add_reno_sack`) reaches `reordering`, or in Recovery on an ACK that advances
/// `snd_una`: the head of the retransmit queue, cut to one MSS (`tcp_fragment`), is marked
/// lost, unless it already is.
pub fn tcp_newreno_mark_lost(w: &mut Stack, sk: SockId, snd_una_advanced: bool) {
    let tp = &w.socks[sk as usize];
    let state = tp.icsk_ca_state;
    if !((state < TCP_CA_RECOVERY && tp.sacked_out >= tp.lr.reordering)
        || (state == TCP_CA_RECOVERY && snd_una_advanced))
    {
        return;
    }
    let Some(skb) = tp.rtx_queue.front() else {
        return;
    };
    if skb.sacked & TCPCB_LOST != 0 {
        return;
    }
    let mss = if skb.pcount > 1 {
        skb.gso_size.max(1)
    } else {
        tp.mss_cache
    };
    if skb.pcount > 1 && skb.len() > mss {
        crate::net::ipv4::tcp_output::tcp_fragment_rtx(w, sk, 0, mss, mss);
    }
    tcp_mark_skb_lost(w, sk, 0);
}

/// `tcp_rack_detect_loss`: mark lost every skb sent before the RACK reference that has waited
/// longer than its RTT plus the reordering window. Returns the longest wait left for the
/// others, µs (0 = none waits).
pub fn tcp_rack_detect_loss(w: &mut Stack, sk: SockId) -> u64 {
    let now_us = w.now_ns / 1000;
    let mut reo_timeout = 0u64;
    let tp = &w.socks[sk as usize];
    let reo_wnd = tcp_rack_reo_wnd(tp);
    for i in 0..tp.rtx_queue.len() {
        let tp = &w.socks[sk as usize];
        let skb = &tp.rtx_queue[i];
        if skb.sacked & TCPCB_SACKED_ACKED != 0 {
            continue; // not in tsorted_sent_queue
        }
        // "Skip ones marked lost but not yet retransmitted"
        if skb.sacked & TCPCB_LOST != 0 && skb.sacked & TCPCB_SACKED_RETRANS == 0 {
            continue;
        }
        if !tcp_skb_sent_after(
            tp.rack.mstamp_us,
            skb.tstamp_ns / 1000,
            tp.rack.end_seq,
            skb.end_seq,
        ) {
            continue;
        }
        // "A packet is lost if it has not been s/acked beyond the recent RTT plus the
        // reordering window."
        let remaining = tcp_rack_skb_timeout(tp, i, reo_wnd, now_us);
        if remaining <= 0 {
            tcp_mark_skb_lost(w, sk, i);
        } else {
            reo_timeout = reo_timeout.max(remaining as u64);
        }
    }
    reo_timeout
}

/// `tcp_rack_mark_lost`: if the reference advanced, detect losses; arm the reordering timer
/// (`ICSK_TIME_REO_TIMEOUT`) for the skbs that must wait. True when it armed it.
pub fn tcp_rack_mark_lost(w: &mut Stack, sk: SockId) -> bool {
    let tp = &mut w.socks[sk as usize];
    if !tp.rack.advanced {
        return false;
    }
    // "Reset the advanced flag to avoid unnecessary queue scanning"
    tp.rack.advanced = false;
    let timeout_us = tcp_rack_detect_loss(w, sk);
    if timeout_us > 0 {
        let when_ns = (timeout_us + TCP_TIMEOUT_MIN_US) * 1000;
        crate::net::ipv4::tcp_timer::tcp_reset_xmit_timer(w, sk, IcskPending::ReoTimeout, when_ns);
    }
    timeout_us > 0
}

/// `tcp_rack_advance`: an skb sent at `xmit_us` ending at `end_seq` was (S)ACKed: it becomes
/// the reference if it was sent after the current one; its RTT is RACK's RTT. A retransmitted
/// skb acked sooner than min_rtt may be its original's ACK and is ignored.
pub fn tcp_rack_advance(tp: &mut TcpSock, sacked: u8, end_seq: u64, xmit_us: u64, now_us: u64) {
    let rtt_us = now_us.saturating_sub(xmit_us);
    if rtt_us < tcp_min_rtt(tp) && sacked & TCPCB_RETRANS != 0 {
        return;
    }
    tp.rack.advanced = true;
    tp.rack.rtt_us = rtt_us;
    if tcp_skb_sent_after(xmit_us, tp.rack.mstamp_us, end_seq, tp.rack.end_seq) {
        tp.rack.mstamp_us = xmit_us;
        tp.rack.end_seq = end_seq;
    }
}

/// `tcp_rack_reo_timeout`: the reordering timer fired: mark the skbs that waited long enough,
/// enter recovery if that marked any, retransmit; then the RTO takes over the timer.
pub fn tcp_rack_reo_timeout(w: &mut Stack, sk: SockId) {
    let tp = &w.socks[sk as usize];
    let lost = tp.lr.lost;
    let prior_inflight = tp.packets_in_flight();
    tcp_rack_detect_loss(w, sk);
    let tp = &w.socks[sk as usize];
    if prior_inflight != tp.packets_in_flight() {
        if tp.icsk_ca_state != TCP_CA_RECOVERY {
            crate::net::ipv4::tcp_input::tcp_enter_recovery(w, sk);
            let tp = &mut w.socks[sk as usize];
            if !crate::net::ipv4::tcp_cong::has_cong_control(tp) {
                let newly_lost = tp.lr.lost - lost;
                crate::net::ipv4::tcp_input::tcp_cwnd_reduction(tp, 1, newly_lost, 0);
            }
        }
        crate::net::ipv4::tcp_output::tcp_xmit_retransmit_queue(w, sk);
    }
    if w.socks[sk as usize].icsk_pending != IcskPending::Retrans {
        crate::net::ipv4::tcp_timer::tcp_rearm_rto(w, sk);
    }
}

/// `tcp_rack_update_reo_wnd`: after DSACKs (a spurious retransmission), widen the window by a
/// step per round trip, for 16 recoveries; else back to one step.
pub fn tcp_rack_update_reo_wnd(tp: &mut TcpSock, prior_delivered: u32) {
    if prior_delivered == 0 {
        return;
    }
    // "Disregard DSACK if a rtt has not passed since we adjusted reo_wnd"
    if prior_delivered < tp.rack.last_delivered {
        tp.rack.dsack_seen = false;
    }
    // "Adjust the reo_wnd if update is pending"
    if tp.rack.dsack_seen {
        tp.rack.reo_wnd_steps = tp.rack.reo_wnd_steps.saturating_add(1);
        tp.rack.dsack_seen = false;
        tp.rack.last_delivered = tp.delivered;
        tp.rack.reo_wnd_persist = TCP_RACK_RECOVERY_THRESH;
    } else if tp.rack.reo_wnd_persist == 0 {
        tp.rack.reo_wnd_steps = 1;
    }
}

/// Mechanism tests, each shaped like a packetdrill script (the lines in the comments): the
/// sender is socket 0, the peer's ACKs are injected with their SACK blocks.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::ipv4::tcp_input::tcp_rcv_established;
    use crate::sim::testkit::{established, mark_sent, peer_ack, queue_skb};
    use crate::sim::world::World;

    const MSS: u64 = 1448;

    /// `write(n * MSS)` sent as `n` single-segment skbs at `t_ns`.
    fn send_segments(w: &mut World, n: u32, t_ns: u64) {
        for _ in 0..n {
            queue_skb(w, 0, MSS as u32);
            mark_sent(w, 0, t_ns, false);
        }
    }

    /// `<ack ACK, sack BLOCKS>` from the peer reaches the sender at `t_ns`.
    fn ack(w: &mut World, t_ns: u64, ack_seq: u64, sack: &[(u64, u64)]) {
        w.now_ns = t_ns;
        let pkt = peer_ack(w, ack_seq);
        let id = pkt.id;
        if !sack.is_empty() {
            w.tcp_sack_opts.insert(id, sack.to_vec().into_boxed_slice());
        }
        tcp_rcv_established(w, 0, &pkt);
        w.socks[0].check_invariants();
    }

    fn mib(w: &World, m: Mib) -> u64 {
        w.hosts[0].mib.get(m)
    }

    /// Segment n (1-based) of the flight: `[1 + (n-1) MSS, 1 + n MSS)`.
    fn seg(n: u64) -> u64 {
        1 + (n - 1) * MSS
    }

    #[test]
    fn a_single_loss_is_marked_by_rack_and_fast_retransmitted_in_sack_recovery() {
        // 0.000 write(10 * MSS)            // 10 segments out, cwnd 10
        // 0.010 < ack 1, sack 1449:14481   // segment 1 missing, 9 SACKed
        // 0.010 > 1:1449                   // RACK: a later segment was delivered and
        //                                  // sacked_out >= reordering, so reo_wnd is 0
        let mut w = established("6.18", "");
        let t0 = w.now_ns;
        send_segments(&mut w, 10, t0);
        ack(&mut w, t0 + 10_000_000, 1, &[(seg(2), seg(11))]);
        let tp = &w.socks[0];
        assert_eq!(tp.icsk_ca_state, TCP_CA_RECOVERY);
        assert_eq!(mib(&w, Mib::TcpExtTCPSackRecovery), 1);
        assert_eq!(tp.sacked_out, 9);
        assert_eq!(tp.lost_out, 1);
        assert_eq!(tp.retrans_out, 1);
        assert_eq!(tp.rtx_queue[0].sacked, TCPCB_LOST | TCPCB_RETRANS);
        assert_eq!(mib(&w, Mib::TcpRetransSegs), 1);
        assert_eq!(mib(&w, Mib::TcpExtTCPFastRetrans), 1);
        // 0.020 < ack 14481                // the retransmission arrived: recovery ends
        ack(&mut w, t0 + 20_000_000, seg(11), &[]);
        let tp = &w.socks[0];
        assert_eq!(tp.icsk_ca_state, TCP_CA_OPEN);
        assert_eq!(
            tp.snd_cwnd, tp.snd_ssthresh,
            "cwnd = ssthresh at the end of recovery"
        );
        assert_eq!((tp.sacked_out, tp.lost_out, tp.retrans_out), (0, 0, 0));
    }

    #[test]
    fn rack_waits_a_quarter_min_rtt_before_marking_a_hole_below_the_dupack_threshold() {
        // 0.000 write(4 * MSS)
        // 0.010 < ack 1, sack 1449:2897    // one SACKed segment: fewer than reordering (3),
        //                                  // so the hole waits min_rtt/4 on the REO timer
        let mut w = established("6.18", "");
        let t0 = w.now_ns;
        send_segments(&mut w, 4, t0);
        ack(&mut w, t0 + 10_000_000, 1, &[(seg(2), seg(3))]);
        let tp = &w.socks[0];
        assert_eq!(tp.lost_out, 0);
        assert_eq!(tp.icsk_pending, IcskPending::ReoTimeout);
        assert_eq!(tp.icsk_ca_state, TCP_CA_DISORDER);
        // +reo_wnd: the timer marks segment 1 lost, enters recovery and retransmits it.
        let due = w.socks[0].icsk_timeout_ns;
        w.now_ns = due;
        tcp_rack_reo_timeout(&mut w, 0);
        let tp = &w.socks[0];
        assert_eq!(tp.lost_out, 1);
        assert_eq!(tp.icsk_ca_state, TCP_CA_RECOVERY);
        assert_eq!(mib(&w, Mib::TcpRetransSegs), 1);
        assert_eq!(
            tp.icsk_pending,
            IcskPending::Retrans,
            "the RTO takes the timer back"
        );
    }

    #[test]
    fn prr_sends_ssthresh_over_prior_cwnd_of_what_is_delivered_while_in_flight_exceeds_ssthresh() {
        // reno, cwnd 20, ssthresh becomes 10 in recovery
        // 0.000 write(20 * MSS)
        // 0.010 < ack 1, sack 1449:5793    // segment 1 lost, 3 SACKed: 16 still in flight
        // PRR: sndcnt = ceil(ssthresh * prr_delivered / prior_cwnd) - prr_out
        //             = ceil(10 * 3 / 20) - 0 = 2, cwnd = in flight 16 + 2 = 18
        let mut w = established("6.18", "[socket]\nTCP_CONGESTION = \"reno\"\n");
        w.socks[0].snd_cwnd = 20;
        w.socks[0].snd_wnd = 1 << 20;
        let t0 = w.now_ns;
        send_segments(&mut w, 20, t0);
        ack(&mut w, t0 + 10_000_000, 1, &[(seg(2), seg(5))]);
        let tp = &w.socks[0];
        assert_eq!(tp.snd_ssthresh, 10);
        assert_eq!(tp.lr.prior_cwnd, 20);
        assert_eq!(tp.lr.prr_delivered, 3);
        assert_eq!(tp.snd_cwnd, 18);
        assert_eq!(tp.lr.prr_out, 1, "the fast retransmission");
        // A burst: segments 2..=12 lost too; SACKs for 13..=20 arrive. In flight falls below
        // ssthresh: PRR-SSRB grows cwnd back towards ssthresh, never above it.
        ack(
            &mut w,
            t0 + 11_000_000,
            1,
            &[(seg(13), seg(21)), (seg(2), seg(5))],
        );
        let tp = &w.socks[0];
        assert!(
            tp.lost_out >= 8,
            "RACK marked the burst lost: {}",
            tp.lost_out
        );
        assert!(
            tp.snd_cwnd <= tp.snd_ssthresh,
            "cwnd {} > ssthresh",
            tp.snd_cwnd
        );
        assert_eq!(
            tp.retrans_out, tp.lost_out,
            "every lost segment was retransmitted"
        );
        assert!(tp.packets_in_flight() <= tp.snd_cwnd);
    }

    /// The probe timer, fired where the kernel's would.
    fn fire_write_timer(w: &mut World) {
        let due = w.socks[0].icsk_timeout_ns;
        assert!(due > 0, "a timer is armed");
        // The timer event for `due` (an earlier one queued for a superseded expiry re-arms
        // itself for `due` when it runs).
        w.now_ns = due;
        w.socks[0].write_timer_queued_ns = Some(due);
        crate::net::ipv4::tcp_timer::tcp_write_timer(w, 0);
    }

    #[test]
    fn a_tail_loss_is_repaired_by_the_loss_probe_before_the_rto() {
        // Like fr-4pkt-fack-last-byte.pkt (upstream packetdrill), HZ 250:
        // 0.000 write(4 * MSS)
        // 0.010 < ack 4345                 // 3 of 4 acked: the tail segment 4345:5793 is lost
        //                                  // TLP armed: 2 srtt + rto_min (one packet out),
        //                                  // no later than the RTO
        // +PTO  > 4345:5793                // the probe: the last segment again
        // +0.01 < ack 5793                 // repaired without an RTO
        let mut w = established("6.18", "");
        let t0 = w.now_ns;
        send_segments(&mut w, 4, t0);
        crate::net::ipv4::tcp_timer::tcp_rearm_rto(&mut w, 0);
        ack(&mut w, t0 + 10_000_000, seg(4), &[]);
        let tp = &w.socks[0];
        assert_eq!(tp.icsk_pending, IcskPending::LossProbe);
        let rto_at = t0 + 10_000_000 + tp.rto_ns;
        let pto = tp.icsk_timeout_ns;
        assert!(
            pto <= rto_at + 8_000_000,
            "the probe is due no later than the RTO: {pto} vs {rto_at}"
        );
        fire_write_timer(&mut w);
        let tp = &w.socks[0];
        assert_eq!(mib(&w, Mib::TcpExtTCPLossProbes), 1);
        assert_eq!(mib(&w, Mib::TcpRetransSegs), 1);
        assert_eq!(tp.tlp_high_seq, Some(seg(5)));
        assert!(tp.tlp_retrans);
        assert_eq!(
            tp.retrans_out, 0,
            "__tcp_retransmit_skb: the probe is not on the scoreboard"
        );
        assert_eq!(tp.icsk_pending, IcskPending::Retrans, "the RTO is rearmed");
        let probe_at = w.now_ns;
        ack(&mut w, probe_at + 10_000_000, seg(5), &[]);
        let tp = &w.socks[0];
        assert_eq!(tp.packets_out, 0);
        assert_eq!(tp.icsk_ca_state, TCP_CA_OPEN);
        assert_eq!(mib(&w, Mib::TcpExtTCPTimeouts), 0, "no RTO was needed");
    }

    #[test]
    fn an_ack_beyond_a_retransmitted_probe_means_a_loss_and_reduces_cwnd_once() {
        // 0.000 write(4 * MSS)
        // 0.010 < ack 4345                 // the tail is lost
        // +PTO  > 4345:5793                // the probe retransmits it (tlp_high_seq 5793)
        //       write(2 * MSS), sent       // new data beyond tlp_high_seq
        // +0.01 < ack 8689                 // covers the probe and more, no D-SACK: the probe
        //                                  // repaired a loss: CWR, cwnd = ssthresh
        let mut w = established("6.18", "");
        let t0 = w.now_ns;
        send_segments(&mut w, 4, t0);
        crate::net::ipv4::tcp_timer::tcp_rearm_rto(&mut w, 0);
        ack(&mut w, t0 + 10_000_000, seg(4), &[]);
        fire_write_timer(&mut w);
        let probe_at = w.now_ns;
        send_segments(&mut w, 2, probe_at);
        let cwnd = w.socks[0].snd_cwnd;
        ack(&mut w, probe_at + 10_000_000, seg(7), &[]);
        let tp = &w.socks[0];
        assert_eq!(mib(&w, Mib::TcpExtTCPLossProbeRecovery), 1);
        assert_eq!(tp.tlp_high_seq, None, "the episode ended");
        assert_eq!(tp.icsk_ca_state, TCP_CA_OPEN);
        assert!(
            tp.snd_cwnd < cwnd + 3 && tp.snd_cwnd == tp.snd_ssthresh,
            "cwnd {} ssthresh {} (before: {cwnd})",
            tp.snd_cwnd,
            tp.snd_ssthresh
        );
    }

    #[test]
    fn a_spurious_rto_is_undone_by_the_dsack_of_its_retransmission() {
        // 0.000 write(2 * MSS)
        // +RTO  > 1:1449                   // Loss, cwnd 1, ssthresh from cubic
        // +0.01 < ack 2897, sack 1:1449    // D-SACK: the original arrived too: undo
        let mut w = established("6.18", "");
        let t0 = w.now_ns;
        send_segments(&mut w, 2, t0);
        crate::net::ipv4::tcp_timer::tcp_rearm_rto(&mut w, 0);
        let (cwnd, ssthresh) = (w.socks[0].snd_cwnd, w.socks[0].snd_ssthresh);
        fire_write_timer(&mut w);
        let tp = &w.socks[0];
        assert_eq!(tp.icsk_ca_state, TCP_CA_LOSS);
        assert_eq!(tp.snd_cwnd, 1);
        assert_eq!(tp.lr.undo_retrans, 1);
        let rto_at = w.now_ns;
        ack(&mut w, rto_at + 10_000_000, seg(3), &[(seg(1), seg(2))]);
        let tp = &w.socks[0];
        assert_eq!(mib(&w, Mib::TcpExtTCPLossUndo), 1);
        assert_eq!(tp.icsk_ca_state, TCP_CA_OPEN);
        assert!(
            tp.snd_cwnd >= cwnd,
            "cwnd {} restored to {cwnd}",
            tp.snd_cwnd
        );
        assert_eq!(tp.snd_ssthresh, ssthresh, "ssthresh restored");
    }

    #[test]
    fn an_rto_retransmits_the_head_and_doubles_the_timeout_until_an_ack() {
        // 0.000 write(2 * MSS)
        // +RTO  > 1:1449                   // TCPTimeouts 1, state Loss, cwnd 1
        // +2RTO > 1:1449                   // backoff: the second timeout is twice the first
        let mut w = established("6.18", "");
        let t0 = w.now_ns;
        send_segments(&mut w, 2, t0);
        crate::net::ipv4::tcp_timer::tcp_rearm_rto(&mut w, 0);
        let first = w.socks[0].icsk_timeout_ns;
        w.now_ns = first;
        crate::net::ipv4::tcp_timer::tcp_write_timer(&mut w, 0);
        let tp = &w.socks[0];
        assert_eq!(mib(&w, Mib::TcpExtTCPTimeouts), 1);
        assert_eq!(tp.icsk_ca_state, TCP_CA_LOSS);
        assert_eq!(tp.lost_out, 2);
        assert_eq!(tp.retrans_out, 1);
        assert_eq!(tp.snd_cwnd, 1, "packets in flight (0) + 1");
        assert_eq!(tp.icsk_backoff, 1);
        let second = w.socks[0].icsk_timeout_ns;
        w.now_ns = second;
        crate::net::ipv4::tcp_timer::tcp_write_timer(&mut w, 0);
        assert_eq!(mib(&w, Mib::TcpExtTCPTimeouts), 2);
        assert_eq!(w.socks[0].icsk_backoff, 2);
        let third = w.socks[0].icsk_timeout_ns;
        let (d1, d2) = (second - first, third - second);
        assert!(
            d2 >= 2 * d1 - 8_000_000 && d2 <= 2 * d1 + 8_000_000,
            "{d1} then {d2}"
        );
        // < ack 2897: Loss ends once high_seq is acked; the RTT sample resets the backoff.
        ack(&mut w, third + 1_000_000, seg(3), &[]);
        let tp = &w.socks[0];
        assert_eq!(tp.icsk_ca_state, TCP_CA_OPEN);
        assert_eq!(tp.packets_out, 0);
    }
}
