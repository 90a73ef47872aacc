//! BBR ("Bottleneck Bandwidth and RTT", version 1) as Linux runs it (`net/ipv4/tcp_bbr.c`).
//! On each ACK it updates a model of the path from the delivery-rate sample
//! (`net/ipv4/tcp_rate.rs`):
//!
//! ```text
//!    bottleneck_bandwidth = windowed_max(delivered / elapsed, 10 round trips)
//!    min_rtt = windowed_min(rtt, 10 seconds)
//!    pacing_rate = pacing_gain * bottleneck_bandwidth
//!    cwnd = max(cwnd_gain * bottleneck_bandwidth * min_rtt, 4)
//! ```
//!
//! and moves between four modes: STARTUP (pacing gain 2/ln 2, the rate doubles each round)
//! until the bandwidth stops growing by 25 % for three rounds, DRAIN (the inverse gain) until
//! the queue it built is gone, PROBE_BW (gains 5/4, 3/4, then six rounds at 1), and PROBE_RTT
//! (cwnd 4 for 200 ms and a round) when min_rtt has not been refreshed for 10 s. It does not
//! use `cong_avoid`: `bbr_main` is the `cong_control` hook, which sets cwnd and
//! `sk_pacing_rate` itself; `bbr_min_tso_segs` replaces `tcp_min_tso_segs`. Its per-socket
//! state, `struct bbr`, is `CongState::bbr` (`net/core/sock.rs`).
//!
//! Follows Linux 6.18 (`tcp_bbr.c` as of 6.10+: `bbr_main(sk, ack, flag, rs)`, the pacing
//! margin of 1 %, `bbr_packets_in_net_at_edt`, `GSO_LEGACY_MAX_SIZE` in `bbr_tso_segs_goal`).
//!
//! Simplified:
//! - `tp->lost` is 0 and `icsk_ca_state` is Open or Loss (after an RTO), because the engine
//!   marks no packet lost and has no SACK recovery; visible effect: the long-term ("policer")
//!   sampler never starts (it waits for a loss), and packet conservation in recovery never
//!   runs.
//! - `rs->rtt_us` and `tcp_min_rtt` come from the engine's RTT samples (no timestamps option
//!   echo): the RTT of the most recently sent skb an ACK covers, and the smallest RTT of the
//!   connection rather than a 5-minute window; visible effect: none in runs shorter than
//!   5 minutes.
//! - BBR is the 6.18 code for every profile; Linux has it from 4.9, with internal pacing only
//!   from 4.13 (earlier BBR needed fq). On a pre-4.13 profile the socket is paced only by fq.

use crate::lib::win_minmax::{minmax_get, minmax_reset, minmax_running_max};
use crate::net::core::sock::{BbrMode, TcpSock, TCP_INIT_CWND};
use crate::net::host::Prandom;
use crate::net::ipv4::tcp_cong::{CaClock, TCP_INFINITE_SSTHRESH};
use crate::net::ipv4::tcp_rate::{tcp_stamp_us_delta, RateSample};

/// "Scale factor for rate in pkt/uSec unit to avoid truncation in bandwidth estimation."
const BW_SCALE: u32 = 24;
const BW_UNIT: u64 = 1 << BW_SCALE;
/// Scaling factor for fractions in BBR (gains).
const BBR_SCALE: u32 = 8;
pub const BBR_UNIT: u32 = 1 << BBR_SCALE;

/// `icsk_ca_state` values (enum tcp_ca_state).
pub const TCP_CA_OPEN: u8 = 0;
pub const TCP_CA_RECOVERY: u8 = 3;
pub const TCP_CA_LOSS: u8 = 4;

/// Number of phases in a pacing gain cycle.
const CYCLE_LEN: u32 = 8;
/// Window length of the bandwidth filter, in rounds.
const BBR_BW_RTTS: u32 = CYCLE_LEN + 2;
/// Window length of the min_rtt filter, in seconds.
pub const BBR_MIN_RTT_WIN_SEC: u64 = 10;
/// Minimum time spent at `bbr_cwnd_min_target` in PROBE_RTT, ms.
pub const BBR_PROBE_RTT_MODE_MS: u64 = 200;
/// Skip TSO below this bandwidth, bits per second.
const BBR_MIN_TSO_RATE: u64 = 1_200_000;
/// "Pace at ~1% below estimated bw, on average, to reduce queue at bottleneck."
const BBR_PACING_MARGIN_PERCENT: u64 = 1;
/// 2/ln(2): "the smallest pacing gain that will allow a smoothly increasing pacing rate that
/// will double each RTT".
pub const BBR_HIGH_GAIN: u32 = BBR_UNIT * 2885 / 1000 + 1;
/// 1/high_gain: "calculated to typically drain the queue created in BBR_STARTUP in a single
/// round".
pub const BBR_DRAIN_GAIN: u32 = BBR_UNIT * 1000 / 2885;
/// "The gain for deriving steady-state cwnd tolerates delayed/stretched ACKs."
pub const BBR_CWND_GAIN: u32 = BBR_UNIT * 2;
/// The PROBE_BW gain cycle: probe for more bandwidth, drain the queue, cruise.
pub const BBR_PACING_GAIN: [u32; CYCLE_LEN as usize] = [
    BBR_UNIT * 5 / 4,
    BBR_UNIT * 3 / 4,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
];
/// Randomize the starting gain cycling phase over this many phases.
const BBR_CYCLE_RAND: u32 = 7;
/// "Try to keep at least this many packets in flight, if things go smoothly."
pub const BBR_CWND_MIN_TARGET: u32 = 4;
/// "If bw has increased significantly (1.25x), there may be more bw available."
pub const BBR_FULL_BW_THRESH: u32 = BBR_UNIT * 5 / 4;
/// "But after 3 rounds w/o significant bw growth, estimate pipe is full."
pub const BBR_FULL_BW_CNT: u32 = 3;
/// Long-term sampling: minimum rounds per interval, the loss ratio (of `BBR_UNIT`) that makes
/// an interval lossy, the bandwidth ratio and difference (bytes/s) that make two intervals
/// consistent, and how many rounds to use `lt_bw` once policing is suspected.
const BBR_LT_INTVL_MIN_RTTS: u32 = 4;
const BBR_LT_LOSS_THRESH: u32 = 50;
const BBR_LT_BW_RATIO: u32 = BBR_UNIT / 8;
const BBR_LT_BW_DIFF: u64 = 4000 / 8;
const BBR_LT_BW_MAX_RTTS: u32 = 48;
/// Gain for adding `extra_acked` to the target cwnd; the window of the `extra_acked` filter in
/// rounds; the `ack_epoch_acked` reset threshold; the cap on the aggregation allowance, µs.
const BBR_EXTRA_ACKED_GAIN: u32 = BBR_UNIT;
const BBR_EXTRA_ACKED_WIN_RTTS: u32 = 5;
const BBR_ACK_EPOCH_ACKED_RESET_THRESH: u32 = 1 << 20;
const BBR_EXTRA_ACKED_MAX_US: u64 = 100 * 1000;
/// `GSO_LEGACY_MAX_SIZE`.
const GSO_LEGACY_MAX_SIZE: u64 = 65_536;
const USEC_PER_SEC: u64 = 1_000_000;

/// `before(seq1, seq2)` on 32-bit counters.
fn before(seq1: u32, seq2: u32) -> bool {
    (seq1.wrapping_sub(seq2) as i32) < 0
}

/// `after(seq1, seq2)`.
fn after(seq1: u32, seq2: u32) -> bool {
    before(seq2, seq1)
}

/// `icsk_ca_state`.
fn ca_state(tp: &TcpSock) -> u8 {
    tp.icsk_ca_state
}

/// `bbr_full_bw_reached`: do we estimate that STARTUP filled the pipe?
fn bbr_full_bw_reached(tp: &TcpSock) -> bool {
    tp.ca.bbr.full_bw_reached
}

/// `bbr_max_bw`: the windowed max recent bandwidth sample, packets/µs << `BW_SCALE`.
pub fn bbr_max_bw(tp: &TcpSock) -> u32 {
    minmax_get(&tp.ca.bbr.bw)
}

/// `bbr_bw`: the estimated bandwidth of the path, packets/µs << `BW_SCALE`.
pub fn bbr_bw(tp: &TcpSock) -> u32 {
    let bbr = &tp.ca.bbr;
    if bbr.lt_use_bw {
        bbr.lt_bw
    } else {
        bbr_max_bw(tp)
    }
}

/// `bbr_extra_acked`: the max extra acked in the past 5 to 10 rounds.
fn bbr_extra_acked(tp: &TcpSock) -> u32 {
    let e = tp.ca.bbr.extra_acked;
    e[0].max(e[1]) as u32
}

/// `bbr_rate_bytes_per_sec`: a rate in packets/µs << `BW_SCALE` times `gain`, in bytes per
/// second, 1 % below (`bbr_pacing_margin_percent`). The kernel's order of operations, which
/// keeps u64 from overflowing up to 2.9 Tbit/s.
fn bbr_rate_bytes_per_sec(tp: &TcpSock, rate: u64, gain: u32) -> u64 {
    let mss = tp.mss_cache as u64;
    let mut rate = rate.wrapping_mul(mss);
    rate = rate.wrapping_mul(gain as u64);
    rate >>= BBR_SCALE;
    rate = rate.wrapping_mul(USEC_PER_SEC / 100 * (100 - BBR_PACING_MARGIN_PERCENT));
    rate >> BW_SCALE
}

/// `bbr_bw_to_pacing_rate`: a bandwidth and gain as a pacing rate, capped by
/// `SO_MAX_PACING_RATE`.
fn bbr_bw_to_pacing_rate(tp: &TcpSock, bw: u32, gain: u32) -> u64 {
    bbr_rate_bytes_per_sec(tp, bw as u64, gain).min(tp.sk_max_pacing_rate)
}

/// `bbr_init_pacing_rate_from_rtt`: high_gain × init cwnd / RTT (1 ms before any sample).
fn bbr_init_pacing_rate_from_rtt(tp: &mut TcpSock) {
    let rtt_us = if tp.srtt_us != 0 {
        tp.ca.bbr.has_seen_rtt = true;
        (tp.srtt_us >> 3).max(1)
    } else {
        1000 // "use nominal default RTT"
    };
    let bw = tp.snd_cwnd as u64 * BW_UNIT / rtt_us;
    tp.sk_pacing_rate = bbr_bw_to_pacing_rate(tp, bw as u32, BBR_HIGH_GAIN);
}

/// `bbr_set_pacing_rate`: pace at `bw` × `gain`. Before the pipe is full the rate only grows.
fn bbr_set_pacing_rate(tp: &mut TcpSock, bw: u32, gain: u32) {
    let rate = bbr_bw_to_pacing_rate(tp, bw, gain);
    if !tp.ca.bbr.has_seen_rtt && tp.srtt_us != 0 {
        bbr_init_pacing_rate_from_rtt(tp);
    }
    if bbr_full_bw_reached(tp) || rate > tp.sk_pacing_rate {
        tp.sk_pacing_rate = rate;
    }
}

/// `bbr_min_tso_segs` (`ca_ops->min_tso_segs`, overrides `tcp_min_tso_segs`): one segment
/// per TSO packet below 1.2 Mbit/s, else two.
pub fn bbr_min_tso_segs(tp: &TcpSock) -> u32 {
    if tp.sk_pacing_rate < (BBR_MIN_TSO_RATE >> 3) {
        1
    } else {
        2
    }
}

/// `bbr_tso_segs_goal`: "Sort of tcp_tso_autosize() but ignoring driver provided
/// sk_gso_max_size": about 1 ms of data at the pacing rate, at most 127 segments.
pub fn bbr_tso_segs_goal(tp: &TcpSock) -> u32 {
    let bytes = (tp.sk_pacing_rate >> tp.sk_pacing_shift)
        .min(GSO_LEGACY_MAX_SIZE - 1 - tp.profile.max_tcp_header as u64);
    let segs = ((bytes / tp.mss_cache as u64) as u32).max(bbr_min_tso_segs(tp));
    segs.min(0x7F)
}

/// `bbr_save_cwnd`: remember the last good cwnd, to restore after loss recovery or PROBE_RTT.
fn bbr_save_cwnd(tp: &mut TcpSock) {
    let cwnd = tp.snd_cwnd;
    let bbr = &mut tp.ca.bbr;
    if bbr.prev_ca_state < TCP_CA_RECOVERY && bbr.mode != BbrMode::ProbeRtt {
        bbr.prior_cwnd = cwnd; // "this cwnd is good enough"
    } else {
        // "loss recovery or BBR_PROBE_RTT have temporarily cut cwnd"
        bbr.prior_cwnd = bbr.prior_cwnd.max(cwnd);
    }
}

/// `bbr_cwnd_event(sk, CA_EVENT_TX_START)`: the first transmission with nothing in flight.
/// Restarting from idle while application-limited: pace at the estimated bandwidth (PROBE_BW)
/// rather than above it, or leave PROBE_RTT if it is done.
pub fn bbr_cwnd_event_tx_start(tp: &mut TcpSock, clock: &CaClock, rand: &mut Prandom) {
    if tp.app_limited == 0 {
        return;
    }
    let bbr = &mut tp.ca.bbr;
    bbr.idle_restart = true;
    bbr.ack_epoch_mstamp = clock.tcp_mstamp_us();
    bbr.ack_epoch_acked = 0;
    // "Avoid pointless buffer overflows: pace at est. bw if we don't need more speed (we're
    // restarting from idle and app-limited)."
    match bbr.mode {
        BbrMode::ProbeBw => {
            let bw = bbr_bw(tp);
            bbr_set_pacing_rate(tp, bw, BBR_UNIT);
        }
        BbrMode::ProbeRtt => bbr_check_probe_rtt_done(tp, clock, rand),
        _ => {}
    }
}

/// `bbr_bdp`: `ceil(bw * min_rtt * gain)` in packets; `TCP_INIT_CWND` without an RTT sample.
pub fn bbr_bdp(tp: &TcpSock, bw: u32, gain: u32) -> u32 {
    let bbr = &tp.ca.bbr;
    if bbr.min_rtt_us == u32::MAX {
        return TCP_INIT_CWND; // "be safe: cap at default initial cwnd"
    }
    let w = bw as u64 * bbr.min_rtt_us as u64;
    // "Apply a gain to the given value, remove the BW_SCALE shift, and round the value up to
    // avoid a negative feedback loop."
    // (x + BW_UNIT - 1) / BW_UNIT
    ((w * gain as u64) >> BBR_SCALE).div_ceil(BW_UNIT) as u32
}

/// `bbr_quantization_budget`: room for three full TSO skbs (one in the qdisc, one in the NIC,
/// one at the receiver's GRO), rounded up to an even cwnd, plus two in the probing phase.
fn bbr_quantization_budget(tp: &TcpSock, mut cwnd: u32) -> u32 {
    cwnd += 3 * bbr_tso_segs_goal(tp);
    // "Reduce delayed ACKs by rounding up cwnd to the next even number."
    cwnd = (cwnd + 1) & !1;
    // "Ensure gain cycling gets inflight above BDP even for small BDPs."
    if tp.ca.bbr.mode == BbrMode::ProbeBw && tp.ca.bbr.cycle_idx == 0 {
        cwnd += 2;
    }
    cwnd
}

/// `bbr_inflight`: the in-flight target for `bw` and `gain`.
pub fn bbr_inflight(tp: &TcpSock, bw: u32, gain: u32) -> u32 {
    let inflight = bbr_bdp(tp, bw, gain);
    bbr_quantization_budget(tp, inflight)
}

/// `bbr_packets_in_net_at_edt`: of `inflight_now`, how many packets will still be in the
/// network when the next skb departs (its earliest departure time, `tcp_wstamp_ns`).
fn bbr_packets_in_net_at_edt(tp: &TcpSock, inflight_now: u32, clock: &CaClock) -> u32 {
    let now_ns = clock.now_ns; // tp->tcp_clock_cache
    let edt_ns = tp.tcp_wstamp_ns.max(now_ns);
    let interval_us = (edt_ns - now_ns) / 1000;
    let interval_delivered = ((bbr_bw(tp) as u64 * interval_us) >> BW_SCALE) as u32;
    let mut inflight_at_edt = inflight_now;
    if tp.ca.bbr.pacing_gain > BBR_UNIT {
        inflight_at_edt += bbr_tso_segs_goal(tp); // "include EDT skb"
    }
    inflight_at_edt.saturating_sub(interval_delivered)
}

/// `bbr_ack_aggregation_cwnd`: cwnd for the data that arrives in bursts of ACKs (the
/// `extra_acked` filter), once the pipe is full; at most 100 ms of bandwidth.
fn bbr_ack_aggregation_cwnd(tp: &TcpSock) -> u32 {
    if BBR_EXTRA_ACKED_GAIN == 0 || !bbr_full_bw_reached(tp) {
        return 0;
    }
    let max_aggr_cwnd = (bbr_bw(tp) as u64 * BBR_EXTRA_ACKED_MAX_US / BW_UNIT) as u32;
    let aggr_cwnd = (BBR_EXTRA_ACKED_GAIN * bbr_extra_acked(tp)) >> BBR_SCALE;
    aggr_cwnd.min(max_aggr_cwnd)
}

/// `bbr_set_cwnd_to_recover_or_restore`: packet conservation in the first round of recovery,
/// the cwnd saved before recovery restored after it. Returns whether packet conservation
/// decides cwnd, and the cwnd to start from.
fn bbr_set_cwnd_to_recover_or_restore(
    tp: &mut TcpSock,
    rs: &RateSample,
    acked: u32,
) -> (bool, u32) {
    let state = ca_state(tp);
    let in_flight = tp.packets_in_flight();
    let delivered = tp.delivered;
    let mut cwnd = tp.snd_cwnd;
    let bbr = &mut tp.ca.bbr;
    let prev_state = bbr.prev_ca_state;
    // "An ACK for P pkts should release at most 2*P packets. We do this in two steps. First,
    // here we deduct the number of lost packets."
    if rs.losses > 0 {
        cwnd = (cwnd as i32 - rs.losses).max(1) as u32;
    }
    if state == TCP_CA_RECOVERY && prev_state != TCP_CA_RECOVERY {
        // "Starting 1st round of Recovery, so do packet conservation."
        bbr.packet_conservation = true;
        bbr.next_rtt_delivered = delivered; // "start round now"
                                            // "Cut unused cwnd from app behavior, TSQ, or TSO deferral:"
        cwnd = in_flight + acked;
    } else if prev_state >= TCP_CA_RECOVERY && state < TCP_CA_RECOVERY {
        // "Exiting loss recovery; restore cwnd saved before recovery."
        cwnd = cwnd.max(bbr.prior_cwnd);
        bbr.packet_conservation = false;
    }
    bbr.prev_ca_state = state;
    if bbr.packet_conservation {
        return (true, cwnd.max(in_flight + acked));
    }
    (false, cwnd)
}

/// `bbr_set_cwnd`: slow-start toward the target cwnd (`gain` × BDP plus the aggregation and
/// quantization allowances) while the bandwidth estimate grows, or snap down to it once the
/// pipe is full; at least 4, and 4 at most in PROBE_RTT.
fn bbr_set_cwnd(tp: &mut TcpSock, rs: &RateSample, acked: u32, bw: u32, gain: u32) {
    let mut cwnd = tp.snd_cwnd;
    if acked != 0 {
        let (conservation, c) = bbr_set_cwnd_to_recover_or_restore(tp, rs, acked);
        cwnd = c;
        if !conservation {
            let mut target_cwnd = bbr_bdp(tp, bw, gain);
            // "Increment the cwnd to account for excess ACKed data that seems due to
            // aggregation (of data and/or ACKs) visible in the ACK stream."
            target_cwnd += bbr_ack_aggregation_cwnd(tp);
            target_cwnd = bbr_quantization_budget(tp, target_cwnd);
            // "If we're below target cwnd, slow start cwnd toward target cwnd."
            if bbr_full_bw_reached(tp) {
                // "only cut cwnd if we filled the pipe"
                cwnd = (cwnd + acked).min(target_cwnd);
            } else if cwnd < target_cwnd || tp.delivered < TCP_INIT_CWND {
                cwnd += acked;
            }
            cwnd = cwnd.max(BBR_CWND_MIN_TARGET);
        }
    }
    // done:
    tp.snd_cwnd = cwnd.min(tp.snd_cwnd_clamp); // "apply global cap"
    if tp.ca.bbr.mode == BbrMode::ProbeRtt {
        // "drain queue, refresh min_rtt"
        tp.snd_cwnd = tp.snd_cwnd.min(BBR_CWND_MIN_TARGET);
    }
}

/// `bbr_is_next_cycle_phase`: end the gain-cycle phase when it has lasted min_rtt and (gain
/// above 1) in flight reached gain × BDP or there were losses; a gain below 1 also ends as
/// soon as in flight falls to the BDP.
fn bbr_is_next_cycle_phase(tp: &TcpSock, rs: &RateSample, clock: &CaClock) -> bool {
    let bbr = &tp.ca.bbr;
    let is_full_length =
        tcp_stamp_us_delta(tp.delivered_mstamp, bbr.cycle_mstamp) > bbr.min_rtt_us as i64;
    // "The pacing_gain of 1.0 paces at the estimated bw to try to fully use the pipe without
    // increasing the queue."
    if bbr.pacing_gain == BBR_UNIT {
        return is_full_length; // "just use wall clock time"
    }
    let inflight = bbr_packets_in_net_at_edt(tp, rs.prior_in_flight, clock);
    let bw = bbr_max_bw(tp);
    if bbr.pacing_gain > BBR_UNIT {
        // "We do not persist if packets are lost, since a path with small buffers may not
        // hold that much."
        return is_full_length
            && (rs.losses != 0 || inflight >= bbr_inflight(tp, bw, bbr.pacing_gain));
    }
    // "If inflight falls to match BDP then we estimate queue is drained; persisting would
    // underutilize the pipe."
    is_full_length || inflight <= bbr_inflight(tp, bw, BBR_UNIT)
}

/// `bbr_advance_cycle_phase`.
fn bbr_advance_cycle_phase(tp: &mut TcpSock) {
    let bbr = &mut tp.ca.bbr;
    bbr.cycle_idx = (bbr.cycle_idx + 1) & (CYCLE_LEN - 1);
    bbr.cycle_mstamp = tp.delivered_mstamp;
}

/// `bbr_update_cycle_phase`: "Gain cycling: cycle pacing gain to converge to fair share of
/// available bw."
fn bbr_update_cycle_phase(tp: &mut TcpSock, rs: &RateSample, clock: &CaClock) {
    if tp.ca.bbr.mode == BbrMode::ProbeBw && bbr_is_next_cycle_phase(tp, rs, clock) {
        bbr_advance_cycle_phase(tp);
    }
}

/// `bbr_reset_startup_mode`.
fn bbr_reset_startup_mode(tp: &mut TcpSock) {
    tp.ca.bbr.mode = BbrMode::Startup;
}

/// `bbr_reset_probe_bw_mode`: enter PROBE_BW at a random phase other than the drain phase
/// (`get_random_u32_below(bbr_cycle_rand)`), then flip to the next phase.
fn bbr_reset_probe_bw_mode(tp: &mut TcpSock, rand: &mut Prandom) {
    let bbr = &mut tp.ca.bbr;
    bbr.mode = BbrMode::ProbeBw;
    bbr.cycle_idx = CYCLE_LEN - 1 - rand.get_random_u32_below(BBR_CYCLE_RAND);
    bbr_advance_cycle_phase(tp); // "flip to next phase of gain cycle"
}

/// `bbr_reset_mode`: back to STARTUP if the pipe was never full, else PROBE_BW.
fn bbr_reset_mode(tp: &mut TcpSock, rand: &mut Prandom) {
    if !bbr_full_bw_reached(tp) {
        bbr_reset_startup_mode(tp);
    } else {
        bbr_reset_probe_bw_mode(tp, rand);
    }
}

/// `bbr_reset_lt_bw_sampling_interval`: start a new long-term sampling interval.
fn bbr_reset_lt_bw_sampling_interval(tp: &mut TcpSock) {
    let (stamp, delivered) = ((tp.delivered_mstamp / 1000) as u32, tp.delivered);
    let bbr = &mut tp.ca.bbr;
    bbr.lt_last_stamp = stamp;
    bbr.lt_last_delivered = delivered;
    bbr.lt_last_lost = 0; // tp->lost: the engine marks no packet lost
    bbr.lt_rtt_cnt = 0;
}

/// `bbr_reset_lt_bw_sampling`: completely reset long-term bandwidth sampling.
fn bbr_reset_lt_bw_sampling(tp: &mut TcpSock) {
    let bbr = &mut tp.ca.bbr;
    bbr.lt_bw = 0;
    bbr.lt_use_bw = false;
    bbr.lt_is_sampling = false;
    bbr_reset_lt_bw_sampling_interval(tp);
}

/// `bbr_lt_bw_interval_done`: a long-term interval ended with rate `bw`; two consistent lossy
/// intervals in a row mean a policer, whose rate is then used.
fn bbr_lt_bw_interval_done(tp: &mut TcpSock, bw: u32) {
    let lt_bw = tp.ca.bbr.lt_bw;
    if lt_bw != 0 {
        // "Is new bw close to the lt_bw from the previous interval?"
        let diff = (bw.wrapping_sub(lt_bw) as i32).unsigned_abs();
        if diff * BBR_UNIT <= BBR_LT_BW_RATIO * lt_bw
            || bbr_rate_bytes_per_sec(tp, diff as u64, BBR_UNIT) <= BBR_LT_BW_DIFF
        {
            // "All criteria are met; estimate we're policed."
            let bbr = &mut tp.ca.bbr;
            bbr.lt_bw = (bw + lt_bw) >> 1; // "avg 2 intvls"
            bbr.lt_use_bw = true;
            bbr.pacing_gain = BBR_UNIT; // "try to avoid drops"
            bbr.lt_rtt_cnt = 0;
            return;
        }
    }
    tp.ca.bbr.lt_bw = bw;
    bbr_reset_lt_bw_sampling_interval(tp);
}

/// `bbr_lt_bw_sampling`: the token-bucket policer detector. Sampling starts at the first
/// loss; an interval of 4 to 16 rounds that ends with a loss and lost at least 20 % gives a
/// long-term rate (`bbr_lt_bw_interval_done`).
fn bbr_lt_bw_sampling(tp: &mut TcpSock, rs: &RateSample, rand: &mut Prandom) {
    let bbr = &mut tp.ca.bbr;
    if bbr.lt_use_bw {
        // "already using long-term rate, lt_bw?"
        if bbr.mode == BbrMode::ProbeBw && bbr.round_start {
            bbr.lt_rtt_cnt += 1;
            if bbr.lt_rtt_cnt >= BBR_LT_BW_MAX_RTTS {
                bbr_reset_lt_bw_sampling(tp); // "stop using lt_bw"
                bbr_reset_probe_bw_mode(tp, rand); // "restart gain cycling"
            }
        }
        return;
    }
    // "Wait for the first loss before sampling, to let the policer exhaust its tokens and
    // estimate the steady-state rate allowed by the policer."
    if !bbr.lt_is_sampling {
        if rs.losses == 0 {
            return;
        }
        bbr_reset_lt_bw_sampling_interval(tp);
        tp.ca.bbr.lt_is_sampling = true;
    }
    // "To avoid underestimates, reset sampling if we run out of data."
    if rs.is_app_limited {
        bbr_reset_lt_bw_sampling(tp);
        return;
    }
    let bbr = &mut tp.ca.bbr;
    if bbr.round_start {
        bbr.lt_rtt_cnt += 1; // "count round trips in this interval"
    }
    if bbr.lt_rtt_cnt < BBR_LT_INTVL_MIN_RTTS {
        return; // "sampling interval needs to be longer"
    }
    if bbr.lt_rtt_cnt > 4 * BBR_LT_INTVL_MIN_RTTS {
        bbr_reset_lt_bw_sampling(tp); // "interval is too long"
        return;
    }
    // "End sampling interval when a packet is lost, so we estimate the policer tokens were
    // exhausted."
    if rs.losses == 0 {
        return;
    }
    let lost = 0u32.wrapping_sub(bbr.lt_last_lost); // tp->lost is 0 in the engine
    let delivered = tp.delivered.wrapping_sub(bbr.lt_last_delivered);
    // "Is loss rate (lost/delivered) >= lt_loss_thresh? If not, wait."
    if delivered == 0 || (lost << BBR_SCALE) < BBR_LT_LOSS_THRESH * delivered {
        return;
    }
    // "Find average delivery rate in this sampling interval."
    let t = ((tp.delivered_mstamp / 1000) as u32).wrapping_sub(bbr.lt_last_stamp);
    if (t as i32) < 1 {
        return; // "interval is less than one ms, so wait"
    }
    if t >= u32::MAX / 1000 {
        bbr_reset_lt_bw_sampling(tp); // "interval too long; reset"
        return;
    }
    let t_us = t as u64 * 1000;
    let bw = delivered as u64 * BW_UNIT / t_us;
    bbr_lt_bw_interval_done(tp, bw as u32);
}

/// `bbr_update_bw`: count packet-timed rounds and take the sample's delivery rate into the
/// max filter, unless it is application-limited and below the current estimate.
fn bbr_update_bw(tp: &mut TcpSock, rs: &RateSample, rand: &mut Prandom) {
    tp.ca.bbr.round_start = false;
    if rs.delivered < 0 || rs.interval_us <= 0 {
        return; // "Not a valid observation"
    }
    // "See if we've reached the next RTT"
    let delivered = tp.delivered;
    let bbr = &mut tp.ca.bbr;
    if !before(rs.prior_delivered, bbr.next_rtt_delivered) {
        bbr.next_rtt_delivered = delivered;
        bbr.rtt_cnt += 1;
        bbr.round_start = true;
        bbr.packet_conservation = false;
    }
    bbr_lt_bw_sampling(tp, rs, rand);
    // "Divide delivered by the interval to find a (lower bound) bottleneck bandwidth sample."
    let bw = (rs.delivered as u64 * BW_UNIT / rs.interval_us as u64) as u32;
    // "we filter out app-limited samples unless they describe the path bw at least as well
    // as our bw model."
    if !rs.is_app_limited || bw >= bbr_max_bw(tp) {
        let bbr = &mut tp.ca.bbr;
        let rtt_cnt = bbr.rtt_cnt;
        minmax_running_max(&mut bbr.bw, BBR_BW_RTTS, rtt_cnt, bw);
    }
}

/// `bbr_update_ack_aggregation`: the windowed max of data ACKed beyond what the bandwidth
/// estimate expected since the start of the ACK epoch.
fn bbr_update_ack_aggregation(tp: &mut TcpSock, rs: &RateSample) {
    if BBR_EXTRA_ACKED_GAIN == 0 || rs.acked_sacked == 0 || rs.delivered < 0 || rs.interval_us <= 0
    {
        return;
    }
    let bw = bbr_bw(tp) as u64;
    let (delivered_mstamp, cwnd) = (tp.delivered_mstamp, tp.snd_cwnd);
    let bbr = &mut tp.ca.bbr;
    if bbr.round_start {
        bbr.extra_acked_win_rtts = (bbr.extra_acked_win_rtts + 1).min(0x1F);
        if bbr.extra_acked_win_rtts >= BBR_EXTRA_ACKED_WIN_RTTS {
            bbr.extra_acked_win_rtts = 0;
            bbr.extra_acked_win_idx = 1 - bbr.extra_acked_win_idx;
            bbr.extra_acked[bbr.extra_acked_win_idx] = 0;
        }
    }
    // "Compute how many packets we expected to be delivered over epoch."
    let epoch_us = tcp_stamp_us_delta(delivered_mstamp, bbr.ack_epoch_mstamp) as u64;
    let mut expected_acked = (bw * epoch_us / BW_UNIT) as u32;
    // "Reset the aggregation epoch if ACK rate is below expected rate or significantly large
    // no. of ack received since epoch (potentially quite old epoch)."
    if bbr.ack_epoch_acked <= expected_acked
        || bbr.ack_epoch_acked + rs.acked_sacked >= BBR_ACK_EPOCH_ACKED_RESET_THRESH
    {
        bbr.ack_epoch_acked = 0;
        bbr.ack_epoch_mstamp = delivered_mstamp;
        expected_acked = 0;
    }
    // "Compute excess data delivered, beyond what was expected."
    bbr.ack_epoch_acked = (bbr.ack_epoch_acked + rs.acked_sacked).min(0xFFFFF);
    let extra_acked = (bbr.ack_epoch_acked - expected_acked).min(cwnd);
    let idx = bbr.extra_acked_win_idx;
    if extra_acked > bbr.extra_acked[idx] as u32 {
        bbr.extra_acked[idx] = extra_acked as u16; // a u16 in struct bbr
    }
}

/// `bbr_check_full_bw_reached`: STARTUP filled the pipe once three non-app-limited rounds in
/// a row failed to raise the max bandwidth by 25 %.
fn bbr_check_full_bw_reached(tp: &mut TcpSock, rs: &RateSample) {
    if bbr_full_bw_reached(tp) || !tp.ca.bbr.round_start || rs.is_app_limited {
        return;
    }
    let max_bw = bbr_max_bw(tp);
    let bbr = &mut tp.ca.bbr;
    let bw_thresh = ((bbr.full_bw as u64 * BBR_FULL_BW_THRESH as u64) >> BBR_SCALE) as u32;
    if max_bw >= bw_thresh {
        bbr.full_bw = max_bw;
        bbr.full_bw_cnt = 0;
        return;
    }
    bbr.full_bw_cnt += 1;
    bbr.full_bw_reached = bbr.full_bw_cnt >= BBR_FULL_BW_CNT;
}

/// `bbr_check_drain`: leave STARTUP for DRAIN when the pipe is full (ssthresh = the BDP
/// target), and DRAIN for PROBE_BW once what will be in the network is down to the BDP.
fn bbr_check_drain(tp: &mut TcpSock, clock: &CaClock, rand: &mut Prandom) {
    if tp.ca.bbr.mode == BbrMode::Startup && bbr_full_bw_reached(tp) {
        tp.ca.bbr.mode = BbrMode::Drain; // "drain queue we created"
        tp.snd_ssthresh = bbr_inflight(tp, bbr_max_bw(tp), BBR_UNIT);
    } // "fall through to check if in-flight is already small:"
    if tp.ca.bbr.mode == BbrMode::Drain
        && bbr_packets_in_net_at_edt(tp, tp.packets_in_flight(), clock)
            <= bbr_inflight(tp, bbr_max_bw(tp), BBR_UNIT)
    {
        bbr_reset_probe_bw_mode(tp, rand); // "we estimate queue is drained"
    }
}

/// `bbr_check_probe_rtt_done`: PROBE_RTT's time is up: restore cwnd, restart the min_rtt
/// window and go back to STARTUP or PROBE_BW.
fn bbr_check_probe_rtt_done(tp: &mut TcpSock, clock: &CaClock, rand: &mut Prandom) {
    let bbr = &mut tp.ca.bbr;
    if !(bbr.probe_rtt_done_stamp != 0 && after(clock.jiffies, bbr.probe_rtt_done_stamp)) {
        return;
    }
    bbr.min_rtt_stamp = clock.jiffies; // "wait a while until PROBE_RTT"
    tp.snd_cwnd = tp.snd_cwnd.max(bbr.prior_cwnd);
    bbr_reset_mode(tp, rand);
}

/// `bbr_update_min_rtt`: the min_rtt filter (10 s), and PROBE_RTT: entered when the filter
/// expires, cwnd 4 for at least 200 ms and one round, then back.
fn bbr_update_min_rtt(tp: &mut TcpSock, rs: &RateSample, clock: &CaClock, rand: &mut Prandom) {
    let jiffies = clock.jiffies;
    let win_j = (BBR_MIN_RTT_WIN_SEC * clock.hz) as u32;
    let bbr = &mut tp.ca.bbr;
    // "Track min RTT seen in the min_rtt_win_sec filter window:"
    let filter_expired = after(jiffies, bbr.min_rtt_stamp.wrapping_add(win_j));
    if rs.rtt_us >= 0
        && (rs.rtt_us <= bbr.min_rtt_us as i64 || (filter_expired && !rs.is_ack_delayed))
    {
        bbr.min_rtt_us = rs.rtt_us as u32;
        bbr.min_rtt_stamp = jiffies;
    }
    if BBR_PROBE_RTT_MODE_MS > 0
        && filter_expired
        && !bbr.idle_restart
        && bbr.mode != BbrMode::ProbeRtt
    {
        bbr.mode = BbrMode::ProbeRtt; // "dip, drain queue"
        bbr_save_cwnd(tp); // "note cwnd so we can restore it"
        tp.ca.bbr.probe_rtt_done_stamp = 0;
    }
    if tp.ca.bbr.mode == BbrMode::ProbeRtt {
        // "Ignore low rate samples during this mode."
        let in_flight = tp.packets_in_flight();
        tp.app_limited = tp.delivered.wrapping_add(in_flight).max(1);
        // "Maintain min packets in flight for max(200 ms, 1 round)."
        let delivered = tp.delivered;
        let bbr = &mut tp.ca.bbr;
        if bbr.probe_rtt_done_stamp == 0 && in_flight <= BBR_CWND_MIN_TARGET {
            // msecs_to_jiffies(bbr_probe_rtt_mode_ms)
            let j = (BBR_PROBE_RTT_MODE_MS * clock.hz).div_ceil(1000) as u32;
            bbr.probe_rtt_done_stamp = jiffies.wrapping_add(j);
            bbr.probe_rtt_round_done = false;
            bbr.next_rtt_delivered = delivered;
        } else if bbr.probe_rtt_done_stamp != 0 {
            if bbr.round_start {
                bbr.probe_rtt_round_done = true;
            }
            if bbr.probe_rtt_round_done {
                bbr_check_probe_rtt_done(tp, clock, rand);
            }
        }
    }
    // "Restart after idle ends only once we process a new S/ACK for data"
    if rs.delivered > 0 {
        tp.ca.bbr.idle_restart = false;
    }
}

/// `bbr_update_gains`: the pacing and cwnd gains of the mode (and gain-cycle phase).
fn bbr_update_gains(tp: &mut TcpSock) {
    let bbr = &mut tp.ca.bbr;
    let (pacing_gain, cwnd_gain) = match bbr.mode {
        BbrMode::Startup => (BBR_HIGH_GAIN, BBR_HIGH_GAIN),
        // "slow, to drain"; "keep cwnd"
        BbrMode::Drain => (BBR_DRAIN_GAIN, BBR_HIGH_GAIN),
        BbrMode::ProbeBw => (
            if bbr.lt_use_bw {
                BBR_UNIT
            } else {
                BBR_PACING_GAIN[bbr.cycle_idx as usize]
            },
            BBR_CWND_GAIN,
        ),
        BbrMode::ProbeRtt => (BBR_UNIT, BBR_UNIT),
    };
    bbr.pacing_gain = pacing_gain;
    bbr.cwnd_gain = cwnd_gain;
}

/// `bbr_update_model`: the path model from this ACK's rate sample, then the mode and gains.
fn bbr_update_model(tp: &mut TcpSock, rs: &RateSample, clock: &CaClock, rand: &mut Prandom) {
    bbr_update_bw(tp, rs, rand);
    bbr_update_ack_aggregation(tp, rs);
    bbr_update_cycle_phase(tp, rs, clock);
    bbr_check_full_bw_reached(tp, rs);
    bbr_check_drain(tp, clock, rand);
    bbr_update_min_rtt(tp, rs, clock, rand);
    bbr_update_gains(tp);
}

/// `bbr_main` (`ca_ops->cong_control`, called by `tcp_cong_control` on every ACK instead of
/// `cong_avoid` and `tcp_update_pacing_rate`): update the model, then set the pacing rate and
/// cwnd from the bandwidth estimate and the mode's gains.
pub fn bbr_main(tp: &mut TcpSock, rs: &RateSample, clock: &CaClock, rand: &mut Prandom) {
    bbr_update_model(tp, rs, clock, rand);
    let bw = bbr_bw(tp);
    let (pacing_gain, cwnd_gain) = (tp.ca.bbr.pacing_gain, tp.ca.bbr.cwnd_gain);
    bbr_set_pacing_rate(tp, bw, pacing_gain);
    bbr_set_cwnd(tp, rs, rs.acked_sacked, bw, cwnd_gain);
}

/// `bbr_init` (`ca_ops->init`, from `tcp_init_congestion_control` when the connection is
/// established): STARTUP, min_rtt from the handshake, the pacing rate from high_gain × init
/// cwnd / srtt, and pacing asked of TCP itself unless fq already paces the socket
/// (`SK_PACING_NONE` → `SK_PACING_NEEDED`).
pub fn bbr_init(tp: &mut TcpSock, clock: &CaClock) {
    tp.snd_ssthresh = TCP_INFINITE_SSTHRESH;
    // tcp_min_rtt(): ~0U before any RTT sample.
    let min_rtt_us = if tp.min_rtt_us == 0 {
        u32::MAX
    } else {
        tp.min_rtt_us.min(u32::MAX as u64) as u32
    };
    let bbr = &mut tp.ca.bbr;
    bbr.prior_cwnd = 0;
    bbr.rtt_cnt = 0;
    bbr.next_rtt_delivered = 0;
    bbr.prev_ca_state = TCP_CA_OPEN;
    bbr.packet_conservation = false;
    bbr.probe_rtt_done_stamp = 0;
    bbr.probe_rtt_round_done = false;
    bbr.min_rtt_us = min_rtt_us;
    bbr.min_rtt_stamp = clock.jiffies;
    minmax_reset(&mut bbr.bw, bbr.rtt_cnt, 0); // "init max bw to 0"
    bbr.has_seen_rtt = false;
    bbr_init_pacing_rate_from_rtt(tp);
    let bbr = &mut tp.ca.bbr;
    bbr.round_start = false;
    bbr.idle_restart = false;
    bbr.full_bw_reached = false;
    bbr.full_bw = 0;
    bbr.full_bw_cnt = 0;
    bbr.cycle_mstamp = 0;
    bbr.cycle_idx = 0;
    bbr_reset_lt_bw_sampling(tp);
    bbr_reset_startup_mode(tp);
    let bbr = &mut tp.ca.bbr;
    bbr.ack_epoch_mstamp = clock.tcp_mstamp_us();
    bbr.ack_epoch_acked = 0;
    bbr.extra_acked_win_rtts = 0;
    bbr.extra_acked_win_idx = 0;
    bbr.extra_acked = [0, 0];
    // cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED): internal pacing is
    // 4.13+; before, BBR relied on fq.
    if tp.sk_pacing_status == crate::net::core::sock::PacingStatus::None
        && tp.profile.internal_pacing
    {
        tp.sk_pacing_status = crate::net::core::sock::PacingStatus::Needed;
    }
}

/// `bbr_sndbuf_expand`: "Provision 3 * cwnd since BBR may slow-start even during recovery."
pub fn bbr_sndbuf_expand() -> u64 {
    3
}

/// `bbr_undo_cwnd`: a spurious slow-down: reset full-pipe detection; cwnd stays.
pub fn bbr_undo_cwnd(tp: &mut TcpSock) -> u32 {
    tp.ca.bbr.full_bw = 0;
    tp.ca.bbr.full_bw_cnt = 0;
    bbr_reset_lt_bw_sampling(tp);
    tp.snd_cwnd
}

/// `bbr_ssthresh`: entering loss recovery: save cwnd for when it ends; ssthresh is unchanged.
pub fn bbr_ssthresh(tp: &mut TcpSock) -> u32 {
    bbr_save_cwnd(tp);
    tp.snd_ssthresh
}

/// `bbr_set_state(sk, TCP_CA_Loss)`: an RTO ends the round and counts as a loss for the
/// long-term sampler.
pub fn bbr_set_state_loss(tp: &mut TcpSock, rand: &mut Prandom) {
    let rs = RateSample {
        losses: 1,
        ..RateSample::default()
    };
    let bbr = &mut tp.ca.bbr;
    bbr.prev_ca_state = TCP_CA_LOSS;
    bbr.full_bw = 0;
    bbr.round_start = true; // "treat RTO like end of a round"
    bbr_lt_bw_sampling(tp, &rs, rand);
}

#[cfg(test)]
mod tests {
    //! Each test drives `bbr_main` with the rate samples a packetdrill script's ACKs would
    //! produce: one call per round trip, `delivered` packets acked over `interval_us`.
    use super::*;
    use crate::net::core::sock::PacingStatus;
    use crate::scenario::CongestionControl;
    use crate::sim::testkit::established;
    use crate::sim::world::World;

    const RTT_US: u64 = 10_000;

    /// An established 6.18 connection whose sender runs bbr, re-initialised as if its
    /// handshake had measured a 10 ms RTT, and a 1000 HZ clock at t = 1 s.
    fn bbr_flow() -> (World, CaClock) {
        let mut w = established("6.18", "[socket]\nTCP_CONGESTION = \"bbr\"\n");
        let clock = CaClock {
            now_ns: 1_000_000_000,
            jiffies: 1000,
            hz: 1000,
        };
        let tp = &mut w.socks[0];
        assert_eq!(tp.cc, CongestionControl::Bbr);
        tp.srtt_us = RTT_US << 3;
        tp.min_rtt_us = RTT_US;
        tp.delivered = 1;
        bbr_init(tp, &clock);
        (w, clock)
    }

    /// One round trip: `delivered` packets acked `interval_us` after the round began, with an
    /// RTT sample of `rtt_us`; the sample starts where the previous round ended.
    fn round(w: &mut World, clock: &mut CaClock, delivered: u32, interval_us: u64, rtt_us: u64) {
        clock.now_ns += interval_us * 1000;
        clock.jiffies += (interval_us / 1000) as u32;
        let (tp, mut rand) = w.sock_and_random(0);
        let prior_delivered = tp.delivered;
        tp.delivered += delivered;
        tp.delivered_mstamp = clock.tcp_mstamp_us();
        let rs = RateSample {
            prior_delivered,
            prior_mstamp: 1,
            delivered: delivered as i32,
            interval_us: interval_us as i64,
            rtt_us: rtt_us as i64,
            acked_sacked: delivered,
            prior_in_flight: tp.packets_in_flight(),
            ..RateSample::default()
        };
        bbr_main(tp, &rs, clock, &mut rand);
    }

    /// `delivered` packets per `RTT_US` as BBR's bandwidth unit (packets/µs << 24).
    fn bw(delivered: u32) -> u32 {
        (delivered as u64 * BW_UNIT / RTT_US) as u32
    }

    #[test]
    fn a_bbr_socket_starts_in_startup_paced_by_tcp_at_high_gain_times_init_cwnd_over_srtt() {
        let (w, _) = bbr_flow();
        let tp = &w.socks[0];
        assert_eq!(tp.ca.bbr.mode, BbrMode::Startup);
        assert_eq!(tp.sk_pacing_status, PacingStatus::Needed);
        assert_eq!(tp.snd_ssthresh, TCP_INFINITE_SSTHRESH);
        // 2.89 * 10 packets / 10 ms, 1 % below: 2.89 * 1448 * 1000 * 0.99 B/s.
        let expected = bbr_bw_to_pacing_rate(tp, bw(10), BBR_HIGH_GAIN);
        assert_eq!(tp.sk_pacing_rate, expected);
        assert!((4_130_000..4_160_000).contains(&expected), "{expected}");
    }

    #[test]
    fn bbr_startup_doubles_the_pacing_rate_each_round() {
        let (mut w, mut clock) = bbr_flow();
        let mut rates = vec![];
        // +0.010 < ack 20 packets   (each round delivers twice the last)
        for delivered in [20, 40, 80, 160] {
            round(&mut w, &mut clock, delivered, RTT_US, RTT_US);
            rates.push(w.socks[0].sk_pacing_rate);
            assert_eq!(w.socks[0].ca.bbr.mode, BbrMode::Startup);
            assert_eq!(w.socks[0].ca.bbr.pacing_gain, BBR_HIGH_GAIN);
        }
        for pair in rates.windows(2) {
            let ratio = pair[1] as f64 / pair[0] as f64;
            assert!((1.99..2.01).contains(&ratio), "{rates:?}");
        }
        // The rate is high_gain times the max bandwidth filter.
        let tp = &w.socks[0];
        assert_eq!(bbr_max_bw(tp), bw(160));
        assert_eq!(
            tp.sk_pacing_rate,
            bbr_bw_to_pacing_rate(tp, bw(160), BBR_HIGH_GAIN)
        );
    }

    #[test]
    fn bbr_leaves_startup_after_three_rounds_without_25_percent_growth() {
        let (mut w, mut clock) = bbr_flow();
        w.socks[0].packets_out = 300; // a queue built in STARTUP: DRAIN has work to do
        for delivered in [20, 40, 80] {
            round(&mut w, &mut clock, delivered, RTT_US, RTT_US);
        }
        // +0.040 < ack 80 packets, three times: the bandwidth is flat.
        for n in 1..=2 {
            round(&mut w, &mut clock, 80, RTT_US, RTT_US);
            let bbr = &w.socks[0].ca.bbr;
            assert_eq!(bbr.full_bw_cnt, n);
            assert_eq!(bbr.mode, BbrMode::Startup, "after {n} flat rounds");
        }
        // 99 packets (< 1.25 x 80) does not count as growth either.
        round(&mut w, &mut clock, 99, RTT_US, RTT_US);
        let tp = &w.socks[0];
        assert!(tp.ca.bbr.full_bw_reached);
        assert_eq!(tp.ca.bbr.mode, BbrMode::Drain);
        // ssthresh marks the in-flight target: the BDP (99 packets) plus three TSO skbs at
        // STARTUP's pacing rate, rounded up to even.
        assert_eq!(bbr_bdp(tp, bw(99), BBR_UNIT), 99);
        assert!(tp.snd_ssthresh >= 99 + 3 * 2, "{}", tp.snd_ssthresh);
        assert_eq!(tp.snd_ssthresh % 2, 0);
    }

    #[test]
    fn bbr_growth_of_25_percent_restarts_the_full_pipe_count() {
        let (mut w, mut clock) = bbr_flow();
        for delivered in [20, 40, 80, 80, 80, 100] {
            round(&mut w, &mut clock, delivered, RTT_US, RTT_US);
        }
        let bbr = &w.socks[0].ca.bbr;
        assert_eq!((bbr.full_bw, bbr.full_bw_cnt), (bw(100), 0));
        assert_eq!(bbr.mode, BbrMode::Startup);
    }

    #[test]
    fn bbr_drain_pacing_gain_is_the_inverse_of_high_gain() {
        // 2885/1000 and 1000/2885 in BBR_UNIT: the product is 1 within the rounding.
        let product = BBR_DRAIN_GAIN * BBR_HIGH_GAIN;
        let unit2 = BBR_UNIT * BBR_UNIT;
        assert!(
            product.abs_diff(unit2) * 100 < unit2,
            "{product} vs {unit2}"
        );
        let (mut w, mut clock) = bbr_flow();
        w.socks[0].packets_out = 300;
        for delivered in [20, 40, 80, 80, 80, 80] {
            round(&mut w, &mut clock, delivered, RTT_US, RTT_US);
        }
        let tp = &w.socks[0];
        assert_eq!(tp.ca.bbr.mode, BbrMode::Drain);
        assert_eq!(tp.ca.bbr.pacing_gain, BBR_DRAIN_GAIN);
        // Once the pipe is full the rate may fall: it is the drain gain times bw now.
        assert_eq!(
            tp.sk_pacing_rate,
            bbr_bw_to_pacing_rate(tp, bw(80), BBR_DRAIN_GAIN)
        );
    }

    #[test]
    fn bbr_enters_probe_bw_once_in_flight_falls_to_the_bdp() {
        let (mut w, mut clock) = bbr_flow();
        w.socks[0].packets_out = 300;
        for delivered in [20, 40, 80, 80, 80, 80] {
            round(&mut w, &mut clock, delivered, RTT_US, RTT_US);
        }
        assert_eq!(w.socks[0].ca.bbr.mode, BbrMode::Drain);
        w.socks[0].packets_out = 80; // the queue has drained
        round(&mut w, &mut clock, 80, RTT_US, RTT_US);
        let bbr = &w.socks[0].ca.bbr;
        assert_eq!(bbr.mode, BbrMode::ProbeBw);
        // A random phase, but never the 3/4 drain phase first (cycle_rand = 7 of 8).
        assert_ne!(bbr.cycle_idx, 1);
        assert_eq!(bbr.cwnd_gain, BBR_CWND_GAIN);
    }

    #[test]
    fn bbr_probe_bw_cycles_five_fourths_three_fourths_then_six_phases_at_one() {
        let (mut w, _) = bbr_flow();
        let tp = &mut w.socks[0];
        tp.ca.bbr.mode = BbrMode::ProbeBw;
        tp.ca.bbr.cycle_idx = CYCLE_LEN - 1;
        let mut gains = vec![];
        for _ in 0..CYCLE_LEN {
            bbr_advance_cycle_phase(tp);
            bbr_update_gains(tp);
            gains.push(tp.ca.bbr.pacing_gain);
        }
        assert_eq!(gains, [320, 192, 256, 256, 256, 256, 256, 256]);
    }

    #[test]
    fn bbr_probe_rtt_drops_cwnd_to_four_after_ten_seconds_without_a_lower_rtt() {
        let (mut w, mut clock) = bbr_flow();
        for delivered in [20, 40, 80, 80, 80, 80, 80] {
            round(&mut w, &mut clock, delivered, RTT_US, RTT_US);
        }
        assert_eq!(w.socks[0].ca.bbr.mode, BbrMode::ProbeBw);
        let cwnd = w.socks[0].snd_cwnd;
        assert!(cwnd > 100, "{cwnd}");
        // +10.000: RTT samples of 12 ms only; the 10 ms min_rtt is older than 10 s.
        clock.now_ns += 10_000_000_000;
        clock.jiffies += 10_000;
        w.socks[0].packets_out = 4;
        round(&mut w, &mut clock, 80, RTT_US, 12_000);
        let tp = &w.socks[0];
        assert_eq!(tp.ca.bbr.mode, BbrMode::ProbeRtt);
        assert_eq!(tp.snd_cwnd, BBR_CWND_MIN_TARGET);
        assert_eq!(tp.ca.bbr.prior_cwnd, cwnd);
        assert_eq!(
            tp.ca.bbr.min_rtt_us, 12_000,
            "the expired filter takes the new RTT"
        );
        // In flight is at 4: PROBE_RTT lasts 200 ms and at least one round.
        assert_eq!(tp.ca.bbr.probe_rtt_done_stamp, clock.jiffies + 200);
        round(&mut w, &mut clock, 4, RTT_US, 12_000);
        assert_eq!(
            w.socks[0].ca.bbr.mode,
            BbrMode::ProbeRtt,
            "only 10 ms later"
        );
        round(&mut w, &mut clock, 4, 200_000, 12_000);
        let tp = &w.socks[0];
        assert_eq!(tp.ca.bbr.mode, BbrMode::ProbeBw);
        // cwnd is restored, then this ACK's 4 packets are added (bbr_set_cwnd).
        assert_eq!(tp.snd_cwnd, cwnd + 4, "cwnd restored");
    }

    #[test]
    fn bbr_ignores_an_app_limited_sample_below_its_max_bandwidth() {
        let (mut w, mut clock) = bbr_flow();
        round(&mut w, &mut clock, 40, RTT_US, RTT_US);
        let (tp, mut rand) = w.sock_and_random(0);
        let rs = RateSample {
            prior_delivered: tp.delivered,
            prior_mstamp: 1,
            delivered: 5,
            interval_us: RTT_US as i64,
            rtt_us: RTT_US as i64,
            acked_sacked: 5,
            is_app_limited: true,
            ..RateSample::default()
        };
        tp.delivered += 5;
        bbr_main(tp, &rs, &clock, &mut rand);
        assert_eq!(bbr_max_bw(tp), bw(40));
    }

    #[test]
    fn bbr_sends_one_segment_tso_packets_below_1_2_mbit_s() {
        let (mut w, _) = bbr_flow();
        let tp = &mut w.socks[0];
        tp.sk_pacing_rate = 149_999; // bytes per second
        assert_eq!(bbr_min_tso_segs(tp), 1);
        assert_eq!(crate::net::ipv4::tcp_cong::min_tso_segs(tp), 1);
        tp.sk_pacing_rate = 150_000;
        assert_eq!(bbr_min_tso_segs(tp), 2);
        // tso_segs_goal: about 1 ms of data (rate >> 10), at most 127 segments.
        tp.sk_pacing_rate = 10 * 1448 * 1024;
        assert_eq!(bbr_tso_segs_goal(tp), 10);
        tp.sk_pacing_rate = 1 << 40;
        assert_eq!(
            bbr_tso_segs_goal(tp),
            (65_536 - 1 - tp.profile.max_tcp_header) / 1448
        );
    }

    #[test]
    fn bbr_provisions_three_times_cwnd_of_send_buffer() {
        let mut w = established("6.18", "[socket]\nTCP_CONGESTION = \"bbr\"\n");
        let tp = &mut w.socks[0];
        tp.sk_sndbuf = 0;
        tp.snd_cwnd = 10;
        crate::net::ipv4::tcp_input::tcp_sndbuf_expand(tp);
        // 3 * 10 * 4352 (cubic: 2 * 10 * 4352)
        assert_eq!(tp.sk_sndbuf, 130_560);
    }
}
