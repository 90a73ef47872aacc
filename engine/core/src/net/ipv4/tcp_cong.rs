//! Congestion control's framework (`net/ipv4/tcp_cong.c`): the calls TCP makes into the
//! socket's algorithm (`tcp_congestion_ops`), Reno, and the helpers every algorithm shares
//! (`tcp_slow_start`, `tcp_cong_avoid_ai`). CUBIC is `tcp_cubic.rs`, BBR `tcp_bbr.rs`.
//!
//! Follows Linux 6.18.
//!
//! Simplified:
//! - dispatch is a `match` on the socket's algorithm, not a table of function pointers, so a
//!   reader sees every algorithm's entry at one place; visible effect: none.
//! - no loss recovery states (`ca_state` stays Open; an RTO uses `ssthresh` and resets cwnd),
//!   because links are lossless; visible effect: none without drops.

use crate::include::uapi::linux::snmp::Mibs;
use crate::net::core::sock::{CongState, TcpSock};
use crate::net::host::Prandom;
use crate::net::ipv4::tcp_rate::RateSample;
use crate::net::ipv4::{tcp_bbr, tcp_cubic};
use crate::scenario::CongestionControl;

/// The clocks a congestion control reads: `tcp_clock_cache` (ns), `tcp_mstamp` (µs) and
/// `tcp_jiffies32`, and HZ.
#[derive(Clone, Copy, Debug)]
pub struct CaClock {
    pub now_ns: u64,
    pub jiffies: u32,
    pub hz: u64,
}

impl CaClock {
    /// `tp->tcp_mstamp`: now in µs.
    pub fn tcp_mstamp_us(&self) -> u64 {
        self.now_ns / 1000
    }
}

/// `TCP_INFINITE_SSTHRESH`.
pub const TCP_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

/// `bictcp_init` / `tcp_init_congestion_control` when the socket is created. BBR's `init`
/// needs the handshake's RTT and runs when the connection is established
/// ([`tcp_init_congestion_control`]).
pub fn init(tp: &mut TcpSock) {
    tp.ca = CongState::default();
    tp.snd_ssthresh = TCP_INFINITE_SSTHRESH;
    if tp.cc == CongestionControl::Cubic {
        tcp_cubic::bictcp_hystart_reset(tp, 0);
    }
}

/// `tcp_init_congestion_control` from `tcp_init_transfer` (the connection is established):
/// `bbr_init`. CUBIC and Reno were set up at socket creation ([`init`]).
pub fn tcp_init_congestion_control(tp: &mut TcpSock, clock: &CaClock) {
    if tp.cc == CongestionControl::Bbr {
        tcp_bbr::bbr_init(tp, clock);
    }
}

/// `icsk_ca_ops->cong_control` is set: the algorithm (BBR) sets cwnd and `sk_pacing_rate`
/// itself on every ACK; TCP calls neither `cong_avoid` nor `tcp_update_pacing_rate`, and
/// does not restart cwnd after idle (`tcp_slow_start_after_idle_check`).
pub fn has_cong_control(tp: &TcpSock) -> bool {
    tp.cc == CongestionControl::Bbr
}

/// `tcp_cong_control` with a `cong_control` hook: `bbr_main`.
pub fn cong_control(tp: &mut TcpSock, rs: &RateSample, clock: &CaClock, rand: &mut Prandom) {
    if tp.cc == CongestionControl::Bbr {
        tcp_bbr::bbr_main(tp, rs, clock, rand);
    }
}

/// `ca_ops->min_tso_segs`, else the sysctl `tcp_min_tso_segs` (`tcp_tso_segs`).
pub fn min_tso_segs(tp: &TcpSock) -> u32 {
    match tp.cc {
        CongestionControl::Bbr => tcp_bbr::bbr_min_tso_segs(tp),
        _ => tp.net.sysctl.tcp_min_tso_segs,
    }
}

/// `ca_ops->sndbuf_expand`, else 2 (`tcp_sndbuf_expand`: "Cubic needs 1.7 factor, rounded to
/// 2 to include extra cushion").
pub fn sndbuf_expand(tp: &TcpSock) -> u64 {
    match tp.cc {
        CongestionControl::Bbr => tcp_bbr::bbr_sndbuf_expand(),
        _ => 2,
    }
}

/// `tcp_ca_event(sk, CA_EVENT_TX_START)` (`tcp_event_data_sent` with nothing in flight):
/// `bbr_cwnd_event`. CUBIC's epoch shift after idle is not modelled.
pub fn cwnd_event_tx_start(tp: &mut TcpSock, clock: &CaClock, rand: &mut Prandom) {
    if tp.cc == CongestionControl::Bbr {
        tcp_bbr::bbr_cwnd_event_tx_start(tp, clock, rand);
    }
}

/// `tcp_set_ca_state(sk, TCP_CA_Loss)` (an RTO): `ca_ops->set_state`, `bbr_set_state`.
pub fn set_state_loss(tp: &mut TcpSock, rand: &mut Prandom) {
    if tp.cc == CongestionControl::Bbr {
        tcp_bbr::bbr_set_state_loss(tp, rand);
    }
}

/// `tcp_is_cwnd_limited`: may cwnd grow on this ACK? In slow start, while cwnd is below twice
/// what was in flight; otherwise only if the last transmissions were cwnd-limited. 6.0+
/// (f4ce91ce12a7) asks first whether the window was cwnd-limited at all.
pub fn tcp_is_cwnd_limited(tp: &TcpSock, _prior_in_flight: u32) -> bool {
    if tp.is_cwnd_limited && tp.profile.kernel.at_least(6, 0) {
        return true;
    }
    if tp.in_slow_start() {
        return tp.snd_cwnd < 2 * tp.max_packets_out.max(1);
    }
    tp.is_cwnd_limited
}

/// `tcp_slow_start`: cwnd grows by the segments acked, up to ssthresh; returns the acked
/// segments left over.
pub(crate) fn tcp_slow_start(tp: &mut TcpSock, acked: u32) -> u32 {
    let cwnd = (tp.snd_cwnd + acked).min(tp.snd_ssthresh);
    let left = acked - (cwnd - tp.snd_cwnd);
    tp.snd_cwnd = cwnd.min(tp.snd_cwnd_clamp);
    left
}

/// `tcp_cong_avoid_ai`: one segment per `w` acked.
pub(crate) fn tcp_cong_avoid_ai(tp: &mut TcpSock, w: u32, acked: u32) {
    if tp.snd_cwnd_cnt >= w {
        tp.snd_cwnd_cnt = 0;
        tp.snd_cwnd += 1;
    }
    tp.snd_cwnd_cnt += acked;
    if tp.snd_cwnd_cnt >= w {
        let delta = tp.snd_cwnd_cnt / w;
        tp.snd_cwnd_cnt -= delta * w;
        tp.snd_cwnd += delta;
    }
    tp.snd_cwnd = tp.snd_cwnd.min(tp.snd_cwnd_clamp);
}

/// `cong_avoid`: `bictcp_cong_avoid` or `tcp_reno_cong_avoid`.
pub fn cong_avoid(tp: &mut TcpSock, ack: u64, mut acked: u32, now_ns: u64) {
    match tp.cc {
        CongestionControl::Reno => {
            if tp.in_slow_start() {
                acked = tcp_slow_start(tp, acked);
                if acked == 0 {
                    return;
                }
            }
            let w = tp.snd_cwnd;
            tcp_cong_avoid_ai(tp, w, acked);
        }
        CongestionControl::Cubic => tcp_cubic::bictcp_cong_avoid(tp, ack, acked, now_ns),
        // BBR has no cong_avoid: tcp_cong_control calls bbr_main instead.
        CongestionControl::Bbr => {}
    }
}

/// `ssthresh` on loss: CUBIC's multiplicative decrease with fast convergence
/// (`bictcp_recalc_ssthresh`), Reno's half (`tcp_reno_ssthresh`), or BBR's unchanged
/// ssthresh with the cwnd saved for later (`bbr_ssthresh`).
pub fn ssthresh(tp: &mut TcpSock) -> u32 {
    match tp.cc {
        CongestionControl::Reno => (tp.snd_cwnd >> 1).max(2),
        CongestionControl::Cubic => tcp_cubic::bictcp_recalc_ssthresh(tp),
        CongestionControl::Bbr => tcp_bbr::bbr_ssthresh(tp),
    }
}

/// `pkts_acked`: the congestion control's RTT sample (`bictcp_acked` for CUBIC; Reno has
/// none).
pub fn pkts_acked(tp: &mut TcpSock, now_ns: u64, rtt_us: u64, acked: u32, mib: &mut Mibs) {
    if tp.cc == CongestionControl::Cubic {
        tcp_cubic::bictcp_acked(tp, now_ns, rtt_us, acked, mib);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::include::uapi::linux::snmp::Mib;
    use crate::net::ipv4::tcp_cubic::cubic_root;
    use crate::sim::testkit::established;

    #[test]
    fn slow_start_adds_one_segment_per_segment_acked_up_to_ssthresh() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.snd_cwnd = 10;
        tp.snd_ssthresh = 14;
        assert_eq!(tcp_slow_start(tp, 3), 0);
        assert_eq!(tp.snd_cwnd, 13);
        assert_eq!(tcp_slow_start(tp, 3), 2);
        assert_eq!(tp.snd_cwnd, 14);
    }

    #[test]
    fn reno_adds_one_segment_per_window_in_congestion_avoidance() {
        let mut w = established("6.18", "[socket]\nTCP_CONGESTION = \"reno\"\n");
        let tp = &mut w.socks[0];
        assert_eq!(tp.cc, CongestionControl::Reno);
        tp.snd_cwnd = 10;
        tp.snd_ssthresh = 10;
        for _ in 0..10 {
            cong_avoid(tp, 0, 1, 0);
        }
        assert_eq!(tp.snd_cwnd, 11);
        assert_eq!(ssthresh(tp), 5);
    }

    #[test]
    fn hystart_delay_uses_the_least_rtt_of_the_whole_round_from_5_8() {
        // A round whose first 8 samples see a queue (50 ms over a 40 ms minimum) and whose
        // 9th sees none: since 5.8 that sample lowers curr_rtt and the next high one does not
        // end slow start; 4.4 kept the first 8 samples' minimum and exits (HYSTART_DELAY).
        for (kernel, exits) in [("6.18", false), ("4.4", true)] {
            let mut w = established(kernel, "[socket]\nTCP_CONGESTION = \"cubic\"\n");
            let tp = &mut w.socks[0];
            tp.snd_cwnd = 100;
            tp.snd_ssthresh = TCP_INFINITE_SSTHRESH;
            tp.ca.delay_min_us = 40_000;
            tcp_cubic::bictcp_hystart_reset(tp, 0);
            tp.ca.end_seq = u64::MAX; // one round throughout
            let mut mib = Mibs::default();
            // 3 ms apart: no ACK train.
            let mut t = 0u64;
            for d in [50_000u64; 8].into_iter().chain([40_000, 50_000]) {
                t += 3_000_000;
                pkts_acked(tp, t, d, 1, &mut mib);
            }
            assert_eq!(tp.ca.found, exits, "{kernel}");
            assert_eq!(
                mib.get(Mib::TcpExtTCPHystartDelayDetect) > 0,
                exits,
                "{kernel}"
            );
        }
    }

    #[test]
    fn cubic_backs_off_to_0_7_of_cwnd_and_remembers_w_max() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.snd_cwnd = 100;
        assert_eq!(ssthresh(tp), 70);
        assert_eq!(tp.ca.last_max_cwnd, 100);
    }

    #[test]
    fn cubic_root_is_the_integer_cube_root() {
        for a in [0u64, 1, 7, 8, 26, 27, 1_000_000, 123_456_789] {
            let r = cubic_root(a) as u64;
            assert!(r.pow(3) <= a && (r + 1).pow(3) > a, "{a}");
        }
    }
}
