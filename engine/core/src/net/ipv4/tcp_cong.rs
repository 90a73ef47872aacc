//! Congestion control: CUBIC as Linux runs it (`net/ipv4/tcp_cubic.c`: slow start with
//! HyStart, the cubic window function, TCP-friendliness) and Reno (`net/ipv4/tcp_cong.c`).
//!
//! Follows Linux 6.18 (HyStart in µs, the ack-train threshold bounded by pacing); the 3.x/4.4
//! code differs in units (jiffies/ms) and thresholds, not in what a learner sees.
//!
//! Simplified:
//! - no loss recovery states (`ca_state` stays Open; an RTO uses `ssthresh` and resets cwnd),
//!   because links are lossless; visible effect: none without drops.

use crate::net::core::sock::TcpSock;
use crate::net::ipv4::proc::{Mib, Mibs};
use crate::scenario::CongestionControl;

/// `TCP_INFINITE_SSTHRESH`.
pub const TCP_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

const BICTCP_BETA_SCALE: u32 = 1024;
const BICTCP_HZ: u32 = 10;
/// `beta` = 717/1024 ≈ 0.7; `bic_scale` = 41; fast convergence and TCP friendliness on.
const BETA: u32 = 717;
const BIC_SCALE: u64 = 41;
const HYSTART_LOW_WINDOW: u32 = 16;
const HYSTART_ACK_DELTA_US: u64 = 2000;
const HYSTART_MIN_SAMPLES: u32 = 8;
const HYSTART_DELAY_MIN_US: u64 = 4000;
const HYSTART_DELAY_MAX_US: u64 = 16000;

/// `struct bictcp` (CUBIC's per-socket state), or nothing for Reno.
#[derive(Clone, Debug, Default)]
pub struct CongState {
    pub cnt: u32,
    pub last_max_cwnd: u32,
    pub last_cwnd: u32,
    pub last_time_ns: u64,
    pub bic_origin_point: u32,
    pub bic_k: u32,
    pub delay_min_us: u64,
    pub epoch_start_ns: u64,
    pub ack_cnt: u32,
    pub tcp_cwnd: u32,
    pub found: bool,
    pub round_start_ns: u64,
    pub end_seq: u64,
    pub last_ack_ns: u64,
    pub curr_rtt_us: u64,
    pub sample_cnt: u32,
}

/// `bictcp_init` / `tcp_init_congestion_control`.
pub fn init(tp: &mut TcpSock) {
    tp.ca = CongState::default();
    tp.snd_ssthresh = TCP_INFINITE_SSTHRESH;
    if tp.cc == CongestionControl::Cubic {
        bictcp_hystart_reset(tp, 0);
    }
}

fn bictcp_hystart_reset(tp: &mut TcpSock, now_ns: u64) {
    let ca = &mut tp.ca;
    ca.round_start_ns = now_ns;
    ca.last_ack_ns = now_ns;
    ca.end_seq = tp.snd_nxt;
    ca.curr_rtt_us = u64::MAX;
    ca.sample_cnt = 0;
}

/// `tcp_is_cwnd_limited`: may cwnd grow on this ACK? In slow start, while cwnd is below twice
/// what was in flight; otherwise only if the last transmissions were cwnd-limited.
pub fn tcp_is_cwnd_limited(tp: &TcpSock, _prior_in_flight: u32) -> bool {
    if tp.in_slow_start() {
        return tp.snd_cwnd < 2 * tp.max_packets_out.max(1);
    }
    tp.is_cwnd_limited
}

/// `tcp_slow_start`: cwnd grows by the segments acked, up to ssthresh; returns the acked
/// segments left over.
fn tcp_slow_start(tp: &mut TcpSock, acked: u32) -> u32 {
    let cwnd = (tp.snd_cwnd + acked).min(tp.snd_ssthresh);
    let left = acked - (cwnd - tp.snd_cwnd);
    tp.snd_cwnd = cwnd.min(tp.snd_cwnd_clamp);
    left
}

/// `tcp_cong_avoid_ai`: one segment per `w` acked.
fn tcp_cong_avoid_ai(tp: &mut TcpSock, w: u32, acked: u32) {
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
        CongestionControl::Cubic => {
            if tp.in_slow_start() {
                if ack > tp.ca.end_seq {
                    bictcp_hystart_reset(tp, now_ns);
                }
                acked = tcp_slow_start(tp, acked);
                if acked == 0 {
                    return;
                }
            }
            bictcp_update(tp, now_ns, acked);
            let cnt = tp.ca.cnt;
            tcp_cong_avoid_ai(tp, cnt, acked);
        }
    }
}

/// `cubic_root`: integer cube root (the kernel uses a table and one Newton step; an exact
/// integer root differs from it by at most one unit).
fn cubic_root(a: u64) -> u32 {
    if a == 0 {
        return 0;
    }
    let mut x = (a as f64).cbrt() as u64;
    while (x + 1).pow(3) <= a {
        x += 1;
    }
    while x.pow(3) > a {
        x -= 1;
    }
    x as u32
}

/// `bictcp_update`: the CUBIC window `W(t) = C (t - K)^3 + W_max` and the TCP-friendly
/// floor; sets `ca.cnt`, the number of ACKed segments per cwnd increment.
fn bictcp_update(tp: &mut TcpSock, now_ns: u64, acked: u32) {
    let cwnd = tp.snd_cwnd;
    let ca = &mut tp.ca;
    ca.ack_cnt += acked;
    if ca.last_cwnd == cwnd && now_ns.saturating_sub(ca.last_time_ns) <= 1_000_000_000 / 32 {
        return;
    }
    // "The CUBIC function can update ca->cnt at most once per jiffy."
    if ca.epoch_start_ns != 0 && now_ns == ca.last_time_ns {
        finish_update(tp, cwnd);
        return;
    }
    ca.last_cwnd = cwnd;
    ca.last_time_ns = now_ns;
    if ca.epoch_start_ns == 0 {
        ca.epoch_start_ns = now_ns.max(1);
        ca.ack_cnt = acked;
        ca.tcp_cwnd = cwnd;
        if ca.last_max_cwnd <= cwnd {
            ca.bic_k = 0;
            ca.bic_origin_point = cwnd;
        } else {
            // K = cubic_root((W_max - cwnd) / C) in units of 1/1024 s (BICTCP_HZ).
            let cube_factor: u64 = (1u64 << (10 + 3 * BICTCP_HZ)) / (BIC_SCALE * 10);
            ca.bic_k = cubic_root(cube_factor * (ca.last_max_cwnd - cwnd) as u64);
            ca.bic_origin_point = ca.last_max_cwnd;
        }
    }
    // t = elapsed since epoch start plus the minimum delay, in 1/1024 s.
    let t_us = (now_ns - ca.epoch_start_ns) / 1000 + ca.delay_min_us;
    let t = (t_us << BICTCP_HZ) / 1_000_000;
    let offs = t.abs_diff(ca.bic_k as u64);
    let cube_rtt_scale = BIC_SCALE * 10;
    let delta = ((cube_rtt_scale * offs * offs * offs) >> (10 + 3 * BICTCP_HZ)) as u32;
    let bic_target = if t < ca.bic_k as u64 {
        ca.bic_origin_point.saturating_sub(delta)
    } else {
        ca.bic_origin_point + delta
    };
    ca.cnt = if bic_target > cwnd {
        cwnd / (bic_target - cwnd)
    } else {
        100 * cwnd
    };
    // "The initial growth of cubic function may be too conservative when the available
    // bandwidth is still unknown."
    if ca.last_max_cwnd == 0 && ca.cnt > 20 {
        ca.cnt = 20;
    }
    finish_update(tp, cwnd);
}

/// The TCP-friendly region of `bictcp_update` and the `cnt` floor.
fn finish_update(tp: &mut TcpSock, cwnd: u32) {
    let ca = &mut tp.ca;
    let beta_scale = 8 * (BICTCP_BETA_SCALE + BETA) / 3 / (BICTCP_BETA_SCALE - BETA);
    let delta = (cwnd * beta_scale) >> 3;
    while delta > 0 && ca.ack_cnt > delta {
        ca.ack_cnt -= delta;
        ca.tcp_cwnd += 1;
    }
    if ca.tcp_cwnd > cwnd {
        let d = ca.tcp_cwnd - cwnd;
        let max_cnt = cwnd / d;
        if ca.cnt > max_cnt {
            ca.cnt = max_cnt;
        }
    }
    ca.cnt = ca.cnt.max(2);
}

/// `bictcp_acked` → `hystart_update`: RTT samples for HyStart's exit from slow start, by
/// ACK train length or by delay increase. Increments the `TcpExtTCPHystart*` counters.
pub fn pkts_acked(tp: &mut TcpSock, now_ns: u64, rtt_us: u64, _acked: u32, mib: &mut Mibs) {
    if tp.cc != CongestionControl::Cubic {
        return;
    }
    let delay = rtt_us.max(1);
    if tp.ca.delay_min_us == 0 || tp.ca.delay_min_us > delay {
        tp.ca.delay_min_us = delay;
    }
    if !tp.ca.found && tp.in_slow_start() && tp.snd_cwnd >= HYSTART_LOW_WINDOW {
        hystart_update(tp, now_ns, delay, mib);
    }
}

fn hystart_update(tp: &mut TcpSock, now_ns: u64, delay_us: u64, mib: &mut Mibs) {
    let cwnd = tp.snd_cwnd;
    let ca = &mut tp.ca;
    // Ack train: ACKs closely spaced for more than half the minimum RTT.
    if now_ns - ca.last_ack_ns <= HYSTART_ACK_DELTA_US * 1000 {
        ca.last_ack_ns = now_ns;
        let threshold_us = ca.delay_min_us / 2;
        if (now_ns - ca.round_start_ns) / 1000 > threshold_us {
            ca.found = true;
            mib.inc(Mib::TcpExtTCPHystartTrainDetect);
            mib.add(Mib::TcpExtTCPHystartTrainCwnd, cwnd as u64);
            tp.snd_ssthresh = cwnd;
            return;
        }
    }
    // Delay increase: the minimum of 8 samples exceeds delay_min + clamp(delay_min/8).
    if ca.sample_cnt < HYSTART_MIN_SAMPLES {
        ca.curr_rtt_us = ca.curr_rtt_us.min(delay_us);
        ca.sample_cnt += 1;
    } else {
        let thresh = (ca.delay_min_us >> 3).clamp(HYSTART_DELAY_MIN_US, HYSTART_DELAY_MAX_US);
        if ca.curr_rtt_us > ca.delay_min_us + thresh {
            ca.found = true;
            mib.inc(Mib::TcpExtTCPHystartDelayDetect);
            mib.add(Mib::TcpExtTCPHystartDelayCwnd, cwnd as u64);
            tp.snd_ssthresh = cwnd;
        }
    }
}

/// `ssthresh` on loss: CUBIC's multiplicative decrease with fast convergence, or Reno's half.
pub fn ssthresh(tp: &mut TcpSock) -> u32 {
    match tp.cc {
        CongestionControl::Reno => (tp.snd_cwnd >> 1).max(2),
        CongestionControl::Cubic => {
            let cwnd = tp.snd_cwnd;
            let ca = &mut tp.ca;
            ca.epoch_start_ns = 0;
            ca.last_max_cwnd = if cwnd < ca.last_max_cwnd {
                (cwnd * (BICTCP_BETA_SCALE + BETA)) / (2 * BICTCP_BETA_SCALE)
            } else {
                cwnd
            };
            ((cwnd * BETA) / BICTCP_BETA_SCALE).max(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
