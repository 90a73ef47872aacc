//! `net/ipv4/tcp_input.c` (and the connection set-up of `tcp_ipv4.c`/`tcp_minisocks.c`):
//! what a received segment does. On the sender: `tcp_ack` frees acknowledged skbs, samples the
//! RTT, grows cwnd, updates the pacing rate, wakes the writer and lets `tcp_write_xmit` send
//! more. On the receiver: in-order data is queued, the delayed-ACK machinery decides when to
//! ACK (quick-ACK credits, pingpong, `ato`), and the window grows.
//!
//! Follows Linux 6.18 with the switches of `Profile` for 3.13 .. 4.4.
//!
//! Simplified:
//! - no SACK, no loss recovery beyond go-back-N on RTO, because the links are lossless and a
//!   drop is reported as a warning; visible effect: a run with drops (full qdisc) shows the
//!   stall and the RTO, not Linux's fast recovery.
//! - header prediction is reduced to its counters: an ACK that only advances `snd_una`
//!   without changing the window counts as `TCPHPAcks`, other pure ACKs as `TCPPureAcks`.

use crate::include::linux::skbuff::{tcp_flags, Packet, SockId, ETH_HLEN, IPV4_HLEN, TCP_HLEN};
use crate::include::uapi::linux::snmp::Mib;
use crate::net::core::sock::*;
use crate::net::host::Stack;
use crate::net::ipv4::tcp::{sk_data_ready, sk_stream_write_space};
use crate::net::ipv4::tcp_cong::{self};
use crate::net::ipv4::tcp_output::{
    __tcp_select_window, in_pingpong_mode, tcp_ato_min, tcp_push_pending_frames, tcp_send_ack,
    tcp_send_delayed_ack, tcp_win_from_space,
};
use crate::net::ipv4::tcp_rate::{tcp_rate_gen, tcp_rate_skb_delivered, RateSample};
use crate::net::ipv4::tcp_timer;
use crate::trace::{AckReason, Ev};

/// `tcp_v4_rcv`: a segment reaches its socket.
pub fn tcp_v4_rcv(w: &mut Stack, sk: SockId, pkt: Packet) {
    let tp = &w.socks[sk as usize];
    let host = tp.host;
    // "Count it even if it's bad": __TCP_INC_STATS(net, TCP_MIB_INSEGS), once per skb, so a
    // GRO-merged skb of 45 segments counts one, in 6.18 as before: a real 6.18 receiver of the
    // 2 MB transfer (public/samples/bulk-40ms.jsonl) counted TcpInSegs 165 = IpInReceives 165
    // while the sender's TcpOutSegs was 1386.
    w.mib(host).inc(Mib::TcpInSegs);
    // The receive softirq: an ACK through tcp_ack, or a (GRO'd) data skb and its segments.
    let c = w.costs(host);
    let cost = if pkt.payload_len() == 0 {
        c.ack_rcv_ns
    } else {
        c.rx_skb_ns + c.rx_seg_ns * pkt.gso_segs.max(1) as u64
    };
    w.charge(sk, cost);
    match w.socks[sk as usize].state {
        TcpState::Closed => {}
        TcpState::SynSent => tcp_rcv_synsent_state_process(w, sk, &pkt),
        TcpState::SynRecv => tcp_rcv_synrecv(w, sk, &pkt),
        TcpState::Established => tcp_rcv_established(w, sk, &pkt),
    }
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
        tp.snd_wnd = pkt.window as u64 * (1 << tp.snd_wscale);
        tp.snd_wl1 = pkt.seq;
        let host = tp.host;
        w.mib(host).inc(Mib::TcpPassiveOpens);
        tcp_finish_connect(w, sk, rtt_us);
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
    tcp_finish_connect(w, sk, rtt_us);
    tcp_send_ack(w, sk, AckReason::Control);
}

/// `tcp_finish_connect` / `tcp_init_transfer`: MSS, buffers, congestion control, the first
/// RTT sample and pacing rate; the application may start.
fn tcp_finish_connect(w: &mut Stack, sk: SockId, rtt_us: u64) {
    let hz = w.hz;
    let now_j = w.jiffies();
    let tp = &mut w.socks[sk as usize];
    tp.state = TcpState::Established;
    // "Prevent spurious tcp_cwnd_restart() on first data packet"; the ACK engine's clock.
    tp.lsndtime = now_j;
    tp.icsk_ack.lrcvtime = now_j;
    tcp_rtt_estimator(tp, rtt_us.max(1));
    tcp_set_rto(tp);
    tp.min_rtt_us = rtt_us.max(1);
    tcp_init_buffer_space(tp);
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
    w.emit(host, sk, || Ev::Established {
        mss: mss as u64,
        sndbuf,
        rcvbuf,
    });
    let now = w.now_ns;
    w.schedule(now, crate::net::host::Event::App(app));
}

/// `tcp_init_buffer_space`: the send buffer from `tcp_sndbuf_expand`, the receive buffer
/// (`tcp_fixup_rcvbuf` before 4.19), `window_clamp` and `rcv_ssthresh`.
fn tcp_init_buffer_space(tp: &mut TcpSock) {
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
    tp.rcvq_space.space = tp.rcv_wnd.min(TCP_INIT_CWND as u64 * tp.advmss as u64);
    tp.rcvq_space.seq = tp.copied_seq;
    let maxwin = tcp_win_from_space(tp.sk_rcvbuf as i64) as u64;
    // tcp_app_win = 31: reserve one segment.
    if tp.window_clamp >= maxwin {
        tp.window_clamp = maxwin;
    }
    if tp.window_clamp > 2 * tp.advmss as u64 && tp.window_clamp + tp.advmss as u64 > maxwin {
        tp.window_clamp = (2 * tp.advmss as u64).max(maxwin - tp.advmss as u64);
    }
    tp.rcv_ssthresh = tp.rcv_ssthresh.min(tp.window_clamp);
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
        // Old or out-of-order data (only after a drop and a go-back-N retransmission).
        if pkt.end_seq <= tp.rcv_nxt {
            // tcp_data_queue: "A retransmit, 2nd most common case. Force an immediate ack."
            w.mib(host).inc(Mib::TcpExtDelayedACKLost);
            tcp_enter_quickack_mode(w, sk, TCP_MAX_QUICKACKS);
        }
        tcp_ack(w, sk, pkt, true);
        tcp_send_ack(w, sk, AckReason::Now);
        return;
    }
    // tcp_queue_rcv: in-order data joins the receive queue.
    let truesize = payload + w.socks[sk as usize].profile.skb_truesize_overhead() as u64;
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

/// `tcp_event_data_recv`: schedule an ACK, measure the peer's MSS, adapt `ato` to the
/// inter-arrival time, grant quick ACKs on the first data and after idle, grow the window.
fn tcp_event_data_recv(w: &mut Stack, sk: SockId, pkt: &Packet, truesize: u64) {
    let now_j = w.jiffies();
    let ato_min = tcp_ato_min(w.hz);
    let rto_j = w.socks[sk as usize].rto_ns * w.hz / 1_000_000_000;
    let tp = &mut w.socks[sk as usize];
    tp.icsk_ack.pending |= ICSK_ACK_SCHED; // inet_csk_schedule_ack
    tcp_measure_rcv_mss(tp, pkt);
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
fn tcp_measure_rcv_mss(tp: &mut TcpSock, pkt: &Packet) {
    let lss = tp.icsk_ack.last_seg_size;
    tp.icsk_ack.last_seg_size = 0;
    let len = if pkt.gso_segs > 1 {
        pkt.gso_size
    } else {
        pkt.payload_len()
    };
    if len >= tp.icsk_ack.rcv_mss {
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
    let tp = &w.socks[sk as usize];
    let two_frames = tp.rcv_nxt - tp.rcv_wup > tp.icsk_ack.rcv_mss as u64
        && __tcp_select_window(tp) as u64 >= tp.rcv_wnd;
    if two_frames {
        tcp_send_ack(w, sk, AckReason::TwoFrames);
    } else if tcp_in_quickack_mode(tp) {
        tcp_send_ack(w, sk, AckReason::Quickack);
    } else if tp.icsk_ack.pending & ICSK_ACK_NOW != 0 {
        tcp_send_ack(w, sk, AckReason::Now);
    } else {
        tcp_send_delayed_ack(w, sk);
    }
}

/// `tcp_grow_window`: raise `rcv_ssthresh` (the window we are willing to offer) by at least
/// twice the segment, while the buffer has room.
fn tcp_grow_window(tp: &mut TcpSock, len: u64, truesize: u64) {
    let space = tcp_win_from_space(tp.sk_rcvbuf as i64 - tp.sk_rmem_alloc as i64);
    if tp.rcv_ssthresh < tp.window_clamp && (tp.rcv_ssthresh as i64) < space {
        let mut incr = if tcp_win_from_space(truesize as i64) <= len as i64 {
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

/// `tcp_rcv_space_adjust` (called from `tcp_recvmsg`): receive-buffer autotuning. Once per
/// RTT, size `sk_rcvbuf` for twice (up to four times in slow start) what the application read
/// in the last RTT.
///
/// Simplified: the receiver's RTT estimate (`rcv_rtt_est`, from timestamps) is its `srtt`
/// from the handshake; visible effect: none on a fixed-delay link.
pub fn tcp_rcv_space_adjust(w: &mut Stack, sk: SockId) {
    let now = w.now_ns;
    let tp = &mut w.socks[sk as usize];
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
            while (tcp_win_from_space(rcvmem as i64) as u64) < advmss {
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

// ---------------------------------------------------------------------------------------------
// tcp_ack
// ---------------------------------------------------------------------------------------------

/// `tcp_ack`: process the acknowledgement and window of a segment.
fn tcp_ack(w: &mut Stack, sk: SockId, pkt: &Packet, with_data: bool) {
    let now = w.now_ns;
    let hz = w.hz;
    let tp = &mut w.socks[sk as usize];
    let host = tp.host;
    let ack = pkt.ack_seq;
    if ack > tp.snd_nxt || ack < tp.snd_una {
        return; // "If the ack includes data we haven't sent yet, discard." / old ACK
    }
    let prior_snd_una = tp.snd_una;
    let prior_in_flight = tp.packets_in_flight();
    let mut rs = RateSample::new(prior_in_flight);
    // tcp_ack_update_window
    let nwin = pkt.window as u64;
    let window_changed = nwin != tp.snd_wnd;
    if ack > tp.snd_una || pkt.seq > tp.snd_wl1 || (pkt.seq == tp.snd_wl1 && nwin > tp.snd_wnd) {
        tp.snd_wl1 = pkt.seq;
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
    if ack == prior_snd_una {
        return;
    }
    tp.snd_una = ack;
    tp.icsk_probes_out = 0;
    // tcp_clean_rtx_queue
    let mut acked_pcount = 0u32;
    let mut first_ackt: Option<u64> = None;
    let mut last_ackt: Option<u64> = None;
    let mut fully_acked = true;
    let mut freed = false;
    let mut freed_skbs = 0u64;
    let mut trimmed_frag = 0u64;
    while let Some(skb) = tp.rtx_queue.front_mut() {
        if skb.end_seq <= ack {
            let skb = tp.rtx_queue.pop_front().unwrap();
            acked_pcount += skb.pcount;
            tp.packets_out -= skb.pcount;
            tp.sk_wmem_queued -= skb.truesize as u64;
            tp.sk_mem_uncharge(skb.truesize as u64);
            if !skb.retrans {
                first_ackt.get_or_insert(skb.tstamp_ns);
                last_ackt = Some(skb.tstamp_ns);
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
            let old_pcount = skb.pcount;
            skb.seq = ack;
            let frag =
                trimmed.min(skb.truesize - tp.profile.skb_alloc_truesize(0).min(skb.truesize));
            skb.truesize -= frag;
            tp.sk_wmem_queued -= frag as u64;
            trimmed_frag += frag as u64;
            let mss = skb.gso_size.max(1);
            skb.pcount = skb.len().div_ceil(mss).max(1);
            if skb.pcount == 1 {
                skb.gso_size = 0;
            }
            let dropped = old_pcount - skb.pcount;
            acked_pcount += dropped;
            tp.packets_out -= dropped;
            if !skb.retrans {
                first_ackt.get_or_insert(skb.tstamp_ns);
                last_ackt = Some(skb.tstamp_ns);
            }
            let (tx, tstamp_ns, end_seq, retrans) =
                (skb.tx, skb.tstamp_ns, skb.end_seq, skb.retrans);
            tcp_rate_skb_delivered(tp, &tx, tstamp_ns / 1000, end_seq, retrans, &mut rs);
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
    if freed {
        tp.queue_shrunk = true;
    }
    let c = w.costs(host).rtx_free_ns * freed_skbs;
    w.charge(sk, c);
    let tp = &mut w.socks[sk as usize];
    let acked_bytes = ack - prior_snd_una;
    tp.bytes_acked += acked_bytes;
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
        if tp.ca_state_loss && ack >= tp.high_seq {
            tp.ca_state_loss = false;
        }
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
    tp.delivered = tp.delivered.wrapping_add(acked_pcount);
    if let Some(t) = last_ackt {
        rs.rtt_us = ((now - t) / 1000) as i64;
    }
    rs.is_ack_delayed = acked_pcount == 1
        && fully_acked
        && acked_bytes < tp.mss_cache as u64
        && rs.prior_delivered.wrapping_add(1) == tp.delivered;
    tcp_rate_gen(tp, acked_pcount, 0, false, &mut rs, now / 1000);
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
        // tcp_cong_control: grow cwnd if allowed, then the pacing rate.
        if acked_pcount > 0 && tcp_cong::tcp_is_cwnd_limited(tp, prior_in_flight) {
            tcp_cong::cong_avoid(tp, ack, acked_pcount, now);
            tp.snd_cwnd_stamp = now * hz / 1_000_000_000;
        }
        tcp_update_pacing_rate(tp, hz);
    }
    let delivered = acked_pcount as u64;
    w.mib(host).add(Mib::TcpExtTCPDelivered, delivered);
    // Rearm or stop the retransmission timer.
    if w.socks[sk as usize].packets_out == 0 {
        tcp_timer::tcp_clear_xmit_timer_rto(w, sk);
    } else {
        tcp_timer::tcp_rearm_rto(w, sk);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testkit::established;

    const MSS: u32 = 1448;

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
        tcp_measure_rcv_mss(tp, &p);
        assert_eq!(
            tp.icsk_ack.pending & (ICSK_ACK_PUSHED | ICSK_ACK_PUSHED2),
            ICSK_ACK_PUSHED
        );
        tcp_measure_rcv_mss(tp, &p);
        assert_ne!(tp.icsk_ack.pending & ICSK_ACK_PUSHED2, 0);
    }

    #[test]
    fn a_full_segment_raises_rcv_mss_and_sets_pushed_only_from_6_6() {
        for (kernel, pushed) in [("4.4", false), ("6.18", true)] {
            let mut w = established(kernel, "");
            let p = data(&w, MSS, 1, tcp_flags::PSH);
            let tp = &mut w.socks[1];
            tcp_measure_rcv_mss(tp, &p);
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
}
