//! `net/ipv4/tcp_input.c` (and the connection set-up of `tcp_ipv4.c`/`tcp_minisocks.c`):
//! what a received segment does. On the sender: `tcp_ack` frees acknowledged skbs, samples the
//! RTT, grows cwnd, updates the pacing rate, wakes the writer and lets `tcp_write_xmit` send
//! more. On the receiver: in-order data is queued, the delayed-ACK machinery decides when to
//! ACK (quick-ACK credits, pingpong, `ato`), and the window grows.
//!
//! Follows Linux 6.18 with the switches of `Profile` for 3.13 .. 4.4.
//!
//! Loss recovery follows 6.18 for every profile: the receiver queues out-of-order data and
//! reports it in SACK blocks (`tcp_data_queue_ofo`, `tcp_sack_new_ofo_skb`, `tcp_ofo_queue`,
//! D-SACK for duplicates); the sender keeps a SACK scoreboard on its retransmit queue
//! (`tcp_sacktag_write_queue`), finds losses with RACK (`tcp_recovery.rs`), runs the
//! `tcp_fastretrans_alert` state machine (Open, Disorder, CWR, Recovery, Loss), reduces cwnd with
//! PRR (`tcp_cwnd_reduction`) and undoes a reduction that D-SACKs prove spurious. A peer without
//! SACK gets Reno's duplicate-ACK counting (`tcp_add_reno_sack`, `tcp_remove_reno_sacks`,
//! `tcp_check_reno_reordering`) and NewReno's `tcp_newreno_mark_lost` in RACK's place.
//! After `close()`, `tcp_rcv_state_process` runs the teardown states (`tcp_fin`,
//! `tcp_time_wait`).
//!
//! Simplified:
//! - no timestamps echo (TSecr), so `tcp_packet_delayed` is never true: no undo from
//!   timestamps (`tcp_try_undo_partial` and the timestamp half of `tcp_may_undo`), only from
//!   D-SACKs; visible effect: a spurious fast retransmission is undone only when its D-SACK
//!   arrives.
//! - no SACK reneging, no ECN; visible effect: none on the modelled paths.
//! - an ACK that neither advances `snd_una` nor carries SACK blocks, in state Open, returns
//!   before the congestion control (which it would not change); visible effect: none.
//! - SACK blocks ride on pure ACKs only (a data segment from the receiver carries none);
//!   visible effect: none for the one-way flows modelled.
//! - header prediction is reduced to its counters: an ACK that only advances `snd_una`
//!   without changing the window counts as `TCPHPAcks`, other pure ACKs as `TCPPureAcks`.

use crate::include::linux::skbuff::{tcp_flags, Packet, SockId, ETH_HLEN, IPV4_HLEN, TCP_HLEN};
use crate::include::uapi::linux::snmp::Mib;
use crate::net::core::sock::*;
use crate::net::host::Stack;
use crate::net::ipv4::tcp::{sk_data_ready, sk_stream_write_space};
use crate::net::ipv4::tcp_cong::{self};
use crate::net::ipv4::tcp_output::{
    __tcp_select_window, in_pingpong_mode, rcv_scaling, tcp_ato_min, tcp_push_pending_frames,
    tcp_send_ack, tcp_send_delayed_ack, tcp_space, tcp_space_from_win, tcp_win_from_space,
};
use crate::net::ipv4::tcp_rate::{tcp_rate_gen, tcp_rate_skb_delivered, RateSample};
use crate::net::ipv4::tcp_timer;
use crate::trace::{AckReason, Ev};

/// `tcp_ack`'s flags (net/ipv4/tcp_input.c).
pub const FLAG_DATA: u32 = 0x01;
pub const FLAG_WIN_UPDATE: u32 = 0x02;
pub const FLAG_DATA_ACKED: u32 = 0x04;
pub const FLAG_RETRANS_DATA_ACKED: u32 = 0x08;
pub const FLAG_DATA_SACKED: u32 = 0x20;
pub const FLAG_ECE: u32 = 0x40;
pub const FLAG_LOST_RETRANS: u32 = 0x80;
pub const FLAG_ORIG_SACK_ACKED: u32 = 0x200;

/// `tcp_fastretrans_alert`'s `rexmit`: nothing, retransmit what is marked lost, or (F-RTO step
/// 2.b) send new data first.
pub const REXMIT_NONE: u8 = 0;
pub const REXMIT_LOST: u8 = 1;
pub const REXMIT_NEW: u8 = 2;
pub const FLAG_SND_UNA_ADVANCED: u32 = 0x400;
pub const FLAG_DSACKING_ACK: u32 = 0x800;
pub const FLAG_SET_XMIT_TIMER: u32 = 0x1000;
pub const FLAG_ACKED: u32 = FLAG_DATA_ACKED;
pub const FLAG_NOT_DUP: u32 = FLAG_DATA | FLAG_WIN_UPDATE | FLAG_ACKED;
pub const FLAG_CA_ALERT: u32 = FLAG_DATA_SACKED | FLAG_ECE;
pub const FLAG_FORWARD_PROGRESS: u32 = FLAG_ACKED | FLAG_DATA_SACKED;

/// `tcp_v4_rcv`: a segment reaches its socket.
pub fn tcp_v4_rcv(w: &mut Stack, sk: SockId, pkt: &Packet) {
    let tp = &w.socks[sk as usize];
    let host = tp.host;
    // "Count it even if it's bad": __TCP_INC_STATS(net, TCP_MIB_INSEGS), once per skb, so a
    // GRO-merged skb of 45 segments counts one, in 6.18 as before: a real 6.18 receiver of the
    // 2 MB transfer (public/samples/bulk-40ms.jsonl) counted TcpInSegs 165 = IpInReceives 165
    // while the sender's TcpOutSegs was 1386.
    w.mib(host).inc(Mib::TcpInSegs);
    // The receive path up to the socket runs here, in the softirq's context, wherever the
    // segment is processed (tcp_v4_do_rcv charges the rest).
    let c = w.costs(host);
    let softirq = if pkt.payload_len() == 0 {
        c.ack_rcv_softirq_ns
    } else {
        c.rx_skb_softirq_ns
    };
    w.charge(sk, softirq);
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    if tp.state == TcpState::Established && !tp.processing_backlog && tp.sock_owned_by_user(now) {
        // The reader (until its copy is done and it has processed the backlog) or the writer
        // (until its send() returns) holds the socket: tcp_add_backlog, processed in order
        // when it lets go (release_sock).
        tp.sk_backlog.push_back(pkt.clone());
        return;
    }
    // bh_lock_sock held from here to the end of the segment's processing.
    let ctx = w.softirq_owner.unwrap_or(sk);
    w.bh_locked.push((sk, ctx));
    tcp_v4_do_rcv(w, sk, pkt);
}

/// `tcp_v4_do_rcv`: a segment processed by its socket, from the softirq or from the backlog.
///
/// Its CPU cost (an ACK through `tcp_ack`, or a (GRO'd) data skb and its segments), less the
/// receive path before the socket that `tcp_v4_rcv` charged to the softirq, is charged here,
/// where the segment is processed: in the receive softirq, or, for a segment that waited in
/// the backlog, by the socket's user in `release_sock`.
pub fn tcp_v4_do_rcv(w: &mut Stack, sk: SockId, pkt: &Packet) {
    let host = w.socks[sk as usize].host;
    let c = w.costs(host);
    let cost = if pkt.payload_len() == 0 {
        c.ack_rcv_ns - c.ack_rcv_softirq_ns
    } else {
        c.rx_skb_ns - c.rx_skb_softirq_ns + c.rx_seg_ns * pkt.gso_segs.max(1) as u64
    };
    w.charge(sk, cost);
    let tp = &mut w.socks[sk as usize];
    if tp.net.sysctl.tcp_timestamps && pkt.seq <= tp.rcv_wup {
        // tcp_replace_ts_recent: remember the peer's TSval (its send time, ms) to echo.
        tp.ts_recent_ms = pkt.sent_ns / 1_000_000;
    }
    match w.socks[sk as usize].state {
        TcpState::Closed => {}
        TcpState::SynSent => tcp_rcv_synsent_state_process(w, sk, pkt),
        TcpState::SynRecv => tcp_rcv_synrecv(w, sk, pkt),
        TcpState::Established => tcp_rcv_established(w, sk, pkt),
        TcpState::FinWait1 | TcpState::FinWait2 | TcpState::Closing => {
            tcp_rcv_state_process(w, sk, pkt)
        }
        // The time-wait socket (tcp_timewait_state_process) is not modelled: the model's
        // socket stops at TIME_WAIT.
        TcpState::TimeWait => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Connection teardown (the active closer)
// ---------------------------------------------------------------------------------------------

/// `tcp_rcv_state_process` (net/ipv4/tcp_input.c, 6.18) for the states after `close()`:
/// FIN_WAIT1, FIN_WAIT2, CLOSING.
///
/// "step 5: check the ACK field": `tcp_ack`; in FIN_WAIT1, once `snd_una` reaches `write_seq`
/// (our FIN is acknowledged), FIN_WAIT2 and `SEND_SHUTDOWN`; in CLOSING, TIME_WAIT
/// (`tcp_time_wait`). "step 7: process the segment text": in FIN_WAIT1 and FIN_WAIT2 a
/// segment with new data after `close()` resets the connection (`RCV_SHUTDOWN`), else
/// `tcp_data_queue`, where a FIN at `rcv_nxt` advances `rcv_nxt` past it
/// (`tcp_rcv_nxt_update`) and runs [`tcp_fin`]. Then, unless the socket is gone,
/// `tcp_data_snd_check` and `tcp_ack_snd_check`.
///
/// Simplified:
/// - the orphaned socket in FIN_WAIT2 after an ACK without FIN: Linux hands it over to a
///   time-wait socket in its FIN_WAIT2 substate (`tcp_time_wait(sk, TCP_FIN_WAIT2, tmo)`), whose
///   `tcp_timewait_state_process` answers the peer's FIN with `tcp_v4_timewait_ack`; the model
///   keeps the full socket in FIN_WAIT2 and answers the FIN through `tcp_fin`; visible effect:
///   the ACK's window is `tcp_select_window`'s, not the time-wait socket's `tw_rcv_wnd`.
/// - no `tcp_validate_incoming` (PAWS, sequence window, RST, challenge ACKs), no FIN_WAIT2
///   timer (`tcp_fin_time`, 60 s), no reset: new data after `close()` and a FIN out of order
///   are dropped (Linux resets, or queues the FIN out of order); the packetdrill runner reports
///   such scripts as unsupported.
fn tcp_rcv_state_process(w: &mut Stack, sk: SockId, pkt: &Packet) {
    let fin = pkt.flags & tcp_flags::FIN != 0;
    if pkt.flags & tcp_flags::ACK == 0 {
        // "if (!th->ack && !th->rst && !th->syn) { SKB_DR_SET(reason, TCP_FLAGS); goto
        // discard; }"
        return;
    }
    // FLAG_DATA: "if (TCP_SKB_CB(skb)->seq != TCP_SKB_CB(skb)->end_seq)" (a FIN counts).
    tcp_ack(w, sk, pkt, pkt.end_seq != pkt.seq);
    let tp = &mut w.socks[sk as usize];
    match tp.state {
        TcpState::FinWait1 if tp.snd_una == tp.write_seq => {
            // "tcp_set_state(sk, TCP_FIN_WAIT2); WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown |
            // SEND_SHUTDOWN);" The socket is orphaned (SOCK_DEAD): with a FIN in the segment
            // the FIN_WAIT2 timer is armed and the FIN is processed below.
            tp.state = TcpState::FinWait2;
            tp.sk_shutdown |= SEND_SHUTDOWN;
        }
        TcpState::Closing if tp.snd_una == tp.write_seq => {
            tcp_time_wait(w, sk);
            return;
        }
        _ => {}
    }
    let tp = &w.socks[sk as usize];
    if matches!(tp.state, TcpState::FinWait1 | TcpState::FinWait2) {
        let data = pkt.end_seq - u64::from(fin);
        if tp.sk_shutdown & RCV_SHUTDOWN != 0 && pkt.end_seq != pkt.seq && data > tp.rcv_nxt {
            // "tcp_reset(sk, skb); return 1;": not modelled (see above).
            return;
        }
        // tcp_data_queue: "if (TCP_SKB_CB(skb)->seq == TCP_SKB_CB(skb)->end_seq) {
        // __kfree_skb(skb); return; }"; a FIN at rcv_nxt is queued (tcp_queue_rcv, which
        // advances rcv_nxt) and processed by tcp_fin.
        if fin && pkt.seq == tp.rcv_nxt {
            w.socks[sk as usize].rcv_nxt = pkt.end_seq;
            tcp_fin(w, sk);
        }
    }
    if w.socks[sk as usize].state != TcpState::TimeWait {
        tcp_data_snd_check(w, sk);
        // tcp_ack_snd_check: "if (!inet_csk_ack_scheduled(sk)) return;"
        if w.socks[sk as usize].icsk_ack.pending & ICSK_ACK_SCHED != 0 {
            __tcp_ack_snd_check(w, sk);
        }
    }
}

/// `tcp_fin` (net/ipv4/tcp_input.c, 6.18): the peer's FIN. `inet_csk_schedule_ack`,
/// `RCV_SHUTDOWN`; in FIN_WAIT1 (simultaneous close) `tcp_send_ack` and CLOSING; in FIN_WAIT2
/// "Received a FIN -- send ACK and enter TIME_WAIT": `tcp_send_ack`, `tcp_time_wait`. Then the
/// out-of-order queue is purged and the SACK blocks reset (`tcp_sack_reset`).
///
/// Simplified: the ESTABLISHED → CLOSE_WAIT transition (the passive close) is not modelled;
/// the model's peers never close first.
fn tcp_fin(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    tp.icsk_ack.pending |= ICSK_ACK_SCHED;
    tp.sk_shutdown |= RCV_SHUTDOWN;
    match tp.state {
        TcpState::FinWait1 => {
            tcp_send_ack(w, sk, AckReason::Control);
            w.socks[sk as usize].state = TcpState::Closing;
        }
        TcpState::FinWait2 => {
            tcp_send_ack(w, sk, AckReason::Control);
            tcp_time_wait(w, sk);
        }
        _ => {}
    }
    // "skb_rbtree_purge(&tp->out_of_order_queue); if (tcp_is_sack(tp)) tcp_sack_reset(...)"
    let tp = &mut w.socks[sk as usize];
    let purged: u64 = std::mem::take(&mut tp.rcv_sack.out_of_order_queue)
        .values()
        .map(|&(_, truesize)| truesize)
        .sum();
    tp.sk_rmem_alloc -= purged;
    tp.sk_mem_uncharge(purged);
    tp.rcv_sack.selective_acks.clear();
}

/// `tcp_time_wait(sk, TCP_TIME_WAIT, 0)` (net/ipv4/tcp_minisocks.c, 6.18): a time-wait socket
/// takes the connection over and `tcp_done` closes the full socket (`tcp_set_state(sk,
/// TCP_CLOSE)`, `tcp_clear_xmit_timers`). The model's socket takes the state TIME_WAIT and its
/// timers stop; the time-wait socket itself (re-ACKing a retransmitted FIN, its 60 s timer) is
/// not modelled.
fn tcp_time_wait(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    tp.state = TcpState::TimeWait;
    // tcp_clear_xmit_timers: the retransmit-family timer and the delayed ACK.
    tp.icsk_pending = IcskPending::None;
    tp.icsk_timeout_ns = 0;
    tp.icsk_ack.pending = 0;
}

// ---------------------------------------------------------------------------------------------
// Connection set-up
// ---------------------------------------------------------------------------------------------

/// The MSS a host advertises on a device of `mtu` (`ipv4_default_advmss`: at most
/// `IPV4_MAX_PMTU` 65535 minus the headers).
pub fn advmss_for_mtu(mtu: u32) -> u32 {
    mtu.min(65_535) - IPV4_HLEN - TCP_HLEN
}

/// `tcp_connect`: the active side sends its SYN.
pub fn tcp_connect(w: &mut Stack, sk: SockId) {
    let pkt_id = w.next_pkt_id();
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    tp.state = TcpState::SynSent;
    tp.syn_sent_ns = now;
    let host = tp.host;
    let syn = syn_packet(tp, pkt_id, now, tcp_flags::SYN);
    tp.write_seq = 1;
    tp.snd_nxt = 1;
    tp.pushed_seq = 1;
    w.mib(host).inc(Mib::TcpActiveOpens);
    w.mib(host).inc(Mib::TcpOutSegs);
    w.ip_queue_xmit(host, syn);
}

/// A SYN or SYN-ACK: 40 bytes of TCP header (MSS, SACK_PERM, timestamps, window scale).
fn syn_packet(tp: &mut TcpSock, id: u64, now: u64, flags: u8) -> Packet {
    let hdr = ETH_HLEN + IPV4_HLEN + TCP_HLEN + 20;
    let ack_seq = u64::from(flags & tcp_flags::ACK != 0);
    // The window in a SYN is never scaled.
    let window = tp.rcv_wnd.min(65_535) as u32;
    crate::net::ipv4::tcp_output::control_packet(tp, id, now, hdr, flags, (0, 1, ack_seq), window)
}

/// The passive side: a SYN arrives, the request socket answers with a SYN-ACK
/// (`tcp_v4_send_synack`).
fn tcp_rcv_synrecv(w: &mut Stack, sk: SockId, pkt: &Packet) {
    if pkt.flags & tcp_flags::SYN != 0 {
        let pkt_id = w.next_pkt_id();
        let now = w.now_ns;
        let tp = &mut w.socks[sk as usize];
        tp.snd_wnd = pkt.window as u64;
        tp.max_window = tp.snd_wnd;
        tp.rcv_nxt = 1;
        tp.rcv_wup = 1;
        tp.copied_seq = 1;
        tp.syn_sent_ns = now; // SYN-ACK send time, for the first RTT sample
        let host = tp.host;
        let synack = syn_packet(tp, pkt_id, now, tcp_flags::SYN | tcp_flags::ACK);
        tp.write_seq = 1;
        tp.snd_nxt = 1;
        tp.pushed_seq = 1;
        w.mib(host).inc(Mib::TcpOutSegs);
        w.ip_queue_xmit(host, synack);
        return;
    }
    if pkt.flags & tcp_flags::ACK != 0 && pkt.ack_seq == 1 {
        // The third segment of the handshake: the child socket is established.
        let now = w.now_ns;
        let tp = &mut w.socks[sk as usize];
        let rtt_us = (now - tp.syn_sent_ns) / 1000;
        tp.snd_una = 1;
        // `Packet.window` is in bytes already (the sender scaled it back), as everywhere else.
        // tcp_create_openreq_child: "newtp->snd_wnd = ntohs(tcp_hdr(skb)->window) <<
        // newtp->rx_opt.snd_wscale; ... newtp->max_window = newtp->snd_wnd;" (this ACK's
        // window, scaled, not the SYN's).
        tp.snd_wnd = pkt.window as u64;
        tp.max_window = tp.snd_wnd;
        tp.snd_wl1 = pkt.seq;
        let host = tp.host;
        w.mib(host).inc(Mib::TcpPassiveOpens);
        tcp_finish_connect(w, sk, rtt_us, true);
        if pkt.payload_len() > 0 {
            tcp_rcv_established(w, sk, pkt);
        }
    }
}

/// `tcp_rcv_synsent_state_process`: the active side gets the SYN-ACK, ACKs it and is
/// established.
fn tcp_rcv_synsent_state_process(w: &mut Stack, sk: SockId, pkt: &Packet) {
    if pkt.flags & (tcp_flags::SYN | tcp_flags::ACK) != (tcp_flags::SYN | tcp_flags::ACK) {
        return;
    }
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    let rtt_us = ((now - tp.syn_sent_ns) / 1000).max(1); // tcp_connect noted the SYN's time
    tp.snd_una = 1;
    tp.rcv_nxt = 1;
    tp.rcv_wup = 1;
    tp.copied_seq = 1;
    tp.snd_wnd = pkt.window as u64;
    tp.max_window = tp.snd_wnd;
    tp.snd_wl1 = pkt.seq;
    tcp_finish_connect(w, sk, rtt_us, false);
    tcp_send_ack(w, sk, AckReason::Control);
}

/// `tcp_finish_connect` / `tcp_init_transfer`: MSS, buffers, congestion control, the first
/// RTT sample and pacing rate; the application may start.
fn tcp_finish_connect(w: &mut Stack, sk: SockId, rtt_us: u64, passive: bool) {
    let hz = w.hz;
    let now_j = w.jiffies();
    let now_ns = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    tp.state = TcpState::Established;
    // "Prevent spurious tcp_cwnd_restart() on first data packet"; the ACK engine's clock.
    tp.lsndtime = now_j;
    tp.icsk_ack.lrcvtime = now_j;
    tcp_rtt_estimator(tp, rtt_us.max(1));
    tcp_set_rto(tp);
    tp.min_rtt_us = rtt_us.max(1);
    // The MSS the receive autotuning starts from: Linux lowers advmss by the timestamp option
    // (TCPOLEN_TSTAMP_ALIGNED) when both ends use it, before tcp_init_transfer on the active
    // side and, from 6.16 ("tcp: fix initial tp->rcvq_space.space value for passive TS enabled
    // flows"), on the passive side too (before, after it: 120 bytes more space).
    let ts = tp.tcp_header_len > TCP_HLEN;
    let advmss_ts = if ts && (!passive || tp.profile.kernel.at_least(6, 16)) {
        tp.advmss - TCPOLEN_TSTAMP_ALIGNED
    } else {
        tp.advmss
    };
    tcp_init_buffer_space(tp, now_ns, advmss_ts);
    tp.snd_cwnd_stamp = 0;
    // The SYN (or SYN-ACK) is delivered: tcp_clean_rtx_queue counts it on the active side,
    // "tp->delivered++; /* SYN-ACK delivery isn't tracked in tcp_ack */" on the passive one.
    tp.delivered = 1;
    if tcp_cong::has_cong_control(tp) {
        // tcp_init_transfer -> tcp_init_congestion_control: bbr_init sets the pacing rate.
        let clock = tcp_cong::CaClock {
            now_ns: w.now_ns,
            jiffies: now_j as u32,
            hz,
        };
        let tp = &mut w.socks[sk as usize];
        tcp_cong::tcp_init_congestion_control(tp, &clock);
    } else {
        tcp_update_pacing_rate(tp, hz);
    }
    let tp = &w.socks[sk as usize];
    let (host, mss, sndbuf, rcvbuf, app) =
        (tp.host, tp.mss_cache, tp.sk_sndbuf, tp.sk_rcvbuf, tp.app);
    let pacing_rate = if tp.sk_pacing_rate >= tp.profile.pacing_unlimited() {
        u64::MAX
    } else {
        tp.sk_pacing_rate
    };
    w.emit(host, sk, || Ev::Established {
        mss: mss as u64,
        sndbuf,
        rcvbuf,
        pacing_rate,
    });
    let now = w.now_ns;
    w.schedule(now, crate::net::host::Event::App(app));
}

/// `tcp_init_buffer_space`: the send buffer from `tcp_sndbuf_expand`, the receive buffer
/// (`tcp_fixup_rcvbuf` before 4.19), `window_clamp` and `rcv_ssthresh`.
///
/// `advmss_ts`: `tp->advmss` as Linux has it here (see `tcp_finish_connect`); the model keeps
/// `advmss` itself at the MTU's (1460) after the handshake.
fn tcp_init_buffer_space(tp: &mut TcpSock, now_ns: u64, advmss_ts: u32) {
    if !tp.sndbuf_locked {
        tcp_sndbuf_expand(tp);
    }
    if !tp.rcvbuf_locked && !tp.profile.kernel.at_least(4, 19) {
        // tcp_fixup_rcvbuf: room for the initial window of full segments, times 4 for DRS.
        let truesize = (tp.advmss + tp.profile.max_tcp_header) as u64 + 576;
        let mut rcvmem = 2 * truesize * TCP_INIT_CWND as u64;
        if tp.net.sysctl.tcp_moderate_rcvbuf {
            rcvmem <<= 2;
        }
        if tp.sk_rcvbuf < rcvmem {
            tp.sk_rcvbuf = rcvmem.min(tp.net.sysctl.tcp_rmem[2]);
        }
    }
    if !rcv_scaling(tp) {
        tp.rcvq_space.space = tp.rcv_wnd.min(TCP_INIT_CWND as u64 * advmss_ts as u64);
    } else {
        tp.rcvq_space.time_ns = now_ns;
    }
    tp.rcvq_space.seq = tp.copied_seq;
    let maxwin = tcp_win_from_space(tp, tp.sk_rcvbuf as i64) as u64;
    // tcp_app_win = 31: reserve one segment.
    if tp.window_clamp >= maxwin {
        tp.window_clamp = maxwin;
    }
    if tp.window_clamp > 2 * tp.advmss as u64 && tp.window_clamp + tp.advmss as u64 > maxwin {
        tp.window_clamp = (2 * tp.advmss as u64).max(maxwin - tp.advmss as u64);
    }
    tp.rcv_ssthresh = tp.rcv_ssthresh.min(tp.window_clamp);
    if rcv_scaling(tp) {
        // 6.x: "tp->rcvq_space.space = min3(tp->rcv_ssthresh, tp->rcv_wnd, TCP_INIT_CWND *
        // tp->advmss)", after the clamp.
        tp.rcvq_space.space = tp
            .rcv_ssthresh
            .min(tp.rcv_wnd)
            .min(TCP_INIT_CWND as u64 * advmss_ts as u64);
    }
}

/// `tcp_sndbuf_expand` (3.13+, 6ae705323b71): room for twice the congestion window of
/// full-MSS skbs, `per_mss` rounded to the slab a full skb really takes.
pub fn tcp_sndbuf_expand(tp: &mut TcpSock) {
    let per_mss = (tp.mss_clamp.max(tp.mss_cache) + tp.profile.max_tcp_header + 320)
        .next_power_of_two() as u64
        + 256;
    let nr_segs = (TCP_INIT_CWND).max(tp.snd_cwnd).max(3 + 1) as u64;
    // ca_ops->sndbuf_expand (BBR: 3), else 2.
    let sndmem = tcp_cong::sndbuf_expand(tp) * nr_segs * per_mss;
    if tp.sk_sndbuf < sndmem {
        tp.sk_sndbuf = sndmem.min(tp.net.sysctl.tcp_wmem[2]);
    }
}

// ---------------------------------------------------------------------------------------------
// tcp_rcv_established
// ---------------------------------------------------------------------------------------------

/// `tcp_rcv_established`: process the ACK part, queue in-order data, decide the ACK.
pub fn tcp_rcv_established(w: &mut Stack, sk: SockId, pkt: &Packet) {
    let payload = pkt.payload_len() as u64;
    let host = w.socks[sk as usize].host;
    if payload == 0 {
        // Pure ACK: tcp_ack(), then tcp_data_snd_check().
        tcp_ack(w, sk, pkt, false);
        tcp_data_snd_check(w, sk);
        return;
    }
    let tp = &mut w.socks[sk as usize];
    if pkt.seq != tp.rcv_nxt {
        // Old or out-of-order data (only after a drop).
        if pkt.end_seq <= tp.rcv_nxt {
            // tcp_data_queue: "A retransmit, 2nd most common case. Force an immediate ack."
            w.mib(host).inc(Mib::TcpExtDelayedACKLost);
            tcp_dsack_set(w, sk, pkt.seq, pkt.end_seq);
            tcp_enter_quickack_mode(w, sk, TCP_MAX_QUICKACKS);
            tcp_ack(w, sk, pkt, true);
            tcp_send_ack(w, sk, AckReason::Now);
            return;
        }
        if pkt.seq > tp.rcv_nxt {
            // tcp_data_queue -> tcp_data_queue_ofo; __tcp_ack_snd_check ACKs at once while
            // the out-of-order queue holds data.
            tcp_ack(w, sk, pkt, true);
            tcp_data_queue_ofo(w, sk, pkt);
            tcp_data_snd_check(w, sk);
            tcp_send_ack(w, sk, AckReason::Now);
            return;
        }
        // "Partial packet, seq < rcv_next < end_seq": the new part is in order.
        let mut p = pkt.clone();
        p.seq = w.socks[sk as usize].rcv_nxt;
        tcp_dsack_set(w, sk, pkt.seq, p.seq);
        tcp_rcv_established(w, sk, &p);
        return;
    }
    // The fast path's tcp_rcv_rtt_measure_ts, then tcp_queue_rcv: in-order data joins the
    // receive queue.
    let now = w.now_ns;
    tcp_rcv_rtt_measure_ts(&mut w.socks[sk as usize], pkt, now);
    let truesize = rx_truesize(w, sk, pkt);
    let tp = &mut w.socks[sk as usize];
    tp.rcv_nxt = pkt.end_seq;
    tp.sk_rmem_alloc += truesize;
    tp.sk_mem_charge(truesize);
    tp.receive_queue.push_back((pkt.end_seq, truesize));
    let segs = pkt.gso_segs.max(1) as u64;
    w.mib(host).inc(Mib::TcpExtTCPHPHits);
    if segs > 1 {
        w.emit(host, sk, || Ev::Gro {
            segs,
            bytes: payload,
        });
    }
    let (seq, end_seq) = (pkt.seq, pkt.end_seq);
    w.emit(host, sk, || Ev::RcvData { seq, end_seq, segs });
    tcp_event_data_recv(w, sk, pkt, truesize);
    if !w.socks[sk as usize].rcv_sack.out_of_order_queue.is_empty() {
        tcp_ofo_queue(w, sk);
        let tp = &mut w.socks[sk as usize];
        // "RFC5681. 4.2. SHOULD send immediate ACK, when gap in queue is filled."
        if tp.rcv_sack.out_of_order_queue.is_empty() {
            tp.icsk_ack.pending |= ICSK_ACK_NOW;
        }
    }
    if !w.socks[sk as usize].rcv_sack.selective_acks.is_empty() {
        tcp_sack_remove(&mut w.socks[sk as usize]);
    }
    if pkt.ack_seq != w.socks[sk as usize].snd_una {
        tcp_ack(w, sk, pkt, true);
        tcp_data_snd_check(w, sk);
        if w.socks[sk as usize].icsk_ack.pending & ICSK_ACK_SCHED == 0 {
            sk_data_ready(w, sk);
            return;
        }
    }
    __tcp_ack_snd_check(w, sk);
    sk_data_ready(w, sk);
}

/// The truesize of a received data skb, which the receive buffer is charged and 6.x's
/// `scaling_ratio` is measured on:
/// - the lab's forwarder writes each frame from user space into a linear skb
///   (`packet_snd` → `alloc_skb`): the head is a power-of-two kmalloc for the frame, the
///   `NET_SKB_PAD` headroom and `skb_shared_info`, so a 2-segment frame takes a 4 KB head and
///   `SKB_TRUESIZE` 4352 (Linux 6.18's receiver measured `scaling_ratio` 170 = 2896 × 256 /
///   4352 in the lab's `tcp:tcp_rcvbuf_grow` trace);
/// - a NIC, and a veth pair: the payload and `SKB_TRUESIZE`'s overhead.
///
/// Simplified: on a veth pair the receiver gets the sender's own skb (its clone, truesize
/// copied), which for small writes is far larger than the payload; the model does not carry
/// the sender's truesize across, because with it the model's 128-byte writers end
/// window-limited where Linux's are not (cause not isolated); visible effect: the veth
/// receiver's `scaling_ratio` is higher than Linux's.
fn rx_truesize(w: &Stack, sk: SockId, pkt: &Packet) -> u64 {
    let tp = &w.socks[sk as usize];
    let overhead = tp.profile.skb_truesize_overhead() as u64;
    if w.cfg.link.forwarder {
        const NET_SKB_PAD: u64 = 64;
        const SHINFO: u64 = 320;
        let head = (pkt.len as u64 + NET_SKB_PAD + SHINFO).next_power_of_two();
        head - SHINFO + overhead
    } else {
        pkt.payload_len() as u64 + overhead
    }
}

/// `tcp_event_data_recv`: schedule an ACK, measure the peer's MSS, adapt `ato` to the
/// inter-arrival time, grant quick ACKs on the first data and after idle, grow the window.
fn tcp_event_data_recv(w: &mut Stack, sk: SockId, pkt: &Packet, truesize: u64) {
    let now_j = w.jiffies();
    let now_ns = w.now_ns;
    let ato_min = tcp_ato_min(w.hz);
    let rto_j = w.socks[sk as usize].rto_ns * w.hz / 1_000_000_000;
    let tp = &mut w.socks[sk as usize];
    tp.icsk_ack.pending |= ICSK_ACK_SCHED; // inet_csk_schedule_ack
    tcp_measure_rcv_mss(tp, pkt, truesize);
    tcp_rcv_rtt_measure(tp, now_ns);
    if tp.icsk_ack.ato == 0 {
        // "The _first_ data packet received, initialize delayed ACK engine."
        tcp_incr_quickack(tp, TCP_MAX_QUICKACKS);
        tp.icsk_ack.ato = ato_min;
    } else {
        let m = now_j - tp.icsk_ack.lrcvtime;
        if m <= ato_min / 2 {
            // "The fastest case is the first."
            tp.icsk_ack.ato = (tp.icsk_ack.ato >> 1) + ato_min / 2;
        } else if m < tp.icsk_ack.ato {
            tp.icsk_ack.ato = ((tp.icsk_ack.ato >> 1) + m).min(rto_j);
        } else if m > rto_j {
            // "Too long gap. Apparently sender failed to restart window, so that we send
            // ACKs quickly."
            tcp_incr_quickack(tp, TCP_MAX_QUICKACKS);
        }
    }
    tp.icsk_ack.lrcvtime = now_j;
    if pkt.payload_len() >= 128 {
        tcp_grow_window(tp, pkt.payload_len() as u64, truesize);
    }
}

/// `tcp_measure_rcv_mss`: track the peer's segment size; a short segment (end of a write)
/// sets `ICSK_ACK_PUSHED`, a second one `ICSK_ACK_PUSHED2`.
fn tcp_measure_rcv_mss(tp: &mut TcpSock, pkt: &Packet, truesize: u64) {
    let lss = tp.icsk_ack.last_seg_size;
    tp.icsk_ack.last_seg_size = 0;
    let len = if pkt.gso_segs > 1 {
        pkt.gso_size
    } else {
        pkt.payload_len()
    };
    if len >= tp.icsk_ack.rcv_mss {
        if rcv_scaling(tp) && len != tp.icsk_ack.rcv_mss {
            // 6.6+: "only adjust scaling_ratio when we update icsk_ack.rcv_mss": skb->len
            // (the payload) over its truesize; a new ratio re-derives the window clamp from
            // the buffer (tcp_set_window_clamp), and autotuning's base cannot exceed it.
            let val = ((pkt.payload_len() as u64) << TCP_RMEM_TO_WIN_SCALE) / truesize.max(1);
            let old_ratio = tp.scaling_ratio;
            tp.scaling_ratio = (val.min(255) as u32).max(1);
            if old_ratio != tp.scaling_ratio {
                let val = tcp_win_from_space(tp, tp.sk_rcvbuf as i64).max(0) as u64;
                tcp_set_window_clamp(tp, val);
                if tp.window_clamp < tp.rcvq_space.space {
                    tp.rcvq_space.space = tp.window_clamp;
                }
            }
        }
        tp.icsk_ack.rcv_mss = len.min(tp.advmss);
        if tp.profile.psh_full_segment_pushed && pkt.flags & tcp_flags::PSH != 0 {
            tp.icsk_ack.pending |= ICSK_ACK_PUSHED;
        }
        return;
    }
    // "Otherwise, we make more careful check taking into account, that SACKs block is
    // variable."
    let len_hdr = len + tp.tcp_header_len;
    let remnant =
        pkt.flags & (tcp_flags::FIN | tcp_flags::URG | tcp_flags::SYN | tcp_flags::PSH) != 0;
    if len_hdr >= TCP_MSS_DEFAULT + TCP_HLEN || (len_hdr >= TCP_MIN_MSS + TCP_HLEN && !remnant) {
        tp.icsk_ack.last_seg_size = len;
        if len == lss {
            tp.icsk_ack.rcv_mss = len;
            return;
        }
    }
    if tp.icsk_ack.pending & ICSK_ACK_PUSHED != 0 {
        tp.icsk_ack.pending |= ICSK_ACK_PUSHED2;
    }
    tp.icsk_ack.pending |= ICSK_ACK_PUSHED;
}

/// `tcp_incr_quickack`: grant up to `max_quickacks` quick ACKs (half the window in segments).
pub fn tcp_incr_quickack(tp: &mut TcpSock, max_quickacks: u8) {
    let mut quickacks = (tp.rcv_wnd / (2 * tp.icsk_ack.rcv_mss.max(1) as u64)) as u32;
    if quickacks == 0 {
        quickacks = 2;
    }
    let quickacks = quickacks.min(max_quickacks as u32) as u8;
    if quickacks > tp.icsk_ack.quick {
        tp.icsk_ack.quick = quickacks;
    }
}

/// `tcp_enter_quickack_mode`: quick ACKs, leave pingpong, deflate `ato`.
pub fn tcp_enter_quickack_mode(w: &mut Stack, sk: SockId, max_quickacks: u8) {
    let ato_min = tcp_ato_min(w.hz);
    let tp = &mut w.socks[sk as usize];
    tcp_incr_quickack(tp, max_quickacks);
    tp.icsk_ack.pingpong = 0;
    tp.icsk_ack.ato = ato_min;
}

/// `tcp_in_quickack_mode`: quick-ACK credits left and not interactive.
pub fn tcp_in_quickack_mode(tp: &TcpSock) -> bool {
    tp.icsk_ack.quick > 0 && !in_pingpong_mode(tp)
}

/// `__tcp_ack_snd_check`: ACK now if more than one full frame is unacknowledged (and the
/// window would not shrink), in quick-ACK mode, or on `ICSK_ACK_NOW`; otherwise delay.
fn __tcp_ack_snd_check(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    // "More than one full frame received... and right edge of window advances far enough";
    // 6.x also ACKs while less than SO_RCVLOWAT (1) is unread.
    let two_frames = tp.rcv_nxt - tp.rcv_wup > tp.icsk_ack.rcv_mss as u64
        && ((rcv_scaling(tp) && tp.rcv_nxt - tp.copied_seq < 1)
            || __tcp_select_window(tp) as u64 >= tp.rcv_wnd);
    let tp = &mut w.socks[sk as usize];
    let now_ack = two_frames || tcp_in_quickack_mode(tp) || tp.icsk_ack.pending & ICSK_ACK_NOW != 0;
    if now_ack && tp.processing_backlog && tp.profile.kernel.at_least(6, 8) {
        // "If we are running from __release_sock() in user context, defer the ack until
        // tcp_release_cb()" (tcp_backlog_ack_defer = 1, 6.8+).
        tp.ack_deferred = true;
        return;
    }
    let tp = &w.socks[sk as usize];
    if two_frames {
        tcp_send_ack(w, sk, AckReason::TwoFrames);
    } else if tcp_in_quickack_mode(tp) {
        tcp_send_ack(w, sk, AckReason::Quickack);
    } else if !tp.rcv_sack.out_of_order_queue.is_empty() {
        // "We have out of order data."
        tcp_send_ack(w, sk, AckReason::Now);
    } else if tp.icsk_ack.pending & ICSK_ACK_NOW != 0 {
        tcp_send_ack(w, sk, AckReason::Now);
    } else {
        tcp_send_delayed_ack(w, sk);
    }
}

/// `tcp_data_queue_ofo`: keep an out-of-order segment (charged to the receive buffer) and
/// report it in a SACK block (`tcp_sack_new_ofo_skb`); a segment already held is a duplicate
/// (D-SACK).
fn tcp_data_queue_ofo(w: &mut Stack, sk: SockId, pkt: &Packet) {
    let host = w.socks[sk as usize].host;
    w.mib(host).inc(Mib::TcpExtTCPOFOQueue);
    let truesize = rx_truesize(w, sk, pkt);
    let tp = &mut w.socks[sk as usize];
    tp.icsk_ack.pending |= ICSK_ACK_SCHED; // inet_csk_schedule_ack
    let (seq, end_seq) = (pkt.seq, pkt.end_seq);
    let held = tp
        .rcv_sack
        .out_of_order_queue
        .range(..=seq)
        .next_back()
        .is_some_and(|(_, &(e, _))| e >= end_seq);
    if held {
        // "All the bits are present. Drop."
        w.mib(host).inc(Mib::TcpExtTCPDSACKOfoSent);
        tcp_dsack_set(w, sk, seq, end_seq);
        return;
    }
    tp.rcv_sack
        .out_of_order_queue
        .insert(seq, (end_seq, truesize));
    tp.sk_rmem_alloc += truesize;
    tp.sk_mem_charge(truesize);
    tcp_sack_new_ofo_skb(tp, seq, end_seq);
}

/// `tcp_sack_new_ofo_skb`: the new segment extends a SACK block (which moves to the front,
/// merging with any block it now touches) or starts a new first block; at most
/// `TCP_NUM_SACKS` are kept.
fn tcp_sack_new_ofo_skb(tp: &mut TcpSock, seq: u64, end_seq: u64) {
    let blocks = &mut tp.rcv_sack.selective_acks;
    let (mut start, mut end) = (seq, end_seq);
    // tcp_sack_extend + tcp_sack_maybe_coalesce: absorb every block this one touches.
    let mut i = 0;
    while i < blocks.len() {
        let (s, e) = blocks[i];
        if s <= end && start <= e {
            start = start.min(s);
            end = end.max(e);
            blocks.remove(i);
        } else {
            i += 1;
        }
    }
    blocks.insert(0, (start, end));
    blocks.truncate(TCP_NUM_SACKS);
}

/// `tcp_sack_remove`: drop the SACK blocks that `rcv_nxt` reached.
fn tcp_sack_remove(tp: &mut TcpSock) {
    let rcv_nxt = tp.rcv_nxt;
    tp.rcv_sack.selective_acks.retain(|&(s, _)| s > rcv_nxt);
}

/// `tcp_ofo_queue`: move the out-of-order segments that are now in order to the receive queue.
fn tcp_ofo_queue(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    while let Some((&seq, &(end_seq, truesize))) = tp.rcv_sack.out_of_order_queue.iter().next() {
        if seq > tp.rcv_nxt {
            break;
        }
        tp.rcv_sack.out_of_order_queue.remove(&seq);
        if end_seq <= tp.rcv_nxt {
            // "ofo packet ... dropped": all of it was received meanwhile.
            tp.sk_rmem_alloc -= truesize;
            tp.sk_mem_uncharge(truesize);
            continue;
        }
        tp.rcv_nxt = end_seq;
        tp.receive_queue.push_back((end_seq, truesize));
    }
}

/// `tcp_dsack_set`: report `[seq, end_seq)`, received twice, in a D-SACK block of the next
/// ACK (RFC 2883; `net.ipv4.tcp_dsack` = 1).
fn tcp_dsack_set(w: &mut Stack, sk: SockId, seq: u64, end_seq: u64) {
    let host = w.socks[sk as usize].host;
    let tp = &w.socks[sk as usize];
    if seq < tp.rcv_nxt {
        w.mib(host).inc(Mib::TcpExtTCPDSACKOldSent);
    }
    w.socks[sk as usize].rcv_sack.duplicate_sack = Some((seq, end_seq));
}

/// `tcp_set_window_clamp` (6.x): a new clamp; when it grows, `rcv_ssthresh` may follow up to
/// the window already offered.
pub fn tcp_set_window_clamp(tp: &mut TcpSock, val: u64) {
    let new_clamp = val.max(SOCK_MIN_RCVBUF / 2);
    let old_clamp = tp.window_clamp;
    if new_clamp == old_clamp {
        return;
    }
    tp.window_clamp = new_clamp;
    if new_clamp < old_clamp {
        // __tcp_adjust_rcv_ssthresh without memory pressure.
        tp.rcv_ssthresh = tp.rcv_ssthresh.min(new_clamp);
    } else {
        tp.rcv_ssthresh = tp.rcv_ssthresh.max(tp.rcv_wnd.min(new_clamp));
    }
}

/// `tcp_grow_window`: raise `rcv_ssthresh` (the window we are willing to offer) by at least
/// twice the segment, while the buffer has room.
///
/// 6.x (net/ipv4/tcp_input.c, 6.18): the increase is bounded by the room left below the clamp
/// and the free space (`min(window_clamp, tcp_space) - rcv_ssthresh`), and a skb whose
/// truesize is too large for its length gets the slow check `__tcp_grow_window`.
///
/// Simplified:
/// - no `truesize_adjust` (page-frag skbs without a linear part): the skbs the model receives
///   are linear or come whole from the sender; visible effect: none for them.
fn tcp_grow_window(tp: &mut TcpSock, len: u64, truesize: u64) {
    if rcv_scaling(tp) {
        let room = (tp.window_clamp as i64).min(tcp_space(tp)) - tp.rcv_ssthresh as i64;
        if room <= 0 {
            return;
        }
        let mut incr = if tcp_win_from_space(tp, truesize as i64) <= len as i64 {
            2 * tp.advmss as u64
        } else {
            __tcp_grow_window(tp, len, truesize)
        };
        if incr > 0 {
            incr = incr.max(2 * len);
            tp.rcv_ssthresh += incr.min(room as u64);
            tp.icsk_ack.quick |= 1;
        }
        return;
    }
    let space = tcp_win_from_space(tp, tp.sk_rcvbuf as i64 - tp.sk_rmem_alloc as i64);
    if tp.rcv_ssthresh < tp.window_clamp && (tp.rcv_ssthresh as i64) < space {
        let mut incr = if tcp_win_from_space(tp, truesize as i64) <= len as i64 {
            2 * tp.advmss as u64
        } else {
            0
        };
        if incr > 0 || truesize > 0 {
            incr = incr.max(2 * len);
            tp.rcv_ssthresh = (tp.rcv_ssthresh + incr).min(tp.window_clamp);
            tp.icsk_ack.quick |= 1;
        }
    }
}

/// `__tcp_grow_window`: the slow part of check #2: grow only while `rcv_ssthresh` is small
/// against what skbs with this overhead would fill in `tcp_rmem[2]`.
fn __tcp_grow_window(tp: &TcpSock, len: u64, truesize: u64) -> u64 {
    let mut truesize = tcp_win_from_space(tp, truesize as i64) >> 1;
    let mut window = tcp_win_from_space(tp, tp.net.sysctl.tcp_rmem[2] as i64) >> 1;
    while tp.rcv_ssthresh as i64 <= window {
        if truesize <= len as i64 {
            return 2 * tp.icsk_ack.rcv_mss as u64;
        }
        truesize >>= 1;
        window >>= 1;
    }
    0
}

/// `tcp_rcv_rtt_update`: the receiver's RTT estimate (scaled by 8), read by
/// `tcp_rcv_space_adjust` once per RTT.
///
/// - 6.16+ (b879dcb1aeec, "always seek for minimal rtt", and a00f135cd986, "skip big rtt
///   sample if receive queue is not empty"): a lower sample is taken at once; a higher one
///   only from timestamps, smoothed by 1/8, and only while the reader has read everything.
/// - Before: timestamps smoothed every sample by 1/8; the window-based samples (`win_dep`)
///   only ever lowered it.
fn tcp_rcv_rtt_update(tp: &mut TcpSock, sample_us: u64, win_dep: bool) {
    let old = tp.rcv_rtt_est_us8;
    if tp.profile.kernel.at_least(6, 16) {
        let m = sample_us << 3;
        tp.rcv_rtt_est_us8 = if old == 0 || m < old {
            m
        } else {
            if win_dep || tp.rcv_nxt != tp.copied_seq {
                return;
            }
            old - (old >> 3) + sample_us
        };
        return;
    }
    let mut new_sample = old;
    let m = sample_us as i64;
    if new_sample != 0 {
        if !win_dep {
            new_sample = (new_sample as i64 + m - (new_sample >> 3) as i64).max(1) as u64;
        } else if ((m as u64) << 3) < new_sample {
            new_sample = (m as u64) << 3;
        }
    } else {
        new_sample = (m as u64) << 3;
    }
    tp.rcv_rtt_est_us8 = new_sample;
}

/// `tcp_rcv_rtt_measure` (from `tcp_event_data_recv`): one sample per window of data, the
/// time for `rcv_nxt` to pass the right edge of the window offered when it started.
fn tcp_rcv_rtt_measure(tp: &mut TcpSock, now_ns: u64) {
    if !rcv_scaling(tp) {
        return;
    }
    if tp.rcv_rtt_est_time_ns != 0 {
        if tp.rcv_nxt < tp.rcv_rtt_est_seq {
            return;
        }
        let delta_us = ((now_ns - tp.rcv_rtt_est_time_ns) / 1000).max(1);
        tcp_rcv_rtt_update(tp, delta_us, true);
    }
    tp.rcv_rtt_est_seq = tp.rcv_nxt + tp.rcv_wnd;
    tp.rcv_rtt_est_time_ns = now_ns;
}

/// `tcp_rcv_rtt_measure_ts`: a sample from the timestamp option each time the echoed TSecr
/// changes on a segment of at least `rcv_mss`: now minus the TSval we sent, in ms
/// (`TCP_TS_HZ` 1000, `tcp_rtt_tsopt_us`: at least 1 ms).
fn tcp_rcv_rtt_measure_ts(tp: &mut TcpSock, pkt: &Packet, now_ns: u64) {
    if !rcv_scaling(tp) || pkt.tsecr_ms == 0 || pkt.tsecr_ms == tp.rcv_rtt_last_tsecr_ms {
        return;
    }
    tp.rcv_rtt_last_tsecr_ms = pkt.tsecr_ms;
    if pkt.end_seq - pkt.seq >= tp.icsk_ack.rcv_mss as u64 {
        let delta_ms = (now_ns / 1_000_000).saturating_sub(pkt.tsecr_ms);
        // 6.16+ ("tcp: remove zero TCP TS samples for autotuning"): a sample within
        // the same millisecond tick says nothing; before, it counted as 1 ms.
        if delta_ms == 0 && tp.profile.kernel.at_least(6, 16) {
            return;
        }
        tcp_rcv_rtt_update(tp, delta_ms.max(1) * 1000, false);
    }
}

/// `tcp_rcv_space_adjust` (called from `tcp_recvmsg`): receive-buffer autotuning. Once per
/// RTT, size `sk_rcvbuf` for what the application read in the last RTT.
///
/// Before 6.6: twice (up to four times in slow start) what was read, the RTT being the
/// receiver's `srtt` from the handshake (simplified: no `rcv_rtt_est`). From 6.6 on, as Linux
/// 6.18 (net/ipv4/tcp_input.c): the RTT is `rcv_rtt_est` (timestamps), what was read excludes
/// what still waits in the queue (65c5287892e9, "fix sk_rcvbuf overshoot"), and
/// [`tcp_rcvbuf_grow`] sizes the buffer.
pub fn tcp_rcv_space_adjust(w: &mut Stack, sk: SockId) {
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
    if rcv_scaling(tp) {
        let time_us = (now - tp.rcvq_space.time_ns) / 1000;
        if tp.rcv_rtt_est_us8 == 0 || time_us < tp.rcv_rtt_est_us8 >> 3 {
            return;
        }
        let inq = tp.rcv_nxt - tp.copied_seq;
        let copied = (tp.copied_seq - tp.rcvq_space.seq) as i64 - inq as i64;
        if copied > tp.rcvq_space.space as i64 {
            tcp_rcvbuf_grow(tp, copied as u64);
        }
        tp.rcvq_space.seq = tp.copied_seq;
        tp.rcvq_space.time_ns = now;
        return;
    }
    let rtt_ns = tp.srtt() * 1000;
    if rtt_ns == 0 || now - tp.rcvq_space.time_ns < rtt_ns {
        return;
    }
    let copied = tp.copied_seq - tp.rcvq_space.seq;
    if copied > tp.rcvq_space.space {
        if tp.net.sysctl.tcp_moderate_rcvbuf && !tp.rcvbuf_locked {
            let advmss = tp.advmss as u64;
            let mut rcvwin = (copied << 1) + 16 * advmss;
            let space = tp.rcvq_space.space;
            if copied >= space + (space >> 2) {
                if copied >= space + (space >> 1) {
                    rcvwin <<= 1;
                } else {
                    rcvwin += rcvwin >> 1;
                }
            }
            let mut rcvmem = advmss + tp.profile.max_tcp_header as u64 + 576;
            while (tcp_win_from_space(tp, rcvmem as i64) as u64) < advmss {
                rcvmem += 128;
            }
            let rcvbuf = (rcvwin / advmss * rcvmem).min(tp.net.sysctl.tcp_rmem[2]);
            if rcvbuf > tp.sk_rcvbuf {
                tp.sk_rcvbuf = rcvbuf;
                tp.window_clamp = rcvwin;
            }
        }
        tp.rcvq_space.space = copied;
    }
    tp.rcvq_space.seq = tp.copied_seq;
    tp.rcvq_space.time_ns = now;
}

/// `tcp_rcvbuf_grow` (6.16+, with 6.18's "DRS is always one RTT late" fix): the new base is
/// `newval`; the window allows twice it, plus twice its growth over the last RTT scaled by the
/// window ("slow start: allow the sender to double its rate"), plus the out-of-order span; the
/// buffer is the space that window needs, up to `tcp_rmem[2]`, and the clamp follows.
pub fn tcp_rcvbuf_grow(tp: &mut TcpSock, newval: u64) {
    let oldval = tp.rcvq_space.space;
    tp.rcvq_space.space = newval;
    if !tp.net.sysctl.tcp_moderate_rcvbuf || tp.rcvbuf_locked {
        return;
    }
    let mut rcvwin = newval << 1;
    let grow = rcvwin * newval.saturating_sub(oldval) / oldval.max(1);
    rcvwin += grow << 1;
    if let Some((_, &(end_seq, _))) = tp.rcv_sack.out_of_order_queue.iter().next_back() {
        rcvwin += end_seq.saturating_sub(tp.rcv_nxt);
    }
    let rcvbuf = tcp_space_from_win(tp, rcvwin).min(tp.net.sysctl.tcp_rmem[2]);
    if rcvbuf > tp.sk_rcvbuf {
        tp.sk_rcvbuf = rcvbuf;
        // "Make the window clamp follow along."
        tp.window_clamp = tcp_win_from_space(tp, rcvbuf as i64).max(0) as u64;
    }
}

// ---------------------------------------------------------------------------------------------
// tcp_ack
// ---------------------------------------------------------------------------------------------

/// `tcp_ack`: process the acknowledgement and window of a segment.
fn tcp_ack(w: &mut Stack, sk: SockId, pkt: &Packet, with_data: bool) {
    let now = w.now_ns;
    let hz = w.hz;
    // The ACK's SACK blocks (its TCP options, kept beside the packet: see Stack::tcp_sack_opts).
    let sack = if w.tcp_sack_opts.is_empty() {
        None
    } else {
        w.tcp_sack_opts.remove(&pkt.id)
    };
    let tp = &mut w.socks[sk as usize];
    let host = tp.host;
    let ack = pkt.ack_seq;
    if ack > tp.snd_nxt {
        return; // "If the ack includes data we haven't sent yet, discard."
    }
    if ack < tp.snd_una {
        // An old ACK: "If data was SACKed, tag it and see if we should send more data."
        if let Some(blocks) = sack {
            let prior_snd_una = tp.snd_una;
            let mut rs = RateSample::new(tp.packets_in_flight());
            let (mut flag, _) = tcp_sacktag_write_queue(w, sk, &blocks, prior_snd_una, &mut rs);
            let mut rexmit = REXMIT_NONE;
            tcp_fastretrans_alert(w, sk, prior_snd_una, 0, &mut flag, &mut rexmit);
            if rexmit != REXMIT_NONE {
                tcp_xmit_recovery(w, sk, rexmit);
            }
        }
        return;
    }
    let prior_snd_una = tp.snd_una;
    let prior_in_flight = tp.packets_in_flight();
    let prior_delivered = tp.delivered;
    let prior_lost = tp.lr.lost;
    let mut rs = RateSample::new(prior_in_flight);
    let mut flag = if with_data { FLAG_DATA } else { 0 };
    // tcp_ack_update_window
    let nwin = pkt.window as u64;
    let window_changed = nwin != tp.snd_wnd;
    if ack > tp.snd_una || pkt.seq > tp.snd_wl1 || (pkt.seq == tp.snd_wl1 && nwin > tp.snd_wnd) {
        flag |= FLAG_WIN_UPDATE;
        tp.snd_wl1 = pkt.seq;
        if tp.snd_wnd != nwin && !tp.write_queue.is_empty() && tp.profile.kernel.at_least(4, 11) {
            // "if (!tcp_write_queue_empty(sk)) tcp_slow_start_after_idle_check(sk);": data
            // that waited for the window restarts cwnd after idle like new data
            // (packetdrill slow-start-after-win-update.pkt).
            let (now_j, hz) = (w.jiffies(), w.hz);
            let tp = &mut w.socks[sk as usize];
            tp.snd_wnd = nwin;
            crate::net::ipv4::tcp_output::tcp_slow_start_after_idle_check(tp, now_j, hz);
        }
        let tp = &mut w.socks[sk as usize];
        tp.snd_wnd = nwin;
        tp.max_window = tp.max_window.max(nwin);
    }
    if !with_data {
        let m = if ack > prior_snd_una && !window_changed {
            Mib::TcpExtTCPHPAcks
        } else {
            Mib::TcpExtTCPPureAcks
        };
        w.mib(host).inc(m);
    }
    let tp = &mut w.socks[sk as usize];
    // Without SACK (tcp_is_reno) a duplicate ACK is what loss recovery counts
    // (tcp_add_reno_sack): it goes on.
    if ack == prior_snd_una && sack.is_none() && tp.icsk_ca_state == TCP_CA_OPEN && !tcp_is_reno(tp)
    {
        return;
    }
    if ack > prior_snd_una {
        flag |= FLAG_SND_UNA_ADVANCED;
        tp.lr.icsk_retransmits = 0;
    }
    // "prior_fack = tcp_is_sack(tp) ? tcp_highest_sack_seq(tp) : tp->snd_una"
    let prior_fack = if tcp_is_reno(tp) {
        prior_snd_una
    } else {
        tcp_highest_sack_seq(tp)
    };
    tp.snd_una = ack;
    tp.icsk_probes_out = 0;
    let mut sack_delivered = 0u32;
    let mut first_sackt: Option<u64> = None;
    if let Some(blocks) = &sack {
        let (f, st) = tcp_sacktag_write_queue(w, sk, blocks, prior_snd_una, &mut rs);
        flag |= f;
        sack_delivered = st.0;
        first_sackt = st.1;
    }
    let now_us = now / 1000;
    let tp = &mut w.socks[sk as usize];
    // tcp_clean_rtx_queue
    let mut acked_pcount = 0u32;
    let mut first_ackt: Option<u64> = None;
    let mut last_ackt: Option<u64> = None;
    let mut fully_acked = true;
    let mut freed = false;
    let mut freed_skbs = 0u64;
    let mut trimmed_frag = 0u64;
    let mut sacked_acked = 0u32;
    // "lowest acked un-retx un-sacked seq"
    let mut reord = tp.snd_nxt;
    while let Some(skb) = tp.rtx_queue.front_mut() {
        if skb.end_seq <= ack {
            let skb = tp.rtx_queue.pop_front().unwrap();
            let sacked = skb.sacked;
            acked_pcount += skb.pcount;
            tp.packets_out -= skb.pcount;
            tp.sk_wmem_queued -= skb.truesize as u64;
            tp.sk_mem_uncharge(skb.truesize as u64);
            flag |= FLAG_DATA_ACKED;
            if sacked & TCPCB_SACKED_RETRANS != 0 {
                tp.retrans_out -= skb.pcount;
            }
            if skb.retrans {
                flag |= FLAG_RETRANS_DATA_ACKED;
            } else if sacked & TCPCB_SACKED_ACKED == 0 {
                first_ackt.get_or_insert(skb.tstamp_ns);
                last_ackt = Some(skb.tstamp_ns);
                reord = reord.min(skb.seq);
                if skb.end_seq <= tp.high_seq {
                    flag |= FLAG_ORIG_SACK_ACKED;
                }
            }
            if sacked & TCPCB_SACKED_ACKED != 0 {
                tp.sacked_out -= skb.pcount;
                sacked_acked += skb.pcount;
            } else if !tcp_is_reno(tp) {
                // "} else if (tcp_is_sack(tp)) { tcp_count_delivered(...); tcp_rack_advance(...)"
                crate::net::ipv4::tcp_recovery::tcp_rack_advance(
                    tp,
                    sacked,
                    skb.end_seq,
                    skb.tstamp_ns / 1000,
                    now_us,
                );
            }
            if sacked & TCPCB_LOST != 0 {
                tp.lost_out -= skb.pcount;
            }
            tcp_rate_skb_delivered(
                tp,
                &skb.tx,
                skb.tstamp_ns / 1000,
                skb.end_seq,
                skb.retrans,
                &mut rs,
            );
            freed = true;
            freed_skbs += 1;
        } else if skb.seq < ack {
            // tcp_trim_head: a TSO skb partly acknowledged.
            let trimmed = (ack - skb.seq) as u32;
            let start_seq = skb.seq;
            let old_pcount = skb.pcount;
            skb.seq = ack;
            let frag =
                trimmed.min(skb.truesize - tp.profile.skb_alloc_truesize(0).min(skb.truesize));
            skb.truesize -= frag;
            tp.sk_wmem_queued -= frag as u64;
            trimmed_frag += frag as u64;
            // A one-segment skb (no gso_size) stays one segment: Linux leaves it whole
            // ("tcp_skb_pcount(skb) == 1" ends the walk) until it is fully acknowledged or
            // retransmitted, where tcp_retransmit_skb trims what snd_una passed; the model
            // trims it now, so a retransmission carries the same bytes.
            if skb.gso_size > 0 {
                skb.pcount = skb.len().div_ceil(skb.gso_size).max(1);
                if skb.pcount == 1 {
                    skb.gso_size = 0;
                }
            }
            let dropped = old_pcount - skb.pcount;
            acked_pcount += dropped;
            tp.packets_out -= dropped;
            flag |= FLAG_DATA_ACKED;
            let sacked = skb.sacked;
            if sacked & TCPCB_SACKED_RETRANS != 0 {
                tp.retrans_out -= dropped;
            }
            if sacked & TCPCB_LOST != 0 {
                tp.lost_out -= dropped;
            }
            if sacked & TCPCB_SACKED_ACKED != 0 {
                tp.sacked_out -= dropped;
                sacked_acked += dropped;
            }
            if skb.retrans {
                flag |= FLAG_RETRANS_DATA_ACKED;
            } else {
                first_ackt.get_or_insert(skb.tstamp_ns);
                last_ackt = Some(skb.tstamp_ns);
                if sacked & TCPCB_SACKED_ACKED == 0 {
                    reord = reord.min(start_seq);
                    if skb.end_seq <= tp.high_seq {
                        flag |= FLAG_ORIG_SACK_ACKED;
                    }
                }
            }
            let (tx, tstamp_ns, end_seq, retrans) =
                (skb.tx, skb.tstamp_ns, skb.end_seq, skb.retrans);
            tcp_rate_skb_delivered(tp, &tx, tstamp_ns / 1000, end_seq, retrans, &mut rs);
            if sacked & TCPCB_SACKED_ACKED == 0 && !tcp_is_reno(tp) {
                // As for a whole skb: the acked part of a TSO skb advances RACK (its RTT becomes
                // RACK's RTT even when it was sent before the current reference).
                crate::net::ipv4::tcp_recovery::tcp_rack_advance(
                    tp,
                    sacked,
                    end_seq,
                    tstamp_ns / 1000,
                    now_us,
                );
            }
            fully_acked = false;
            freed = true;
            break;
        } else {
            break;
        }
    }
    if trimmed_frag > 0 {
        tp.sk_mem_uncharge(trimmed_frag);
    }
    // "Non-retransmitted hole got filled? That's reordering"
    if flag & FLAG_ACKED != 0 && !tcp_is_reno(tp) && reord < prior_fack {
        tcp_check_sack_reordering(w, sk, reord);
    }
    let tp = &mut w.socks[sk as usize];
    if freed {
        tp.queue_shrunk = true;
    }
    let c = w.costs(host).rtx_free_ns * freed_skbs;
    w.charge(sk, c);
    let tp = &mut w.socks[sk as usize];
    let acked_bytes = ack - prior_snd_una;
    tp.bytes_acked += acked_bytes;
    // tcp_ack_update_rtt: no sample from an ACK that covers a retransmission (Karn); a SACKed
    // original gives one instead.
    if flag & FLAG_RETRANS_DATA_ACKED != 0 {
        first_ackt = None;
        last_ackt = None;
    }
    let first_ackt = first_ackt.or(first_sackt);
    if let Some(t) = first_ackt {
        let rtt_us = ((now - t) / 1000).max(1);
        tcp_rtt_estimator(tp, rtt_us);
        tcp_set_rto(tp);
        tp.min_rtt_us = if tp.min_rtt_us == 0 {
            rtt_us
        } else {
            tp.min_rtt_us.min(rtt_us)
        };
        tp.icsk_backoff = 0;
        tcp_cong::pkts_acked(
            tp,
            now,
            rtt_us,
            acked_pcount,
            &mut w.hosts[host as usize].mib,
        );
    }
    let tp = &mut w.socks[sk as usize];
    // tcp_count_delivered; the RTT of the most recently sent skb acked (ca_rtt_us, for
    // rs->rtt_us); FLAG_ACK_MAYBE_DELAYED ("a lone runt packet"); tcp_rate_gen.
    // SACKed skbs were counted when SACKed; without SACK, tcp_remove_reno_sacks counts
    // ("One ACK acked hole. The rest eat duplicate ACKs.").
    let reno = tcp_is_reno(tp);
    if reno {
        if flag & FLAG_ACKED != 0 {
            tcp_remove_reno_sacks(w, sk, acked_pcount);
        }
    } else {
        tp.delivered = tp.delivered.wrapping_add(acked_pcount - sacked_acked);
    }
    let tp = &mut w.socks[sk as usize];
    let acked_sacked = acked_pcount - sacked_acked + sack_delivered;
    crate::net::ipv4::tcp_recovery::tcp_rack_update_reo_wnd(tp, rs.prior_delivered);
    if flag & FLAG_ACKED != 0 {
        flag |= FLAG_SET_XMIT_TIMER; // "set TLP or RTO timer"
    }
    if w.socks[sk as usize].tlp_high_seq.is_some() {
        tcp_process_tlp_ack(w, sk, ack, flag);
    }
    let tp = &mut w.socks[sk as usize];
    // tcp_ack_is_dubious
    let mut rexmit = REXMIT_NONE;
    if flag & FLAG_NOT_DUP == 0 || flag & FLAG_CA_ALERT != 0 || tp.icsk_ca_state != TCP_CA_OPEN {
        // "if (!(flag & (FLAG_SND_UNA_ADVANCED | FLAG_NOT_DUP | FLAG_DSACKING_ACK)))
        // num_dupack = 1;" (gso_segs of an aggregated pure ACK: one here).
        let num_dupack =
            u32::from(flag & (FLAG_SND_UNA_ADVANCED | FLAG_NOT_DUP | FLAG_DSACKING_ACK) == 0);
        tcp_fastretrans_alert(w, sk, prior_snd_una, num_dupack, &mut flag, &mut rexmit);
    }
    let tp = &mut w.socks[sk as usize];
    let delivered_now = tp.delivered.wrapping_sub(prior_delivered);
    // tcp_newly_delivered: what tcp_cong_control gets. Without SACK it includes the duplicate
    // ACKs tcp_add_reno_sack counted in tcp_fastretrans_alert.
    let acked_sacked = if reno { delivered_now } else { acked_sacked };
    let lost_now = tp.lr.lost.wrapping_sub(prior_lost);
    if let Some(t) = last_ackt {
        rs.rtt_us = ((now - t) / 1000) as i64;
    }
    rs.is_ack_delayed = acked_pcount == 1
        && fully_acked
        && acked_bytes < tp.mss_cache as u64
        && rs.prior_delivered.wrapping_add(1) == tp.delivered;
    tcp_rate_gen(tp, delivered_now, lost_now, false, &mut rs, now / 1000);
    if tcp_cong::has_cong_control(tp) {
        // tcp_cong_control: the algorithm's cong_control (bbr_main) sets cwnd and the pacing
        // rate.
        let clock = tcp_cong::CaClock {
            now_ns: now,
            jiffies: w.jiffies() as u32,
            hz,
        };
        let (tp, mut rand) = w.sock_and_random(sk);
        tcp_cong::cong_control(tp, &rs, &clock, &mut rand);
    } else {
        // tcp_cong_control: PRR while reducing cwnd, else grow it if allowed; then the
        // pacing rate.
        if tcp_in_cwnd_reduction(tp) {
            tcp_cwnd_reduction(tp, acked_sacked, lost_now, flag);
        } else if acked_sacked > 0
            && tcp_may_raise_cwnd(tp, flag)
            && tcp_cong::tcp_is_cwnd_limited(tp, prior_in_flight)
        {
            tcp_cong::cong_avoid(tp, ack, acked_sacked, now);
            tp.snd_cwnd_stamp = now * hz / 1_000_000_000;
        }
        tcp_update_pacing_rate(tp, hz);
    }
    w.mib(host)
        .add(Mib::TcpExtTCPDelivered, acked_sacked as u64);
    // tcp_set_xmit_timer: the loss probe, else rearm or stop the retransmission timer, unless
    // RACK armed its own.
    if flag & FLAG_SET_XMIT_TIMER != 0
        && !crate::net::ipv4::tcp_output::tcp_schedule_loss_probe(w, sk, true)
    {
        if w.socks[sk as usize].packets_out == 0 {
            tcp_timer::tcp_clear_xmit_timer_rto(w, sk);
        } else {
            tcp_timer::tcp_rearm_rto(w, sk);
        }
    }
    let tp = &w.socks[sk as usize];
    let (cwnd, ssthresh, srtt, rate, pout) = (
        tp.snd_cwnd as u64,
        tp.snd_ssthresh as u64,
        tp.srtt(),
        tp.sk_pacing_rate,
        tp.packets_out as u64,
    );
    let rate = if rate >= tp.profile.pacing_unlimited() {
        u64::MAX
    } else {
        rate
    };
    w.emit(host, sk, || Ev::AckRcvd {
        ack,
        acked: acked_bytes,
        cwnd,
        ssthresh,
        srtt_us: srtt,
        pacing_rate: rate,
        packets_out: pout,
    });
    if rexmit != REXMIT_NONE {
        tcp_xmit_recovery(w, sk, rexmit);
    }
}

/// `tcp_xmit_recovery`: retransmit what is marked lost (new data follows in
/// `tcp_data_snd_check`); for F-RTO's step 2.b, new data first, and the retransmissions only if
/// none could be sent.
#[cold]
fn tcp_xmit_recovery(w: &mut Stack, sk: SockId, rexmit: u8) {
    if rexmit == REXMIT_NEW {
        let mss = crate::net::ipv4::tcp_output::tcp_current_mss(&w.socks[sk as usize]);
        crate::net::ipv4::tcp_output::__tcp_push_pending_frames(w, sk, mss, TCP_NAGLE_OFF);
        let tp = &mut w.socks[sk as usize];
        if tp.snd_nxt > tp.high_seq {
            return;
        }
        tp.lr.frto = false;
    }
    crate::net::ipv4::tcp_output::tcp_xmit_retransmit_queue(w, sk);
}

/// `tcp_data_snd_check`: after an ACK, send what may now be sent, then see whether a writer
/// can be woken.
pub fn tcp_data_snd_check(w: &mut Stack, sk: SockId) {
    tcp_push_pending_frames(w, sk);
    tcp_check_space(w, sk);
}

/// `tcp_check_space`: if a writer waits (`SOCK_NOSPACE`) — and, before 5.x, skbs were freed
/// (`SOCK_QUEUE_SHRUNK`) — expand the send buffer if allowed and run `sk_write_space`.
pub fn tcp_check_space(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    if !tp.profile.kernel.at_least(5, 0) {
        if !tp.queue_shrunk {
            return;
        }
        tp.queue_shrunk = false;
    }
    if tp.sock_nospace {
        tcp_new_space(w, sk);
    }
}

/// `tcp_new_space`.
fn tcp_new_space(w: &mut Stack, sk: SockId) {
    let host = w.socks[sk as usize].host;
    let mem_pages = w.tcp_mem_pages(host);
    let tp = &mut w.socks[sk as usize];
    if tcp_should_expand_sndbuf(tp, mem_pages) {
        tcp_sndbuf_expand(tp);
    }
    sk_stream_write_space(w, sk);
}

/// `tcp_should_expand_sndbuf`: not locked by SO_SNDBUF, TCP memory below `tcp_mem[0]`, and
/// the congestion window is not yet full.
fn tcp_should_expand_sndbuf(tp: &TcpSock, tcp_mem_pages: u64) -> bool {
    !tp.sndbuf_locked
        && tcp_mem_pages < tp.net.sysctl.tcp_mem[0]
        && tp.packets_in_flight() < tp.snd_cwnd
}

// ---------------------------------------------------------------------------------------------
// RTT, RTO, pacing rate
// ---------------------------------------------------------------------------------------------

/// `tcp_rtt_estimator` (Van Jacobson, RFC 6298, Linux's scaling: `srtt_us` is ×8, `mdev_us`
/// ×4).
pub fn tcp_rtt_estimator(tp: &mut TcpSock, mrtt_us: u64) {
    const RTO_MIN_US: u64 = TCP_RTO_MIN_MS * 1000;
    let mut m = mrtt_us.max(1) as i64;
    if tp.srtt_us != 0 {
        let mut srtt = tp.srtt_us as i64;
        m -= srtt >> 3; // m is now error in rtt est
        srtt += m; // rtt = 7/8 rtt + 1/8 new
        if m < 0 {
            m = -m; // m is now abs(error)
            m -= (tp.mdev_us >> 2) as i64;
            // "This is similar to one of Eifel findings: ... do not increase mdev on a
            // decreasing RTT."
            if m > 0 {
                m >>= 3;
            }
        } else {
            m -= (tp.mdev_us >> 2) as i64;
        }
        tp.mdev_us = (tp.mdev_us as i64 + m).max(0) as u64; // mdev = 3/4 mdev + 1/4 new
        if tp.mdev_us > tp.mdev_max_us {
            tp.mdev_max_us = tp.mdev_us;
            if tp.mdev_max_us > tp.rttvar_us {
                tp.rttvar_us = tp.mdev_max_us;
            }
        }
        if tp.snd_una > tp.rtt_seq {
            if tp.mdev_max_us < tp.rttvar_us {
                tp.rttvar_us -= (tp.rttvar_us - tp.mdev_max_us) >> 2;
            }
            tp.rtt_seq = tp.snd_nxt;
            tp.mdev_max_us = RTO_MIN_US;
        }
        tp.srtt_us = srtt.max(1) as u64;
    } else {
        // No previous measure.
        tp.srtt_us = (m as u64) << 3;
        tp.mdev_us = (m as u64) << 1; // make sure rto = 3*rtt
        tp.rttvar_us = tp.mdev_us.max(RTO_MIN_US);
        tp.mdev_max_us = tp.rttvar_us;
        tp.rtt_seq = tp.snd_nxt;
    }
}

/// `tcp_set_rto`: `srtt + 4 * rttvar`, at least `TCP_RTO_MIN` (200 ms).
pub fn tcp_set_rto(tp: &mut TcpSock) {
    let rto_us = (tp.srtt_us >> 3) + tp.rttvar_us;
    tp.rto_ns = (rto_us * 1000).clamp(TCP_RTO_MIN_MS * 1_000_000, TCP_RTO_MAX_MS * 1_000_000);
}

/// `tcp_update_pacing_rate`: `sk_pacing_rate` = ratio × cwnd × mss / srtt: 200% in slow start
/// and 120% in congestion avoidance (4.1+, `tcp_pacing_ss_ratio`/`ca_ratio`); 200% always
/// before. Capped by `SO_MAX_PACING_RATE`.
///
/// 3.13/3.14 kept srtt in jiffies (×8) and did not divide below 10 (1.25 jiffies), which made
/// the rate huge on LAN paths; 3.15+ use µs.
pub fn tcp_update_pacing_rate(tp: &mut TcpSock, hz: u64) {
    let mss = tp.mss_cache as u64;
    let segs = tp.snd_cwnd.max(tp.packets_out) as u64;
    // u64 is enough: mss (< 2^17) * 8e5 (< 2^20) * ratio (< 2^10) * segs (< 2^17 for any
    // window a run reaches); saturating keeps an absurd cwnd from wrapping.
    let rate = if tp.profile.pacing_ratios {
        let ratio = if tp.snd_cwnd < tp.snd_ssthresh / 2 {
            tp.net.sysctl.tcp_pacing_ss_ratio
        } else {
            tp.net.sysctl.tcp_pacing_ca_ratio
        };
        let r = (mss * ((1_000_000 / 100) << 3))
            .saturating_mul(ratio)
            .saturating_mul(segs);
        r.checked_div(tp.srtt_us).unwrap_or(r)
    } else if tp.profile.kernel.at_least(3, 15) {
        let r = (mss * 2 * (1_000_000 << 3)).saturating_mul(segs);
        r.checked_div(tp.srtt_us).unwrap_or(r)
    } else {
        // srtt in jiffies << 3, at least one jiffy; no division below 10 (1.25 jiffies).
        let srtt_j8 = (tp.srtt_us * hz).div_ceil(1_000_000).max(8);
        let r = (mss * 2 * (hz << 3)).saturating_mul(segs);
        if srtt_j8 > 8 + 2 {
            r / srtt_j8
        } else {
            r
        }
    };
    let cap = tp.sk_max_pacing_rate.min(tp.profile.pacing_unlimited());
    tp.sk_pacing_rate = rate.min(cap);
}

// ---------------------------------------------------------------------------------------------
// Loss recovery: the SACK scoreboard and the congestion state machine (6.18)
// ---------------------------------------------------------------------------------------------

/// `tcp_in_cwnd_reduction`: in CWR or Recovery.
pub fn tcp_in_cwnd_reduction(tp: &TcpSock) -> bool {
    tp.icsk_ca_state == TCP_CA_CWR || tp.icsk_ca_state == TCP_CA_RECOVERY
}

/// `tcp_may_raise_cwnd`: grow cwnd on data acked in order, or on any delivery once reordering
/// above `net.ipv4.tcp_reordering` (3) was seen.
fn tcp_may_raise_cwnd(tp: &TcpSock, flag: u32) -> bool {
    if tp.lr.reordering > 3 {
        return flag & FLAG_FORWARD_PROGRESS != 0;
    }
    flag & FLAG_DATA_ACKED != 0
}

/// `tcp_highest_sack_seq`: the end of the highest SACKed data, or `snd_una` when none is.
fn tcp_highest_sack_seq(tp: &TcpSock) -> u64 {
    if tp.sacked_out == 0 {
        tp.snd_una
    } else {
        tp.lr.highest_sack_end
    }
}

/// `tcp_sacktag_write_queue`: mark the retransmit-queue skbs the ACK's SACK blocks cover as
/// SACKed (splitting a TSO skb at a block's edge on an MSS boundary, `tcp_match_skb_to_sack`),
/// feed RACK and the rate sampler, and detect reordering. A first block below the ACK (or
/// inside the second) is a D-SACK: a retransmission that was not needed. Returns the flags and
/// (packets newly SACKed, send time of the first newly SACKed original).
fn tcp_sacktag_write_queue(
    w: &mut Stack,
    sk: SockId,
    blocks: &[(u64, u64)],
    prior_snd_una: u64,
    rs: &mut RateSample,
) -> (u32, (u32, Option<u64>)) {
    let now_us = w.now_ns / 1000;
    let host = w.socks[sk as usize].host;
    let mut flag = 0u32;
    let mut sack_delivered = 0u32;
    let mut first_sackt: Option<u64> = None;
    let tp = &mut w.socks[sk as usize];
    let prior_fack = tcp_highest_sack_seq(tp);
    let mut reord = tp.snd_nxt;
    let mut first = 0;
    // tcp_check_dsack
    if let Some(&(s0, e0)) = blocks.first() {
        let in_second = blocks.get(1).is_some_and(|&(s1, e1)| s0 >= s1 && e0 <= e1);
        if s0 < tp.snd_una || in_second {
            flag |= FLAG_DSACKING_ACK;
            tp.rack.dsack_seen = true;
            let mss = tp.mss_cache.max(1) as u64;
            let segs = (e0 - s0).div_ceil(mss) as i32;
            // "D-SACK for already forgotten data... Do dumb counting."
            if tp.lr.undo_marker != 0 && tp.lr.undo_retrans > 0 && e0 > tp.lr.undo_marker {
                tp.lr.undo_retrans = (tp.lr.undo_retrans - segs).max(0);
            }
            first = 1;
            w.mib(host).inc(Mib::TcpExtTCPDSACKRecv);
        }
    }
    for &(start, end) in &blocks[first..] {
        let tp = &w.socks[sk as usize];
        // tcp_is_sackblock_valid, and "Ignore very old stuff early"
        if start >= end || end > tp.snd_nxt || end <= prior_snd_una.max(tp.snd_una) {
            continue;
        }
        let mut i = 0;
        while i < w.socks[sk as usize].rtx_queue.len() {
            let tp = &w.socks[sk as usize];
            let skb = &tp.rtx_queue[i];
            let (seq, end_seq, pcount) = (skb.seq, skb.end_seq, skb.pcount);
            if end_seq <= start || skb.sacked & TCPCB_SACKED_ACKED != 0 {
                i += 1;
                continue;
            }
            if seq >= end {
                break;
            }
            // tcp_match_skb_to_sack
            if !(start <= seq && end_seq <= end) {
                if pcount <= 1 {
                    i += 1;
                    continue;
                }
                let mss = skb.gso_size.max(1) as u64;
                let in_sack = start <= seq;
                let mut pkt_len = if in_sack {
                    end - seq
                } else {
                    (start - seq).max(mss)
                };
                if in_sack && pkt_len < mss {
                    i += 1;
                    continue;
                }
                // "Round if necessary so that SACKs cover only full MSSes"
                if pkt_len > mss {
                    let mut new_len = pkt_len / mss * mss;
                    if !in_sack && new_len < pkt_len {
                        new_len += mss;
                    }
                    pkt_len = new_len;
                }
                if pkt_len >= end_seq - seq {
                    if !in_sack {
                        i += 1;
                        continue;
                    }
                } else {
                    crate::net::ipv4::tcp_output::tcp_fragment_rtx(
                        w,
                        sk,
                        i,
                        pkt_len as u32,
                        mss as u32,
                    );
                }
                if !in_sack {
                    i += 1;
                    continue;
                }
            }
            // tcp_sacktag_one
            let tp = &mut w.socks[sk as usize];
            let snd_una = tp.snd_una;
            let high_seq = tp.high_seq;
            let fack = tcp_highest_sack_seq(tp);
            let skb = &mut tp.rtx_queue[i];
            let (seq, end_seq, pcount, mut sacked) = (skb.seq, skb.end_seq, skb.pcount, skb.sacked);
            let xmit_us = skb.tstamp_ns / 1000;
            let (tx, retrans) = (skb.tx, skb.retrans);
            skb.tx.delivered_mstamp = 0; // "Mark off the skb delivered once it's sacked"
            crate::net::ipv4::tcp_recovery::tcp_rack_advance(tp, sacked, end_seq, xmit_us, now_us);
            if sacked & TCPCB_SACKED_RETRANS != 0 {
                // "If the segment is not tagged as lost, we do not clear RETRANS, believing
                // that retransmission is still in flight."
                if sacked & TCPCB_LOST != 0 {
                    sacked &= !(TCPCB_LOST | TCPCB_SACKED_RETRANS);
                    tp.lost_out -= pcount;
                    tp.retrans_out -= pcount;
                }
            } else {
                if sacked & TCPCB_RETRANS == 0 {
                    // "New sack for not retransmitted frame, which was in hole. It is
                    // reordering."
                    if seq < fack && seq < reord {
                        reord = seq;
                    }
                    if end_seq <= high_seq {
                        flag |= FLAG_ORIG_SACK_ACKED;
                    }
                    first_sackt.get_or_insert(xmit_us * 1000);
                }
                if sacked & TCPCB_LOST != 0 {
                    sacked &= !TCPCB_LOST;
                    tp.lost_out -= pcount;
                }
            }
            sacked |= TCPCB_SACKED_ACKED;
            tp.rtx_queue[i].sacked = sacked;
            flag |= FLAG_DATA_SACKED;
            tp.sacked_out += pcount;
            // "Out-of-order packets delivered"
            sack_delivered += pcount;
            tp.delivered = tp.delivered.wrapping_add(pcount);
            if end_seq > tp.lr.highest_sack_end {
                tp.lr.highest_sack_end = end_seq;
            }
            tcp_rate_skb_delivered(tp, &tx, xmit_us, end_seq, retrans, rs);
            let _ = snd_una;
            i += 1;
        }
    }
    if reord < prior_fack {
        tcp_check_sack_reordering(w, sk, reord);
    }
    (flag, (sack_delivered, first_sackt))
}

/// `tcp_check_sack_reordering`: data below the highest SACK was SACKed without having been
/// retransmitted: the path reorders. Raise `reordering` to the distance seen and count it.
#[cold]
fn tcp_check_sack_reordering(w: &mut Stack, sk: SockId, low_seq: u64) {
    let tp = &mut w.socks[sk as usize];
    let host = tp.host;
    let mss = tp.mss_cache.max(1) as u64;
    let fack = tcp_highest_sack_seq(tp);
    if low_seq >= fack {
        return;
    }
    let metric = fack - low_seq;
    if metric > tp.lr.reordering as u64 * mss {
        // net.ipv4.tcp_max_reordering = 300
        tp.lr.reordering = (metric.div_ceil(mss) as u32).min(300);
    }
    // "This exciting event is worth to be remembered. 8)"
    tp.lr.reord_seen += 1;
    w.mib(host).inc(Mib::TcpExtTCPSACKReorder);
}

/// `tcp_set_ca_state`, with the congestion control's `set_state` (BBR's on Loss).
pub(crate) fn tcp_set_ca_state(w: &mut Stack, sk: SockId, state: u8) {
    let (tp, mut rand) = w.sock_and_random(sk);
    if state == TCP_CA_LOSS && tp.icsk_ca_state != TCP_CA_LOSS {
        tcp_cong::set_state_loss(tp, &mut rand);
    }
    tp.icsk_ca_state = state;
    let host = tp.host;
    w.emit(host, sk, || Ev::CaState { state });
}

/// `tcp_current_ssthresh`: ssthresh, or 3/4 of cwnd when that is higher and no reduction runs.
pub(crate) fn tcp_current_ssthresh(tp: &TcpSock) -> u32 {
    if tcp_in_cwnd_reduction(tp) {
        tp.snd_ssthresh
    } else {
        tp.snd_ssthresh.max((tp.snd_cwnd >> 1) + (tp.snd_cwnd >> 2))
    }
}

/// `tcp_init_undo`: remember where recovery started, to undo it if it proves spurious.
fn tcp_init_undo(tp: &mut TcpSock) {
    tp.lr.undo_marker = tp.snd_una;
    // "Retransmission still in flight may cause DSACKs later": the regular retransmits, then
    // a retransmitted loss probe in flight; "avoid 0, because undo_retrans==0 means can undo
    // now" (-1: none).
    let mut undo = tp.retrans_out as i32;
    if tp.tlp_high_seq.is_some() && tp.tlp_retrans {
        undo += 1;
    }
    tp.lr.undo_retrans = if undo > 0 { undo } else { -1 };
}

/// `tcp_init_cwnd_reduction`: start a reduction: ssthresh from the congestion control, PRR's
/// counters from zero, `high_seq` at `snd_nxt`.
pub(crate) fn tcp_init_cwnd_reduction(tp: &mut TcpSock) {
    tp.high_seq = tp.snd_nxt;
    tp.tlp_high_seq = None;
    tp.snd_cwnd_cnt = 0;
    tp.lr.prior_cwnd = tp.snd_cwnd;
    tp.lr.prr_delivered = 0;
    tp.lr.prr_out = 0;
    tp.snd_ssthresh = tcp_cong::ssthresh(tp);
}

/// `tcp_cwnd_reduction`: Proportional Rate Reduction (RFC 6937): while more is in flight than
/// ssthresh, send `ssthresh / prior_cwnd` of what is delivered; below it, slow-start back up to
/// ssthresh (PRR-SSRB). At least one packet on entering recovery (the fast retransmit).
pub fn tcp_cwnd_reduction(tp: &mut TcpSock, newly_acked_sacked: u32, newly_lost: u32, flag: u32) {
    if newly_acked_sacked == 0 || tp.lr.prior_cwnd == 0 {
        return;
    }
    let in_flight = tp.packets_in_flight() as i64;
    let delta = tp.snd_ssthresh as i64 - in_flight;
    tp.lr.prr_delivered += newly_acked_sacked;
    let mut sndcnt: i64;
    if delta < 0 {
        let dividend =
            tp.snd_ssthresh as u64 * tp.lr.prr_delivered as u64 + tp.lr.prior_cwnd as u64 - 1;
        sndcnt = (dividend / tp.lr.prior_cwnd as u64) as i64 - tp.lr.prr_out as i64;
    } else {
        sndcnt = (tp.lr.prr_delivered as i64 - tp.lr.prr_out as i64).max(newly_acked_sacked as i64);
        if flag & FLAG_SND_UNA_ADVANCED != 0 && newly_lost == 0 {
            sndcnt += 1;
        }
        sndcnt = sndcnt.min(delta);
    }
    // "Force a fast retransmit upon entering fast recovery"
    sndcnt = sndcnt.max(if tp.lr.prr_out > 0 { 0 } else { 1 });
    tp.snd_cwnd = (in_flight + sndcnt).max(1) as u32;
}

/// `tcp_end_cwnd_reduction`: cwnd = ssthresh when CWR or an un-undone recovery ends.
fn tcp_end_cwnd_reduction(w: &mut Stack, sk: SockId) {
    let jiffies = w.jiffies();
    let tp = &mut w.socks[sk as usize];
    if tcp_cong::has_cong_control(tp) {
        return;
    }
    if tp.snd_ssthresh < tcp_cong::TCP_INFINITE_SSTHRESH
        && (tp.icsk_ca_state == TCP_CA_CWR || tp.lr.undo_marker != 0)
    {
        tp.snd_cwnd = tp.snd_ssthresh;
        tp.snd_cwnd_stamp = jiffies;
    }
}

/// `tcp_enter_recovery`: fast recovery starts (TCPSackRecovery): save ssthresh for undo, start
/// a PRR reduction.
pub fn tcp_enter_recovery(w: &mut Stack, sk: SockId) {
    let host = w.socks[sk as usize].host;
    let m = if tcp_is_reno(&w.socks[sk as usize]) {
        Mib::TcpExtTCPRenoRecovery
    } else {
        Mib::TcpExtTCPSackRecovery
    };
    w.mib(host).inc(m);
    let tp = &mut w.socks[sk as usize];
    tp.lr.prior_ssthresh = 0;
    tcp_init_undo(tp);
    if !tcp_in_cwnd_reduction(tp) {
        tp.lr.prior_ssthresh = tcp_current_ssthresh(tp);
        tcp_init_cwnd_reduction(tp);
    }
    tcp_set_ca_state(w, sk, TCP_CA_RECOVERY);
}

/// `tcp_undo_cwnd_reduction`: the reduction was spurious: cwnd and ssthresh back
/// (`tcp_reno_undo_cwnd`: the larger of cwnd and prior_cwnd), optionally forget the loss marks.
fn tcp_undo_cwnd_reduction(w: &mut Stack, sk: SockId, unmark_loss: bool) {
    let jiffies = w.jiffies();
    let tp = &mut w.socks[sk as usize];
    if unmark_loss {
        for skb in tp.rtx_queue.iter_mut() {
            skb.sacked &= !TCPCB_LOST;
        }
        tp.lost_out = 0;
    }
    if tp.lr.prior_ssthresh != 0 {
        if !tcp_cong::has_cong_control(tp) {
            tp.snd_cwnd = tp.snd_cwnd.max(tp.lr.prior_cwnd);
        }
        if tp.lr.prior_ssthresh > tp.snd_ssthresh {
            tp.snd_ssthresh = tp.lr.prior_ssthresh;
        }
    }
    tp.snd_cwnd_stamp = jiffies;
    tp.lr.undo_marker = 0;
    tp.rack.advanced = true; // "Force RACK to re-exam losses"
}

/// `tcp_may_undo`: recovery started and every retransmission was shown unneeded (D-SACK).
fn tcp_may_undo(tp: &TcpSock) -> bool {
    tp.lr.undo_marker != 0 && tp.lr.undo_retrans == 0
}

/// `tcp_try_undo_recovery`: recovery ended (`snd_una >= high_seq`): undo if it was spurious,
/// and go back to Open. False: the state machine continues.
fn tcp_try_undo_recovery(w: &mut Stack, sk: SockId) -> bool {
    let host = w.socks[sk as usize].host;
    let tp = &mut w.socks[sk as usize];
    if tcp_may_undo(tp) {
        // "Happy end! We did not retransmit anything or our original transmission succeeded."
        let m = if tp.icsk_ca_state == TCP_CA_LOSS {
            Mib::TcpExtTCPLossUndo
        } else {
            Mib::TcpExtTCPFullUndo
        };
        tcp_undo_cwnd_reduction(w, sk, false);
        w.mib(host).inc(m);
    } else if tp.rack.reo_wnd_persist > 0 {
        tp.rack.reo_wnd_persist -= 1;
    }
    let tp = &mut w.socks[sk as usize];
    if tp.snd_una == tp.high_seq && tcp_is_reno(tp) {
        // "Hold old state until something *above* high_seq is ACKed. For Reno it is MUST to
        // prevent false fast retransmits (RFC2582). SACK TCP is safe."
        if tp.retrans_out == 0 {
            tp.lr.retrans_stamp_ns = 0;
        }
        return true;
    }
    tcp_set_ca_state(w, sk, TCP_CA_OPEN);
    false
}

/// `tcp_try_undo_dsack`: D-SACKs showed every retransmission of this episode unneeded.
fn tcp_try_undo_dsack(w: &mut Stack, sk: SockId) -> bool {
    let host = w.socks[sk as usize].host;
    let tp = &mut w.socks[sk as usize];
    if tp.lr.undo_marker != 0 && tp.lr.undo_retrans == 0 {
        tp.rack.reo_wnd_persist = (tp.rack.reo_wnd_persist + 1).min(TCP_RACK_RECOVERY_THRESH);
        tcp_undo_cwnd_reduction(w, sk, false);
        w.mib(host).inc(Mib::TcpExtTCPDSACKUndo);
        return true;
    }
    false
}

/// `tcp_try_undo_loss`: after an RTO, undo if the retransmissions were unneeded, or, with
/// `frto_undo`, because F-RTO found the RTO spurious (`TcpExtTCPSpuriousRTOs`).
fn tcp_try_undo_loss(w: &mut Stack, sk: SockId, frto_undo: bool) -> bool {
    let host = w.socks[sk as usize].host;
    if frto_undo || tcp_may_undo(&w.socks[sk as usize]) {
        tcp_undo_cwnd_reduction(w, sk, true);
        w.mib(host).inc(Mib::TcpExtTCPLossUndo);
        if frto_undo {
            w.mib(host).inc(Mib::TcpExtTCPSpuriousRTOs);
        }
        w.socks[sk as usize].lr.icsk_retransmits = 0;
        tcp_set_ca_state(w, sk, TCP_CA_OPEN);
        return true;
    }
    false
}

/// `tcp_try_keep_open`: Disorder while SACKed, lost or retransmitted data remains, else Open.
fn tcp_try_keep_open(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    let left_out = tp.sacked_out + tp.lost_out;
    let state = if left_out > 0 || tp.retrans_out > 0 {
        TCP_CA_DISORDER
    } else {
        TCP_CA_OPEN
    };
    if tp.icsk_ca_state != state {
        tp.high_seq = tp.snd_nxt;
        tcp_set_ca_state(w, sk, state);
    }
}

/// `tcp_try_to_open`.
fn tcp_try_to_open(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    if tp.retrans_out == 0 {
        tp.lr.retrans_stamp_ns = 0;
    }
    if tp.icsk_ca_state != TCP_CA_CWR {
        tcp_try_keep_open(w, sk);
    }
}

/// `tcp_process_tlp_ack` (Linux 6.18, RFC 8985): end the loss probe's episode once the ACKs
/// reach `tlp_high_seq`. A probe of new data, or a duplicate ACK that shows both the original
/// and the probe arrived, ends it without a loss; an ACK beyond it after a retransmitted probe
/// means the probe repaired a loss: cwnd is reduced once (CWR), `TCPLossProbeRecovery`.
///
/// Simplified: a D-SACK of the probe (`FLAG_DSACK_TLP`) is taken as a duplicate ACK.
pub fn tcp_process_tlp_ack(w: &mut Stack, sk: SockId, ack: u64, flag: u32) {
    let tp = &mut w.socks[sk as usize];
    let Some(high) = tp.tlp_high_seq else {
        return;
    };
    if ack < high {
        return;
    }
    if !tp.tlp_retrans {
        // "TLP of new data has been acknowledged"
        tp.tlp_high_seq = None;
    } else if ack > high {
        // "ACK advances: there was a loss, so reduce cwnd."
        tcp_init_cwnd_reduction(tp);
        tcp_set_ca_state(w, sk, TCP_CA_CWR);
        tcp_end_cwnd_reduction(w, sk);
        tcp_try_keep_open(w, sk);
        let host = w.socks[sk as usize].host;
        w.mib(host).inc(Mib::TcpExtTCPLossProbeRecovery);
    } else if flag & (FLAG_SND_UNA_ADVANCED | FLAG_NOT_DUP | FLAG_DATA_SACKED) == 0 {
        // "Pure dupack: original and TLP probe arrived; no loss"
        tp.tlp_high_seq = None;
    }
}

/// `tcp_identify_packet_loss`: RACK marks losses; a retransmission lost again sets
/// `FLAG_LOST_RETRANS`; RACK's own timer keeps the RTO from being rearmed.
fn tcp_identify_packet_loss(w: &mut Stack, sk: SockId, flag: &mut u32) {
    let tp = &w.socks[sk as usize];
    if tp.rtx_queue.is_empty() {
        return;
    }
    if tcp_is_reno(tp) {
        crate::net::ipv4::tcp_recovery::tcp_newreno_mark_lost(
            w,
            sk,
            *flag & FLAG_SND_UNA_ADVANCED != 0,
        );
        return;
    }
    let prior_retrans = tp.retrans_out;
    if crate::net::ipv4::tcp_recovery::tcp_rack_mark_lost(w, sk) {
        *flag &= !FLAG_SET_XMIT_TIMER;
    }
    if prior_retrans > w.socks[sk as usize].retrans_out {
        *flag |= FLAG_LOST_RETRANS;
    }
}

/// `tcp_process_loss`: an ACK in Loss (after an RTO): undo if spurious; leave Loss once
/// `high_seq` is acked; else retransmit what is still marked lost.
fn tcp_process_loss(w: &mut Stack, sk: SockId, flag: u32, num_dupack: u32, rexmit: &mut u8) {
    let tp = &w.socks[sk as usize];
    let recovered = tp.snd_una >= tp.high_seq;
    if flag & FLAG_SND_UNA_ADVANCED != 0 && tcp_try_undo_loss(w, sk, false) {
        return;
    }
    if w.socks[sk as usize].lr.frto {
        // "F-RTO RFC5682 sec 3.1 (sack enhanced version). Step 3.b. A timeout is spurious if
        // not all data are lost, i.e., never-retransmitted data are (s)acked."
        if flag & FLAG_ORIG_SACK_ACKED != 0 && tcp_try_undo_loss(w, sk, true) {
            return;
        }
        let tp = &mut w.socks[sk as usize];
        if tp.snd_nxt > tp.high_seq {
            if flag & FLAG_DATA_SACKED != 0 || num_dupack > 0 {
                tp.lr.frto = false; // "Step 3.a. loss was real"
            }
        } else if flag & FLAG_SND_UNA_ADVANCED != 0 && !recovered {
            tp.high_seq = tp.snd_nxt;
            // "Step 2.b. Try send new data (but deferred until cwnd is updated in tcp_ack()).
            // Otherwise fall back to the conventional recovery."
            if !tp.write_queue.is_empty() && tp.wnd_end() > tp.snd_nxt {
                *rexmit = REXMIT_NEW;
                return;
            }
            tp.lr.frto = false;
        }
    }
    if recovered {
        // "F-RTO RFC5682 sec 3.1 step 2.a and 1st part of step 3.a"
        tcp_try_undo_recovery(w, sk);
        return;
    }
    let tp = &mut w.socks[sk as usize];
    if tcp_is_reno(tp) {
        // "A Reno DUPACK means new data in F-RTO step 2.b above are delivered. Lower
        // inflight to clock out (re)transmissions."
        if tp.snd_nxt > tp.high_seq && num_dupack > 0 {
            tcp_add_reno_sack(w, sk, num_dupack);
        } else if flag & FLAG_SND_UNA_ADVANCED != 0 {
            tcp_reset_reno_sack(tp);
        }
    }
    *rexmit = REXMIT_LOST;
}

/// `tcp_fastretrans_alert`: the congestion state machine, run for an ACK that is dubious (a
/// duplicate, SACKs, or any ACK outside Open). Sets `rexmit` when lost packets must be
/// retransmitted (`REXMIT_LOST`).
fn tcp_fastretrans_alert(
    w: &mut Stack,
    sk: SockId,
    prior_snd_una: u64,
    num_dupack: u32,
    flag: &mut u32,
    rexmit: &mut u8,
) {
    let _ = prior_snd_una;
    let tp = &mut w.socks[sk as usize];
    let reno = tcp_is_reno(tp);
    if tp.packets_out == 0 && tp.sacked_out > 0 {
        tp.sacked_out = 0;
    }
    // "D. Check state exit conditions. State can be terminated when high_seq is ACKed."
    if tp.icsk_ca_state == TCP_CA_OPEN {
        tp.lr.retrans_stamp_ns = 0;
    } else if tp.snd_una >= tp.high_seq {
        match tp.icsk_ca_state {
            // "CWR is to be held something *above* high_seq is ACKed for CWR bit to reach
            // receiver."
            TCP_CA_CWR if tp.snd_una != tp.high_seq => {
                tcp_end_cwnd_reduction(w, sk);
                tcp_set_ca_state(w, sk, TCP_CA_OPEN);
            }
            TCP_CA_RECOVERY => {
                if reno {
                    tcp_reset_reno_sack(&mut w.socks[sk as usize]);
                }
                if tcp_try_undo_recovery(w, sk) {
                    return;
                }
                tcp_end_cwnd_reduction(w, sk);
            }
            _ => {}
        }
    }
    // "E. Process state."
    let state = w.socks[sk as usize].icsk_ca_state;
    let mut fall_through = true;
    if state == TCP_CA_RECOVERY {
        fall_through = false;
        // "if (!(flag & FLAG_SND_UNA_ADVANCED)) { if (tcp_is_reno(tp))
        // tcp_add_reno_sack(sk, num_dupack, ece_ack); } else if (tcp_try_undo_partial(...))":
        // tcp_try_undo_partial needs TSecr (tcp_packet_delayed): never true here.
        if *flag & FLAG_SND_UNA_ADVANCED == 0 && reno {
            tcp_add_reno_sack(w, sk, num_dupack);
        }
        if tcp_try_undo_dsack(w, sk) {
            tcp_try_to_open(w, sk);
        }
        tcp_identify_packet_loss(w, sk, flag);
        if w.socks[sk as usize].icsk_ca_state != TCP_CA_RECOVERY {
            if w.socks[sk as usize].lost_out == 0 {
                return;
            }
            // "Undo reverts the recovery state. If loss is evident, starts a new recovery"
            tcp_enter_recovery(w, sk);
        }
    } else if state == TCP_CA_LOSS {
        tcp_process_loss(w, sk, *flag, num_dupack, rexmit);
        tcp_identify_packet_loss(w, sk, flag);
        let tp = &w.socks[sk as usize];
        if !(tp.icsk_ca_state == TCP_CA_OPEN || *flag & FLAG_LOST_RETRANS != 0) {
            return;
        }
        // "Change state if cwnd is undone or retransmits are lost"
    }
    if fall_through {
        if reno {
            if *flag & FLAG_SND_UNA_ADVANCED != 0 {
                tcp_reset_reno_sack(&mut w.socks[sk as usize]);
            }
            tcp_add_reno_sack(w, sk, num_dupack);
        }
        if w.socks[sk as usize].icsk_ca_state <= TCP_CA_DISORDER {
            tcp_try_undo_dsack(w, sk);
        }
        tcp_identify_packet_loss(w, sk, flag);
        // tcp_time_to_recover: "Trick#1: The loss is proven."
        if w.socks[sk as usize].lost_out == 0 {
            tcp_try_to_open(w, sk);
            return;
        }
        // "Otherwise enter Recovery state"
        tcp_enter_recovery(w, sk);
    }
    *rexmit = REXMIT_LOST;
}

/// `tcp_is_reno`: the peer did not offer SACK (`!tp->rx_opt.sack_ok`).
pub fn tcp_is_reno(tp: &TcpSock) -> bool {
    !tp.rx_opt_sack_ok
}

/// `tcp_add_reno_sack` (net/ipv4/tcp_input.c, 6.18): "Emulate SACKs for SACKless connection:
/// account for a new dupack." Each duplicate ACK stands for a segment that left the network:
/// `sacked_out` grows (so `tcp_packets_in_flight` falls and, RFC 3042's limited transmit, new
/// data may leave), bounded by `tcp_check_reno_reordering`, and what it added counts as
/// delivered.
fn tcp_add_reno_sack(w: &mut Stack, sk: SockId, num_dupack: u32) {
    if num_dupack == 0 {
        return;
    }
    let tp = &mut w.socks[sk as usize];
    let prior_sacked = tp.sacked_out;
    tp.sacked_out += num_dupack;
    tcp_check_reno_reordering(w, sk, 0);
    let tp = &mut w.socks[sk as usize];
    let delivered = tp.sacked_out as i64 - prior_sacked as i64;
    if delivered > 0 {
        tp.delivered = tp.delivered.wrapping_add(delivered as u32); // tcp_count_delivered
    }
}

/// `tcp_remove_reno_sacks` (6.18): "Account for ACK, ACKing some data in Reno Recovery
/// phase." "One ACK acked hole. The rest eat duplicate ACKs": `max(acked - sacked_out, 1)` is
/// delivered, and `sacked_out` loses `acked - 1`.
fn tcp_remove_reno_sacks(w: &mut Stack, sk: SockId, acked: u32) {
    let tp = &mut w.socks[sk as usize];
    if acked > 0 {
        let delivered = (acked as i64 - tp.sacked_out as i64).max(1) as u32;
        tp.delivered = tp.delivered.wrapping_add(delivered);
        // "if (acked - 1 >= tp->sacked_out)"
        if acked > tp.sacked_out {
            tp.sacked_out = 0;
        } else {
            tp.sacked_out -= acked - 1;
        }
    }
    tcp_check_reno_reordering(w, sk, acked);
}

/// `tcp_reset_reno_sack`.
fn tcp_reset_reno_sack(tp: &mut TcpSock) {
    tp.sacked_out = 0;
}

/// `tcp_limit_reno_sacked`: "Limits sacked_out so that sum with lost_out isn't ever larger
/// than packets_out." True when it had to.
fn tcp_limit_reno_sacked(tp: &mut TcpSock) -> bool {
    let holes = tp.lost_out.max(1).min(tp.packets_out);
    if tp.sacked_out + holes > tp.packets_out {
        tp.sacked_out = tp.packets_out - holes;
        return true;
    }
    false
}

/// `tcp_check_reno_reordering`: "If we receive more dupacks than we expected counting
/// segments in assumption of absent reordering, interpret this as reordering": `reordering`
/// becomes `packets_out + addend` (at most `tcp_max_reordering`, 300), `TCPRenoReorder`.
fn tcp_check_reno_reordering(w: &mut Stack, sk: SockId, addend: u32) {
    let tp = &mut w.socks[sk as usize];
    if !tcp_limit_reno_sacked(tp) {
        return;
    }
    tp.lr.reordering = (tp.packets_out + addend).min(300);
    tp.lr.reord_seen += 1;
    let host = tp.host;
    w.mib(host).inc(Mib::TcpExtTCPRenoReorder);
}

/// `tcp_timeout_mark_lost`: on RTO, mark lost the head and every skb not SACKed that was not
/// sent within the last RACK RTT.
fn tcp_timeout_mark_lost(w: &mut Stack, sk: SockId) {
    let now_us = w.now_ns / 1000;
    // "} else if (tcp_is_reno(tp)) { tcp_reset_reno_sack(tp); }"
    if tcp_is_reno(&w.socks[sk as usize]) {
        tcp_reset_reno_sack(&mut w.socks[sk as usize]);
    }
    let n = w.socks[sk as usize].rtx_queue.len();
    for i in 0..n {
        let tp = &w.socks[sk as usize];
        if i > 0 && crate::net::ipv4::tcp_recovery::tcp_rack_skb_timeout(tp, i, 0, now_us) > 0 {
            continue; // "Don't mark recently sent ones lost yet"
        }
        crate::net::ipv4::tcp_recovery::tcp_mark_skb_lost(w, sk, i);
    }
}

/// `tcp_enter_loss`: the RTO fired: mark the outstanding data lost, reduce ssthresh unless
/// this episode already did, cwnd = packets in flight + 1, state Loss.
pub fn tcp_enter_loss(w: &mut Stack, sk: SockId) {
    let new_recovery = w.socks[sk as usize].icsk_ca_state < TCP_CA_RECOVERY;
    tcp_timeout_mark_lost(w, sk);
    let jiffies = w.jiffies();
    let tp = &mut w.socks[sk as usize];
    // "Reduce ssthresh if it has not yet been made inside this window."
    if tp.icsk_ca_state <= TCP_CA_DISORDER
        || tp.high_seq <= tp.snd_una
        || (tp.icsk_ca_state == TCP_CA_LOSS && tp.lr.icsk_retransmits == 0)
    {
        tp.lr.prior_ssthresh = tcp_current_ssthresh(tp);
        tp.lr.prior_cwnd = tp.snd_cwnd;
        tp.snd_ssthresh = tcp_cong::ssthresh(tp);
        tcp_init_undo(tp);
    }
    tp.snd_cwnd = tp.packets_in_flight() + 1;
    tp.snd_cwnd_cnt = 0;
    tp.snd_cwnd_stamp = jiffies;
    // "Timeout in disordered state after receiving substantial DUPACKs suggests that the
    // degree of reordering is over-estimated."
    if tp.icsk_ca_state <= TCP_CA_DISORDER && tp.sacked_out >= 3 {
        tp.lr.reordering = tp.lr.reordering.min(3);
    }
    tcp_set_ca_state(w, sk, TCP_CA_LOSS);
    let tp = &mut w.socks[sk as usize];
    tp.high_seq = tp.snd_nxt;
    tp.tlp_high_seq = None;
    // "tp->frto = READ_ONCE(net->ipv4.sysctl_tcp_frto) && (new_recovery ||
    // icsk->icsk_retransmits) && !inet_csk(sk)->icsk_mtup.probe_size;" (no MTU probing in
    // the model)
    tp.lr.frto = tp.net.sysctl.tcp_frto != 0 && (new_recovery || tp.lr.icsk_retransmits > 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testkit::established;

    const MSS: u32 = 1448;

    #[test]
    fn the_receivers_rtt_estimate_latches_lower_samples_and_skips_higher_ones_with_data_unread() {
        // 6.16+: a lower timestamp sample replaces the estimate at once; a higher one is
        // smoothed in by 1/8 only when the reader has read everything. 4.4 smooths them all.
        let mut w = established("6.18", "");
        let tp = &mut w.socks[1];
        tp.rcv_rtt_est_us8 = 40_000 << 3;
        tcp_rcv_rtt_update(tp, 30_000, false);
        assert_eq!(tp.rcv_rtt_est_us8, 30_000 << 3, "latched");
        tp.rcv_nxt = tp.copied_seq + 1000;
        tcp_rcv_rtt_update(tp, 50_000, false);
        assert_eq!(
            tp.rcv_rtt_est_us8,
            30_000 << 3,
            "skipped: 1000 bytes unread"
        );
        tp.copied_seq = tp.rcv_nxt;
        tcp_rcv_rtt_update(tp, 50_000, false);
        assert_eq!(
            tp.rcv_rtt_est_us8,
            (30_000 << 3) - (30_000 << 3 >> 3) + 50_000
        );
        let mut w = established("4.4", "");
        let tp = &mut w.socks[1];
        tp.rcv_rtt_est_us8 = 40_000 << 3;
        tcp_rcv_rtt_update(tp, 30_000, false);
        assert_eq!(
            tp.rcv_rtt_est_us8,
            (40_000 << 3) - 40_000 + 30_000,
            "smoothed"
        );
    }

    #[test]
    fn the_passive_side_takes_the_third_acks_window_in_bytes() {
        // Packet.window carries bytes (the sender scaled its field back): the accepting side
        // must not shift it by its window scale again.
        for kernel in ["3.14", "6.18"] {
            let w = established(kernel, "");
            let (active, passive) = (&w.socks[0], &w.socks[1]);
            assert!(
                passive.snd_wscale > 0,
                "{kernel}: window scaling negotiated"
            );
            assert!(
                passive.snd_wnd <= active.rcv_wnd,
                "{kernel}: snd_wnd {} against the {} B the connecting side offered",
                passive.snd_wnd,
                active.rcv_wnd
            );
        }
    }

    /// A data packet from socket 0 to socket 1 carrying `[seq, seq + len)`.
    fn data(w: &Stack, len: u32, segs: u32, flags: u8) -> Packet {
        let tp = &w.socks[0];
        let hdr = ETH_HLEN + IPV4_HLEN + tp.tcp_header_len;
        Packet {
            id: 99,
            orig_skb: 9,
            sk: 0,
            src_host: 0,
            dst_host: 1,
            hash: 0,
            priority: 0,
            len: hdr + len,
            hdr_len: hdr,
            truesize: 2304 + len,
            gso_segs: segs,
            gso_size: if segs > 1 { MSS } else { 0 },
            tstamp_ns: 0,
            sk_pacing_rate_bps: 0,
            pure_ack: false,
            seq: w.socks[1].rcv_nxt,
            end_seq: w.socks[1].rcv_nxt + len as u64,
            ack_seq: w.socks[1].snd_nxt,
            window: 65535,
            flags: flags | tcp_flags::ACK,
            tsecr_ms: 0,
            sent_ns: 0,
        }
    }

    fn acks_sent(w: &Stack) -> u64 {
        w.hosts[1].mib.get(Mib::TcpOutSegs)
    }

    #[test]
    fn more_than_one_full_frame_is_acked_at_once() {
        let mut w = established("6.18", "");
        w.socks[1].icsk_ack.quick = 0;
        w.socks[1].icsk_ack.pingpong = 1;
        w.socks[1].icsk_ack.ato = 10;
        w.socks[1].icsk_ack.rcv_mss = MSS;
        // A receive buffer large enough that the window would not shrink (the other half of
        // the condition; right after the handshake the free space is below rcv_wnd).
        w.socks[1].sk_rcvbuf = 1 << 22;
        w.socks[1].window_clamp = 1 << 22;
        w.socks[1].rcv_ssthresh = 1 << 21;
        let before = acks_sent(&w);
        let p = data(&w, 2 * MSS, 2, 0);
        tcp_rcv_established(&mut w, 1, &p);
        assert_eq!(acks_sent(&w), before + 1);
    }

    #[test]
    fn one_small_segment_of_an_interactive_connection_gets_a_delayed_ack() {
        let mut w = established("4.4", "");
        let tp = &mut w.socks[1];
        tp.icsk_ack.quick = 0;
        tp.icsk_ack.pingpong = 1;
        tp.icsk_ack.ato = 10;
        let before = acks_sent(&w);
        let p = data(&w, 10, 1, tcp_flags::PSH);
        tcp_rcv_established(&mut w, 1, &p);
        assert_eq!(acks_sent(&w), before);
        assert_ne!(w.socks[1].icsk_ack.pending & ICSK_ACK_TIMER, 0);
    }

    #[test]
    fn the_first_data_grants_quick_acks_and_is_acked_at_once() {
        let mut w = established("4.4", "");
        assert_eq!(w.socks[1].icsk_ack.ato, 0);
        let before = acks_sent(&w);
        let p = data(&w, 10, 1, tcp_flags::PSH);
        tcp_rcv_established(&mut w, 1, &p);
        assert_eq!(acks_sent(&w), before + 1);
        assert_eq!(
            w.socks[1].icsk_ack.ato,
            crate::net::ipv4::tcp_output::tcp_ato_min(w.hz)
        );
    }

    #[test]
    fn a_short_segment_sets_pushed_and_a_second_one_pushed2() {
        let mut w = established("4.4", "");
        let p = data(&w, 10, 1, tcp_flags::PSH);
        let tp = &mut w.socks[1];
        tcp_measure_rcv_mss(tp, &p, p.truesize as u64);
        assert_eq!(
            tp.icsk_ack.pending & (ICSK_ACK_PUSHED | ICSK_ACK_PUSHED2),
            ICSK_ACK_PUSHED
        );
        tcp_measure_rcv_mss(tp, &p, p.truesize as u64);
        assert_ne!(tp.icsk_ack.pending & ICSK_ACK_PUSHED2, 0);
    }

    #[test]
    fn a_full_segment_raises_rcv_mss_and_sets_pushed_only_from_6_6() {
        for (kernel, pushed) in [("4.4", false), ("6.18", true)] {
            let mut w = established(kernel, "");
            let p = data(&w, MSS, 1, tcp_flags::PSH);
            let tp = &mut w.socks[1];
            tcp_measure_rcv_mss(tp, &p, p.truesize as u64);
            assert_eq!(tp.icsk_ack.rcv_mss, MSS);
            assert_eq!(
                tp.icsk_ack.pending & ICSK_ACK_PUSHED != 0,
                pushed,
                "{kernel}"
            );
        }
    }

    #[test]
    fn quick_ack_credits_are_half_the_window_in_segments_capped_at_16() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[1];
        tp.icsk_ack.quick = 0;
        tp.icsk_ack.rcv_mss = MSS;
        tp.rcv_wnd = 6 * MSS as u64;
        tcp_incr_quickack(tp, TCP_MAX_QUICKACKS);
        assert_eq!(tp.icsk_ack.quick, 3);
        tp.rcv_wnd = 1 << 20;
        tcp_incr_quickack(tp, TCP_MAX_QUICKACKS);
        assert_eq!(tp.icsk_ack.quick, 16);
    }

    #[test]
    fn the_rtt_estimator_weighs_a_new_sample_by_one_eighth() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.srtt_us = 0;
        tcp_rtt_estimator(tp, 1000);
        assert_eq!(tp.srtt(), 1000);
        tcp_rtt_estimator(tp, 9000);
        assert_eq!(tp.srtt(), 2000);
        tcp_set_rto(tp);
        assert!(tp.rto_ns >= TCP_RTO_MIN_MS * 1_000_000);
    }

    #[test]
    fn pacing_rate_is_twice_cwnd_over_srtt_in_slow_start_and_1_2_times_after() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.mss_cache = 1000;
        tp.snd_cwnd = 10;
        tp.packets_out = 0;
        tp.srtt_us = 10_000 << 3; // 10 ms
        tp.snd_ssthresh = 1000;
        tcp_update_pacing_rate(tp, 1000);
        assert_eq!(tp.sk_pacing_rate, 2_000_000);
        tp.snd_ssthresh = 10;
        tcp_update_pacing_rate(tp, 1000);
        assert_eq!(tp.sk_pacing_rate, 1_200_000);
        let mut w = established("3.19", "");
        let tp = &mut w.socks[0];
        tp.mss_cache = 1000;
        tp.snd_cwnd = 10;
        tp.packets_out = 0;
        tp.srtt_us = 10_000 << 3;
        tp.snd_ssthresh = 10;
        tcp_update_pacing_rate(tp, 1000);
        assert_eq!(tp.sk_pacing_rate, 2_000_000, "always 200% before 4.1");
    }

    #[test]
    fn sndbuf_autotuning_holds_twice_cwnd_of_full_skbs() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.sk_sndbuf = 0;
        tp.snd_cwnd = 10;
        tcp_sndbuf_expand(tp);
        // per_mss = roundup_pow_of_two(1460 + 320 + 320) + 256 = 4352; 2 * 10 * 4352.
        assert_eq!(tp.sk_sndbuf, 87_040);
        tp.snd_cwnd = 1000;
        tcp_sndbuf_expand(tp);
        assert_eq!(tp.sk_sndbuf, 4_194_304, "capped at tcp_wmem[2]");
    }

    #[test]
    fn an_ack_frees_acked_skbs_and_trims_a_partly_acked_tso_skb() {
        let mut w = established("6.18", "");
        crate::sim::testkit::queue_skb(&mut w, 0, 2 * MSS);
        crate::sim::testkit::mark_sent(&mut w, 0, 0, false);
        crate::sim::testkit::queue_skb(&mut w, 0, 4 * MSS);
        crate::sim::testkit::mark_sent(&mut w, 0, 0, false);
        let una = w.socks[0].snd_una;
        let mut ack = data(&w, 0, 1, 0);
        ack.ack_seq = una + 3 * MSS as u64;
        ack.seq = w.socks[0].rcv_nxt;
        ack.end_seq = ack.seq;
        let queued = w.socks[0].sk_wmem_queued;
        tcp_ack(&mut w, 0, &ack, false);
        let tp = &w.socks[0];
        assert_eq!(tp.rtx_queue.len(), 1);
        assert_eq!(tp.rtx_queue[0].pcount, 3);
        assert_eq!(tp.packets_out, 3);
        assert!(tp.sk_wmem_queued < queued);
        tp.check_invariants();
    }

    // ---- the 6.18 receive window, against a tcp:tcp_rcvbuf_grow trace of this kernel ----
    // (the lab's 40 ms path through sp-delayfwd, one 2,000,000-byte write, the receiver's
    // tcp_rcvbuf_grow tracepoint: "space=46336 ratio=170 rcvbuf=131072", then
    // "copied=84992 inq=0 space=46336 ... rcvbuf=604729 clamp=401577", then "rcvbuf=683071
    // clamp=453601").

    #[test]
    fn the_first_data_sets_scaling_ratio_from_len_over_truesize_and_the_clamp_follows() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[1];
        assert_eq!(tp.scaling_ratio, TCP_DEFAULT_SCALING_RATIO);
        assert_eq!(tp.sk_rcvbuf, 131_072);
        // The forwarder's 2-segment frame: a 4 KB kmalloc head, truesize 4352.
        let p = Packet {
            gso_size: MSS,
            ..data(&w, 2 * MSS, 2, 0)
        };
        let tp = &mut w.socks[1];
        tcp_measure_rcv_mss(tp, &p, 4352);
        assert_eq!(tp.scaling_ratio, 170, "2896 * 256 / 4352");
        assert_eq!(
            tp.window_clamp, 87_040,
            "tcp_win_from_space(131072) at 170/256"
        );
    }

    #[test]
    fn tcp_rcvbuf_grow_sizes_the_buffer_as_linux_6_18_did() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[1];
        tp.scaling_ratio = 170;
        tp.rcvq_space.space = 17_376;
        tcp_rcvbuf_grow(tp, 46_336);
        assert_eq!((tp.sk_rcvbuf, tp.window_clamp), (604_729, 401_577));
        tcp_rcvbuf_grow(tp, 84_992);
        assert_eq!((tp.sk_rcvbuf, tp.window_clamp), (683_071, 453_601));
        assert_eq!(tp.rcvq_space.space, 84_992);
        // A smaller need leaves the buffer as it is.
        tcp_rcvbuf_grow(tp, 90_000);
        assert_eq!(tp.sk_rcvbuf, 683_071);
    }

    #[test]
    fn the_receivers_rtt_estimate_comes_from_the_echoed_timestamp_in_ms() {
        let mut w = established("6.18", "");
        let p = Packet {
            tsecr_ms: 1_000,
            ..data(&w, MSS, 1, 0)
        };
        let tp = &mut w.socks[1];
        tp.icsk_ack.rcv_mss = MSS;
        tcp_rcv_rtt_measure_ts(tp, &p, 1_040_700_000);
        assert_eq!(tp.rcv_rtt_est_us8 >> 3, 40_000, "40 ms, truncated to ms");
        // The same TSecr again gives no new sample; a new one is smoothed by 1/8.
        tcp_rcv_rtt_measure_ts(tp, &p, 1_050_000_000);
        assert_eq!(tp.rcv_rtt_est_us8 >> 3, 40_000);
        let p = Packet {
            tsecr_ms: 1_010,
            ..p
        };
        tcp_rcv_rtt_measure_ts(tp, &p, 1_051_000_000);
        assert_eq!(
            tp.rcv_rtt_est_us8,
            8 * 40_000 + 1_000,
            "(41 ms - 40 ms) / 8 more"
        );
    }

    #[test]
    fn an_ack_that_arrives_while_the_writers_send_holds_the_socket_waits_in_the_backlog() {
        let mut w = established("6.18", "");
        crate::net::ipv4::tcp::tcp_sendmsg_locked(&mut w, 0, 1000, 0, false);
        let nxt = w.socks[0].snd_nxt;
        assert!(w.socks[0].snd_una < nxt, "in flight");
        w.socks[0].send_owned = true; // the writer's send() has not returned
        let ack = crate::sim::testkit::peer_ack(&mut w, nxt);
        tcp_v4_rcv(&mut w, 0, &ack);
        assert_eq!(w.socks[0].sk_backlog.len(), 1, "tcp_add_backlog");
        assert!(w.socks[0].snd_una < nxt, "not processed yet");
        crate::net::ipv4::tcp::release_sock(&mut w, 0);
        assert!(w.socks[0].sk_backlog.is_empty());
        assert_eq!(w.socks[0].snd_una, nxt, "__release_sock ran tcp_ack");
        assert!(!w.socks[0].send_owned);
    }

    #[test]
    fn segments_that_arrive_while_the_reader_copies_wait_in_the_backlog_for_one_ack() {
        let mut w = established("6.18", "");
        w.socks[1].owned_until_ns = w.now_ns + 1_000; // the reader is inside tcp_recvmsg
        let before = acks_sent(&w);
        let base = w.socks[1].rcv_nxt;
        for i in 0..3u64 {
            let p = data(&w, 2 * MSS, 2, 0);
            let seq = base + i * 2 * MSS as u64;
            let p = Packet {
                seq,
                end_seq: seq + 2 * MSS as u64,
                gso_size: MSS,
                ..p
            };
            tcp_v4_rcv(&mut w, 1, &p);
        }
        assert_eq!(w.socks[1].sk_backlog.len(), 3, "tcp_add_backlog");
        assert_eq!(w.socks[1].rcv_nxt, base, "not processed yet");
        assert_eq!(acks_sent(&w), before);
        // The copy is done: __sk_flush_backlog processes the three (their ACKs deferred) and
        // the call copies their data; then tcp_cleanup_rbuf ACKs once, and tcp_release_cb has
        // nothing left to send.
        let len = 1 << 20;
        assert_eq!(
            crate::net::ipv4::tcp::tcp_recvmsg_backlog(&mut w, 1, len),
            None
        );
        assert_eq!(w.socks[1].rcv_nxt, base + 6 * MSS as u64);
        assert_eq!(acks_sent(&w), before, "deferred (tcp_backlog_ack_defer)");
        assert_eq!(
            crate::net::ipv4::tcp::tcp_recvmsg_backlog(&mut w, 1, len),
            Some(6 * MSS as u64)
        );
        assert_eq!(acks_sent(&w), before + 1, "one ACK for the whole backlog");
        assert_eq!(w.socks[1].owned_until_ns, 0, "released");
    }
}
