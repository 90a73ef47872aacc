//! `net/ipv4/tcp_timer.c`: the delayed-ACK timer, the retransmission timer and the PROBE0
//! timer (which also releases a corked or Nagle-held tail when nothing is in flight).
//!
//! Timers are kept in jiffies as in the kernel and fire on tick boundaries of the run's HZ.
//! A timer re-armed to another expiry leaves its old event in the queue; the handler ignores
//! an event that does not match the socket's current expiry (what `mod_timer` achieves).
//!
//! The RTO follows 6.18's `tcp_retransmit_timer`: `tcp_enter_loss` marks the outstanding data
//! lost, the head is retransmitted, the timeout doubles (`icsk_backoff`) until an RTT sample;
//! later ACKs retransmit the rest (`tcp_xmit_retransmit_queue`). RACK's reordering timer
//! (`ICSK_TIME_REO_TIMEOUT`) and the tail loss probe (`ICSK_TIME_LOSS_PROBE`, 4.14+) share the
//! retransmit timer.
//!
//! Simplified:
//! - no F-RTO, no `tcp_write_timeout` (the connection never gives up), no thin-stream linear
//!   timeouts; visible effect: none in the runs modelled.

use crate::include::linux::skbuff::SockId;
use crate::include::uapi::linux::snmp::Mib;
use crate::net::core::sock::*;
use crate::net::host::{Event, Stack};
use crate::net::ipv4::tcp_output::{tcp_send_ack, tcp_write_wakeup};
use crate::trace::{AckReason, Ev};

/// `inet_csk_reset_xmit_timer(ICSK_TIME_RETRANS, rto)` via `tcp_rearm_rto`.
pub fn tcp_rearm_rto(w: &mut Stack, sk: SockId) {
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    if tp.packets_out == 0 {
        tcp_clear_xmit_timer_rto(w, sk);
        return;
    }
    let mut rto = tp.rto_ns << tp.icsk_backoff.min(10);
    rto = rto.min(TCP_RTO_MAX_MS * 1_000_000);
    if matches!(
        tp.icsk_pending,
        IcskPending::ReoTimeout | IcskPending::LossProbe
    ) {
        // "Offset the time elapsed after installing regular RTO" (tcp_rto_delta_us).
        let head_ns = tp.rtx_queue.front().map_or(now, |s| s.tstamp_ns);
        rto = (head_ns + rto).saturating_sub(now).max(1000);
    }
    let j = w.jiffies_at(now + rto) + 1;
    let t = w.jiffy_start_ns(j).max(now + 1);
    w.socks[sk as usize].icsk_pending = IcskPending::Retrans;
    arm_write_timer(w, sk, t);
}

/// `inet_csk_reset_xmit_timer(what, when)` for RACK's reordering timer: `when_ns` from now.
pub fn tcp_reset_xmit_timer(w: &mut Stack, sk: SockId, what: IcskPending, when_ns: u64) {
    let now = w.now_ns;
    let j = w.jiffies_at(now + when_ns) + 1;
    let t = w.jiffy_start_ns(j).max(now + 1);
    w.socks[sk as usize].icsk_pending = what;
    arm_write_timer(w, sk, t);
}

/// `inet_csk_reset_xmit_timer(what, when)` with `when` in jiffies, as the kernel counts it:
/// `expires = jiffies + when`, run on the tick after (the 4.8+ timer wheel).
pub fn tcp_reset_xmit_timer_jiffies(w: &mut Stack, sk: SockId, what: IcskPending, when_j: u64) {
    let now = w.now_ns;
    let j = w.jiffies() + when_j + 1;
    let t = w.jiffy_start_ns(j).max(now + 1);
    w.socks[sk as usize].icsk_pending = what;
    arm_write_timer(w, sk, t);
}

/// Set the retransmit-family timer's expiry; queue an event only if none is queued earlier.
fn arm_write_timer(w: &mut Stack, sk: SockId, t: u64) {
    let tp = &mut w.socks[sk as usize];
    tp.icsk_timeout_ns = t;
    if tp.write_timer_queued_ns.is_none_or(|q| t < q) {
        tp.write_timer_queued_ns = Some(t);
        w.schedule(t, Event::WriteTimer(sk));
    }
}

/// `inet_csk_clear_xmit_timer(ICSK_TIME_RETRANS)`.
pub fn tcp_clear_xmit_timer_rto(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    if matches!(
        tp.icsk_pending,
        IcskPending::Retrans | IcskPending::ReoTimeout | IcskPending::LossProbe
    ) {
        tp.icsk_pending = IcskPending::None;
        tp.icsk_timeout_ns = 0;
    }
}

/// `tcp_check_probe_timer`: data is held with nothing in flight: arm PROBE0 for one RTO
/// (`tcp_probe0_base`: at least `TCP_RTO_MIN`), unless a timer is pending.
pub fn tcp_check_probe_timer(w: &mut Stack, sk: SockId) {
    let tp = &w.socks[sk as usize];
    if tp.packets_out != 0 || tp.icsk_pending != IcskPending::None {
        return;
    }
    let base = tp.rto_ns.max(TCP_RTO_MIN_MS * 1_000_000);
    let backoff = tp.icsk_backoff.min(10);
    let when = (base << backoff).min(TCP_RTO_MAX_MS * 1_000_000);
    let now = w.now_ns;
    let j = w.jiffies_at(now + when) + 1;
    let t = w.jiffy_start_ns(j).max(now + 1);
    w.socks[sk as usize].icsk_pending = IcskPending::Probe0;
    arm_write_timer(w, sk, t);
}

/// `tcp_write_timer` → `tcp_write_timer_handler`: RTO or PROBE0.
pub fn tcp_write_timer(w: &mut Stack, sk: SockId) {
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    if tp.write_timer_queued_ns != Some(now) {
        return; // superseded by an event queued for an earlier expiry
    }
    tp.write_timer_queued_ns = None;
    if tp.icsk_pending == IcskPending::None {
        return; // cleared
    }
    if tp.icsk_timeout_ns > now {
        let t = tp.icsk_timeout_ns;
        arm_write_timer(w, sk, t); // re-armed later meanwhile: wait for the new expiry
        return;
    }
    match tp.icsk_pending {
        IcskPending::Retrans => tcp_retransmit_timer(w, sk),
        IcskPending::Probe0 => tcp_probe_timer(w, sk),
        IcskPending::LossProbe => crate::net::ipv4::tcp_output::tcp_send_loss_probe(w, sk),
        IcskPending::ReoTimeout => {
            let tp = &mut w.socks[sk as usize];
            tp.icsk_pending = IcskPending::None;
            tp.icsk_timeout_ns = 0;
            crate::net::ipv4::tcp_recovery::tcp_rack_reo_timeout(w, sk);
        }
        IcskPending::None => {}
    }
    // tcp_write_timer_handler: "out: sk_mem_reclaim(sk);"
    w.socks[sk as usize].sk_mem_reclaim();
}

/// `tcp_probe_timer` → `tcp_send_probe0`: send the held head ignoring Nagle and cork.
fn tcp_probe_timer(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    tp.icsk_pending = IcskPending::None;
    tp.icsk_timeout_ns = 0;
    if tp.packets_out != 0 || tp.write_queue.is_empty() {
        tp.icsk_probes_out = 0;
        return;
    }
    let sent = tcp_write_wakeup(w, sk);
    let host = w.socks[sk as usize].host;
    w.emit(host, sk, || Ev::Probe0 { bytes: sent });
    let tp = &mut w.socks[sk as usize];
    if tp.packets_out > 0 {
        tp.icsk_backoff = 0;
        tp.icsk_probes_out = 0;
    } else {
        tp.icsk_backoff += 1;
        tp.icsk_probes_out += 1;
        tcp_check_probe_timer(w, sk);
    }
}

/// `tcp_retransmit_timer`: the RTO fired. Count the failure of the recovery under way,
/// enter Loss (everything outstanding not known to be in flight is marked lost), retransmit the
/// head's first segment and double the timeout.
fn tcp_retransmit_timer(w: &mut Stack, sk: SockId) {
    let host = w.socks[sk as usize].host;
    let tp = &mut w.socks[sk as usize];
    tp.icsk_pending = IcskPending::None;
    tp.icsk_timeout_ns = 0;
    if tp.rtx_queue.is_empty() {
        return;
    }
    let seq = tp.snd_una;
    w.mib(host).inc(Mib::TcpExtTCPTimeouts);
    let tp = &w.socks[sk as usize];
    if tp.lr.icsk_retransmits == 0 {
        // tcp_timeout_mib_idx... "if (tcp_is_sack(tp)) ... else ... RENO": a connection without
        // SACK counts its failures as Reno's.
        let sack = tp.rx_opt_sack_ok;
        let m = match tp.icsk_ca_state {
            TCP_CA_RECOVERY if sack => Some(Mib::TcpExtTCPSackRecoveryFail),
            TCP_CA_RECOVERY => Some(Mib::TcpExtTCPRenoRecoveryFail),
            TCP_CA_LOSS => Some(Mib::TcpExtTCPLossFailures),
            _ if tp.icsk_ca_state == TCP_CA_DISORDER || tp.sacked_out > 0 => Some(if sack {
                Mib::TcpExtTCPSackFailures
            } else {
                Mib::TcpExtTCPRenoFailures
            }),
            _ => None,
        };
        if let Some(m) = m {
            w.mib(host).inc(m);
        }
    }
    crate::net::ipv4::tcp_input::tcp_enter_loss(w, sk);
    w.socks[sk as usize].lr.icsk_retransmits += 1; // tcp_update_rto_stats
    w.emit(host, sk, || Ev::Rto { seq });
    if crate::net::ipv4::tcp_output::tcp_retransmit_skb(w, sk, 0, 1) > 0 {
        // "Retransmission failed because of local congestion, Let senders fight for local
        // resources conservatively": retry in TCP_RESOURCE_PROBE_INTERVAL, no backoff.
        let when_j = (w.hz / 2).max(1);
        tcp_reset_xmit_timer_jiffies(w, sk, IcskPending::Retrans, when_j);
        return;
    }
    // "Increase the timeout each time we retransmit."
    w.socks[sk as usize].icsk_backoff += 1;
    tcp_rearm_rto(w, sk);
}

/// `tcp_delack_timer` → `tcp_delack_timer_handler`: the delayed ACK is due. Inflate `ato` if
/// the connection is not interactive; leave pingpong mode and deflate it if it is.
pub fn tcp_delack_timer(w: &mut Stack, sk: SockId) {
    let now = w.now_ns;
    let hz = w.hz;
    let due = w.jiffy_start_ns(w.socks[sk as usize].icsk_ack.timeout);
    let tp = &mut w.socks[sk as usize];
    if tp.delack_queued_ns != Some(now) {
        return; // superseded by an event queued for an earlier expiry
    }
    tp.delack_queued_ns = None;
    if tp.icsk_ack.pending & ICSK_ACK_TIMER == 0 {
        return; // cancelled: an ACK went out meanwhile
    }
    if due > now {
        // time_after(icsk_ack.timeout, jiffies): re-armed for the later expiry.
        let t = w.timer_expiry_ns(w.socks[sk as usize].icsk_ack.timeout);
        w.socks[sk as usize].delack_queued_ns = Some(t);
        w.schedule(t, Event::Delack(sk));
        return;
    }
    let tp = &w.socks[sk as usize];
    let host = tp.host;
    let rto_j = tp.rto_ns * hz / 1_000_000_000;
    let tp = &mut w.socks[sk as usize];
    tp.icsk_ack.pending &= !ICSK_ACK_TIMER;
    if tp.icsk_ack.pending & ICSK_ACK_SCHED == 0 {
        return;
    }
    if !crate::net::ipv4::tcp_output::in_pingpong_mode(tp) {
        // "Delayed ACK missed: inflate ATO."
        tp.icsk_ack.ato = (tp.icsk_ack.ato << 1).min(rto_j);
    } else {
        // "Delayed ACK missed: leave pingpong mode and deflate ATO."
        tp.icsk_ack.pingpong = 0;
        tp.icsk_ack.ato = crate::net::ipv4::tcp_output::tcp_ato_min(hz);
    }
    tcp_send_ack(w, sk, AckReason::DelackTimer);
    w.mib(host).inc(Mib::TcpExtDelayedACKs);
    // tcp_delack_timer_handler: sk_mem_reclaim_partial() (keeps one page).
    w.socks[sk as usize].sk_mem_reclaim_partial();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testkit::{established, queue_skb};

    fn fire_delack(w: &mut Stack, sk: SockId) {
        let t = w.jiffy_start_ns(w.socks[sk as usize].icsk_ack.timeout);
        w.socks[sk as usize].delack_queued_ns = Some(t);
        w.now_ns = t;
        tcp_delack_timer(w, sk);
    }

    #[test]
    fn a_missed_delayed_ack_inflates_ato_when_not_interactive() {
        let mut w = established("4.4", "[sim]\nhz = 250\n");
        let j = w.jiffies();
        let tp = &mut w.socks[1];
        tp.icsk_ack.ato = 10;
        tp.icsk_ack.pending = ICSK_ACK_SCHED | ICSK_ACK_TIMER;
        tp.icsk_ack.timeout = j + 10;
        fire_delack(&mut w, 1);
        assert_eq!(w.socks[1].icsk_ack.ato, 20);
        assert_eq!(w.hosts[1].mib.get(Mib::TcpExtDelayedACKs), 1);
    }

    #[test]
    fn a_missed_delayed_ack_leaves_pingpong_mode_and_deflates_ato() {
        let mut w = established("4.4", "[sim]\nhz = 250\n");
        let j = w.jiffies();
        let tp = &mut w.socks[1];
        tp.icsk_ack.ato = 20;
        tp.icsk_ack.pingpong = 1;
        tp.icsk_ack.pending = ICSK_ACK_SCHED | ICSK_ACK_TIMER;
        tp.icsk_ack.timeout = j + 20;
        fire_delack(&mut w, 1);
        assert_eq!(w.socks[1].icsk_ack.pingpong, 0);
        assert_eq!(w.socks[1].icsk_ack.ato, 10);
    }

    #[test]
    fn a_cancelled_delayed_ack_timer_sends_nothing() {
        let mut w = established("4.4", "");
        let j = w.jiffies();
        let tp = &mut w.socks[1];
        tp.icsk_ack.pending = 0;
        tp.icsk_ack.timeout = j + 10;
        let before = w.hosts[1].mib.get(Mib::TcpOutSegs);
        fire_delack(&mut w, 1);
        assert_eq!(w.hosts[1].mib.get(Mib::TcpOutSegs), before);
    }

    #[test]
    fn the_probe_timer_sends_a_corked_tail_one_rto_after_nothing_is_in_flight() {
        let mut w = established("6.18", "[socket]\nTCP_CORK = 1\n");
        queue_skb(&mut w, 0, 100);
        tcp_check_probe_timer(&mut w, 0);
        let tp = &w.socks[0];
        assert_eq!(tp.icsk_pending, IcskPending::Probe0);
        let due = tp.icsk_timeout_ns;
        assert!(due >= w.now_ns + TCP_RTO_MIN_MS * 1_000_000);
        w.now_ns = due;
        tcp_write_timer(&mut w, 0);
        assert_eq!(w.socks[0].snd_nxt, 101, "the probe sent the corked bytes");
    }

    #[test]
    fn rearming_the_rto_later_keeps_a_single_queued_event() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 100);
        crate::sim::testkit::mark_sent(&mut w, 0, 0, false);
        tcp_rearm_rto(&mut w, 0);
        let first = w.socks[0].write_timer_queued_ns;
        w.now_ns += 10_000_000; // a few jiffies later
        tcp_rearm_rto(&mut w, 0);
        assert_eq!(w.socks[0].write_timer_queued_ns, first);
        assert!(w.socks[0].icsk_timeout_ns > first.unwrap());
        // The early event re-queues itself for the new expiry instead of firing.
        w.now_ns = first.unwrap();
        tcp_write_timer(&mut w, 0);
        assert_eq!(
            w.socks[0].write_timer_queued_ns,
            Some(w.socks[0].icsk_timeout_ns)
        );
        assert_eq!(w.hosts[0].mib.get(Mib::TcpExtTCPTimeouts), 0);
    }
}
