//! `net/ipv4/tcp_output.c`: what leaves the socket, when, and in packets of what size.
//!
//! Follows Linux 6.18, with the version switches of [`Profile`] for 3.13 .. 4.4 (each named at
//! the line it changes). Every function keeps the kernel's name and decision order.

use crate::include::linux::skbuff::{tcp_flags, Packet, SockId, ETH_HLEN, IPV4_HLEN, TCP_HLEN};
use crate::include::uapi::linux::snmp::Mib;
use crate::net::core::dev::NetXmit;
use crate::net::core::sock::*;
use crate::net::host::{Event, Stack};
use crate::scenario::profile::{PingpongRule, Profile, TsoSizing, TsqRule};
use crate::trace::{AckReason, Ev, Gate};

impl Profile {
    /// `skb->truesize` of a new skb with `linear` payload bytes of head room, as
    /// `alloc_skb_fclone(linear + MAX_TCP_HEADER)` sizes it (`net/core/skbuff.c`): `SKB_DATA_ALIGN`
    /// of the head plus `skb_shared_info` (320), rounded up by kmalloc to a power of two, plus
    /// `struct sk_buff` (256). 6.3+ serves a header-only head from `skb_small_head_cache`:
    /// `SKB_HEAD_ALIGN(max(MAX_TCP_HEADER, GRO_MAX_HEAD_PAD))`, moved off a power of two by one
    /// cache line. The `GRO_MAX_HEAD_PAD` term is 6.14's ("net: allow small head cache usage
    /// with large MAX_SKB_FRAGS values"): `MAX_HEADER + 128 + NET_SKB_PAD` (64) `+ NET_IP_ALIGN`
    /// (0 on x86). On this project's lab kernel
    /// (`MAX_HEADER` 32) that is 832 bytes: `ss -tm` shows `w833` for one corked byte.
    pub fn skb_alloc_truesize(&self, linear: u32) -> u32 {
        let shinfo = 320;
        let head = if self.small_head_cache && linear == 0 {
            let gro_max_head_pad = self.max_header + 128 + 64;
            let small = self.max_tcp_header.max(gro_max_head_pad).div_ceil(64) * 64 + shinfo;
            if small.is_power_of_two() {
                small + 64
            } else {
                small
            }
        } else {
            ((linear.div_ceil(4) * 4 + self.max_tcp_header).div_ceil(64) * 64 + shinfo)
                .next_power_of_two()
        };
        head + 256
    }

    /// "Unlimited" pacing rate (`~0U` while `sk_pacing_rate` was a u32, `~0UL` since 4.20).
    pub fn pacing_unlimited(&self) -> u64 {
        if self.edt {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }
}

// ---------------------------------------------------------------------------------------------
// MSS and size goal
// ---------------------------------------------------------------------------------------------

/// `tcp_current_mss`: the MSS for the next segment. The model's only variable option is the
/// timestamp, already in `tcp_header_len`, so this is `mss_cache`.
pub fn tcp_current_mss(tp: &TcpSock) -> u32 {
    tp.mss_cache
}

/// `tcp_bound_to_half_wnd` (include/net/tcp.h): never build packets bigger than half the
/// largest window the peer offered.
pub fn tcp_bound_to_half_wnd(tp: &TcpSock, pktsize: u32) -> u32 {
    let cutoff = if tp.max_window > TCP_MSS_DEFAULT as u64 {
        tp.max_window / 2
    } else {
        tp.max_window
    };
    if cutoff != 0 && pktsize as u64 > cutoff {
        return (cutoff as u32).max(68 - tp.tcp_header_len);
    }
    pktsize
}

/// `tcp_xmit_size_goal` (net/ipv4/tcp.c): how big `tcp_sendmsg` lets an skb grow.
///
/// 3.12 .. 3.18 (95bd09eb27): `sk_pacing_rate / 2000` (about 1 ms of data at twice the
/// rate), at least `tcp_min_tso_segs` MSS, at most `sk_gso_max_size - 1 - hlen`.
/// 3.19+ (605ad7f1): `sk_gso_max_size` (~64 KB); the split happens at xmit time.
/// The goal is recomputed only when it moves by at least one MSS (`tp->gso_segs`, called
/// `xmit_size_goal_segs` before 3.19).
pub fn tcp_xmit_size_goal(tp: &mut TcpSock, mss_now: u32) -> u32 {
    let target = match tp.profile.tso_sizing {
        TsoSizing::AtSendmsg => {
            let hlen = IPV4_HLEN + tp.tcp_header_len;
            let gso_size =
                ((tp.sk_pacing_rate / 2000) as u32).max(tp.net.sysctl.tcp_min_tso_segs * mss_now);
            let goal = gso_size.min(GSO_MAX_SIZE - 1 - hlen);
            tcp_bound_to_half_wnd(tp, goal)
        }
        // 3.19 .. 4.x: sk_gso_max_size - 1 - MAX_TCP_HEADER; 6.x: sk_gso_max_size already has
        // MAX_TCP_HEADER + 1 taken off (sk_setup_caps).
        TsoSizing::AtXmit => {
            tcp_bound_to_half_wnd(tp, tp.sk_gso_max_size - 1 - tp.profile.max_tcp_header)
        }
        TsoSizing::AtXmitRtt => tcp_bound_to_half_wnd(tp, tp.sk_gso_max_size),
    };
    let mut cached = tp.gso_segs * mss_now;
    if target < cached || target >= cached + mss_now {
        tp.gso_segs = (target / mss_now).min(GSO_MAX_SEGS);
        cached = tp.gso_segs * mss_now;
    }
    cached.max(mss_now)
}

/// `tcp_send_mss`: `(mss_now, size_goal)`.
pub fn tcp_send_mss(tp: &mut TcpSock) -> (u32, u32) {
    let mss = tcp_current_mss(tp);
    let goal = tcp_xmit_size_goal(tp, mss);
    (mss, goal)
}

// ---------------------------------------------------------------------------------------------
// The tests of tcp_write_xmit
// ---------------------------------------------------------------------------------------------

/// `tcp_init_tso_segs`: segment count of an skb for this MSS.
pub fn tcp_init_tso_segs(skb: &mut Skb, mss_now: u32) -> u32 {
    if skb.pcount == 0 || (skb.pcount > 1 && skb.gso_size != mss_now) {
        let len = skb.len();
        if len <= mss_now {
            skb.pcount = 1;
            skb.gso_size = 0;
        } else {
            skb.pcount = len.div_ceil(mss_now);
            skb.gso_size = mss_now;
        }
    }
    skb.pcount
}

/// `tcp_cwnd_test`: how many segments the congestion window lets out now (0 = none). Never
/// more than half the window in one TSO burst, so that at least two packets are in flight.
pub fn tcp_cwnd_test(tp: &TcpSock, skb: &Skb) -> u32 {
    if skb.flags & tcp_flags::FIN != 0 && skb.pcount == 1 {
        return 1;
    }
    let in_flight = tp.packets_in_flight();
    let cwnd = tp.snd_cwnd;
    if in_flight >= cwnd {
        return 0;
    }
    (cwnd / 2).max(1).min(cwnd - in_flight)
}

/// `tcp_snd_wnd_test`: the first segment of the skb fits in the peer's window.
pub fn tcp_snd_wnd_test(tp: &TcpSock, skb: &Skb, mss: u32) -> bool {
    let end = if skb.len() > mss {
        skb.seq + mss as u64
    } else {
        skb.end_seq
    };
    end <= tp.wnd_end()
}

/// `tcp_nagle_check`: true = hold a partial (`partial`) segment back.
/// Nagle (RFC 896) with Minshall's refinement: hold only while a previously sent *small*
/// segment is unacknowledged; TCP_CORK holds unconditionally.
pub fn tcp_nagle_check(partial: bool, tp: &TcpSock, nonagle: u8) -> bool {
    partial
        && ((nonagle & TCP_NAGLE_CORK) != 0
            || (nonagle == 0 && tp.packets_out > 0 && tp.tcp_minshall_check()))
}

/// `tcp_nagle_test`: true = a one-segment skb may be sent now.
pub fn tcp_nagle_test(tp: &TcpSock, skb: &Skb, cur_mss: u32, nonagle: u8) -> bool {
    if nonagle & TCP_NAGLE_PUSH != 0 {
        return true;
    }
    if skb.flags & tcp_flags::FIN != 0 {
        return true;
    }
    !tcp_nagle_check(skb.len() < cur_mss, tp, nonagle)
}

/// `tcp_minshall_update`: remember the end of a sub-MSS segment just sent.
fn tcp_minshall_update(tp: &mut TcpSock, mss_now: u32, end_seq: u64, len: u32, pcount: u32) {
    if len < pcount * mss_now {
        tp.snd_sml = end_seq;
    }
}

/// `tcp_mss_split_point`: how many bytes of a multi-segment skb to send now, at most
/// `max_segs` MSS; a trailing partial segment is held when Nagle says so.
fn tcp_mss_split_point(
    tp: &TcpSock,
    skb: &Skb,
    is_tail: bool,
    mss_now: u32,
    max_segs: u32,
    nonagle: u8,
) -> u32 {
    let window = tp.wnd_end() - skb.seq;
    let max_len = mss_now as u64 * max_segs as u64;
    if max_len <= window && !is_tail {
        return max_len as u32;
    }
    let needed = (skb.len() as u64).min(window);
    if max_len <= needed {
        return max_len as u32;
    }
    let partial = needed % mss_now as u64;
    // tcp_mss_split_point: "If last segment is not a full MSS, check if the Nagle rules
    // allow us to send it."
    if tcp_nagle_check(partial != 0, tp, nonagle) {
        return (needed - partial) as u32;
    }
    needed as u32
}

/// `tcp_tso_autosize` (3.19+): segments per TSO packet from the pacing rate: about 1 ms of
/// data (`sk_pacing_rate >> sk_pacing_shift`), plus (5.18+) an RTT-based allowance.
pub fn tcp_tso_autosize(tp: &TcpSock, mss_now: u32, min_tso_segs: u32) -> u32 {
    let rate = if tp.sk_pacing_rate == tp.profile.pacing_unlimited() {
        u64::MAX
    } else {
        tp.sk_pacing_rate
    };
    let mut bytes = rate >> tp.sk_pacing_shift;
    if tp.profile.tso_sizing == TsoSizing::AtXmitRtt {
        // 65466904b015: "r = tcp_min_rtt(tp) >> sysctl_tcp_tso_rtt_log;
        // if (r < BITS_PER_TYPE(sk->sk_gso_max_size)) bytes += sk->sk_gso_max_size >> r;"
        // The sysctl is a u8 (0..255): a shift by 64 or more leaves 0 here, as a shift by
        // 32..63 of the u32 min_rtt does (C leaves shifts past the width undefined).
        let r = (tp.min_rtt_us.min(u32::MAX as u64))
            .checked_shr(tp.net.sysctl.tcp_tso_rtt_log)
            .unwrap_or(0);
        if r < 32 {
            bytes = bytes.saturating_add((tp.sk_gso_max_size >> r) as u64);
        }
        bytes = bytes.min(tp.sk_gso_max_size as u64);
    } else {
        // 605ad7f1: min(sk_pacing_rate >> 10, sk_gso_max_size - 1 - MAX_TCP_HEADER)
        bytes = bytes.min((GSO_MAX_SIZE - 1 - tp.profile.max_tcp_header) as u64);
    }
    ((bytes / mss_now as u64) as u32).max(min_tso_segs)
}

/// `tcp_tso_segs`: the cap on segments per TSO packet for this flow; the congestion
/// control's `min_tso_segs` (BBR) replaces the sysctl `tcp_min_tso_segs`.
pub fn tcp_tso_segs(tp: &TcpSock, mss_now: u32) -> u32 {
    let min_tso = crate::net::ipv4::tcp_cong::min_tso_segs(tp);
    tcp_tso_autosize(tp, mss_now, min_tso).min(GSO_MAX_SEGS)
}

/// `tcp_tso_should_defer`: hold a multi-segment skb for a bigger burst ("TSO Nagle", John
/// Heffner's algorithm). Returns `Some((may_send_bytes, would_like_bytes))` to defer.
///
/// Versions: ≤ 3.19 defer at most two jiffies (`tp->tso_deferred`); 4.0 .. 4.19 do not defer
/// when the last send is more than a jiffy old or the oldest unacked packet is younger than
/// srtt/2 (50c8339e9299); 4.20+ the same in ns with EDT (`tcp_wstamp_ns`, 1 ms).
fn tcp_tso_should_defer(
    w: &mut Stack,
    sk: SockId,
    skb_idx: usize,
    is_cwnd_limited: &mut bool,
    max_segs: u32,
) -> Option<(u64, u64)> {
    let now = w.now_ns;
    let jiffies = w.jiffies();
    let tp = &mut w.socks[sk as usize];
    let skb = &tp.write_queue[skb_idx];
    if skb.flags & tcp_flags::FIN != 0 {
        return None;
    }
    let kernel = tp.profile.kernel;
    if kernel.at_least(6, 0) {
        // "Avoid bursty behavior by allowing defer only if the last write was recent (1 ms)."
        if now.saturating_sub(tp.tcp_wstamp_ns) > 1_000_000 {
            return None;
        }
    } else if kernel.at_least(4, 0) {
        if jiffies > tp.lsndtime {
            return None;
        }
    } else if tp.tso_deferred != 0 && jiffies - (tp.tso_deferred - 1) > 1 {
        // 3.x: "Defer for less than two clock ticks."
        tp.tso_deferred = 0;
        return None;
    }
    let in_flight = tp.packets_in_flight();
    assert!(skb.pcount > 1 && tp.snd_cwnd > in_flight);
    let send_win = tp.wnd_end() - skb.seq;
    let cong_win = (tp.snd_cwnd - in_flight) as u64 * tp.mss_cache as u64;
    let limit = send_win.min(cong_win);
    let mss = tp.mss_cache as u64;
    let full = if tp.profile.tso_sizing == TsoSizing::AtSendmsg {
        // ≤ 3.18: "If a full-sized TSO skb can be sent, do it" (size goal at sendmsg time).
        (tp.gso_segs as u64 * mss).min(tp.sk_gso_max_size as u64)
    } else {
        max_segs as u64 * mss
    };
    let send_now = |tp: &mut TcpSock| {
        tp.tso_deferred = 0;
        None
    };
    if limit >= full {
        return send_now(tp);
    }
    let is_tail = skb_idx + 1 == tp.write_queue.len();
    if !is_tail && limit >= skb.len() as u64 {
        return send_now(tp);
    }
    let win_divisor = tp.net.sysctl.tcp_tso_win_divisor as u64;
    if let Some(chunk) = tp
        .snd_wnd
        .min(tp.snd_cwnd as u64 * mss)
        .checked_div(win_divisor)
    {
        // "If at least some fraction of a window is available, just use it."
        if limit >= chunk {
            return send_now(tp);
        }
    } else if limit > 3 * mss {
        // tcp_max_tso_deferred_mss = 3
        return send_now(tp);
    }
    if kernel.at_least(6, 0) {
        // "If next ACK is likely to come too late (half srtt), do not defer."
        let Some(head) = tp.rtx_queue.front() else {
            return send_now(tp);
        };
        let srtt_ns = tp.srtt() * 1000;
        let expected_ack = head.tstamp_ns + srtt_ns;
        if expected_ack.saturating_sub(now) > (srtt_ns / 2).min(1_000_000) {
            return send_now(tp);
        }
    } else if kernel.at_least(4, 0) {
        let Some(head) = tp.rtx_queue.front() else {
            return send_now(tp);
        };
        let age_us = (now - head.tstamp_ns) / 1000;
        if age_us < tp.srtt_us >> 4 {
            return send_now(tp);
        }
    } else if tp.tso_deferred == 0 {
        // "Do not rearm the timer if already set to not break TCP ACK clocking."
        tp.tso_deferred = jiffies + 1;
    }
    let skb_len = tp.write_queue[skb_idx].len() as u64;
    if cong_win < send_win && cong_win <= skb_len {
        *is_cwnd_limited = true;
    }
    Some((limit, full.min(skb_len)))
}

/// `tcp_small_queue_check` (TCP Small Queues): true = throttle, too many bytes of this socket
/// already sit in the qdisc and the NIC (`sk_wmem_alloc`). Sets `TSQ_THROTTLED` so that the
/// TX completion that frees room (`tcp_wfree`) runs the TSQ handler.
///
/// 3.13 .. 3.18: `max(tcp_limit_output_bytes, pacing_rate >> 10)`, on the unsplit skb.
/// 3.19 .. 4.19 (605ad7f1): `min(max(2 * truesize, pacing_rate >> 10), tcp_limit_output_bytes)`.
/// 4.20 .. 6.15: paced flows exempt from the sysctl; 6.16+ (c4221a8cc3a7) no exemption.
/// Never throttle with an empty rtx queue or (4.10, restored 6.6) a single skb in it.
fn tcp_small_queue_check(tp: &mut TcpSock, skb_truesize: u64, factor: u32) -> Option<(u64, u64)> {
    let rate_bytes = tp.sk_pacing_rate >> tp.sk_pacing_shift;
    let limit = if !tp.profile.tsq_after_split {
        tp.net.sysctl.tcp_limit_output_bytes.max(rate_bytes)
    } else {
        let mut limit = (2 * skb_truesize).max(rate_bytes);
        let paced = tp.sk_pacing_status != PacingStatus::None;
        if tp.profile.tsq != TsqRule::PacedExempt || !paced {
            limit = limit.min(tp.net.sysctl.tcp_limit_output_bytes);
        }
        limit
    } << factor;
    if tp.sk_wmem_alloc > limit {
        if tp.profile.tsq_single_skb_shortcut && tp.rtx_queue.len() <= 1 {
            return None;
        }
        tp.tsq_flags |= TSQ_THROTTLED;
        return Some((tp.sk_wmem_alloc, limit));
    }
    None
}

// ---------------------------------------------------------------------------------------------
// tcp_write_xmit
// ---------------------------------------------------------------------------------------------

/// `tcp_write_xmit`: send as much of the write queue as the tests allow.
///
/// Returns true when nothing is in flight but data remains (the caller arms the PROBE0 timer,
/// `tcp_check_probe_timer`). `push_one`: 0 = as much as possible, 1 = one skb (sendmsg's
/// `tcp_push_one`, no TSO deferral).
///
/// Simplified:
/// - no MTU probing and no TLP timer, because the model's links are lossless; visible effect:
///   none.
/// - internal pacing (`tcp_pacing_check`) only for sockets whose pacing status is `Needed`
///   (SO_MAX_PACING_RATE without fq on 4.13+).
pub fn tcp_write_xmit(w: &mut Stack, sk: SockId, mss_now: u32, nonagle: u8, push_one: u8) -> bool {
    let mut sent_pkts = 0u32;
    let mut is_cwnd_limited = false;
    let (now_j, hz) = (w.jiffies(), w.hz);
    // tcp_event_new_data_sent's tcp_rearm_rto, done once after the loop: the loss probe that
    // tcp_schedule_loss_probe arms there replaces it, from the same instant and head skb.
    let mut rearm_rto = false;
    let max_segs = tcp_tso_segs(&w.socks[sk as usize], mss_now);
    loop {
        let tp = &mut w.socks[sk as usize];
        if tp.write_queue.is_empty() {
            break;
        }
        // tcp_pacing_check: internal pacing, 4.13+. The pacing hrtimer is started only if it
        // is not already queued (hrtimer_is_queued), so a flow held by pacing has one timer.
        if tp.sk_pacing_status == PacingStatus::Needed && tp.tcp_wstamp_ns > w.now_ns {
            let t = tp.tcp_wstamp_ns;
            let start = tp.pacing_timer_ns.is_none();
            if start {
                tp.pacing_timer_ns = Some(t);
            }
            xmit_hold(w, sk, Gate::Pacing, t, 0);
            if start {
                w.schedule(t, Event::PaceKick(sk));
            }
            break;
        }
        let mut tso_segs = tcp_init_tso_segs(&mut tp.write_queue[0], mss_now);

        let mut cwnd_quota = tcp_cwnd_test(tp, &tp.write_queue[0]);
        if cwnd_quota == 0 && push_one == 2 {
            // "Force out a loss probe pkt."
            cwnd_quota = 1;
        }
        if cwnd_quota == 0 {
            is_cwnd_limited = true;
            let (a, b) = (tp.packets_in_flight() as u64, tp.snd_cwnd as u64);
            xmit_hold(w, sk, Gate::Cwnd, a, b);
            break;
        }
        if tp.profile.grow_skb {
            // 6.10+: "cwnd_quota = min(cwnd_quota, max_segs); missing_bytes = cwnd_quota *
            // mss_now - skb->len; if (missing_bytes > 0) tcp_grow_skb(sk, skb, missing_bytes);"
            let missing =
                (cwnd_quota.min(max_segs) as i64) * mss_now as i64 - tp.write_queue[0].len() as i64;
            if missing > 0 && tcp_grow_skb(tp, missing as u32) {
                tso_segs = tcp_init_tso_segs(&mut tp.write_queue[0], mss_now);
            }
        }
        let (skb_seq, skb_end) = (tp.write_queue[0].seq, tp.write_queue[0].end_seq);
        let is_tail = tp.write_queue.len() == 1;
        if !tcp_snd_wnd_test(tp, &tp.write_queue[0], mss_now) {
            let a = (skb_seq + mss_now as u64).min(skb_end);
            let b = tp.wnd_end();
            xmit_hold(w, sk, Gate::Rwnd, a, b);
            break;
        }
        if tso_segs == 1 {
            let nag = if is_tail { nonagle } else { TCP_NAGLE_PUSH };
            if !tcp_nagle_test(tp, &tp.write_queue[0], mss_now, nag) {
                let gate = nagle_gate(nag);
                let (a, b) = (tp.snd_sml, tp.snd_una);
                xmit_hold(w, sk, gate, a, b);
                break;
            }
        } else if push_one == 0 {
            if let Some((a, b)) = tcp_tso_should_defer(w, sk, 0, &mut is_cwnd_limited, max_segs) {
                xmit_hold(w, sk, Gate::TsoDefer, a, b);
                break;
            }
        }
        let tp = &mut w.socks[sk as usize];
        if !tp.profile.tsq_after_split {
            // 3.13 .. 3.18: TSQ on the unsplit skb, before the split.
            let ts = tp.write_queue[0].truesize as u64;
            if let Some((a, b)) = tcp_small_queue_check(tp, ts, 0) {
                xmit_hold(w, sk, Gate::Tsq, a, b);
                break;
            }
        }
        let tp = &mut w.socks[sk as usize];
        let mut limit = mss_now;
        if tso_segs > 1 {
            // ≤ 3.18 the cap is sk_gso_max_segs: skbs were already sized at sendmsg time.
            let cap = if tp.profile.tso_sizing == TsoSizing::AtSendmsg {
                GSO_MAX_SEGS
            } else {
                max_segs
            };
            limit = tcp_mss_split_point(
                tp,
                &tp.write_queue[0],
                is_tail,
                mss_now,
                cwnd_quota.min(cap),
                nonagle,
            );
        }
        if limit == 0 {
            // The whole skb is a Nagle-held partial segment.
            let gate = nagle_gate(nonagle);
            let (a, b) = (tp.snd_sml, tp.snd_una);
            xmit_hold(w, sk, gate, a, b);
            break;
        }
        if tp.write_queue[0].len() > limit {
            tso_fragment(w, sk, 0, limit, mss_now);
        }
        let tp = &mut w.socks[sk as usize];
        if tp.profile.tsq_after_split {
            let ts = tp.write_queue[0].truesize as u64;
            if let Some((a, b)) = tcp_small_queue_check(tp, ts, 0) {
                xmit_hold(w, sk, Gate::Tsq, a, b);
                break;
            }
        }
        let tp = &w.socks[sk as usize];
        // An skb with neither payload nor FIN has nothing to send (a FIN-only skb of
        // tcp_send_fin has).
        if tp.write_queue[0].is_empty() && tp.write_queue[0].flags & tcp_flags::FIN == 0 {
            break;
        }
        if tcp_transmit_skb(w, sk, mss_now) != 0 {
            break; // the skb stays at the head of the write queue, not sent
        }
        let (end_seq, len, pcount, rearm) = tcp_event_new_data_sent(w, sk);
        rearm_rto |= rearm;
        let tp = &mut w.socks[sk as usize];
        tcp_minshall_update(tp, mss_now, end_seq, len, pcount);
        sent_pkts += pcount;
        if push_one != 0 {
            break;
        }
    }
    let tp = &mut w.socks[sk as usize];
    is_cwnd_limited |= tp.packets_in_flight() >= tp.snd_cwnd;
    if sent_pkts > 0 || is_cwnd_limited {
        tcp_cwnd_validate(tp, is_cwnd_limited, now_j, hz);
    }
    if sent_pkts > 0 {
        if crate::net::ipv4::tcp_input::tcp_in_cwnd_reduction(tp) {
            tp.lr.prr_out += sent_pkts;
        }
        // "Send one loss probe per tail loss episode."
        let probe = push_one != 2 && tcp_schedule_loss_probe(w, sk, false);
        if rearm_rto && !probe {
            crate::net::ipv4::tcp_timer::tcp_rearm_rto(w, sk);
        }
        return false;
    }
    let probe0 = tp.packets_out == 0 && !tp.write_queue.is_empty();
    // A call that sent nothing still did its fixed work (a sending call's is in tcp_xmit_ns).
    let host = tp.host;
    let c = w.costs(host).write_xmit_call_ns;
    w.charge(sk, c);
    probe0
}

/// `tcp_grow_skb` (net/ipv4/tcp_output.c, 6.10+, 8ee602c63520 "tcp: try to send bigger TSO
/// packets"): "First skb in the write queue is smaller than ideal packet size. Check if we can
/// move payload from the second skb in the queue." After a split (a cwnd or a pacing-sized
/// TSO limit), the leftover at the head would otherwise leave as a small packet of its own,
/// "big skbs followed by a single MSS skb, in a 'locked' pattern". `skb_shift` moves `amount`
/// bytes of page frags, and their truesize, from the next skb; an emptied next skb is freed.
/// Returns whether the head skb grew.
///
/// Simplified: `skb_shift`'s refusals other than an end-of-record mark (a source with linear
/// data, which 6.x TCP skbs do not have; more than `MAX_SKB_FRAGS` frags) are not modelled.
fn tcp_grow_skb(tp: &mut TcpSock, amount: u32) -> bool {
    if tp.write_queue.len() < 2 || tp.write_queue[0].eor {
        return false; // tcp_skb_is_last, !tcp_skb_can_collapse
    }
    let nlen = amount.min(tp.write_queue[1].len());
    if nlen == 0 {
        return false;
    }
    let next = &mut tp.write_queue[1];
    next.seq += nlen as u64;
    next.truesize -= nlen;
    next.pcount = 0;
    let (emptied, next_end, next_flags, next_eor) =
        (next.is_empty(), next.end_seq, next.flags, next.eor);
    let skb = &mut tp.write_queue[0];
    skb.end_seq += nlen as u64;
    skb.truesize += nlen;
    skb.pcount = 0;
    if emptied {
        // "TCP_SKB_CB(skb)->end_seq = TCP_SKB_CB(next_skb)->end_seq" (a FIN), then
        // tcp_eat_one_skb: its flags and eor, unlinked and freed (tcp_wmem_free_skb).
        skb.end_seq = next_end;
        skb.flags |= next_flags;
        skb.eor = next_eor;
        let gone = tp.write_queue.remove(1).unwrap();
        tp.sk_wmem_queued -= gone.truesize as u64;
        tp.sk_mem_uncharge(gone.truesize as u64);
    }
    true
}

/// `tcp_cwnd_validate` (`net/ipv4/tcp_output.c`), its bookkeeping of how fully cwnd is used,
/// which `tcp_is_cwnd_limited` reads on the next ACK:
///
/// - 6.0+ (f4ce91ce12a7, "tcp: fix tcp_cwnd_validate() to not forget is_cwnd_limited"): a
///   window that was cwnd-limited once stays so until `snd_una` passes `cwnd_usage_seq`;
///   otherwise `max_packets_out` is the most packets out in the window.
/// - 4.0 .. 5.19 (ca8a22634381, "make cwnd-limited checks measurement-based"): the same per
///   window (`max_packets_seq`), but a later, larger flight overwrites a cwnd-limited mark.
/// - 3.x: not per window (the running maximum and the last call's mark; 3.x's own
///   `tcp_is_cwnd_limited` tested the flight against cwnd on each ACK instead).
///
/// Then, from 4.0, RFC 2861: while cwnd is filled, its stamp is renewed; while it is not, the
/// largest flight is noted (`snd_cwnd_used`), and after an RTO of that (with
/// `tcp_slow_start_after_idle`, not for BBR) [`tcp_cwnd_application_limited`] decays cwnd to
/// what was used.
///
/// Simplified: 3.x had RFC 2861 too; the model leaves it out there (the 3.x seed scenarios keep
/// the behaviour they were checked with). The `TCP_CHRONO_SNDBUF_LIMITED` bookkeeping
/// (tcp_info only) is not modelled.
fn tcp_cwnd_validate(tp: &mut TcpSock, is_cwnd_limited: bool, now_j: u64, hz: u64) {
    let kernel = tp.profile.kernel;
    let window_over = tp.snd_una >= tp.cwnd_usage_seq;
    let start = if kernel.at_least(6, 0) {
        window_over
            || is_cwnd_limited
            || (!tp.is_cwnd_limited && tp.packets_out > tp.max_packets_out)
    } else if kernel.at_least(4, 0) {
        window_over || tp.packets_out > tp.max_packets_out || is_cwnd_limited
    } else {
        tp.is_cwnd_limited = is_cwnd_limited;
        tp.max_packets_out = tp.max_packets_out.max(tp.packets_out);
        return;
    };
    if start {
        tp.is_cwnd_limited = is_cwnd_limited;
        tp.max_packets_out = tp.packets_out;
        tp.cwnd_usage_seq = tp.snd_nxt;
    }
    rfc2861_validate(tp, now_j, hz);
}

/// The RFC 2861 half of `tcp_cwnd_validate` (`!ca_ops->cong_control` from 4.9, when BBR came).
fn rfc2861_validate(tp: &mut TcpSock, now_j: u64, hz: u64) {
    if crate::net::ipv4::tcp_cong::tcp_is_cwnd_limited(tp, 0) {
        // "Network is feed fully."
        tp.snd_cwnd_used = 0;
        tp.snd_cwnd_stamp = now_j;
        return;
    }
    // "Network starves."
    tp.snd_cwnd_used = tp.snd_cwnd_used.max(tp.packets_out);
    let rto_j = tp.rto_ns * hz / 1_000_000_000;
    if tp.net.sysctl.tcp_slow_start_after_idle
        && now_j.saturating_sub(tp.snd_cwnd_stamp) >= rto_j
        && !crate::net::ipv4::tcp_cong::has_cong_control(tp)
    {
        tcp_cwnd_application_limited(tp, now_j);
    }
}

/// `tcp_cwnd_application_limited` (RFC 2861, "slow part"): after an RTO in which cwnd was not
/// filled, in Open and while the writer is not held by its send buffer (`SOCK_NOSPACE`), bring
/// cwnd halfway down to what was used (at least the initial window), ssthresh to 3/4 of cwnd.
fn tcp_cwnd_application_limited(tp: &mut TcpSock, now_j: u64) {
    if tp.icsk_ca_state == TCP_CA_OPEN && !tp.sock_nospace {
        let win_used = tp.snd_cwnd_used.max(TCP_INIT_CWND);
        if win_used < tp.snd_cwnd {
            tp.snd_ssthresh = crate::net::ipv4::tcp_input::tcp_current_ssthresh(tp);
            tp.snd_cwnd = (tp.snd_cwnd + win_used) >> 1;
        }
        tp.snd_cwnd_used = 0;
    }
    tp.snd_cwnd_stamp = now_j;
}

/// Trace why `tcp_write_xmit` stopped at the head of the write queue (`a`, `b`: the numbers
/// the test compared, see [`Ev::describe`]).
fn xmit_hold(w: &mut Stack, sk: SockId, gate: Gate, a: u64, b: u64) {
    let tp = &w.socks[sk as usize];
    let Some(skb) = tp.write_queue.front() else {
        return;
    };
    let (host, id, seq, end_seq) = (tp.host, skb.id, skb.seq, skb.end_seq);
    w.emit(host, sk, || Ev::XmitHold {
        skb: id,
        seq,
        end_seq,
        gate,
        a,
        b,
    });
}

/// The gate a Nagle test that holds is called in the trace: TCP_CORK/MSG_MORE or Nagle.
fn nagle_gate(nonagle: u8) -> Gate {
    if nonagle & TCP_NAGLE_CORK != 0 {
        Gate::Cork
    } else {
        Gate::Nagle
    }
}

/// `tso_fragment`: split write-queue skb `idx` after `len` bytes; the rest becomes a new skb
/// right behind it, with a fresh head (charged to `sk_wmem_queued`) and the payload's
/// truesize moved over (`buff->truesize += nlen; skb->truesize -= nlen`).
fn tso_fragment(w: &mut Stack, sk: SockId, idx: usize, len: u32, mss_now: u32) {
    let id = w.next_skb_id();
    let host = w.socks[sk as usize].host;
    let tp = &mut w.socks[sk as usize];
    let head_ts = tp.profile.skb_alloc_truesize(0);
    let skb = &mut tp.write_queue[idx];
    let total = skb.len();
    assert!(len > 0 && len < total, "tso_fragment at {len} of {total}");
    let nlen = total - len;
    // Payload that lived in the 3.x linear head stays with the first part when the split is
    // past it; otherwise tcp_fragment copies the linear tail into the new head.
    let linear_used =
        tp.profile.skb_linear_payload - skb.linear_room.min(tp.profile.skb_linear_payload);
    let moved_frag_bytes = nlen - linear_used.saturating_sub(len).min(nlen);
    let buff = Skb {
        id,
        seq: skb.seq + len as u64,
        end_seq: skb.end_seq,
        truesize: head_ts + moved_frag_bytes,
        pcount: 0,
        gso_size: 0,
        flags: skb.flags, // PSH/FIN move to the second part
        eor: skb.eor,
        linear_room: 0,
        tstamp_ns: 0,
        first_write_ns: skb.first_write_ns,
        retrans: false,
        sacked: 0,
        tx: skb.tx,
    };
    skb.end_seq = skb.seq + len as u64;
    skb.flags &= !(tcp_flags::PSH | tcp_flags::FIN);
    skb.eor = false;
    skb.truesize -= moved_frag_bytes;
    skb.linear_room = 0;
    skb.pcount = 0;
    tcp_init_tso_segs(skb, mss_now);
    let (old, new_id, rest) = (skb.id, id, nlen as u64);
    tp.sk_wmem_queued += head_ts as u64;
    tp.sk_mem_charge(head_ts as u64);
    tp.write_queue.insert(idx + 1, buff);
    let c = w.costs(host);
    let cost = c.tso_fragment_ns + c.skb_alloc_ns;
    w.charge(sk, cost);
    w.emit(host, sk, || Ev::Fragment {
        skb: old,
        new_skb: new_id,
        len: len as u64,
        rest,
    });
}

/// `__tcp_transmit_skb` for the head of the write queue: clone it, build the header, charge
/// the clone's truesize to `sk_wmem_alloc`, count TcpOutSegs and hand it to IP. Returns the
/// error (0: sent; see [`__tcp_transmit_skb`]).
fn tcp_transmit_skb(w: &mut Stack, sk: SockId, _mss_now: u32) -> i32 {
    __tcp_transmit_skb(w, sk, false, 0)
}

/// `net_xmit_eval`'s result for `NET_XMIT_DROP`: the value `__tcp_transmit_skb` returns.
const NET_XMIT_DROP: i32 = 1;
/// `-ENETDOWN`.
const ENETDOWN: i32 = -100;

/// `__tcp_transmit_skb` for write-queue skb 0 (new data) or, with `rtx`, retransmit-queue skb
/// `idx` (a retransmission, counted in TcpRetransSegs instead of TcpOutSegs).
///
/// Returns 0, or the error of the local transmit (Linux 6.18 `net/ipv4/tcp_output.c`): the
/// qdisc refused the clone (`NET_XMIT_DROP`, 1) or the queueless device was stopped
/// (`-ENETDOWN`). A qdisc that dropped or refused (`NET_XMIT_DROP`, `NET_XMIT_CN`) is local
/// congestion: `tcp_enter_cwr`. On an error the skb is not sent: the departure time and the
/// rate sample are not updated, and the callers keep the skb where it is (`tcp_write_xmit`
/// stops, `tcp_retransmit_skb` counts `TCPRetransFail`).
fn __tcp_transmit_skb(w: &mut Stack, sk: SockId, rtx: bool, idx: usize) -> i32 {
    let pkt_id = w.next_pkt_id();
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    // EDT: the skb leaves at tcp_wstamp_ns (4.20+).
    let prior_wstamp = tp.tcp_wstamp_ns;
    if tp.profile.edt {
        tp.tcp_wstamp_ns = tp.tcp_wstamp_ns.max(now);
    }
    let window = tcp_select_window(tp);
    let psh_every_tso = tp.profile.psh_every_tso_packet;
    let skb = if rtx {
        &mut tp.rtx_queue[idx]
    } else {
        &mut tp.write_queue[idx]
    };
    skb.tstamp_ns = now;
    let pcount = skb.pcount.max(1);
    let mut flags = skb.flags | tcp_flags::ACK;
    if pcount > 1 && psh_every_tso {
        // 051ba67447de: "tcp: force a PSH flag on TSO packets" (expedite GRO flush).
        flags |= tcp_flags::PSH;
    }
    let hdr = ETH_HLEN + IPV4_HLEN + tp.tcp_header_len;
    let payload = skb.len();
    let pkt = Packet {
        id: pkt_id,
        orig_skb: skb.id,
        sk,
        src_host: tp.host,
        dst_host: tp.peer_host,
        hash: sk.wrapping_mul(2_654_435_761),
        priority: tp.sk_priority,
        len: hdr + payload,
        hdr_len: hdr,
        truesize: skb.truesize,
        gso_segs: pcount,
        gso_size: if pcount > 1 { skb.gso_size } else { 0 },
        tstamp_ns: if tp.profile.edt { tp.tcp_wstamp_ns } else { 0 },
        sk_pacing_rate_bps: tp.sk_pacing_rate,
        pure_ack: false,
        seq: skb.seq,
        end_seq: skb.end_seq,
        ack_seq: tp.rcv_nxt,
        window,
        flags,
        tsecr_ms: tp.ts_recent_ms,
        sent_ns: now,
    };
    let (skb_id, seq, end_seq, truesize) = (skb.id, skb.seq, skb.end_seq, skb.truesize as u64);
    tp.sk_wmem_alloc += truesize;
    // "if (skb->len != tcp_header_size) { tcp_event_data_sent(tp, sk); tp->data_segs_out +=
    // tcp_skb_pcount(skb); ... }": a FIN without payload is not data.
    if payload > 0 {
        tp.data_segs_out += pcount as u64;
    }
    tp.segs_out += pcount as u64;
    let host = tp.host;
    let retrans = rtx || (tp.write_queue[0].retrans && end_seq <= tp.high_seq);
    // Sending data carries an ACK: the receiver side's delayed ACK is satisfied.
    tcp_event_ack_sent(w, sk, pcount);
    if payload > 0 {
        tcp_event_data_sent(w, sk);
    }
    // TCP_MIB_OUTSEGS counts new data and control, not retransmissions.
    w.mib(host).add(
        if retrans {
            Mib::TcpRetransSegs
        } else {
            Mib::TcpOutSegs
        },
        pcount as u64,
    );
    let c = w.costs(host).tcp_xmit_ns;
    w.charge(sk, c);
    let len = (hdr + payload) as u64;
    w.emit(host, sk, || Ev::Xmit {
        skb: skb_id,
        pkt: pkt_id,
        seq,
        end_seq,
        segs: pcount as u64,
        len,
        truesize,
    });
    let err = match w.ip_queue_xmit(host, pkt) {
        NetXmit::Success => 0,
        NetXmit::Congested => {
            tcp_enter_cwr(w, sk);
            0 // net_xmit_eval(NET_XMIT_CN)
        }
        NetXmit::Drop => {
            tcp_enter_cwr(w, sk);
            NET_XMIT_DROP
        }
        NetXmit::Down => ENETDOWN,
    };
    if err != 0 {
        return err;
    }
    let tp = &mut w.socks[sk as usize];
    // tcp_update_skb_after_send: advance the departure time by len / pacing rate (first
    // 10 segments unpaced), forgiving up to half of it if we were late.
    if tp.profile.edt && tp.sk_pacing_status != PacingStatus::None {
        let rate = tp.sk_pacing_rate;
        if rate != u64::MAX && rate != 0 && tp.data_segs_out >= 10 {
            let mut len_ns = payload as u64 * 1_000_000_000 / rate;
            let credit = tp.tcp_wstamp_ns - prior_wstamp;
            len_ns -= (len_ns / 2).min(credit);
            tp.tcp_wstamp_ns += len_ns;
        }
    }
    if rtx {
        // tcp_rate_skb_sent for a retransmission (something is in flight: no new interval).
        tp.rtx_queue[idx].tx = crate::net::core::sock::TcpSkbTx {
            first_tx_mstamp: tp.first_tx_mstamp,
            delivered_mstamp: tp.delivered_mstamp,
            delivered: tp.delivered,
            is_app_limited: tp.app_limited != 0,
        };
    } else {
        crate::net::ipv4::tcp_rate::tcp_rate_skb_sent(tp, idx, now / 1000);
    }
    0
}

/// `tcp_enter_cwr` (Linux 6.18 `net/ipv4/tcp_input.c`): local congestion (a qdisc dropped or
/// refused a packet) starts a cwnd reduction without a loss: `TCP_CA_CWR`, no undo.
fn tcp_enter_cwr(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    tp.lr.prior_ssthresh = 0;
    if tp.icsk_ca_state < TCP_CA_CWR {
        tp.lr.undo_marker = 0;
        crate::net::ipv4::tcp_input::tcp_init_cwnd_reduction(tp);
        crate::net::ipv4::tcp_input::tcp_set_ca_state(w, sk, TCP_CA_CWR);
    }
}

/// `tcp_event_new_data_sent`: the head skb moves to the retransmit queue; `snd_nxt`
/// advances; the RTO is to be armed if nothing was in flight or a loss probe was pending.
/// Returns `(end_seq, len, pcount, rearm_rto)`: the caller calls `tcp_rearm_rto`.
fn tcp_event_new_data_sent(w: &mut Stack, sk: SockId) -> (u64, u32, u32, bool) {
    let host = w.socks[sk as usize].host;
    let tp = &mut w.socks[sk as usize];
    let skb = tp.write_queue.pop_front().unwrap();
    let prior_packets = tp.packets_out;
    tp.snd_nxt = skb.end_seq;
    tp.packets_out += skb.pcount;
    let r = (skb.end_seq, skb.len(), skb.pcount);
    tp.rtx_queue.push_back(skb);
    let retrans = tp.rtx_queue.back().unwrap().retrans && r.0 <= tp.high_seq;
    // "Check if there's any pending window probe": a pending loss probe restarts as the RTO.
    let rearm = prior_packets == 0 || tp.icsk_pending == IcskPending::LossProbe;
    if !retrans {
        w.mib(host).add(Mib::TcpExtTCPOrigDataSent, r.2 as u64);
    }
    // 6.x: tcp_check_space() here too (a writer blocked on NOTSENT_LOWAT may wake).
    if w.socks[sk as usize].profile.kernel.at_least(5, 0) {
        crate::net::ipv4::tcp_input::tcp_check_space(w, sk);
    }
    (r.0, r.1, r.2, rearm)
}

/// `__tcp_push_pending_frames`: run `tcp_write_xmit`; arm PROBE0 if data is stuck with
/// nothing in flight.
pub fn __tcp_push_pending_frames(w: &mut Stack, sk: SockId, cur_mss: u32, nonagle: u8) {
    if tcp_write_xmit(w, sk, cur_mss, nonagle, 0) {
        crate::net::ipv4::tcp_timer::tcp_check_probe_timer(w, sk);
    }
}

/// `tcp_push_pending_frames`: push with the socket's own Nagle setting.
pub fn tcp_push_pending_frames(w: &mut Stack, sk: SockId) {
    let tp = &w.socks[sk as usize];
    if tp.write_queue.is_empty() {
        return;
    }
    let (mss, nonagle) = (tcp_current_mss(tp), tp.nonagle);
    __tcp_push_pending_frames(w, sk, mss, nonagle);
}

/// `tcp_push_one`: send the one full skb sendmsg just filled.
pub fn tcp_push_one(w: &mut Stack, sk: SockId, mss_now: u32) {
    tcp_write_xmit(w, sk, mss_now, TCP_NAGLE_PUSH, 1);
}

/// `tcp_send_fin` (net/ipv4/tcp_output.c, 6.18), called by `tcp_close` once `tcp_close_state`
/// moved the socket to FIN_WAIT1: "tack on the FIN if we have one skb in write queue and this
/// skb was not yet sent": the FIN rides on the unsent tail skb (`end_seq` and `write_seq` + 1);
/// otherwise a new header-only skb carries it (`tcp_init_nondata_skb(skb, tp->write_seq,
/// TCPHDR_ACK | TCPHDR_FIN)`, queued by `tcp_queue_skb`, which advances `write_seq` to its
/// `end_seq` and charges its truesize, `sk_forced_mem_schedule` ignoring the limits). Then
/// `__tcp_push_pending_frames(sk, tcp_current_mss(sk), TCP_NAGLE_OFF)`: `tcp_nagle_test`,
/// `tcp_cwnd_test` and `tcp_tso_should_defer` let a FIN through.
///
/// Simplified: the memory-pressure branch (FIN set on the last skb of the retransmit queue,
/// "Pretend we included the FIN on previous transmit") is left out, because the model has no
/// global TCP memory pressure; visible effect: none. The new skb's truesize is the model's
/// header-only skb (`skb_alloc_truesize(0)`), not `alloc_skb_fclone(MAX_TCP_HEADER)`'s.
pub fn tcp_send_fin(w: &mut Stack, sk: SockId) {
    let id = w.next_skb_id();
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    if let Some(tail) = tp.write_queue.back_mut() {
        tail.flags |= tcp_flags::FIN;
        tail.end_seq += 1;
        tp.write_seq += 1;
    } else {
        let truesize = tp.profile.skb_alloc_truesize(0);
        let skb = Skb {
            id,
            seq: tp.write_seq,
            end_seq: tp.write_seq + 1,
            truesize,
            pcount: 0,
            gso_size: 0,
            flags: tcp_flags::ACK | tcp_flags::FIN,
            eor: false,
            linear_room: 0,
            tstamp_ns: 0,
            first_write_ns: now,
            retrans: false,
            sacked: 0,
            tx: Default::default(),
        };
        // tcp_queue_skb
        tp.write_seq = skb.end_seq;
        tp.sk_wmem_queued += truesize as u64;
        tp.sk_mem_charge(truesize as u64);
        tp.write_queue.push_back(skb);
    }
    let mss = tcp_current_mss(&w.socks[sk as usize]);
    __tcp_push_pending_frames(w, sk, mss, TCP_NAGLE_OFF);
}

// ---------------------------------------------------------------------------------------------
// Retransmission (6.18)
// ---------------------------------------------------------------------------------------------

/// `tcp_fragment(TCP_FRAG_IN_RTX_QUEUE)`: split retransmit-queue skb `idx` after `len` bytes;
/// the rest, with the same scoreboard bits and send time, becomes a new skb right behind it.
/// The packet counts follow the new `pcount`s (`tcp_adjust_pcount`).
pub fn tcp_fragment_rtx(w: &mut Stack, sk: SockId, idx: usize, len: u32, mss_now: u32) {
    let id = w.next_skb_id();
    let host = w.socks[sk as usize].host;
    let tp = &mut w.socks[sk as usize];
    let head_ts = tp.profile.skb_alloc_truesize(0);
    let skb = &mut tp.rtx_queue[idx];
    let total = skb.len();
    assert!(len > 0 && len < total, "tcp_fragment at {len} of {total}");
    let nlen = total - len;
    let moved = nlen.min(skb.truesize.saturating_sub(head_ts));
    let old_pcount = skb.pcount;
    let mut buff = Skb {
        id,
        seq: skb.seq + len as u64,
        truesize: head_ts + moved,
        pcount: 0,
        gso_size: 0,
        linear_room: 0,
        ..skb.clone()
    };
    skb.end_seq = skb.seq + len as u64;
    skb.flags &= !(tcp_flags::PSH | tcp_flags::FIN);
    skb.eor = false;
    skb.truesize -= moved;
    skb.linear_room = 0;
    skb.pcount = 0;
    tcp_init_tso_segs(skb, mss_now);
    tcp_init_tso_segs(&mut buff, mss_now);
    let (old, sacked) = (skb.id, skb.sacked);
    let diff = old_pcount as i64 - (skb.pcount + buff.pcount) as i64;
    let adjust = |v: &mut u32| *v = (*v as i64 - diff) as u32;
    adjust(&mut tp.packets_out);
    if sacked & TCPCB_SACKED_ACKED != 0 {
        adjust(&mut tp.sacked_out);
    }
    if sacked & TCPCB_SACKED_RETRANS != 0 {
        adjust(&mut tp.retrans_out);
    }
    if sacked & TCPCB_LOST != 0 {
        adjust(&mut tp.lost_out);
    }
    tp.sk_wmem_queued += head_ts as u64;
    tp.sk_mem_charge(head_ts as u64);
    tp.rtx_queue.insert(idx + 1, buff);
    let c = w.costs(host);
    let cost = c.tso_fragment_ns + c.skb_alloc_ns;
    w.charge(sk, cost);
    w.emit(host, sk, || Ev::Fragment {
        skb: old,
        new_skb: id,
        len: len as u64,
        rest: nlen as u64,
    });
}

/// `tcp_retransmit_skb` (with `__tcp_retransmit_skb`): resend retransmit-queue skb `idx`, at
/// most `segs` segments of it and what the peer's window allows (the rest is split off), and
/// mark it `TCPCB_RETRANS`. Returns 0, `-EAGAIN` when the window allows nothing, or the
/// local transmit's error (a qdisc drop, `NET_XMIT_DROP` > 0: `TCPRetransFail`); the attempt
/// still starts the episode's `retrans_stamp` and counts in `undo_retrans`, as in Linux 6.18.
///
/// Simplified: no `skb_still_in_host_queue` test (a clone still in the qdisc is not held
/// back), because the model keeps no link from an skb to its clone; visible effect: none when
/// the retransmission comes an RTT after the original.
pub fn tcp_retransmit_skb(w: &mut Stack, sk: SockId, idx: usize, segs: u32) -> i32 {
    let err = __tcp_retransmit_skb(w, sk, idx, segs);
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    let skb = &mut tp.rtx_queue[idx];
    let pcount = skb.pcount;
    if err == 0 {
        skb.sacked |= TCPCB_RETRANS;
        tp.retrans_out += pcount;
    }
    // "Save stamp of the first (attempted) retransmit."
    if tp.lr.retrans_stamp_ns == 0 {
        tp.lr.retrans_stamp_ns = now;
    }
    if tp.lr.undo_retrans < 0 {
        tp.lr.undo_retrans = 0;
    }
    tp.lr.undo_retrans += pcount as i32;
    err
}

/// `-EAGAIN`: `__tcp_retransmit_skb` found no window for the skb.
const EAGAIN: i32 = -11;

/// `__tcp_retransmit_skb`: the transmission itself (window check, split, send, and
/// `TCPCB_EVER_RETRANS`), without the scoreboard's `TCPCB_RETRANS` and `retrans_out`: what
/// the tail loss probe calls. Returns 0, `-EAGAIN` (no window) or the local transmit's error
/// (`TCPRetransFail`, counted per segment).
fn __tcp_retransmit_skb(w: &mut Stack, sk: SockId, idx: usize, segs: u32) -> i32 {
    let tp = &w.socks[sk as usize];
    let cur_mss = tcp_current_mss(tp);
    let skb = &tp.rtx_queue[idx];
    let mut avail_wnd = tp.wnd_end() as i64 - skb.seq as i64;
    // "If receiver has shrunk his window, and skb is out of new window, do not retransmit it."
    if avail_wnd <= 0 {
        if skb.seq != tp.snd_una {
            return EAGAIN;
        }
        avail_wnd = cur_mss as i64;
    }
    let mut len = cur_mss as i64 * segs as i64;
    if len > avail_wnd {
        len = avail_wnd / cur_mss as i64 * cur_mss as i64;
        if len == 0 {
            len = avail_wnd;
        }
    }
    if (skb.len() as i64) > len {
        tcp_fragment_rtx(w, sk, idx, len as u32, cur_mss);
    }
    let err = __tcp_transmit_skb(w, sk, true, idx);
    if err != 0 {
        let tp = &w.socks[sk as usize];
        let (host, pcount) = (tp.host, tp.rtx_queue[idx].pcount);
        w.mib(host).add(Mib::TcpExtTCPRetransFail, pcount as u64);
        return err;
    }
    let tp = &mut w.socks[sk as usize];
    let skb = &mut tp.rtx_queue[idx];
    skb.retrans = true; // TCPCB_EVER_RETRANS
    let (id, seq, end_seq, segs) = (skb.id, skb.seq, skb.end_seq, skb.pcount as u64);
    let host = tp.host;
    w.emit(host, sk, || Ev::Retransmit {
        skb: id,
        seq,
        end_seq,
        segs,
    });
    0
}

/// Whether this socket probes tail losses: `net.ipv4.tcp_early_retrans` 3 or 4 on a kernel
/// whose probe the model follows (4.14+, bb4d991a28cc's timeout; 3.10 .. 4.13 probed after
/// max(2 srtt, 10 ms) and are not modelled).
fn tcp_tlp_enabled(tp: &TcpSock) -> bool {
    matches!(tp.net.sysctl.tcp_early_retrans, 3 | 4) && tp.profile.kernel.at_least(4, 14)
}

/// `tcp_schedule_loss_probe` (Linux 6.18 `net/ipv4/tcp_output.c`, RFC 8985's TLP): while cwnd
/// or the application limits a flow in Open or CWR, arm the probe timer for 2 srtt, plus the
/// minimum RTO when one packet is out (its ACK may be delayed) or 2 ms otherwise, but no
/// later than the RTO would fire. `advancing_rto`: called on an ACK that moved the RTO
/// (`tcp_set_xmit_timer`), so the RTO counts from now. False: no probe armed.
pub fn tcp_schedule_loss_probe(w: &mut Stack, sk: SockId, advancing_rto: bool) -> bool {
    let now = w.now_ns;
    let hz = w.hz;
    let tp = &w.socks[sk as usize];
    if !tcp_tlp_enabled(tp)
        || tp.packets_out == 0
        || !tp.rx_opt_sack_ok
        || !(tp.icsk_ca_state == TCP_CA_OPEN || tp.icsk_ca_state == TCP_CA_CWR)
    {
        return false;
    }
    // "Probe timeout is 2*rtt. Add minimum RTO to account for delayed ack when there's one
    // outstanding packet. If no RTT sample is available then probe after TCP_TIMEOUT_INIT."
    let mut timeout_us = if tp.srtt_us != 0 {
        (tp.srtt_us >> 2)
            + if tp.packets_out == 1 {
                TCP_RTO_MIN_MS * 1000
            } else {
                TCP_TIMEOUT_MIN_US
            }
    } else {
        1_000_000 // TCP_TIMEOUT_INIT: 1 s
    };
    // "If the RTO formula yields an earlier time, then use that time." usecs_to_jiffies is
    // monotonic, so the earlier of the two in µs rounds to the earlier in jiffies.
    let rto_ns = (tp.rto_ns << tp.icsk_backoff.min(10)).min(TCP_RTO_MAX_MS * 1_000_000);
    let rto_delta_us = if advancing_rto {
        rto_ns / 1000
    } else {
        // tcp_rto_delta_us: how far in the future the RTO of the head is.
        let head_ns = tp.rtx_queue.front().map_or(now, |s| s.tstamp_ns);
        (head_ns + rto_ns).saturating_sub(now) / 1000
    };
    if rto_delta_us > 0 {
        timeout_us = timeout_us.min(rto_delta_us);
    }
    let timeout_j = (timeout_us * hz).div_ceil(1_000_000); // usecs_to_jiffies
    crate::net::ipv4::tcp_timer::tcp_reset_xmit_timer_jiffies(
        w,
        sk,
        IcskPending::LossProbe,
        timeout_j,
    );
    true
}

/// `tcp_send_loss_probe` (Linux 6.18): the probe timer fired with no ACK for 2 RTTs. Send new
/// data if the window allows (`tcp_write_xmit` with `push_one` 2, which cwnd may not stop),
/// else retransmit the last segment of the retransmit queue; remember `snd_nxt` in
/// `tlp_high_seq` to tell by the ACKs whether the probe repaired a loss
/// ([`crate::net::ipv4::tcp_input::tcp_process_tlp_ack`]). At most one probe is outstanding.
///
/// Simplified: no `skb_still_in_host_queue` check (the model keeps no link from an skb to its
/// clone in the qdisc).
pub fn tcp_send_loss_probe(w: &mut Stack, sk: SockId) {
    let host = w.socks[sk as usize].host;
    let tp = &mut w.socks[sk as usize];
    let mut sent = false;
    if tp.tlp_high_seq.is_none() {
        tp.tlp_retrans = false;
        let mss = tcp_current_mss(tp);
        if !tp.write_queue.is_empty() && tcp_snd_wnd_test(tp, &tp.write_queue[0], mss) {
            let pcount = tp.packets_out;
            tcp_write_xmit(w, sk, mss, TCP_NAGLE_OFF, 2);
            sent = w.socks[sk as usize].packets_out > pcount;
        } else if !tp.rtx_queue.is_empty() {
            let mut idx = tp.rtx_queue.len() - 1;
            let (pcount, len) = (tp.rtx_queue[idx].pcount, tp.rtx_queue[idx].len());
            if pcount > 1 && len > (pcount - 1) * mss {
                tcp_fragment_rtx(w, sk, idx, (pcount - 1) * mss, mss);
                idx += 1;
            }
            if __tcp_retransmit_skb(w, sk, idx, 1) == 0 {
                w.socks[sk as usize].tlp_retrans = true;
                sent = true;
            }
        } else {
            tp.icsk_pending = IcskPending::None;
            return;
        }
    }
    if sent {
        let tp = &mut w.socks[sk as usize];
        // "Record snd_nxt for loss detection."
        tp.tlp_high_seq = Some(tp.snd_nxt);
        let (seq, retrans) = (tp.snd_nxt, tp.tlp_retrans);
        // "Reset s.t. tcp_rearm_rto will restart timer from now"
        tp.icsk_pending = IcskPending::None;
        w.mib(host).inc(Mib::TcpExtTCPLossProbes);
        w.emit(host, sk, || Ev::LossProbe { seq, retrans });
    }
    crate::net::ipv4::tcp_timer::tcp_rearm_rto(w, sk);
}

/// `tcp_xmit_retransmit_queue`: retransmit the skbs marked lost and not yet retransmitted,
/// in sequence order, while cwnd has room (`cwnd - packets in flight`, at most a TSO skb's
/// worth each); PRR counts them in `prr_out`. TCPFastRetrans or, in Loss, TCPSlowStartRetrans.
pub fn tcp_xmit_retransmit_queue(w: &mut Stack, sk: SockId) {
    let tp = &w.socks[sk as usize];
    if tp.packets_out == 0 {
        return;
    }
    let host = tp.host;
    let max_segs = tcp_tso_segs(tp, tcp_current_mss(tp));
    let mut rearm_timer = false;
    let mut i = 0;
    while i < w.socks[sk as usize].rtx_queue.len() {
        let tp = &w.socks[sk as usize];
        let segs = tp.snd_cwnd as i64 - tp.packets_in_flight() as i64;
        if segs <= 0 {
            break;
        }
        let segs = (segs as u32).min(max_segs);
        let sacked = tp.rtx_queue[i].sacked;
        if tp.retrans_out >= tp.lost_out {
            break;
        }
        if sacked & TCPCB_LOST == 0 || sacked & (TCPCB_SACKED_ACKED | TCPCB_SACKED_RETRANS) != 0 {
            i += 1;
            continue;
        }
        let mib = if tp.icsk_ca_state != crate::net::core::sock::TCP_CA_LOSS {
            Mib::TcpExtTCPFastRetrans
        } else {
            Mib::TcpExtTCPSlowStartRetrans
        };
        if tcp_retransmit_skb(w, sk, i, segs) != 0 {
            break;
        }
        let tp = &mut w.socks[sk as usize];
        let pcount = tp.rtx_queue[i].pcount;
        if crate::net::ipv4::tcp_input::tcp_in_cwnd_reduction(tp) {
            tp.lr.prr_out += pcount;
        }
        if i == 0 && tp.icsk_pending != IcskPending::ReoTimeout {
            rearm_timer = true;
        }
        w.mib(host).add(mib, pcount as u64);
        i += 1;
    }
    if rearm_timer {
        w.socks[sk as usize].icsk_pending = IcskPending::None;
        crate::net::ipv4::tcp_timer::tcp_rearm_rto(w, sk);
    }
}

// ---------------------------------------------------------------------------------------------
// TX completion and TSQ
// ---------------------------------------------------------------------------------------------

/// `tcp_wfree`: the destructor of a data clone, run at TX completion (or at `skb_orphan` on
/// loopback). Releases its truesize from `sk_wmem_alloc`; if the socket was throttled (TSQ or
/// autocork), queue it for the TSQ handler.
pub fn tcp_wfree(w: &mut Stack, pkt: Packet) {
    let sk = pkt.sk;
    let tp = &mut w.socks[sk as usize];
    tp.sk_wmem_alloc -= pkt.truesize as u64;
    let queued = tp.tsq_flags & TSQ_THROTTLED != 0 && tp.tsq_flags & TSQ_QUEUED == 0;
    if queued {
        tp.tsq_flags = (tp.tsq_flags & !TSQ_THROTTLED) | TSQ_QUEUED;
    }
    let (host, wmem) = (tp.host, tp.sk_wmem_alloc);
    w.emit(host, sk, || Ev::TcpWfree {
        pkt: pkt.id,
        truesize: pkt.truesize as u64,
        wmem_alloc: wmem,
        tsq_queued: queued,
    });
    if queued {
        // The per-CPU TSQ tasklet runs when the softirq that completed the skb ends.
        let now = w.now_ns;
        w.schedule(now, Event::Tsq(sk));
    }
}

/// `tcp_tasklet_func`: the TSQ tasklet clears `TSQF_QUEUED` and runs the socket's handler.
pub fn tcp_tasklet_func(w: &mut Stack, sk: SockId) {
    w.socks[sk as usize].tsq_flags &= !TSQ_QUEUED;
    tcp_tsq_handler(w, sk);
}

/// `tcp_tsq_handler` (net/ipv4/tcp_output.c, 6.18): resume transmission after a TX completion
/// (from the TSQ tasklet) or when the pacing timer fires: `tcp_tsq_write` now, or, when the
/// socket's user holds it ("if (!sock_owned_by_user(sk)) tcp_tsq_write(sk); else if
/// (!test_and_set_bit(TCP_TSQ_DEFERRED, ...))"), from `tcp_release_cb` when it lets go.
pub fn tcp_tsq_handler(w: &mut Stack, sk: SockId) {
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    if tp.sock_owned_by_user(now) {
        tp.tsq_flags |= TCP_TSQ_DEFERRED;
        return;
    }
    tcp_tsq_write(w, sk);
}

/// `tcp_tsq_write`: push the write queue (`tcp_write_xmit`) in the states that send data.
pub fn tcp_tsq_write(w: &mut Stack, sk: SockId) {
    let tp = &w.socks[sk as usize];
    // tcp_tsq_write: "(1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_FIN_WAIT1 | TCPF_CLOSING |
    // TCPF_CLOSE_WAIT | TCPF_LAST_ACK)".
    if !matches!(
        tp.state,
        TcpState::Established | TcpState::FinWait1 | TcpState::Closing
    ) {
        return;
    }
    let host = tp.host;
    w.emit(host, sk, || Ev::TsqHandler);
    let tp = &w.socks[sk as usize];
    let (mss, nonagle) = (tcp_current_mss(tp), tp.nonagle);
    tcp_write_xmit(w, sk, mss, nonagle, 0);
}

/// `tcp_pace_kick` (net/ipv4/tcp_output.c, 6.18): the pacing hrtimer fired; the timer is no
/// longer queued and the socket's queue is pushed as the TSQ handler does.
pub fn tcp_pace_kick(w: &mut Stack, sk: SockId) {
    w.socks[sk as usize].pacing_timer_ns = None;
    tcp_tsq_handler(w, sk);
}

// ---------------------------------------------------------------------------------------------
// ACKs
// ---------------------------------------------------------------------------------------------

/// `tcp_send_ack` / `__tcp_send_ack`: a pure ACK (truesize 2, `__sock_wfree` destructor).
pub fn tcp_send_ack(w: &mut Stack, sk: SockId, reason: AckReason) {
    let seq = w.socks[sk as usize].snd_nxt;
    __tcp_send_ack(w, sk, reason, seq);
}

/// `tcp_xmit_probe_skb(sk, 0, mib)`: "Use a previous sequence. This should cause the other end
/// to send an ack." A pure ACK at `snd_una - 1`, which the peer answers with its window.
fn tcp_xmit_probe_skb(w: &mut Stack, sk: SockId) {
    let seq = w.socks[sk as usize].snd_una.saturating_sub(1);
    __tcp_send_ack(w, sk, AckReason::WindowProbe, seq);
}

/// An ACK with sequence number `seq` (`snd_nxt`, or an old one for a window probe).
fn __tcp_send_ack(w: &mut Stack, sk: SockId, reason: AckReason, seq: u64) {
    let pkt_id = w.next_pkt_id();
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    let window = tcp_select_window(tp);
    // tcp_established_options: a D-SACK block first, then the SACK blocks, at most 3 beside
    // the timestamp option (TCPOLEN_SACK_BASE_ALIGNED 4 + TCPOLEN_SACK_PERBLOCK 8 each).
    let mut sack_blocks: Vec<(u64, u64)> = Vec::new();
    if let Some(d) = tp.rcv_sack.duplicate_sack.take() {
        sack_blocks.push(d);
    }
    let room = if tp.tcp_header_len > TCP_HLEN { 3 } else { 4 };
    for &b in &tp.rcv_sack.selective_acks {
        if sack_blocks.len() >= room {
            break;
        }
        sack_blocks.push(b);
    }
    let sack_len = if sack_blocks.is_empty() {
        0
    } else {
        4 + 8 * sack_blocks.len() as u32
    };
    let hdr = ETH_HLEN + IPV4_HLEN + tp.tcp_header_len + sack_len;
    let ack_seq = tp.rcv_nxt;
    let pkt = control_packet(
        tp,
        pkt_id,
        now,
        hdr,
        tcp_flags::ACK,
        (seq, seq, ack_seq),
        window,
    );
    tp.segs_out += 1;
    let (host, ack) = (tp.host, tp.rcv_nxt);
    tcp_event_ack_sent(w, sk, 0);
    w.mib(host).inc(Mib::TcpOutSegs);
    // __tcp_send_ack's own work; the device charges its part when the ACK goes through it.
    let c = w.costs(host);
    let cost = c
        .ack_xmit_ns
        .saturating_sub(c.dev_xmit_ns + c.qdisc_ns + c.driver_xmit_ns);
    w.charge(sk, cost);
    w.emit(host, sk, || Ev::AckXmit {
        pkt: pkt_id,
        ack,
        window: window as u64,
        reason,
    });
    if !sack_blocks.is_empty() {
        w.tcp_sack_opts
            .insert(pkt_id, sack_blocks.into_boxed_slice());
    }
    w.ip_queue_xmit(host, pkt);
}

/// A header-only skb (pure ACK, SYN, SYN-ACK) of `hdr` bytes, carrying `(seq, end_seq,
/// ack_seq)`: truesize 2 (`skb_set_tcp_pure_ack`), charged to `sk_wmem_alloc` and freed by
/// `__sock_wfree`.
pub fn control_packet(
    tp: &mut TcpSock,
    id: u64,
    now: u64,
    hdr: u32,
    flags: u8,
    (seq, end_seq, ack_seq): (u64, u64, u64),
    window: u32,
) -> Packet {
    tp.sk_wmem_alloc += 2;
    Packet {
        id,
        orig_skb: 0,
        sk: tp.id,
        src_host: tp.host,
        dst_host: tp.peer_host,
        hash: tp.id.wrapping_mul(2_654_435_761),
        priority: tp.sk_priority,
        len: hdr,
        hdr_len: hdr,
        truesize: 2,
        gso_segs: 1,
        gso_size: 0,
        tstamp_ns: 0,
        sk_pacing_rate_bps: tp.sk_pacing_rate,
        pure_ack: true,
        seq,
        end_seq,
        ack_seq,
        window,
        flags,
        tsecr_ms: tp.ts_recent_ms,
        sent_ns: now,
    }
}

/// `tcp_event_ack_sent`: an ACK (pure or piggybacked) left: the delayed ACK is done, and
/// quick-ACK credits are consumed (`tcp_dec_quickack_mode`): per data packet sent before 6.6,
/// per ACK actually scheduled from 6.6 (059217c18be6).
fn tcp_event_ack_sent(w: &mut Stack, sk: SockId, pkts: u32) {
    let ato_min = tcp_ato_min(w.hz);
    let tp = &mut w.socks[sk as usize];
    let icsk = &mut tp.icsk_ack;
    if icsk.quick > 0 {
        let n = if tp.profile.quickack_counts_acks {
            u32::from(icsk.pending & ICSK_ACK_SCHED != 0)
        } else {
            pkts.max(1)
        };
        if n >= icsk.quick as u32 {
            icsk.quick = 0;
            // "Leaving quickack mode we deflate ATO."
            icsk.ato = ato_min;
        } else {
            icsk.quick -= n as u8;
        }
    }
    // inet_csk_clear_xmit_timer(sk, ICSK_TIME_DACK)
    tp.icsk_ack.pending = 0;
    tp.icsk_ack.timeout = 0;
    tp.rcv_wup = tp.rcv_nxt;
}

/// `TCP_ATO_MIN` = `TCP_DELACK_MIN` = HZ/25 jiffies (40 ms), at least 4 jiffies.
pub fn tcp_ato_min(hz: u64) -> u64 {
    (hz / 25).max(4)
}

/// `tcp_event_data_sent`: restart cwnd after idle (`tcp_slow_start_after_idle`), note the send
/// time; a reply within `ato` of the last receive makes the connection interactive
/// (pingpong), which delays our ACKs.
fn tcp_event_data_sent(w: &mut Stack, sk: SockId) {
    let now_j = w.jiffies();
    let hz = w.hz;
    let clock = crate::net::ipv4::tcp_cong::CaClock {
        now_ns: w.now_ns,
        jiffies: now_j as u32,
        hz,
    };
    let (tp, mut rand) = w.sock_and_random(sk);
    if tp.packets_in_flight() == 0 {
        crate::net::ipv4::tcp_cong::cwnd_event_tx_start(tp, &clock, &mut rand);
    }
    // Before 4.11 the idle check runs here, when the data is sent; from 4.11 when the write
    // queues it (tcp_skb_entail).
    if !tp.profile.kernel.at_least(4, 11) {
        tcp_slow_start_after_idle_check(tp, now_j, hz);
    }
    let since_rcv = now_j.wrapping_sub(tp.icsk_ack.lrcvtime);
    match tp.profile.pingpong {
        PingpongRule::Boolean => {
            // "If it is a reply for ato after last received packet, enter pingpong mode."
            if since_rcv < tp.icsk_ack.ato {
                tp.icsk_ack.pingpong = 1;
            }
        }
        PingpongRule::Counter => {
            // 6.6+ ("tcp: Set pingpong threshold via sysctl"): every send within ato of the
            // last receive counts (inet_csk_inc_pingpong_cnt, saturating at U8_MAX). The
            // 5.1..5.18 rule that counted only the first send after a receive
            // (before(lsndtime, lrcvtime)) was reverted by 4d8f24eeedc5: in jiffies it missed
            // replies sent in the jiffy of the receive.
            if since_rcv < tp.icsk_ack.ato {
                tp.icsk_ack.pingpong = tp.icsk_ack.pingpong.saturating_add(1);
            }
        }
    }
    tp.lsndtime = now_j;
}

/// `tcp_slow_start_after_idle_check`: with nothing in flight for longer than the RTO since the
/// last send, restart cwnd (not with a `cong_control` algorithm, BBR).
pub fn tcp_slow_start_after_idle_check(tp: &mut TcpSock, now_j: u64, hz: u64) {
    let rto_j = tp.rto_ns * hz / 1_000_000_000;
    if tp.net.sysctl.tcp_slow_start_after_idle
        && !crate::net::ipv4::tcp_cong::has_cong_control(tp)
        && tp.packets_out == 0
        && now_j.saturating_sub(tp.lsndtime) > rto_j
    {
        tcp_cwnd_restart(tp, now_j - tp.lsndtime, rto_j, now_j);
    }
}

/// `tcp_cwnd_restart` (RFC 5681 4.1): after an idle period longer than the RTO, halve cwnd per
/// RTO of idleness, down to the initial window.
fn tcp_cwnd_restart(tp: &mut TcpSock, mut delta_j: u64, rto_j: u64, now_j: u64) {
    let restart_cwnd = TCP_INIT_CWND.min(tp.snd_cwnd);
    // tcp_current_ssthresh outside of recovery: max(ssthresh, 3/4 cwnd).
    tp.snd_ssthresh = tp.snd_ssthresh.max((tp.snd_cwnd >> 1) + (tp.snd_cwnd >> 2));
    let mut cwnd = tp.snd_cwnd;
    while delta_j > rto_j.max(1) && cwnd > restart_cwnd {
        delta_j -= rto_j.max(1);
        cwnd >>= 1;
    }
    tp.snd_cwnd = cwnd.max(restart_cwnd);
    tp.snd_cwnd_stamp = now_j;
    tp.snd_cwnd_used = 0;
    tp.ca.epoch_start_ns = 0; // CA_EVENT_CWND_RESTART / TX_START for CUBIC
}

/// Whether the socket is in pingpong (interactive) mode (`inet_csk_in_pingpong_mode`).
pub fn in_pingpong_mode(tp: &TcpSock) -> bool {
    match tp.profile.pingpong {
        PingpongRule::Boolean => tp.icsk_ack.pingpong != 0,
        PingpongRule::Counter => tp.icsk_ack.pingpong as u32 >= tp.net.sysctl.tcp_pingpong_thresh,
    }
}

/// `tcp_send_delayed_ack`: arm the delayed-ACK timer for `ato`, bounded by 500 ms
/// (200 ms in pingpong mode or after a PSH) and by the RTT; if a timer is already pending and
/// about to fire, ACK now instead.
pub fn tcp_send_delayed_ack(w: &mut Stack, sk: SockId) {
    let hz = w.hz;
    let now_j = w.jiffies();
    let tp = &mut w.socks[sk as usize];
    let delack_min = tcp_ato_min(hz);
    let delack_max = hz / 5;
    let mut ato = tp.icsk_ack.ato;
    if ato > delack_min {
        let mut max_ato = hz / 2;
        if in_pingpong_mode(tp) || tp.icsk_ack.pending & ICSK_ACK_PUSHED != 0 {
            max_ato = delack_max;
        }
        // "Slow path, intersegment interval is 'high'. If some rtt estimate is known, use
        // it to bound delayed ack."
        if tp.srtt_us != 0 {
            let rtt_j = (tp.srtt() * hz / 1_000_000).max(delack_min);
            max_ato = max_ato.min(rtt_j);
        }
        ato = ato.min(max_ato);
    }
    ato = ato.min(delack_max);
    let mut timeout = now_j + ato;
    if tp.icsk_ack.pending & ICSK_ACK_TIMER != 0 {
        // "If delack timer is about to expire, send ACK now."
        if tp.icsk_ack.timeout <= now_j + (ato >> 2) {
            tcp_send_ack(w, sk, AckReason::DelackSoon);
            return;
        }
        if timeout > tp.icsk_ack.timeout {
            timeout = tp.icsk_ack.timeout;
        }
    }
    tp.icsk_ack.pending |= ICSK_ACK_SCHED | ICSK_ACK_TIMER;
    tp.icsk_ack.timeout = timeout;
    let (quick, pingpong, host) = (
        tp.icsk_ack.quick as u64,
        tp.icsk_ack.pingpong as u64,
        tp.host,
    );
    // sk_reset_timer(..., timeout): the timer wheel decides when it runs.
    let t = w.timer_expiry_ns(timeout);
    let ato_us = ato * 1_000_000 / hz;
    w.emit(host, sk, || Ev::DelackSched {
        timeout_ns: t,
        ato_us,
        quick,
        pingpong,
    });
    let tp = &mut w.socks[sk as usize];
    if tp.delack_queued_ns.is_none_or(|q| t < q) {
        tp.delack_queued_ns = Some(t);
        w.schedule(t, Event::Delack(sk));
    }
}

/// `tcp_select_window`: the window to advertise, never shrinking what was offered
/// (`__tcp_select_window` on the receive buffer space and `rcv_ssthresh`).
pub fn tcp_select_window(tp: &mut TcpSock) -> u32 {
    let cur_win = tcp_receive_window(tp);
    let mut new_win = __tcp_select_window(tp);
    if new_win < cur_win {
        // "Never shrink the offered window."
        new_win = cur_win.next_multiple_of(1 << tp.rcv_wscale);
    }
    tp.rcv_wnd = new_win as u64;
    tp.rcv_wup = tp.rcv_nxt;
    new_win
}

/// `tcp_receive_window`: what is left of the window we offered.
pub fn tcp_receive_window(tp: &TcpSock) -> u32 {
    let win = (tp.rcv_wup + tp.rcv_wnd) as i64 - tp.rcv_nxt as i64;
    win.max(0) as u32
}

/// Whether this kernel sizes the receive window with the measured `scaling_ratio` and the
/// 6.x receive-buffer autotuning (`tcp_rcvbuf_grow`) instead of `tcp_adv_win_scale`.
pub fn rcv_scaling(tp: &TcpSock) -> bool {
    tp.profile.kernel.at_least(6, 6)
}

/// `__tcp_win_from_space`: bytes of window a buffer of `space` bytes (truesize) can offer.
/// Before 6.6, `tcp_adv_win_scale` = 1: half of it. From 6.6 (dfa2f0483360) the share is
/// `scaling_ratio` / 256, measured on the received skbs (`tcp_measure_rcv_mss`).
pub fn __tcp_win_from_space(modern: bool, scaling_ratio: u32, space: i64) -> i64 {
    if modern {
        (space * scaling_ratio as i64) >> TCP_RMEM_TO_WIN_SCALE
    } else {
        space - space / 2
    }
}

/// `tcp_win_from_space` for this socket.
pub fn tcp_win_from_space(tp: &TcpSock, space: i64) -> i64 {
    __tcp_win_from_space(rcv_scaling(tp), tp.scaling_ratio, space)
}

/// `tcp_space_from_win` (6.6+): the buffer (truesize) a window of `win` bytes needs.
pub fn tcp_space_from_win(tp: &TcpSock, win: u64) -> u64 {
    if rcv_scaling(tp) {
        (win << TCP_RMEM_TO_WIN_SCALE) / tp.scaling_ratio.max(1) as u64
    } else {
        2 * win
    }
}

/// `tcp_space`: window the free part of the receive buffer can still offer.
pub fn tcp_space(tp: &TcpSock) -> i64 {
    tcp_win_from_space(tp, tp.sk_rcvbuf as i64 - tp.sk_rmem_alloc as i64)
}

/// `__tcp_select_window`: the window the receive buffer allows now, at most `rcv_ssthresh`.
///
/// From 6.x (net/ipv4/tcp_output.c, 6.18): when the free space falls below half of the full
/// space the quick-ACK credits are dropped and a free space below 1/16 of the buffer or one
/// MSS announces a zero window; with window scaling the window is rounded *up* to the scale
/// (`ALIGN`), so that it is not scaled away. Before: rounded down, zero only below one MSS.
pub fn __tcp_select_window(tp: &mut TcpSock) -> u32 {
    let mut mss = tp.icsk_ack.rcv_mss.max(1) as i64;
    let free_space = tcp_space(tp);
    let allowed_space = tcp_win_from_space(tp, tp.sk_rcvbuf as i64);
    let full_space = (tp.window_clamp as i64).min(allowed_space);
    if !rcv_scaling(tp) {
        let free_space = free_space.max(0) as u64;
        let full_space = full_space.max(0) as u64;
        if free_space < full_space / 2 && free_space < mss as u64 {
            return 0;
        }
        let free_space = free_space.min(tp.rcv_ssthresh).min(full_space);
        if tp.rcv_wscale > 0 {
            // "Set window to the free space rounded down to the scaling granularity."
            let g = 1u64 << tp.rcv_wscale;
            return ((free_space / g) * g).min(u32::MAX as u64) as u32;
        }
        let window = tp.rcv_wnd;
        if window <= free_space.saturating_sub(mss as u64) || window > free_space {
            return ((free_space / mss as u64) * mss as u64) as u32;
        }
        return window as u32;
    }
    if mss > full_space {
        mss = full_space;
        if mss <= 0 {
            return 0;
        }
    }
    let mut free_space = free_space;
    // tcp_shrink_window is 0: "do not allow window to shrink".
    if free_space < full_space >> 1 {
        tp.icsk_ack.quick = 0;
        // round_down(free_space, 1 << rcv_wscale)
        free_space &= !((1i64 << tp.rcv_wscale) - 1);
        if free_space < allowed_space >> 4 || free_space < mss {
            return 0;
        }
    }
    if free_space > tp.rcv_ssthresh as i64 {
        free_space = tp.rcv_ssthresh as i64;
    }
    let window = if tp.rcv_wscale > 0 {
        // "Advertise enough space so that it won't get scaled away."
        // ALIGN(free_space, 1 << rcv_wscale), with the kernel's mask rather than a division
        // (a sum below zero rounds down, not towards zero; the clamp below makes both 0).
        let mask = (1i64 << tp.rcv_wscale) - 1;
        (free_space + mask) & !mask
    } else {
        let window = tp.rcv_wnd as i64;
        // "Get the largest window that is a nice multiple of mss."
        if window <= free_space - mss || window > free_space {
            free_space / mss * mss
        } else if mss == full_space && free_space > window + (full_space >> 1) {
            free_space
        } else {
            window
        }
    };
    window.clamp(0, u32::MAX as i64) as u32
}

// ---------------------------------------------------------------------------------------------
// Probe (the corked/Nagle tail with nothing in flight)
// ---------------------------------------------------------------------------------------------

/// `tcp_write_wakeup` (from `tcp_send_probe0`): send up to one MSS of the head skb inside the
/// window, ignoring Nagle and cork. Returns the bytes sent.
pub fn tcp_write_wakeup(w: &mut Stack, sk: SockId) -> u64 {
    let tp = &mut w.socks[sk as usize];
    let Some(head) = tp.write_queue.front() else {
        return 0;
    };
    if head.seq >= tp.wnd_end() {
        // The window is closed: probe it (tcp_xmit_probe_skb, TCPWinProbe).
        tcp_xmit_probe_skb(w, sk);
        let host = w.socks[sk as usize].host;
        w.mib(host).inc(Mib::TcpExtTCPWinProbe);
        return 0;
    }
    let mss = tcp_current_mss(tp);
    let seg_size = ((tp.wnd_end() - head.seq) as u32).min(mss);
    let len = head.len();
    tp.write_queue[0].flags |= tcp_flags::PSH;
    if seg_size < len {
        tso_fragment(w, sk, 0, seg_size, mss);
    } else {
        let tp = &mut w.socks[sk as usize];
        tp.write_queue[0].pcount = 0;
        tcp_init_tso_segs(&mut tp.write_queue[0], mss);
    }
    let tp = &mut w.socks[sk as usize];
    tcp_init_tso_segs(&mut tp.write_queue[0], mss);
    if tcp_transmit_skb(w, sk, mss) != 0 {
        return 0;
    }
    let (end_seq, len, pcount, rearm) = tcp_event_new_data_sent(w, sk);
    if rearm {
        crate::net::ipv4::tcp_timer::tcp_rearm_rto(w, sk);
    }
    let tp = &mut w.socks[sk as usize];
    tcp_minshall_update(tp, mss, end_seq, len, pcount);
    len as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::profile::Kernel;
    use crate::sim::testkit::{established, mark_sent, queue_skb};

    const MSS: u32 = 1448;

    #[test]
    fn skb_alloc_truesize_matches_the_kernels_slab_arithmetic() {
        let old = Kernel::V3_14.profile();
        // select_size(): SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER) of head room -> 2048 + 256.
        assert_eq!(old.skb_alloc_truesize(old.skb_linear_payload), 2304);
        // tso_fragment's header-only skb: kmalloc(640) -> 1024 + 256.
        assert_eq!(old.skb_alloc_truesize(0), 1280);
        let mut new = Kernel::V6_18.profile();
        // A distribution kernel: MAX_TCP_HEADER 320, GRO_MAX_HEAD_PAD 368 -> 384 + 320 + 256.
        assert_eq!(new.max_tcp_header, 320);
        assert_eq!(new.skb_alloc_truesize(0), 960);
        // The lab's minimal build (MAX_HEADER 32): max(192, 224) -> 256 + 320 = 576 (not a
        // power of two) + 256 = 832, as `ss -tm` reports (w833 for one byte) on that kernel.
        new.set_max_header(32);
        assert_eq!(new.max_tcp_header, 192);
        assert_eq!(new.skb_alloc_truesize(0), 832);
    }

    #[test]
    fn tcp_grow_skb_fills_a_small_head_skb_from_the_next_one_on_6_10_and_later() {
        // A split's leftover at the head (3 MSS) and a full skb behind it (10 MSS): with room
        // for 8 MSS, 6.18 moves 5 MSS of payload forward (8ee602c63520); 3.19 leaves it.
        for (kernel, grows) in [("6.18", true), ("3.19", false)] {
            let mut w = established(kernel, "");
            queue_skb(&mut w, 0, 3 * MSS);
            queue_skb(&mut w, 0, 10 * MSS);
            let tp = &mut w.socks[0];
            let (wmem, ts0, ts1) = (
                tp.sk_wmem_queued,
                tp.write_queue[0].truesize,
                tp.write_queue[1].truesize,
            );
            let grew = tp.profile.grow_skb && tcp_grow_skb(tp, 5 * MSS);
            assert_eq!(grew, grows, "{kernel}");
            if grows {
                assert_eq!(tp.write_queue[0].len(), 8 * MSS);
                assert_eq!(tp.write_queue[1].len(), 5 * MSS);
                assert_eq!(tp.write_queue[0].end_seq, tp.write_queue[1].seq);
                // skb_shift moves the frags' truesize with them; nothing is freed.
                assert_eq!(tp.write_queue[0].truesize, ts0 + 5 * MSS);
                assert_eq!(tp.write_queue[1].truesize, ts1 - 5 * MSS);
                assert_eq!(tp.sk_wmem_queued, wmem);
            }
        }
        // The next skb emptied: it is unlinked and its head's truesize freed.
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 3 * MSS);
        let next_ts = {
            queue_skb(&mut w, 0, 2 * MSS);
            w.socks[0].write_queue[1].truesize
        };
        let tp = &mut w.socks[0];
        let wmem = tp.sk_wmem_queued;
        assert!(tcp_grow_skb(tp, 5 * MSS));
        assert_eq!(tp.write_queue.len(), 1);
        assert_eq!(tp.write_queue[0].len(), 5 * MSS);
        assert_eq!(tp.sk_wmem_queued, wmem - (next_ts - 2 * MSS) as u64);
        // An end-of-record mark stops it (tcp_skb_can_collapse).
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 3 * MSS);
        queue_skb(&mut w, 0, 2 * MSS);
        w.socks[0].write_queue[0].eor = true;
        assert!(!tcp_grow_skb(&mut w.socks[0], 5 * MSS));
    }

    #[test]
    fn tcp_write_xmit_sends_the_grown_skb_whole_where_3_19_sent_the_leftover_alone() {
        // cwnd 20, the leftover of 3 MSS at the head and 10-MSS skbs behind: Linux 6.18's first
        // packet carries min(cwnd quota, TSO goal) of payload, 3.19's only the leftover.
        for (kernel, first) in [("6.18", 10u32), ("3.19", 3)] {
            let mut w = established(kernel, "");
            let tp = &mut w.socks[0];
            tp.snd_cwnd = 20;
            tp.snd_wnd = 1 << 30;
            tp.sk_pacing_rate = 10 * MSS as u64 * 1024; // tcp_tso_autosize: 10 segments
            queue_skb(&mut w, 0, 3 * MSS);
            queue_skb(&mut w, 0, 10 * MSS);
            queue_skb(&mut w, 0, 10 * MSS);
            let una = w.socks[0].snd_nxt;
            tcp_write_xmit(&mut w, 0, MSS, TCP_NAGLE_PUSH, 1);
            let tp = &w.socks[0];
            assert_eq!((tp.snd_nxt - una) as u32, first * MSS, "{kernel}");
        }
    }

    /// A connection whose NIC ring holds one packet (no BQL) and whose pfifo_fast holds one
    /// more (txqueuelen 1): the third packet is refused.
    fn behind_a_full_qdisc() -> crate::sim::world::World {
        let mut w = established(
            "6.18",
            "[tc]\nqdisc = \"pfifo_fast\"\n[link]\ntxqueuelen = 1\n[ethtool]\ntx = 1\n[bql]\nenabled = false\n",
        );
        let tp = &mut w.socks[0];
        tp.snd_cwnd = 20;
        tp.snd_wnd = 1 << 30;
        tp.sk_pacing_rate = 1_250_000_000; // TSQ's limit and TSO autosizing stay out of the way
        for i in 0..4 {
            queue_skb(&mut w, 0, MSS);
            // MSG_EOR: tcp_grow_skb may not merge them into one packet.
            w.socks[0].write_queue[i].eor = true;
        }
        w
    }

    #[test]
    fn a_qdisc_that_refuses_new_data_leaves_it_unsent_and_enters_cwr() {
        let mut w = behind_a_full_qdisc();
        let (una, wmem) = (w.socks[0].snd_nxt, w.socks[0].sk_wmem_alloc);
        tcp_write_xmit(&mut w, 0, MSS, TCP_NAGLE_PUSH, 0);
        let tp = &w.socks[0];
        // Three left: the driver took one, one waits requeued at the head of the qdisc
        // (dev_requeue_skb, outside the band's limit), the band holds one. The fourth was
        // refused and is still the head of the write queue: snd_nxt stops before it and
        // nothing is lost.
        assert_eq!(tp.snd_nxt - una, 3 * MSS as u64);
        assert_eq!(tp.write_queue.len(), 1);
        assert_eq!(tp.write_queue[0].seq, tp.snd_nxt);
        assert_eq!(tp.packets_out, 3);
        assert_eq!(
            tp.icsk_ca_state, TCP_CA_CWR,
            "tcp_enter_cwr on NET_XMIT_DROP"
        );
        assert_eq!(w.hosts[0].mib.get(Mib::TcpRetransSegs), 0);
        // The refused clone was freed: only the three sent clones are charged.
        assert_eq!(tp.sk_wmem_alloc, wmem + 3 * tp.rtx_queue[0].truesize as u64);
    }

    #[test]
    fn a_refused_retransmission_counts_retransfail_and_is_not_marked_retransmitted() {
        let mut w = behind_a_full_qdisc();
        tcp_write_xmit(&mut w, 0, MSS, TCP_NAGLE_PUSH, 0);
        // The qdisc is still full: retransmitting the first skb fails locally.
        let err = tcp_retransmit_skb(&mut w, 0, 0, 1);
        let tp = &w.socks[0];
        assert_eq!(err, NET_XMIT_DROP);
        assert_eq!(w.hosts[0].mib.get(Mib::TcpExtTCPRetransFail), 1);
        assert_eq!(tp.rtx_queue[0].sacked & TCPCB_RETRANS, 0);
        assert!(!tp.rtx_queue[0].retrans, "not TCPCB_EVER_RETRANS");
        assert_eq!(tp.retrans_out, 0);
        // "Save stamp of the first (attempted) retransmit."
        assert_ne!(tp.lr.retrans_stamp_ns, 0);
        assert_eq!(tp.lr.undo_retrans, 1);
    }

    #[test]
    fn nagle_holds_a_sub_mss_segment_while_a_small_segment_is_unacked() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 100);
        mark_sent(&mut w, 0, 0, false);
        w.socks[0].snd_sml = w.socks[0].snd_nxt; // the 100-byte segment is unacked
        queue_skb(&mut w, 0, 100);
        let tp = &w.socks[0];
        assert!(!tcp_nagle_test(tp, &tp.write_queue[0], MSS, 0));
    }

    #[test]
    fn nagle_sends_a_sub_mss_segment_when_nothing_is_in_flight() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 100);
        let tp = &w.socks[0];
        assert!(tcp_nagle_test(tp, &tp.write_queue[0], MSS, 0));
    }

    #[test]
    fn minshall_lets_a_small_segment_go_when_only_full_segments_are_unacked() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, MSS);
        mark_sent(&mut w, 0, 0, false); // a full segment in flight, snd_sml untouched
        queue_skb(&mut w, 0, 100);
        let tp = &w.socks[0];
        assert!(tp.packets_out > 0);
        assert!(tcp_nagle_test(tp, &tp.write_queue[0], MSS, 0));
    }

    #[test]
    fn cork_holds_a_partial_segment_even_with_nothing_in_flight() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 100);
        let tp = &w.socks[0];
        assert!(!tcp_nagle_test(tp, &tp.write_queue[0], MSS, TCP_NAGLE_CORK));
        assert!(tcp_nagle_test(
            tp,
            &tp.write_queue[0],
            MSS,
            TCP_NAGLE_CORK | TCP_NAGLE_PUSH
        ));
    }

    #[test]
    fn nodelay_sends_a_sub_mss_segment_while_a_small_segment_is_unacked() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 100);
        mark_sent(&mut w, 0, 0, false);
        w.socks[0].snd_sml = w.socks[0].snd_nxt;
        queue_skb(&mut w, 0, 100);
        let tp = &w.socks[0];
        assert!(tcp_nagle_test(tp, &tp.write_queue[0], MSS, TCP_NAGLE_OFF));
    }

    #[test]
    fn cwnd_test_allows_at_most_half_the_window_in_one_burst() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 20 * MSS);
        let tp = &mut w.socks[0];
        tp.snd_cwnd = 20;
        assert_eq!(tcp_cwnd_test(tp, &tp.write_queue[0]), 10);
        tp.packets_out = 15;
        assert_eq!(tcp_cwnd_test(tp, &tp.write_queue[0]), 5);
        tp.packets_out = 20;
        assert_eq!(tcp_cwnd_test(tp, &tp.write_queue[0]), 0);
    }

    #[test]
    fn snd_wnd_test_needs_the_first_segment_inside_the_peers_window() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 3 * MSS);
        let tp = &mut w.socks[0];
        tp.snd_wnd = MSS as u64;
        assert!(tcp_snd_wnd_test(tp, &tp.write_queue[0], MSS));
        tp.snd_wnd = MSS as u64 - 1;
        assert!(!tcp_snd_wnd_test(tp, &tp.write_queue[0], MSS));
    }

    #[test]
    fn mss_split_point_drops_a_partial_tail_that_nagle_holds() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 100);
        mark_sent(&mut w, 0, 0, false);
        w.socks[0].snd_sml = w.socks[0].snd_nxt;
        queue_skb(&mut w, 0, 2 * MSS + 552);
        let tp = &w.socks[0];
        let skb = &tp.write_queue[0];
        assert_eq!(tcp_mss_split_point(tp, skb, true, MSS, 45, 0), 2 * MSS);
        assert_eq!(
            tcp_mss_split_point(tp, skb, true, MSS, 45, TCP_NAGLE_OFF),
            2 * MSS + 552
        );
        assert_eq!(tcp_mss_split_point(tp, skb, true, MSS, 1, 0), MSS);
    }

    #[test]
    fn tso_autosize_sends_about_one_millisecond_of_data_per_packet() {
        let mut w = established("3.19", "");
        let tp = &mut w.socks[0];
        tp.sk_pacing_rate = 100 * 1024 * MSS as u64; // 100 MSS per 1024 µs
        assert_eq!(tcp_tso_autosize(tp, MSS, 2), 45); // capped at 64 KB
        tp.sk_pacing_rate = 10 * 1024 * MSS as u64;
        assert_eq!(tcp_tso_autosize(tp, MSS, 2), 10);
    }

    #[test]
    fn tso_autosize_never_goes_below_tcp_min_tso_segs() {
        let mut w = established("3.19", "");
        let tp = &mut w.socks[0];
        tp.sk_pacing_rate = 1000;
        assert_eq!(tcp_tso_autosize(tp, MSS, 2), 2);
        assert_eq!(tcp_tso_autosize(tp, MSS, 4), 4);
    }

    #[test]
    fn tso_autosize_adds_a_full_skb_on_paths_shorter_than_512_us_since_5_18() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.sk_pacing_rate = 1000;
        tp.min_rtt_us = 100; // 100 >> 9 = 0: + sk_gso_max_size
        assert_eq!(tcp_tso_autosize(tp, MSS, 2), tp.sk_gso_max_size / MSS);
        tp.min_rtt_us = 1100; // >> 9 = 2: + 64 KB / 4
        assert_eq!(
            tcp_tso_autosize(tp, MSS, 2),
            (tp.sk_gso_max_size >> 2) / MSS
        );
    }

    #[test]
    fn size_goal_follows_the_pacing_rate_at_sendmsg_time_in_3_18() {
        let mut w = established("3.18", "");
        let tp = &mut w.socks[0];
        tp.max_window = 1 << 20;
        tp.sk_pacing_rate = 724_000; // 2 * 10 * 1448 B / 40 ms
        assert_eq!(tcp_xmit_size_goal(tp, MSS), 2 * MSS); // max(362, 2 MSS)
        tp.sk_pacing_rate = 2000 * 10 * MSS as u64;
        assert_eq!(tcp_xmit_size_goal(tp, MSS), 10 * MSS);
    }

    #[test]
    fn size_goal_fills_64_kb_skbs_from_3_19() {
        let mut w = established("3.19", "");
        let tp = &mut w.socks[0];
        tp.max_window = 1 << 20;
        tp.sk_pacing_rate = 724_000;
        assert_eq!(tcp_xmit_size_goal(tp, MSS), 45 * MSS);
    }

    #[test]
    fn size_goal_is_bounded_by_half_the_largest_window_seen() {
        let mut w = established("3.19", "");
        let tp = &mut w.socks[0];
        tp.max_window = 10 * MSS as u64;
        assert_eq!(tcp_xmit_size_goal(tp, MSS), 5 * MSS);
    }

    #[test]
    fn small_queue_check_throttles_above_the_limit_and_sets_tsq_throttled() {
        let mut w = established("3.19", "");
        let tp = &mut w.socks[0];
        tp.sk_pacing_rate = 0;
        tp.sk_wmem_alloc = 1 + 2 * 10_000;
        assert_eq!(tcp_small_queue_check(tp, 10_000, 0), Some((20_001, 20_000)));
        assert_ne!(tp.tsq_flags & TSQ_THROTTLED, 0);
        tp.tsq_flags = 0;
        tp.sk_wmem_alloc = 20_000;
        assert_eq!(tcp_small_queue_check(tp, 10_000, 0), None);
        assert_eq!(tp.tsq_flags & TSQ_THROTTLED, 0);
    }

    #[test]
    fn small_queue_limit_is_the_larger_of_the_sysctl_and_the_rate_in_3_14() {
        let mut w = established("3.14", "");
        let tp = &mut w.socks[0];
        tp.sk_pacing_rate = 1 << 30; // >> 10 = 1 MB
        tp.sk_wmem_alloc = 1_000_000;
        assert_eq!(tcp_small_queue_check(tp, 2304, 0), None);
        tp.sk_wmem_alloc = (1 << 20) + 1;
        assert_eq!(
            tcp_small_queue_check(tp, 2304, 0),
            Some(((1 << 20) + 1, 1 << 20))
        );
    }

    #[test]
    fn small_queue_check_never_throttles_a_single_skb_in_flight_in_6_18() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, 60_000);
        mark_sent(&mut w, 0, 0, true);
        let tp = &mut w.socks[0];
        tp.sk_pacing_rate = 0;
        assert!(tp.sk_wmem_alloc > 2 * 1000);
        assert_eq!(tcp_small_queue_check(tp, 1000, 0), None);
    }

    #[test]
    fn tso_should_defer_waits_for_a_near_ack_when_little_window_is_free() {
        let mut w = established("6.18", "");
        w.now_ns = 10_000_000;
        queue_skb(&mut w, 0, 20 * MSS);
        mark_sent(&mut w, 0, 9_950_000, false); // 20 segments out 50 µs ago
        queue_skb(&mut w, 0, 10 * MSS);
        let now = w.now_ns;
        let tp = &mut w.socks[0];
        tp.snd_cwnd = 22;
        tp.srtt_us = 100 << 3; // srtt 100 µs: the ACK is due in 50 µs
        tp.tcp_wstamp_ns = now;
        tp.snd_wnd = 1 << 20;
        tp.write_queue[0].pcount = 0;
        tcp_init_tso_segs(&mut w.socks[0].write_queue[0], MSS);
        let mut limited = false;
        let d = tcp_tso_should_defer(&mut w, 0, 0, &mut limited, 45);
        assert_eq!(d, Some((2 * MSS as u64, 10 * MSS as u64)));
        assert!(limited);
    }

    #[test]
    fn a_flow_held_by_pacing_queues_one_pacing_timer_however_often_it_is_pushed() {
        // tcp_pacing_check starts tp->pacing_timer only when !hrtimer_is_queued: ten pushes
        // while the next departure is in the future leave one timer, and it fires once.
        let mut w = established("6.18", "");
        w.now_ns = 10_000_000;
        queue_skb(&mut w, 0, 20 * MSS);
        let now = w.now_ns;
        let tp = &mut w.socks[0];
        tp.sk_pacing_status = PacingStatus::Needed;
        tp.tcp_wstamp_ns = now + 50_000;
        for _ in 0..10 {
            tcp_write_xmit(&mut w, 0, MSS, 0, 0);
        }
        assert_eq!(w.count_queued(Event::PaceKick(0)), 1);
        assert_eq!(w.socks[0].pacing_timer_ns, Some(now + 50_000));
        // When it fires, the skb leaves and the timer is started again for the next departure.
        w.now_ns = now + 50_000;
        tcp_pace_kick(&mut w, 0);
        let next = w.socks[0].pacing_timer_ns.expect("a new pacing timer");
        assert!(next > now + 50_000, "the next departure {next}");
    }

    #[test]
    fn tso_should_defer_sends_when_a_full_autosized_burst_fits() {
        let mut w = established("6.18", "");
        w.now_ns = 10_000_000;
        queue_skb(&mut w, 0, 20 * MSS);
        let now = w.now_ns;
        let tp = &mut w.socks[0];
        tp.snd_cwnd = 40;
        tp.tcp_wstamp_ns = now;
        tp.snd_wnd = 1 << 20;
        tcp_init_tso_segs(&mut w.socks[0].write_queue[0], MSS);
        let mut limited = false;
        assert_eq!(tcp_tso_should_defer(&mut w, 0, 0, &mut limited, 10), None);
    }

    #[test]
    fn tso_should_defer_never_defers_after_a_millisecond_without_sending() {
        let mut w = established("6.18", "");
        w.now_ns = 10_000_000;
        queue_skb(&mut w, 0, 20 * MSS);
        mark_sent(&mut w, 0, 9_950_000, false);
        queue_skb(&mut w, 0, 10 * MSS);
        let now = w.now_ns;
        let tp = &mut w.socks[0];
        tp.snd_cwnd = 22;
        tp.srtt_us = 100 << 3;
        tp.tcp_wstamp_ns = now - 1_000_001;
        tp.snd_wnd = 1 << 20;
        tcp_init_tso_segs(&mut w.socks[0].write_queue[0], MSS);
        let mut limited = false;
        assert_eq!(tcp_tso_should_defer(&mut w, 0, 0, &mut limited, 45), None);
    }

    #[test]
    fn a_reply_within_ato_of_the_last_receive_enters_pingpong_mode() {
        let mut w = established("4.4", "");
        w.now_ns = 1_000_000_000;
        let j = w.jiffies();
        let tp = &mut w.socks[0];
        tp.icsk_ack.ato = 10;
        tp.icsk_ack.lrcvtime = j;
        tcp_event_data_sent(&mut w, 0);
        assert!(in_pingpong_mode(&w.socks[0]));
        let tp = &mut w.socks[1];
        tp.icsk_ack.ato = 10;
        tp.icsk_ack.lrcvtime = j.saturating_sub(11);
        tcp_event_data_sent(&mut w, 1);
        assert!(!in_pingpong_mode(&w.socks[1]));
    }

    #[test]
    fn in_6_18_every_reply_within_ato_counts_toward_pingpong_even_in_the_jiffy_of_the_receive() {
        for (thresh, sends_to_enter) in [(1, 1), (3, 3)] {
            let mut w = established(
                "6.18",
                &format!("[sysctl]\n\"net.ipv4.tcp_pingpong_thresh\" = {thresh}\n"),
            );
            w.now_ns = 1_000_000_000;
            let j = w.jiffies();
            let tp = &mut w.socks[0];
            tp.icsk_ack.pingpong = 0;
            tp.icsk_ack.ato = 10;
            // Received and replied within the same jiffy, as on loopback.
            tp.icsk_ack.lrcvtime = j;
            tp.lsndtime = j;
            for n in 1..=sends_to_enter {
                assert!(
                    !in_pingpong_mode(&w.socks[0]),
                    "thresh {thresh}: before send {n}"
                );
                tcp_event_data_sent(&mut w, 0);
            }
            assert!(in_pingpong_mode(&w.socks[0]), "thresh {thresh}");
            assert_eq!(w.socks[0].icsk_ack.pingpong, sends_to_enter as u8);
        }
        // A send long after the last receive does not count.
        let mut w = established("6.18", "");
        w.now_ns = 1_000_000_000;
        let j = w.jiffies();
        let tp = &mut w.socks[0];
        tp.icsk_ack.pingpong = 0;
        tp.icsk_ack.ato = 10;
        tp.icsk_ack.lrcvtime = j - 11;
        tcp_event_data_sent(&mut w, 0);
        assert_eq!(w.socks[0].icsk_ack.pingpong, 0);
    }

    #[test]
    fn quick_ack_credits_are_spent_per_packet_before_6_6_and_per_scheduled_ack_after() {
        let mut w = established("4.4", "");
        w.socks[0].icsk_ack.quick = 5;
        tcp_event_ack_sent(&mut w, 0, 3); // a 3-segment data packet
        assert_eq!(w.socks[0].icsk_ack.quick, 2);
        let mut w = established("6.18", "");
        w.socks[0].icsk_ack.quick = 5;
        w.socks[0].icsk_ack.pending = 0; // no ACK was scheduled
        tcp_event_ack_sent(&mut w, 0, 3);
        assert_eq!(w.socks[0].icsk_ack.quick, 5);
        w.socks[0].icsk_ack.pending = ICSK_ACK_SCHED;
        tcp_event_ack_sent(&mut w, 0, 3);
        assert_eq!(w.socks[0].icsk_ack.quick, 4);
    }

    #[test]
    fn a_delayed_ack_waits_at_most_200_ms_in_pingpong_mode_and_not_beyond_the_rtt() {
        let mut w = established("4.4", "[sim]\nhz = 250\n");
        let j = w.jiffies();
        let tp = &mut w.socks[1];
        tp.icsk_ack.ato = 100; // 400 ms
        tp.icsk_ack.pingpong = 1;
        tp.srtt_us = 0;
        tcp_send_delayed_ack(&mut w, 1);
        assert_eq!(w.socks[1].icsk_ack.timeout, j + 50); // TCP_DELACK_MAX = HZ/5
        let tp = &mut w.socks[1];
        tp.icsk_ack.pending = 0;
        tp.srtt_us = 60_000 << 3; // 60 ms -> 15 jiffies
        tcp_send_delayed_ack(&mut w, 1);
        assert_eq!(w.socks[1].icsk_ack.timeout, j + 15);
    }

    #[test]
    fn a_delayed_ack_goes_out_now_when_the_running_timer_is_about_to_fire() {
        let mut w = established("4.4", "[sim]\nhz = 250\n");
        let j = w.jiffies();
        let tp = &mut w.socks[1];
        tp.icsk_ack.ato = 10;
        tp.icsk_ack.pending = ICSK_ACK_SCHED | ICSK_ACK_TIMER;
        tp.icsk_ack.timeout = j + 1; // <= now + ato/4
        let acks = w.hosts[1].mib.get(Mib::TcpOutSegs);
        tcp_send_delayed_ack(&mut w, 1);
        assert_eq!(w.hosts[1].mib.get(Mib::TcpOutSegs), acks + 1);
        assert_eq!(w.socks[1].icsk_ack.pending, 0);
    }

    #[test]
    fn cwnd_not_filled_for_an_rto_decays_halfway_to_what_was_used() {
        // RFC 2861 (tcp_cwnd_application_limited): cwnd 40, at most 12 packets out for more
        // than an RTO, the writer not held by its send buffer: cwnd (40 + 12) / 2 = 26,
        // ssthresh 3/4 of 40 = 30. Held by the send buffer (SOCK_NOSPACE), cwnd stays.
        for nospace in [false, true] {
            let mut w = established("6.18", "");
            let tp = &mut w.socks[0];
            tp.snd_cwnd = 40;
            tp.snd_ssthresh = 20;
            tp.packets_out = 12;
            tp.snd_cwnd_stamp = 0;
            tp.sock_nospace = nospace;
            let rto_j = tp.rto_ns * 250 / 1_000_000_000;
            tcp_cwnd_validate(tp, false, rto_j + 1, 250);
            let tp = &w.socks[0];
            if nospace {
                assert_eq!((tp.snd_cwnd, tp.snd_ssthresh), (40, 20));
            } else {
                assert_eq!((tp.snd_cwnd, tp.snd_ssthresh), (26, 30));
                assert_eq!(tp.snd_cwnd_used, 0);
            }
            assert_eq!(tp.snd_cwnd_stamp, rto_j + 1);
        }
    }

    #[test]
    fn a_tsq_handler_that_runs_while_the_writer_owns_the_socket_waits_for_release_sock() {
        use crate::include::linux::socket::MSG_MORE;
        use crate::net::ipv4::tcp;
        let mut w = established("6.18", "");
        // MSG_MORE holds the 1000 bytes in the write queue (tcp_push corks them).
        tcp::tcp_sendmsg_locked(&mut w, 0, 1000, MSG_MORE, false);
        let una = w.socks[0].snd_una;
        assert_eq!(w.socks[0].snd_nxt, una, "held");
        // The call has not returned: a TX completion's tasklet finds the socket owned.
        w.socks[0].send_owned = true;
        tcp_tsq_handler(&mut w, 0);
        assert_eq!(w.socks[0].tsq_flags & TCP_TSQ_DEFERRED, TCP_TSQ_DEFERRED);
        assert_eq!(w.socks[0].snd_nxt, una, "deferred, nothing sent");
        // release_sock → tcp_release_cb → tcp_tsq_write: nothing in flight, Nagle lets the
        // sub-MSS skb go.
        tcp::release_sock(&mut w, 0);
        assert_eq!(w.socks[0].tsq_flags & TCP_TSQ_DEFERRED, 0);
        assert!(!w.socks[0].sock_owned_by_user(w.now_ns));
        assert_eq!(w.socks[0].snd_nxt, una + 1000, "sent from tcp_release_cb");
    }

    #[test]
    fn tcp_wfree_schedules_the_tsq_handler_only_when_throttled() {
        let mut w = established("6.18", "");
        let mk = |id| Packet {
            id,
            orig_skb: 1,
            sk: 0,
            src_host: 0,
            dst_host: 1,
            hash: 0,
            priority: 0,
            len: 1514,
            hdr_len: 66,
            truesize: 3000,
            gso_segs: 1,
            gso_size: 0,
            tstamp_ns: 0,
            tsecr_ms: 0,
            sk_pacing_rate_bps: 0,
            pure_ack: false,
            seq: 1,
            end_seq: 1449,
            ack_seq: 1,
            window: 0,
            flags: 0,
            sent_ns: 0,
        };
        w.socks[0].sk_wmem_alloc += 6000;
        tcp_wfree(&mut w, mk(1));
        assert_eq!(w.socks[0].tsq_flags, 0);
        w.socks[0].tsq_flags = TSQ_THROTTLED;
        tcp_wfree(&mut w, mk(2));
        assert_eq!(w.socks[0].tsq_flags, TSQ_QUEUED);
        assert_eq!(w.socks[0].sk_wmem_alloc, 1);
    }

    #[test]
    fn the_offered_window_never_shrinks() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[1];
        tp.rcv_wnd = 60_000;
        tp.rcv_wup = tp.rcv_nxt;
        tp.sk_rmem_alloc = tp.sk_rcvbuf; // buffer full: __tcp_select_window offers 0
        let win = tcp_select_window(tp);
        assert!(win >= 60_000, "{win}");
    }
}
