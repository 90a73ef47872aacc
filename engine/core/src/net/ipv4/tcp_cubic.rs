//! CUBIC as Linux runs it (`net/ipv4/tcp_cubic.c`): slow start with HyStart, the cubic window
//! function, TCP-friendliness, and the multiplicative decrease with fast convergence. Its
//! per-socket state, `struct bictcp`, is `CongState` in the socket (`net/core/sock.rs`) (`icsk_ca_priv`).
//!
//! Follows Linux 6.18 (HyStart in µs, the ack-train threshold bounded by pacing); the 3.x/4.4
//! code differs in units (jiffies/ms) and thresholds, not in what a learner sees.

use crate::include::uapi::linux::snmp::{Mib, Mibs};
use crate::net::core::sock::TcpSock;
use crate::net::ipv4::tcp_cong::{tcp_cong_avoid_ai, tcp_slow_start};

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

pub(crate) fn bictcp_hystart_reset(tp: &mut TcpSock, now_ns: u64) {
    let ca = &mut tp.ca;
    ca.round_start_ns = now_ns;
    ca.last_ack_ns = now_ns;
    ca.end_seq = tp.snd_nxt;
    ca.curr_rtt_us = u64::MAX;
    ca.sample_cnt = 0;
}

/// `bictcp_cong_avoid`: slow start (with HyStart's round reset), then the cubic increase.
pub fn bictcp_cong_avoid(tp: &mut TcpSock, ack: u64, mut acked: u32, now_ns: u64) {
    if tp.in_slow_start() {
        // Before 5.15 the round restarts here; since, in hystart_update (see there).
        if !tp.profile.kernel.at_least(5, 15) && ack > tp.ca.end_seq {
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

/// `cubic_root`: integer cube root (the kernel uses a table and one Newton step; an exact
/// integer root differs from it by at most one unit).
pub(crate) fn cubic_root(a: u64) -> u32 {
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
///
/// "Discard delay samples right after fast recovery": none in the first second of a
/// congestion-avoidance epoch (`epoch_start`, in jiffies in Linux).
pub fn bictcp_acked(tp: &mut TcpSock, now_ns: u64, rtt_us: u64, _acked: u32, mib: &mut Mibs) {
    if tp.ca.epoch_start_ns != 0 && now_ns.saturating_sub(tp.ca.epoch_start_ns) < 1_000_000_000 {
        return;
    }
    let delay = rtt_us.max(1);
    if tp.ca.delay_min_us == 0 || tp.ca.delay_min_us > delay {
        tp.ca.delay_min_us = delay;
    }
    if tp.profile.kernel.at_least(6, 13) {
        // 6.13 ("tcp_cubic: fix incorrect HyStart round start detection"): the low-window
        // test moved into hystart_update, after the round reset.
        if !tp.ca.found && tp.in_slow_start() {
            hystart_update(tp, now_ns, delay, mib);
        }
    } else if !tp.ca.found && tp.in_slow_start() && tp.snd_cwnd >= HYSTART_LOW_WINDOW {
        hystart_update(tp, now_ns, delay, mib);
    }
}

/// `hystart_ack_delay` (5.7+): "Given a rate and a cushion of 4 TSO packets ... We cap the
/// cushion to 1ms": the time 4 full GSO packets take at the pacing rate, at most 1 ms.
fn hystart_ack_delay(tp: &TcpSock) -> u64 {
    if tp.sk_pacing_rate == 0 {
        return 0;
    }
    (tp.sk_gso_max_size as u64 * 4 * 1_000_000 / tp.sk_pacing_rate).min(1000)
}

fn hystart_update(tp: &mut TcpSock, now_ns: u64, delay_us: u64, mib: &mut Mibs) {
    let modern = tp.profile.kernel.at_least(5, 15);
    if modern && tp.snd_una > tp.ca.end_seq {
        // "if (after(tp->snd_una, ca->end_seq)) bictcp_hystart_reset(sk);"
        bictcp_hystart_reset(tp, now_ns);
    }
    if tp.snd_cwnd < HYSTART_LOW_WINDOW {
        return;
    }
    let cwnd = tp.snd_cwnd;
    let threshold_us = if modern {
        // "threshold = ca->delay_min + hystart_ack_delay(sk); ... if (sk->sk_pacing_status
        // == SK_PACING_NONE) threshold >>= 1;" (pacing may have delayed packets up to RTT/2)
        let t = tp.ca.delay_min_us + hystart_ack_delay(tp);
        if tp.sk_pacing_status == crate::net::core::sock::PacingStatus::None {
            t >> 1
        } else {
            t
        }
    } else {
        tp.ca.delay_min_us / 2
    };
    let ca = &mut tp.ca;
    // Ack train: ACKs closely spaced for more than half the minimum RTT.
    if now_ns - ca.last_ack_ns <= HYSTART_ACK_DELTA_US * 1000 {
        ca.last_ack_ns = now_ns;
        if (now_ns - ca.round_start_ns) / 1000 > threshold_us {
            ca.found = true;
            mib.inc(Mib::TcpExtTCPHystartTrainDetect);
            mib.add(Mib::TcpExtTCPHystartTrainCwnd, cwnd as u64);
            tp.snd_ssthresh = cwnd;
            return;
        }
    }
    // Delay increase: the minimum of the round's samples (5.8+: every sample lowers it, not
    // only the first 8) exceeds delay_min + clamp(delay_min/8).
    if modern || ca.sample_cnt < HYSTART_MIN_SAMPLES {
        ca.curr_rtt_us = ca.curr_rtt_us.min(delay_us);
    }
    if ca.sample_cnt < HYSTART_MIN_SAMPLES {
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

/// `bictcp_recalc_ssthresh`: W_max for the next epoch (fast convergence: lower it when the
/// window did not reach the last one) and cwnd × β.
pub fn bictcp_recalc_ssthresh(tp: &mut TcpSock) -> u32 {
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
