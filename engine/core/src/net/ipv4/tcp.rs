//! `net/ipv4/tcp.c`: the system calls. `tcp_sendmsg` copies the application's bytes into skbs
//! and pushes them; `tcp_push` decides between autocorking, corking and `tcp_write_xmit`;
//! `tcp_recvmsg` hands received bytes to the application and may ACK on the way out; the
//! socket options that change those decisions.
//!
//! Follows Linux 6.18 with the switches of `Profile` for 3.13 .. 4.4.

use crate::include::linux::skbuff::{tcp_flags, SockId};
use crate::include::linux::socket::{MSG_EOR, MSG_MORE};
use crate::include::uapi::linux::snmp::Mib;
use crate::net::core::sock::*;
use crate::net::host::Stack;
use crate::net::ipv4::tcp_output::{
    __tcp_push_pending_frames, __tcp_select_window, in_pingpong_mode, tcp_current_mss,
    tcp_push_one, tcp_push_pending_frames, tcp_receive_window, tcp_send_ack, tcp_send_mss,
};
use crate::trace::{AckReason, Ev, Gate};

/// What a `send()` call did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendOutcome {
    /// All bytes were queued; `send()` returns.
    Done,
    /// The writer sleeps in `sk_stream_wait_memory` after queueing `copied` bytes of this call;
    /// it resumes (the same call) when `sk_stream_write_space` wakes it.
    Blocked { copied: u64 },
}

/// What [`tcp_sendmsg_copy`] did: every byte copied, with the call's closing `tcp_push` still
/// to run ([`tcp_sendmsg_push`]), or the writer sleeps as in [`SendOutcome::Blocked`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendCopy {
    Copied(PendingPush),
    Blocked { copied: u64 },
}

/// The closing `tcp_push` of a `send()` whose bytes are copied, with the call's own `mss_now`
/// and `size_goal` (`tcp_sendmsg_locked`'s "out:" label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingPush {
    msg_more: bool,
    mss_now: u32,
    size_goal: u32,
    copied: u64,
}

/// `tcp_sendmsg_locked`: copy `size` bytes into the write queue; `flags` are the call's
/// `MSG_MORE` and `MSG_EOR` ([`crate::include::linux::socket`]). `resumed` is true when the
/// writer continues a call it slept in.
///
/// Bytes go into the tail skb until it reaches `size_goal` (never into one that ends a record,
/// `tcp_skb_can_collapse_to`); a full skb that is the send head leaves at once
/// (`tcp_push_one`); the partial tail is decided once, at the end of the call, by `tcp_push`.
/// With `MSG_EOR` the skb holding the call's last byte ends a record (4.7+).
///
/// Simplified:
/// - no page-frag or `sysctl_max_skb_frags` limit, because small writes to the same 32 KB page
///   frag coalesce into one frag and a 64 KB skb needs a handful; visible effect: none.
/// - `tcp_wmem_schedule` never shrinks a copy: the global `tcp_mem` pressure is not modelled
///   below its thresholds.
pub fn tcp_sendmsg_locked(
    w: &mut Stack,
    sk: SockId,
    size: u64,
    flags: u32,
    resumed: bool,
) -> SendOutcome {
    match tcp_sendmsg_copy(w, sk, size, flags, resumed) {
        SendCopy::Copied(push) => {
            tcp_sendmsg_push(w, sk, push);
            syscall_exit(w, sk);
            SendOutcome::Done
        }
        SendCopy::Blocked { copied } => SendOutcome::Blocked { copied },
    }
}

/// The first part of [`tcp_sendmsg_locked`]: the copy loop, up to its "out:" label. The
/// application's model runs the closing [`tcp_sendmsg_push`] once the copy's CPU time has
/// passed, as Linux's call reaches `tcp_push` only after copying: a TX completion or an ACK
/// that comes meanwhile (softirq work on the writer's CPU) finds the socket owned and the
/// tail not yet pushed.
pub fn tcp_sendmsg_copy(
    w: &mut Stack,
    sk: SockId,
    size: u64,
    flags: u32,
    resumed: bool,
) -> SendCopy {
    let msg_more = flags & MSG_MORE != 0;
    let now = w.now_ns;
    let host = w.socks[sk as usize].host;
    if !resumed {
        w.emit(host, sk, || Ev::SendmsgCall { size, msg_more });
        let c = w.costs(host);
        let cost = syscall_entry_ns(c) + c.sendmsg_ns;
        w.charge(sk, cost);
    }
    if !resumed {
        // "is sending application-limited?" (once per call, not after a wait for memory)
        crate::net::ipv4::tcp_rate::tcp_rate_check_app_limited(&mut w.socks[sk as usize]);
    }
    let (mss_now, size_goal) = tcp_send_mss(&mut w.socks[sk as usize]);
    let mut copied = 0u64;
    let mut remaining = size;
    while remaining > 0 {
        let tp = &mut w.socks[sk as usize];
        let mut copy: i64 = match tp.write_queue.back() {
            Some(tail) if tp.tail_can_take_more() => size_goal as i64 - tail.len() as i64,
            _ => 0,
        };
        let mut new_skb = false;
        if copy <= 0 {
            // new_segment:
            if !tp.sk_stream_memory_free(0) {
                wait_for_space(w, sk, copied, msg_more, mss_now, size_goal);
                return SendCopy::Blocked { copied };
            }
            let id = w.next_skb_id();
            let (now_j, hz) = (w.jiffies(), w.hz);
            let tp = &mut w.socks[sk as usize];
            // select_size(): 3.x/4.4 give the head room for ~1.4 KB of payload; 6.x none.
            let linear = tp.profile.skb_linear_payload;
            let skb = Skb {
                id,
                seq: tp.write_seq,
                end_seq: tp.write_seq,
                truesize: tp.profile.skb_alloc_truesize(linear),
                pcount: 0,
                gso_size: 0,
                flags: tcp_flags::ACK,
                eor: false,
                linear_room: linear,
                tstamp_ns: 0,
                first_write_ns: now,
                retrans: false,
                sacked: 0,
                tx: Default::default(),
            };
            tcp_skb_entail(tp, skb, now_j, hz);
            copy = size_goal as i64;
            new_skb = true;
            let c = w.costs(host).skb_alloc_ns;
            w.charge(sk, c);
        }
        let tp = &mut w.socks[sk as usize];
        let copy = (copy as u64).min(remaining) as u32;
        let skb = tp.write_queue.back_mut().unwrap();
        // Into the linear head first (no truesize change), then page frags (truesize grows).
        let lin = copy.min(skb.linear_room);
        skb.linear_room -= lin;
        let frag = copy - lin;
        skb.truesize += frag;
        if copied == 0 {
            skb.flags &= !tcp_flags::PSH;
        }
        skb.end_seq += copy as u64;
        skb.pcount = 0;
        let (skb_id, seq, skb_len, end_seq) =
            (skb.id, skb.end_seq - copy as u64, skb.len(), skb.end_seq);
        tp.sk_wmem_queued += frag as u64;
        tp.sk_mem_charge(frag as u64);
        tp.write_seq += copy as u64;
        copied += copy as u64;
        remaining -= copy as u64;
        let c = w.costs(host).copy_from_user_ns(copy as u64);
        w.charge(sk, c);
        let goal = size_goal;
        w.emit(host, sk, || Ev::SendmsgCopy {
            skb: skb_id,
            seq,
            end_seq,
            skb_len: skb_len as u64,
            size_goal: goal as u64,
            new_skb,
        });
        if remaining == 0 {
            if flags & MSG_EOR != 0 {
                w.socks[sk as usize].write_queue.back_mut().unwrap().eor = true;
            }
            break;
        }
        if skb_len < size_goal {
            continue;
        }
        let tp = &mut w.socks[sk as usize];
        if tp.forced_push() {
            tcp_mark_push(tp);
            __tcp_push_pending_frames(w, sk, mss_now, TCP_NAGLE_PUSH);
        } else if tp.write_queue.len() == 1 {
            tcp_push_one(w, sk, mss_now);
        }
    }
    SendCopy::Copied(PendingPush {
        msg_more,
        mss_now,
        size_goal,
        copied,
    })
}

/// `tcp_sendmsg_locked`'s "out:": `tcp_push` of what the call copied, with the call's
/// `MSG_MORE`, `mss_now` and `size_goal`; the call returns after it.
pub fn tcp_sendmsg_push(w: &mut Stack, sk: SockId, push: PendingPush) {
    let tp = &w.socks[sk as usize];
    let (nonagle, host) = (tp.nonagle, tp.host);
    tcp_push(w, sk, push.msg_more, push.mss_now, nonagle, push.size_goal);
    let total = push.copied;
    w.emit(host, sk, || Ev::SendmsgDone { copied: total });
}

/// The part of a `send()` system call's own cost (`syscall_ns`) before `tcp_sendmsg` takes the
/// socket (`lock_sock`): entry, VFS and socket dispatch. Estimate: half of it; the other half,
/// the way back out after `release_sock`, is [`syscall_exit`].
pub fn syscall_entry_ns(c: &crate::scenario::cpu_costs::CpuCosts) -> u64 {
    c.syscall_ns - c.syscall_ns / 2
}

/// The way out of a `send()` system call after `release_sock`: the rest of `syscall_ns`.
pub fn syscall_exit(w: &mut Stack, sk: SockId) {
    let host = w.socks[sk as usize].host;
    let c = w.costs(host).syscall_ns / 2;
    w.charge(sk, c);
}

/// `wait_for_space`: push what this call queued, then sleep in `sk_stream_wait_memory`.
fn wait_for_space(
    w: &mut Stack,
    sk: SockId,
    copied: u64,
    _msg_more: bool,
    mss: u32,
    size_goal: u32,
) {
    let tp = &mut w.socks[sk as usize];
    tp.sock_nospace = true;
    if copied > 0 {
        // "tcp_push(sk, flags & ~MSG_MORE, mss_now, TCP_NAGLE_PUSH, size_goal)"
        tcp_push(w, sk, false, mss, TCP_NAGLE_PUSH, size_goal);
    }
    let tp = &mut w.socks[sk as usize];
    tp.writer_waiting = true;
    let gate = if tp.sk_wmem_queued >= tp.sk_sndbuf {
        Gate::Sndbuf
    } else {
        Gate::NotsentLowat
    };
    let (q, b, n, host) = (tp.sk_wmem_queued, tp.sk_sndbuf, tp.notsent_bytes(), tp.host);
    w.emit(host, sk, || Ev::SendmsgWait {
        gate,
        wmem_queued: q,
        sndbuf: b,
        notsent: n,
    });
}

/// `tcp_skb_entail`: append a new skb to the write queue and charge its truesize; from 4.11
/// (the idle check moved here from `tcp_event_data_sent`) restart cwnd after idle when the
/// write queues new data, so the first packet after idle already leaves with the restarted cwnd.
fn tcp_skb_entail(tp: &mut TcpSock, skb: Skb, now_j: u64, hz: u64) {
    tp.sk_wmem_queued += skb.truesize as u64;
    tp.sk_mem_charge(skb.truesize as u64);
    tp.write_queue.push_back(skb);
    // "PUSH only applies to already-queued data."
    tp.nonagle &= !TCP_NAGLE_PUSH;
    if tp.profile.kernel.at_least(4, 11) {
        crate::net::ipv4::tcp_output::tcp_slow_start_after_idle_check(tp, now_j, hz);
    }
}

/// `tcp_mark_push`: PSH on the tail skb, `pushed_seq = write_seq`.
fn tcp_mark_push(tp: &mut TcpSock) {
    if let Some(tail) = tp.write_queue.back_mut() {
        tail.flags |= tcp_flags::PSH;
    }
    tp.pushed_seq = tp.write_seq;
}

/// `tcp_should_autocork` (f54b3111, 3.14): hold the tail skb when it is not full, autocorking
/// is on, something was sent before it, and more than its own truesize is still below TCP
/// (`sk_wmem_alloc`), i.e. a data packet of this flow still waits in the qdisc or the NIC —
/// its TX completion will push the tail, maybe fuller by then.
///
/// 3.14 .. 4.14: "something before it" is `skb != tcp_write_queue_head(sk)`; 4.15+ (rb-tree
/// retransmit queue): `!tcp_rtx_queue_empty(sk)`; later also `tcp_skb_can_collapse_to(skb)`.
pub fn tcp_should_autocork(tp: &TcpSock, size_goal: u32) -> bool {
    let Some(skb) = tp.write_queue.back() else {
        return false;
    };
    let something_before = if tp.profile.kernel.at_least(4, 15) {
        !tp.rtx_queue.is_empty()
    } else {
        !(tp.rtx_queue.is_empty() && tp.write_queue.len() == 1)
    };
    tp.profile.autocorking
        && skb.len() < size_goal
        && tp.net.sysctl.tcp_autocorking
        && something_before
        && tp.sk_wmem_alloc > skb.truesize as u64
        && !skb.eor
}

/// `tcp_push`: at the end of `sendmsg` (and before it sleeps), decide what to do with the
/// partial tail: autocork it (set `TSQ_THROTTLED` so the next TX completion pushes it), or let
/// `tcp_write_xmit` decide with `MSG_MORE` as a one-call cork.
pub fn tcp_push(
    w: &mut Stack,
    sk: SockId,
    msg_more: bool,
    mss_now: u32,
    mut nonagle: u8,
    size_goal: u32,
) {
    let tp = &mut w.socks[sk as usize];
    if tp.write_queue.is_empty() {
        return;
    }
    if !msg_more || tp.forced_push() {
        tcp_mark_push(tp);
    }
    if tcp_should_autocork(tp, size_goal) {
        let counted = tp.tsq_flags & TSQ_THROTTLED == 0;
        if counted {
            tp.tsq_flags |= TSQ_THROTTLED;
        }
        let skb = tp.write_queue.back().unwrap();
        let (id, len, ts, wmem, host) = (
            skb.id,
            skb.len() as u64,
            skb.truesize as u64,
            tp.sk_wmem_alloc,
            tp.host,
        );
        if counted {
            w.mib(host).inc(Mib::TcpExtTCPAutoCorking);
        }
        w.emit(host, sk, || Ev::Autocork {
            skb: id,
            skb_len: len,
            size_goal: size_goal as u64,
            wmem_alloc: wmem,
            truesize: ts,
            counted,
        });
        // "It is possible TX completion already happened before we set TSQ_THROTTLED": the
        // re-check cannot fail in a sequential model, where no completion runs in between.
        return;
    }
    if msg_more {
        nonagle = TCP_NAGLE_CORK;
    }
    __tcp_push_pending_frames(w, sk, mss_now, nonagle);
}

/// `tcp_close` → `__tcp_close` (net/ipv4/tcp.c, 6.18) on a connected socket, no SO_LINGER:
/// `sk_shutdown = SHUTDOWN_MASK`; the receive queue is flushed, and unread data would "zap the
/// connection" with a RST (`tcp_send_active_reset`); otherwise `tcp_close_state` moves the
/// socket along `new_state[]` (ESTABLISHED → FIN_WAIT1 with `TCP_ACTION_FIN`) and
/// `tcp_send_fin` queues and pushes the FIN. The socket is then orphaned (`sock_orphan`): what
/// the peer sends next is handled by `tcp_rcv_state_process`.
///
/// Returns what the model does not have, when it gets there: unread data (the RST), a socket
/// that is not ESTABLISHED (CLOSE_WAIT → LAST_ACK, or a close before the handshake ends).
///
/// Simplified: no `sk_stream_wait_close` (it waits only with SO_LINGER), no
/// `tcp_check_oom`/orphan accounting, and the FIN_WAIT2 timer that `__tcp_close` arms when the
/// socket is already in FIN_WAIT2 is not modelled; visible effect: none before the peer's FIN.
pub fn tcp_close(w: &mut Stack, sk: SockId) -> Result<(), &'static str> {
    let tp = &mut w.socks[sk as usize];
    if tp.state != TcpState::Established {
        return Err(
            "close() of a socket that is not ESTABLISHED (the model closes from ESTABLISHED only)",
        );
    }
    if tp.rcv_nxt > tp.copied_seq {
        // "Unread data was tossed, zap the connection."
        return Err("close() with unread data: Linux resets the connection (tcp_send_active_reset), the model has no RST");
    }
    tp.sk_shutdown = SHUTDOWN_MASK;
    // tcp_close_state: new_state[TCP_ESTABLISHED] = TCP_FIN_WAIT1 | TCP_ACTION_FIN.
    tp.state = TcpState::FinWait1;
    crate::net::ipv4::tcp_output::tcp_send_fin(w, sk);
    Ok(())
}

/// `tcp_recvmsg`: read up to `len` bytes. `None` = nothing to read, the reader sleeps
/// (`sk_wait_data`) until `sk_data_ready` wakes it.
///
/// Simplified:
/// - no prequeue (≤ 4.13 processed segments in the reader's context when it slept), because
///   it changes where, not whether, the same ACK decisions are made; visible effect: none on
///   the counters the model reports.
pub fn tcp_recvmsg(w: &mut Stack, sk: SockId, len: u64) -> Option<u64> {
    let host = w.socks[sk as usize].host;
    let c = w.costs(host).syscall_ns;
    w.charge(sk, c);
    let tp = &mut w.socks[sk as usize];
    if tp.rcv_nxt == tp.copied_seq {
        tp.reader_waiting = true;
        return None;
    }
    let n = tcp_recvmsg_copy(w, sk, len);
    if crate::net::ipv4::tcp_output::rcv_scaling(&w.socks[sk as usize]) {
        // 6.x: the call holds the socket while it copies; tcp_recvmsg_backlog ends it.
        w.socks[sk as usize].recv_copied = n;
        return Some(n);
    }
    tcp_cleanup_rbuf(w, sk, n);
    Some(n)
}

/// The copy loop of `tcp_recvmsg`: up to `len` bytes of the receive queue to the user, skb by
/// skb: after each skb's part, "*seq += used; copied += used; len -= used;
/// tcp_rcv_space_adjust(sk);", then a fully read skb is freed (`sk_eat_skb`). The autotuning
/// check after each skb matters when a read finds many skbs queued: the one that finds an RTT
/// gone by sees the rest of the read still queued (6.x subtracts it, `inq`).
fn tcp_recvmsg_copy(w: &mut Stack, sk: SockId, len: u64) -> u64 {
    let host = w.socks[sk as usize].host;
    let tp = &w.socks[sk as usize];
    let available = tp.rcv_nxt - tp.copied_seq;
    if available == 0 {
        return 0;
    }
    let n = len.min(available);
    let target = tp.copied_seq + n;
    while w.socks[sk as usize].copied_seq < target {
        let tp = &mut w.socks[sk as usize];
        let Some(&(end, ts)) = tp.receive_queue.front() else {
            tp.copied_seq = target;
            break;
        };
        tp.copied_seq = end.min(target);
        crate::net::ipv4::tcp_input::tcp_rcv_space_adjust(w, sk);
        let tp = &mut w.socks[sk as usize];
        if end <= tp.copied_seq {
            tp.receive_queue.pop_front();
            tp.sk_rmem_alloc -= ts;
            tp.sk_mem_uncharge(ts);
        }
    }
    w.emit(host, sk, || Ev::Recvmsg { bytes: n });
    let c = w.costs(host);
    let cost = c.recvmsg_ns + c.copy_to_user_ns(n);
    w.charge(sk, cost);
    n
}

/// The end of a 6.x `tcp_recvmsg` call (`tcp_recvmsg_locked` → `release_sock`): while the
/// reader copied, segments waited in the socket backlog; `__sk_flush_backlog` processes them
/// (their ACKs deferred) and the call copies what they brought, for as long as the backlog
/// refills; then `tcp_cleanup_rbuf` once for everything copied, and `tcp_release_cb` sends the
/// deferred ACK if one is still due. Returns `None` while the call goes on (the caller lets the
/// copy's CPU time pass and comes back), `Some(bytes the whole call copied)` at its end.
pub fn tcp_recvmsg_backlog(w: &mut Stack, sk: SockId, len: u64) -> Option<u64> {
    let tp = &mut w.socks[sk as usize];
    if !tp.sk_backlog.is_empty() && tp.recv_copied < len {
        __release_sock(w, sk); // __sk_flush_backlog
        let left = len - w.socks[sk as usize].recv_copied;
        let n = tcp_recvmsg_copy(w, sk, left);
        w.socks[sk as usize].recv_copied += n;
        return None;
    }
    let copied = std::mem::take(&mut tp.recv_copied);
    tcp_cleanup_rbuf(w, sk, copied);
    release_sock(w, sk);
    Some(copied)
}

/// `__release_sock`: the segments that waited in the backlog, processed in order while the user
/// still holds the socket (their ACKs deferred, `tcp_backlog_ack_defer`).
fn __release_sock(w: &mut Stack, sk: SockId) {
    w.socks[sk as usize].processing_backlog = true;
    // Popped one by one: the queue keeps its allocation for the next call.
    while let Some(pkt) = w.socks[sk as usize].sk_backlog.pop_front() {
        crate::net::ipv4::tcp_input::tcp_v4_do_rcv(w, sk, &pkt);
    }
    w.socks[sk as usize].processing_backlog = false;
}

/// `release_sock` (net/core/sock.c, 6.18) with `tcp_release_cb` (net/ipv4/tcp_output.c): the
/// socket's user lets go. `__release_sock` processes the segments that waited in the backlog,
/// in order (their ACKs deferred, `tcp_backlog_ack_defer`); then `tcp_release_cb` runs what was
/// deferred while the user held the socket: the TSQ handler ("if (flags & TCPF_TSQ_DEFERRED)
/// tcp_tsq_write(sk)"), then the deferred ACK ("if ((flags & TCPF_ACK_DEFERRED) &&
/// inet_csk_ack_scheduled(sk))").
///
/// Simplified: the delayed-ACK and retransmit timers are not deferred (`TCP_DELACK_TIMER_DEFERRED`,
/// `TCP_WRITE_TIMER_DEFERRED`): they run when they fire, owned or not, which moves them by at
/// most one system call.
pub fn release_sock(w: &mut Stack, sk: SockId) {
    if !w.socks[sk as usize].sk_backlog.is_empty() {
        __release_sock(w, sk);
    }
    let tp = &mut w.socks[sk as usize];
    tp.owned_until_ns = 0;
    tp.send_owned = false;
    if tp.tsq_flags & TCP_TSQ_DEFERRED != 0 {
        tp.tsq_flags &= !TCP_TSQ_DEFERRED;
        crate::net::ipv4::tcp_output::tcp_tsq_write(w, sk);
    }
    let tp = &mut w.socks[sk as usize];
    if std::mem::take(&mut tp.ack_deferred) && tp.icsk_ack.pending & ICSK_ACK_SCHED != 0 {
        tcp_send_ack(w, sk, AckReason::ReleaseCb);
    }
}

/// `tcp_cleanup_rbuf`: after a read, ACK now if an ACK is pending and either more than one
/// full segment is unacknowledged, or the read emptied the queue after a small (PSH) segment
/// and the connection is not interactive; or if the read opened the window a lot.
pub fn tcp_cleanup_rbuf(w: &mut Stack, sk: SockId, copied: u64) {
    let tp = &w.socks[sk as usize];
    let mut time_to_ack = false;
    let pending = tp.icsk_ack.pending;
    if pending & ICSK_ACK_SCHED != 0 {
        let pushed = pending & ICSK_ACK_PUSHED2 != 0
            || (pending & ICSK_ACK_PUSHED != 0 && !in_pingpong_mode(tp));
        if tp.rcv_nxt - tp.rcv_wup > tp.icsk_ack.rcv_mss as u64
            || (copied > 0 && pushed && tp.sk_rmem_alloc == 0)
        {
            time_to_ack = true;
        }
    }
    if copied > 0 && !time_to_ack {
        let rcv_window_now = tcp_receive_window(tp) as u64;
        if 2 * rcv_window_now <= tp.window_clamp {
            let new_window = __tcp_select_window(&mut w.socks[sk as usize]) as u64;
            // "Send ACK now, if this read freed lots of space in our buffer."
            if new_window != 0 && new_window >= 2 * rcv_window_now {
                time_to_ack = true;
            }
        }
    }
    if time_to_ack {
        tcp_send_ack(w, sk, AckReason::Recvmsg);
    }
}

/// `sk_stream_write_space`: wake a writer if the socket is writeable again.
pub fn sk_stream_write_space(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    let wake = tp.write_space_wake();
    if !tp.sk_stream_is_writeable(wake) {
        return;
    }
    tp.sock_nospace = false;
    if tp.writer_waiting {
        tp.writer_waiting = false;
        let (q, b, n, host, app) = (
            tp.sk_wmem_queued,
            tp.sk_sndbuf,
            tp.notsent_bytes(),
            tp.host,
            tp.app,
        );
        w.emit(host, sk, || Ev::WriteSpace {
            wmem_queued: q,
            sndbuf: b,
            notsent: n,
        });
        w.wake_up_task(app, sk);
    }
}

/// `sk_data_ready`: wake a reader waiting for data; it runs after the wake-up latency.
pub fn sk_data_ready(w: &mut Stack, sk: SockId) {
    let tp = &mut w.socks[sk as usize];
    if tp.reader_waiting {
        tp.reader_waiting = false;
        let app = tp.app;
        w.wake_up_task(app, sk);
    }
}

/// `setsockopt(TCP_CORK)` (`__tcp_sock_set_cork`): clearing the cork pushes what is queued.
pub fn tcp_sock_set_cork(w: &mut Stack, sk: SockId, on: bool) {
    let tp = &mut w.socks[sk as usize];
    if on {
        tp.nonagle |= TCP_NAGLE_CORK;
    } else {
        tp.nonagle &= !TCP_NAGLE_CORK;
        if tp.nonagle & TCP_NAGLE_OFF != 0 {
            tp.nonagle |= TCP_NAGLE_PUSH;
        }
        tcp_push_pending_frames(w, sk);
    }
}

/// `setsockopt(TCP_NODELAY)` (`__tcp_sock_set_nodelay`): setting it pushes what is queued.
pub fn tcp_sock_set_nodelay(w: &mut Stack, sk: SockId, on: bool) {
    let tp = &mut w.socks[sk as usize];
    if on {
        tp.nonagle |= TCP_NAGLE_OFF | TCP_NAGLE_PUSH;
        tcp_push_pending_frames(w, sk);
    } else {
        tp.nonagle &= !TCP_NAGLE_OFF;
    }
}

/// `setsockopt(TCP_QUICKACK, 1)` (`__tcp_sock_set_quickack`): leave pingpong mode; if an ACK
/// is pending, send it now. It does not add quick-ACK credits, and later traffic may enter
/// pingpong mode again ("not permanent", man 7 tcp) — which is why it helps only at the start.
pub fn tcp_sock_set_quickack(w: &mut Stack, sk: SockId, val: bool) {
    let tp = &mut w.socks[sk as usize];
    if !val {
        tp.icsk_ack.pingpong = 1;
        return;
    }
    tp.icsk_ack.pingpong = 0;
    if tp.state == TcpState::Established && tp.icsk_ack.pending & ICSK_ACK_SCHED != 0 {
        tp.icsk_ack.pending |= ICSK_ACK_PUSHED;
        tcp_cleanup_rbuf(w, sk, 1);
    }
}

/// The MSS the socket uses now (for the applications' bookkeeping).
pub fn current_mss(w: &Stack, sk: SockId) -> u32 {
    tcp_current_mss(&w.socks[sk as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testkit::{established, mark_sent, queue_skb};

    const MSS: u32 = 1448;

    /// A socket with one 1000-byte packet sent and its clone still in the qdisc/NIC, and a
    /// 128-byte tail waiting: the autocorking situation.
    fn corkable(kernel: &str, extra: &str) -> crate::sim::world::World {
        let mut w = established(kernel, extra);
        queue_skb(&mut w, 0, 1000);
        mark_sent(&mut w, 0, 0, true);
        queue_skb(&mut w, 0, 128);
        w
    }

    #[test]
    fn autocork_holds_a_small_tail_while_a_data_clone_is_below_tcp() {
        let w = corkable("3.14", "");
        assert!(tcp_should_autocork(&w.socks[0], 45 * MSS));
    }

    #[test]
    fn autocork_does_not_hold_when_only_pure_acks_are_below_tcp() {
        let mut w = corkable("3.14", "");
        let tp = &mut w.socks[0];
        tp.sk_wmem_alloc = 1 + 2; // the data clone completed; one ACK in the qdisc
        assert!(!tcp_should_autocork(tp, 45 * MSS));
    }

    #[test]
    fn autocork_does_not_hold_a_tail_that_reached_size_goal() {
        let w = corkable("3.14", "");
        assert!(!tcp_should_autocork(&w.socks[0], 128));
    }

    #[test]
    fn autocork_does_not_hold_the_first_skb_with_nothing_sent_before_it() {
        let mut w = established("3.14", "");
        queue_skb(&mut w, 0, 128);
        w.socks[0].sk_wmem_alloc += 100_000;
        assert!(!tcp_should_autocork(&w.socks[0], 45 * MSS));
    }

    #[test]
    fn autocork_is_off_when_the_sysctl_is_0_and_absent_in_3_13() {
        let w = corkable("3.14", "[sysctl]\n\"net.ipv4.tcp_autocorking\" = 0\n");
        assert!(!tcp_should_autocork(&w.socks[0], 45 * MSS));
        let w = corkable("3.13", "");
        assert!(!tcp_should_autocork(&w.socks[0], 45 * MSS));
    }

    #[test]
    fn tcp_push_autocorks_and_counts_once_per_episode() {
        let mut w = corkable("3.14", "");
        tcp_push(&mut w, 0, false, MSS, 0, 45 * MSS);
        assert_eq!(w.hosts[0].mib.get(Mib::TcpExtTCPAutoCorking), 1);
        assert_ne!(w.socks[0].tsq_flags & TSQ_THROTTLED, 0);
        assert_eq!(w.socks[0].write_queue.len(), 1, "the tail stays queued");
        tcp_push(&mut w, 0, false, MSS, 0, 45 * MSS);
        assert_eq!(
            w.hosts[0].mib.get(Mib::TcpExtTCPAutoCorking),
            1,
            "THROTTLED already set"
        );
    }

    #[test]
    fn sendmsg_appends_small_writes_to_the_tail_skb() {
        let mut w = established("6.18", "[socket]\nTCP_CORK = 1\n");
        for _ in 0..10 {
            assert_eq!(
                tcp_sendmsg_locked(&mut w, 0, 128, 0, false),
                SendOutcome::Done
            );
        }
        let tp = &w.socks[0];
        assert_eq!(tp.write_queue.len(), 1);
        assert_eq!(tp.write_queue[0].len(), 1280);
        assert_eq!(tp.write_seq, 1 + 1280);
    }

    #[test]
    fn receive_autotuning_runs_after_each_skb_a_read_copies() {
        // Three 2-MSS skbs queued when the reader comes, an RTT after the measure began: 6.18
        // measures after the first skb, with the other two still queued (inq), finds less than
        // rcvq_space.space copied, and starts a new measure from there (tcp_rcv_space_adjust's
        // new_measure), as tcp:tcp_rcvbuf_grow shows on Linux 6.18.
        let mut w = established("6.18", "");
        let tp = &mut w.socks[1];
        let start = tp.copied_seq;
        tp.rcv_rtt_est_us8 = 40_000 << 3;
        tp.rcvq_space.seq = start;
        tp.rcvq_space.time_ns = 0;
        tp.rcvq_space.space = 14_480;
        let rcvbuf = tp.sk_rcvbuf;
        for i in 1..=3u64 {
            tp.receive_queue.push_back((start + i * 2896, 4352));
            tp.sk_rmem_alloc += 4352;
            tp.sk_mem_charge(4352);
        }
        tp.rcv_nxt = start + 3 * 2896;
        w.now_ns = 50_000_000;
        assert_eq!(tcp_recvmsg_copy(&mut w, 1, 1 << 20), 3 * 2896);
        let tp = &w.socks[1];
        assert_eq!(tp.copied_seq, start + 3 * 2896);
        assert!(tp.receive_queue.is_empty() && tp.sk_rmem_alloc == 0);
        assert_eq!(
            tp.rcvq_space.seq,
            start + 2896,
            "measured after the first skb"
        );
        assert_eq!(tp.rcvq_space.time_ns, 50_000_000);
        assert_eq!(tp.sk_rcvbuf, rcvbuf, "2896 B copied in the RTT: no growth");
    }

    #[test]
    fn in_3_x_payload_fills_the_linear_head_before_truesize_grows() {
        let mut w = established("3.14", "");
        w.socks[0].snd_wnd = 0; // nothing may leave: the skb stays in the write queue
        tcp_sendmsg_locked(&mut w, 0, 1000, 0, false);
        assert_eq!(w.socks[0].write_queue[0].truesize, 2304);
        tcp_sendmsg_locked(&mut w, 0, 1000, 0, false);
        assert_eq!(w.socks[0].write_queue[0].truesize, 2304 + 2000 - 1424);
        let mut w = established("6.18", "");
        w.socks[0].snd_wnd = 0;
        tcp_sendmsg_locked(&mut w, 0, 1000, 0, false);
        // The small head cache's 960 bytes (a distribution kernel's MAX_HEADER), then page frags.
        assert_eq!(w.socks[0].write_queue[0].truesize, 960 + 1000);
    }

    #[test]
    fn sendmsg_sleeps_when_the_send_buffer_is_full() {
        let mut w = established("6.18", "[socket]\nTCP_CORK = 1\nSO_SNDBUF = 8192\n");
        let out = tcp_sendmsg_locked(&mut w, 0, 1_000_000, 0, false);
        let SendOutcome::Blocked { copied } = out else {
            panic!("{out:?}")
        };
        let tp = &w.socks[0];
        assert!(tp.sk_wmem_queued >= tp.sk_sndbuf);
        assert!(copied > 0 && copied < 1_000_000);
        assert!(tp.writer_waiting && tp.sock_nospace);
    }

    #[test]
    fn sendmsg_sleeps_when_unsent_bytes_reach_notsent_lowat() {
        let mut w = established("6.18", "[socket]\nTCP_CORK = 1\nTCP_NOTSENT_LOWAT = 4000\n");
        let out = tcp_sendmsg_locked(&mut w, 0, 100_000, 0, false);
        assert!(matches!(out, SendOutcome::Blocked { .. }));
        let tp = &w.socks[0];
        assert!(tp.sk_wmem_queued < tp.sk_sndbuf);
        assert!(tp.notsent_bytes() >= 4000);
    }

    #[test]
    fn msg_more_corks_the_tail_for_one_call_only() {
        let mut w = established("6.18", "[socket]\nTCP_NODELAY = 1\n");
        tcp_sendmsg_locked(&mut w, 0, 100, MSG_MORE, false);
        assert_eq!(w.socks[0].snd_nxt, 1, "MSG_MORE held the 100 bytes");
        tcp_sendmsg_locked(&mut w, 0, 100, 0, false);
        assert_eq!(
            w.socks[0].snd_nxt, 201,
            "the next call without MSG_MORE pushed both"
        );
    }

    #[test]
    fn msg_eor_ends_a_record_no_later_write_is_appended_to() {
        // Corked: without MSG_EOR the second write joins the first skb and cork holds both.
        let mut w = established("6.18", "[socket]\nTCP_CORK = 1\n");
        tcp_sendmsg_locked(&mut w, 0, 100, 0, false);
        tcp_sendmsg_locked(&mut w, 0, 100, 0, false);
        let tp = &w.socks[0];
        assert_eq!((tp.snd_nxt, tp.write_queue.len()), (1, 1));
        assert_eq!(tp.write_queue[0].end_seq, 201);
        // With MSG_EOR the second write starts a new skb; the record is then not the last skb,
        // and tcp_write_xmit's Nagle test (which cork is part of) holds only the last one.
        let mut w = established("6.18", "[socket]\nTCP_CORK = 1\n");
        tcp_sendmsg_locked(&mut w, 0, 100, MSG_EOR, false);
        assert!(w.socks[0].write_queue[0].eor);
        assert_eq!(
            w.socks[0].snd_nxt, 1,
            "cork holds the record while it is the tail"
        );
        tcp_sendmsg_locked(&mut w, 0, 100, 0, false);
        let tp = &w.socks[0];
        assert_eq!(tp.snd_nxt, 101, "the record left whole");
        assert_eq!(tp.write_queue.len(), 1);
        let tail = &tp.write_queue[0];
        assert_eq!((tail.seq, tail.end_seq, tail.eor), (101, 201, false));
    }

    #[test]
    fn uncorking_pushes_the_held_bytes() {
        let mut w = established("6.18", "[socket]\nTCP_CORK = 1\n");
        tcp_sendmsg_locked(&mut w, 0, 100, 0, false);
        assert_eq!(w.socks[0].snd_nxt, 1);
        tcp_sock_set_cork(&mut w, 0, false);
        assert_eq!(w.socks[0].snd_nxt, 101);
    }

    #[test]
    fn a_read_acks_a_short_pushed_segment_unless_the_connection_is_interactive() {
        for (pingpong, acks) in [(0, 1), (1, 0)] {
            let mut w = established("4.4", "");
            let tp = &mut w.socks[1];
            tp.rcv_nxt += 10;
            tp.icsk_ack.pending = ICSK_ACK_SCHED | ICSK_ACK_PUSHED;
            tp.icsk_ack.pingpong = pingpong;
            let before = w.hosts[1].mib.get(Mib::TcpOutSegs);
            tcp_cleanup_rbuf(&mut w, 1, 10);
            assert_eq!(
                w.hosts[1].mib.get(Mib::TcpOutSegs) - before,
                acks,
                "pingpong {pingpong}"
            );
        }
    }

    #[test]
    fn setsockopt_quickack_leaves_pingpong_and_sends_the_pending_ack() {
        let mut w = established("4.4", "");
        let tp = &mut w.socks[1];
        tp.rcv_nxt += 10;
        tp.icsk_ack.pending = ICSK_ACK_SCHED;
        tp.icsk_ack.pingpong = 1;
        let before = w.hosts[1].mib.get(Mib::TcpOutSegs);
        tcp_sock_set_quickack(&mut w, 1, true);
        assert_eq!(w.socks[1].icsk_ack.pingpong, 0);
        assert_eq!(w.hosts[1].mib.get(Mib::TcpOutSegs), before + 1);
    }

    #[test]
    fn the_writer_is_woken_only_when_a_third_of_the_buffer_is_free() {
        let mut w = established("6.18", "[socket]\nSO_SNDBUF = 30000\n");
        let tp = &mut w.socks[0];
        tp.writer_waiting = true;
        tp.sk_wmem_queued = 45_000; // sndbuf 60000: two thirds = 40000
        sk_stream_write_space(&mut w, 0);
        assert!(w.socks[0].writer_waiting);
        w.socks[0].sk_wmem_queued = 40_000;
        sk_stream_write_space(&mut w, 0);
        assert!(!w.socks[0].writer_waiting);
    }

    #[test]
    fn notsent_lowat_wakes_the_writer_at_half_the_limit_from_5_5() {
        for (kernel, notsent, woken) in [
            ("3.14", 3000, true),
            ("6.18", 3000, false),
            ("6.18", 1999, true),
        ] {
            let mut w = established(kernel, "[socket]\nTCP_NOTSENT_LOWAT = 4000\n");
            let tp = &mut w.socks[0];
            tp.writer_waiting = true;
            tp.write_seq = tp.snd_nxt + notsent;
            sk_stream_write_space(&mut w, 0);
            assert_eq!(!w.socks[0].writer_waiting, woken, "{kernel} {notsent}");
        }
    }
}
