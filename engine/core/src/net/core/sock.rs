//! `struct tcp_sock` (with the `inet_connection_sock` and `sock` fields the send path reads),
//! the skbs of its write and retransmit queues, and their memory accounting.
//!
//! Follows: `include/linux/tcp.h`, `include/net/inet_connection_sock.h`, `include/net/sock.h`,
//! `include/net/tcp.h` (Linux 6.18 names; 3.x names noted where they differ).
//!
//! Simplified:
//! - sequence numbers are `u64` relative to the initial sequence number (0 = SYN), not wrapping
//!   `u32`, because a run never sends 2^64 bytes; visible effect: none (traces print relative
//!   numbers, like Wireshark).
//! - one connection per socket pair, established by a real three-way handshake at the start of
//!   the run; no listen queue, no close (FIN) handshake at the end; visible effect: the
//!   counters lack the closing segments.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::include::linux::skbuff::{Packet, SockId};
use crate::scenario::profile::Profile;
use crate::scenario::{CongestionControl, HostConfig};

/// `tp->nonagle` bits (include/net/tcp.h).
pub const TCP_NAGLE_OFF: u8 = 1;
pub const TCP_NAGLE_CORK: u8 = 2;
pub const TCP_NAGLE_PUSH: u8 = 4;

/// `sk_tsq_flags` bits (enum tsq_enum).
pub const TSQ_THROTTLED: u8 = 1 << 0;
pub const TSQ_QUEUED: u8 = 1 << 1;
/// `TCP_TSQ_DEFERRED`: the TSQ handler found the socket owned by its user; `tcp_release_cb`
/// runs it (`tcp_tsq_write`) when the owner lets go.
pub const TCP_TSQ_DEFERRED: u8 = 1 << 2;

/// `icsk_ack.pending` bits (enum inet_csk_ack_state_t).
pub const ICSK_ACK_SCHED: u8 = 1;
pub const ICSK_ACK_TIMER: u8 = 2;
pub const ICSK_ACK_PUSHED: u8 = 4;
pub const ICSK_ACK_PUSHED2: u8 = 8;
pub const ICSK_ACK_NOW: u8 = 16;

/// `TCP_SKB_CB(skb)->sacked` bits (include/net/tcp.h): the SACK scoreboard of an skb.
pub const TCPCB_SACKED_ACKED: u8 = 0x01;
pub const TCPCB_SACKED_RETRANS: u8 = 0x02;
pub const TCPCB_LOST: u8 = 0x04;
pub const TCPCB_EVER_RETRANS: u8 = 0x80;
pub const TCPCB_RETRANS: u8 = TCPCB_SACKED_RETRANS | TCPCB_EVER_RETRANS;

/// `icsk_ca_state` values (enum tcp_ca_state).
pub const TCP_CA_OPEN: u8 = 0;
pub const TCP_CA_DISORDER: u8 = 1;
pub const TCP_CA_CWR: u8 = 2;
pub const TCP_CA_RECOVERY: u8 = 3;
pub const TCP_CA_LOSS: u8 = 4;

/// `TCP_TIMEOUT_MIN_US` (2 ms): the least a RACK or TLP timer waits beyond its estimate.
pub const TCP_TIMEOUT_MIN_US: u64 = 2000;
/// `TCP_RACK_RECOVERY_THRESH`: recoveries a widened reordering window persists.
pub const TCP_RACK_RECOVERY_THRESH: u8 = 16;
/// `TCP_NUM_SACKS`: SACK blocks the receiver remembers.
pub const TCP_NUM_SACKS: usize = 4;

/// `TCP_INIT_CWND` (RFC 6928).
pub const TCP_INIT_CWND: u32 = 10;
/// `TCP_RMEM_TO_WIN_SCALE` and `TCP_DEFAULT_SCALING_RATIO` (6.6+, dfa2f0483360): window bytes
/// per receive-buffer byte in 1/256, half until the first data measures it.
pub const TCP_RMEM_TO_WIN_SCALE: u32 = 8;
pub const TCP_DEFAULT_SCALING_RATIO: u32 = 1 << (TCP_RMEM_TO_WIN_SCALE - 1);
/// `TCP_MAX_QUICKACKS`.
pub const TCP_MAX_QUICKACKS: u8 = 16;
/// `TCP_MSS_DEFAULT` (RFC 1122 default when no MSS option).
pub const TCP_MSS_DEFAULT: u32 = 536;
/// `TCP_MIN_MSS`.
pub const TCP_MIN_MSS: u32 = 88;
/// `TCPOLEN_TSTAMP_ALIGNED`: the timestamp option with its padding.
pub const TCPOLEN_TSTAMP_ALIGNED: u32 = 12;
/// `GSO_LEGACY_MAX_SIZE` / `GSO_MAX_SIZE` (65536): the device's TSO size limit.
pub const GSO_MAX_SIZE: u32 = 65_536;
/// `GSO_MAX_SEGS`.
pub const GSO_MAX_SEGS: u32 = 65_535;
/// `TCP_RTO_MIN` and `TCP_TIMEOUT_INIT` in ms (HZ/5 and HZ jiffies).
pub const TCP_RTO_MIN_MS: u64 = 200;
pub const TCP_RTO_MAX_MS: u64 = 120_000;
pub const TCP_TIMEOUT_INIT_MS: u64 = 1000;
/// `SK_MEM_QUANTUM` (`PAGE_SIZE`): the unit of TCP memory accounting.
pub const SK_MEM_QUANTUM: u64 = 4096;
/// `SOCK_MIN_SNDBUF` (2 * TCP_SKB_MIN_TRUESIZE = 2 * (2048 + 256)).
pub const SOCK_MIN_SNDBUF: u64 = 4608;
pub const SOCK_MIN_RCVBUF: u64 = 2304;

/// An skb of the write queue or the retransmit queue (the original, not a clone).
#[derive(Clone, Debug)]
pub struct Skb {
    /// Unique id (an `skbaddr` stand-in, shown as `skb#N`).
    pub id: u64,
    pub seq: u64,
    pub end_seq: u64,
    /// `skb->truesize`.
    pub truesize: u32,
    /// `tcp_skb_pcount()`; 0 = not yet computed (`tcp_init_tso_segs` fills it).
    pub pcount: u32,
    /// `tcp_skb_mss()` (`gso_size`) when `pcount > 1`.
    pub gso_size: u32,
    /// `TCP_SKB_CB(skb)->tcp_flags` (PSH, FIN, SYN).
    pub flags: u8,
    /// `TCP_SKB_CB(skb)->eor`: never append to it.
    pub eor: bool,
    /// Payload bytes that still fit in the linear head (3.x `skb_availroom`).
    pub linear_room: u32,
    /// Last (re)transmission time, ns (`skb->skb_mstamp_ns` / `tstamp`).
    pub tstamp_ns: u64,
    /// When the application wrote its first byte, ns.
    pub first_write_ns: u64,
    /// Retransmitted at least once (Karn: no RTT sample from it; `TCPCB_EVER_RETRANS`).
    pub retrans: bool,
    /// `TCP_SKB_CB(skb)->sacked`: the scoreboard bits (`TCPCB_SACKED_ACKED`, `TCPCB_LOST`,
    /// `TCPCB_SACKED_RETRANS`); 0 on the write queue.
    pub sacked: u8,
    /// `TCP_SKB_CB(skb)->tx`: the delivery state when it was last sent (`tcp_rate_skb_sent`).
    pub tx: TcpSkbTx,
}

/// `TCP_SKB_CB(skb)->tx` (include/net/tcp.h): what the rate sampler (`net/ipv4/tcp_rate.rs`)
/// noted when the skb was last sent, to compute a delivery rate when it is acknowledged.
#[derive(Clone, Copy, Debug, Default)]
pub struct TcpSkbTx {
    /// `tx.first_tx_mstamp`: when the first skb of this flight was sent, µs.
    pub first_tx_mstamp: u64,
    /// `tx.delivered_mstamp`: `tp->delivered_mstamp` at send, µs (0 = no sample from it).
    pub delivered_mstamp: u64,
    /// `tx.delivered`: `tp->delivered` at send.
    pub delivered: u32,
    /// `tx.is_app_limited`: sent while the flow was application-limited.
    pub is_app_limited: bool,
}

impl Skb {
    pub fn len(&self) -> u32 {
        (self.end_seq - self.seq) as u32 - self.syn_fin_len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn syn_fin_len(&self) -> u32 {
        use crate::include::linux::skbuff::tcp_flags::{FIN, SYN};
        u32::from(self.flags & SYN != 0) + u32::from(self.flags & FIN != 0)
    }
}

/// The congestion control's private area (`icsk_ca_priv`): `struct bictcp`, CUBIC's
/// per-socket state (`net/ipv4/tcp_cubic.rs`), and `bbr`, BBR's `struct bbr`
/// (`net/ipv4/tcp_bbr.rs`); Reno uses none of it.
#[derive(Clone, Debug, Default)]
pub struct CongState {
    /// `struct bbr`: BBR's per-socket state.
    pub bbr: Bbr,
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

/// `enum bbr_mode` (net/ipv4/tcp_bbr.c): how fast BBR decides to send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BbrMode {
    /// `BBR_STARTUP`: ramp up the sending rate rapidly to fill the pipe.
    #[default]
    Startup,
    /// `BBR_DRAIN`: drain the queue created during startup.
    Drain,
    /// `BBR_PROBE_BW`: discover and share bandwidth, pacing around the estimate.
    ProbeBw,
    /// `BBR_PROBE_RTT`: cut inflight to the minimum to probe min_rtt.
    ProbeRtt,
}

/// `struct bbr` (net/ipv4/tcp_bbr.c, Linux 6.18): BBR's congestion control block. Bit fields
/// are plain integers and booleans; times in µs are `u64` like `tp->delivered_mstamp`,
/// jiffies stamps `u32` like `tcp_jiffies32`.
#[derive(Clone, Debug, Default)]
pub struct Bbr {
    /// Min RTT in the `bbr_min_rtt_win_sec` window, µs (`u32::MAX` = none yet).
    pub min_rtt_us: u32,
    /// Jiffies of `min_rtt_us`.
    pub min_rtt_stamp: u32,
    /// End time of `BBR_PROBE_RTT` mode, jiffies (0 = not yet set).
    pub probe_rtt_done_stamp: u32,
    /// Max recent delivery rate in packets/µs << 24 (`BW_SCALE`), over `bbr_bw_rtts` rounds.
    pub bw: crate::lib::win_minmax::Minmax,
    /// Count of packet-timed rounds elapsed.
    pub rtt_cnt: u32,
    /// `tp->delivered` at the end of the current round.
    pub next_rtt_delivered: u32,
    /// Start of this gain-cycle phase, µs.
    pub cycle_mstamp: u64,
    pub mode: BbrMode,
    /// CA state on the previous ACK (`TCP_CA_Open` .. `TCP_CA_Loss`).
    pub prev_ca_state: u8,
    /// Use packet conservation (first round of recovery)?
    pub packet_conservation: bool,
    /// Start of a packet-timed round?
    pub round_start: bool,
    /// Restarting after idle?
    pub idle_restart: bool,
    /// A `BBR_PROBE_RTT` round at 4 packets done?
    pub probe_rtt_round_done: bool,
    /// Taking long-term ("LT") samples now?
    pub lt_is_sampling: bool,
    /// Round trips in the long-term interval.
    pub lt_rtt_cnt: u32,
    /// Use `lt_bw` as the bandwidth estimate (a policer is suspected)?
    pub lt_use_bw: bool,
    /// Long-term delivery rate, packets/µs << 24.
    pub lt_bw: u32,
    /// Long-term interval start: `tp->delivered`, `tp->delivered_mstamp` in ms, `tp->lost`.
    pub lt_last_delivered: u32,
    pub lt_last_stamp: u32,
    pub lt_last_lost: u32,
    /// Current gains for the pacing rate and cwnd, `BBR_UNIT` = 1.0.
    pub pacing_gain: u32,
    pub cwnd_gain: u32,
    /// Reached full bandwidth in STARTUP?
    pub full_bw_reached: bool,
    /// Rounds without large bandwidth gains.
    pub full_bw_cnt: u32,
    /// Current index in the `bbr_pacing_gain` cycle.
    pub cycle_idx: u32,
    /// Seen an RTT sample yet?
    pub has_seen_rtt: bool,
    /// cwnd before loss recovery or PROBE_RTT.
    pub prior_cwnd: u32,
    /// Recent bandwidth, to estimate whether the pipe is full.
    pub full_bw: u32,
    /// ACK aggregation: start of the sampling epoch (µs), packets (S)ACKed in it, the max
    /// excess per window half, the window's age in rounds and its current half.
    pub ack_epoch_mstamp: u64,
    pub ack_epoch_acked: u32,
    pub extra_acked: [u16; 2],
    pub extra_acked_win_rtts: u32,
    pub extra_acked_win_idx: usize,
}

/// `sk_pacing_status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacingStatus {
    /// No pacing: neither fq nor TCP paces this socket.
    None,
    /// TCP must pace by itself (internal pacing, 4.13+).
    Needed,
    /// fq has seen the socket and paces it.
    Fq,
}

/// TCP states the model uses (`include/net/tcp_states.h`). The states after `close()` are
/// the active closer's: `FinWait1` (our FIN sent, not yet acknowledged), `FinWait2` (it is),
/// `Closing` (the peer's FIN came first, ours not yet acknowledged) and `TimeWait`, which
/// stands for the `inet_timewait_sock` that `tcp_time_wait` puts in the socket's place: the
/// model's socket stops there (no timer runs, segments are dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpState {
    Closed,
    SynSent,
    SynRecv,
    Established,
    FinWait1,
    FinWait2,
    Closing,
    TimeWait,
}

/// `sk->sk_shutdown` bits (`include/net/sock.h`).
pub const RCV_SHUTDOWN: u8 = 1;
pub const SEND_SHUTDOWN: u8 = 2;
pub const SHUTDOWN_MASK: u8 = 3;

/// `icsk->icsk_pending`: which retransmit-family timer is armed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IcskPending {
    None,
    /// `ICSK_TIME_RETRANS` (RTO).
    Retrans,
    /// `ICSK_TIME_PROBE0` (zero window / corked tail probe).
    Probe0,
    /// `ICSK_TIME_REO_TIMEOUT` (RACK's reordering timer).
    ReoTimeout,
    /// `ICSK_TIME_LOSS_PROBE` (the tail loss probe, TLP).
    LossProbe,
}

/// `icsk->icsk_ack`: the receiver's delayed-ACK state.
#[derive(Clone, Debug)]
pub struct IcskAck {
    pub pending: u8,
    /// Quick-ACK credits (`icsk_ack.quick`).
    pub quick: u8,
    /// Interactive mode: a boolean before 5.1, a counter since (see `PingpongRule`).
    pub pingpong: u8,
    /// Delayed-ACK timeout estimate, jiffies.
    pub ato: u64,
    /// Absolute expiry of the delayed-ACK timer, jiffies.
    pub timeout: u64,
    /// Jiffies of the last received data segment.
    pub lrcvtime: u64,
    pub last_seg_size: u32,
    /// MSS estimate of the peer for delayed-ACK decisions.
    pub rcv_mss: u32,
}

/// `tp->rack` (include/linux/tcp.h): RACK's reference, the most recently sent skb that was
/// (S)ACKed.
#[derive(Clone, Debug)]
pub struct TcpRack {
    /// (Re)sent time of that skb, µs, its RTT, µs, and its end.
    pub mstamp_us: u64,
    pub rtt_us: u64,
    pub end_seq: u64,
    /// `tp->delivered` at the last reordering-window change.
    pub last_delivered: u32,
    /// The reordering window in min_rtt/4 steps, and recoveries it persists.
    pub reo_wnd_steps: u8,
    pub reo_wnd_persist: u8,
    pub dsack_seen: bool,
    /// The reference moved since the last loss scan.
    pub advanced: bool,
}

impl Default for TcpRack {
    fn default() -> Self {
        // tcp_init_sock: "tp->rack.reo_wnd_steps = 1;"
        TcpRack {
            mstamp_us: 0,
            rtt_us: 0,
            end_seq: 0,
            last_delivered: 0,
            reo_wnd_steps: 1,
            reo_wnd_persist: 0,
            dsack_seen: false,
            advanced: false,
        }
    }
}

/// The loss-recovery fields of `struct tcp_sock` (include/linux/tcp.h), Linux 6.18 names.
#[derive(Clone, Debug)]
pub struct LossRecovery {
    /// F-RTO (RFC 5682) is running for this RTO episode (`tp->frto`; net.ipv4.tcp_frto = 2).
    pub frto: bool,
    /// `ssthresh` and `cwnd` saved when a reduction started (`prior_ssthresh`, `prior_cwnd`),
    /// for undo and PRR.
    pub prior_ssthresh: u32,
    pub prior_cwnd: u32,
    /// PRR: packets delivered and sent since recovery started.
    pub prr_delivered: u32,
    pub prr_out: u32,
    /// `undo_marker` (`snd_una` when recovery started, 0 = no undo possible) and
    /// `undo_retrans` (retransmissions not yet shown spurious by a DSACK).
    pub undo_marker: u64,
    pub undo_retrans: i32,
    /// When the first retransmission of this episode left, ns (`retrans_stamp`, 0 = none).
    pub retrans_stamp_ns: u64,
    /// `tp->reordering` (packets, from `net.ipv4.tcp_reordering`) and `reord_seen`.
    pub reordering: u32,
    pub reord_seen: u32,
    /// `tp->lost`: packets marked lost over the connection.
    pub lost: u32,
    /// End of the highest SACKed skb (`tcp_highest_sack_seq`), 0 = none.
    pub highest_sack_end: u64,
    /// `icsk_retransmits`: RTOs since the last forward progress.
    pub icsk_retransmits: u32,
}

impl Default for LossRecovery {
    fn default() -> Self {
        LossRecovery {
            frto: false,
            prior_ssthresh: 0,
            prior_cwnd: 0,
            prr_delivered: 0,
            prr_out: 0,
            undo_marker: 0,
            undo_retrans: 0,
            retrans_stamp_ns: 0,
            // net.ipv4.tcp_reordering = 3 (TCP_FASTRETRANS_THRESH)
            reordering: 3,
            reord_seen: 0,
            lost: 0,
            highest_sack_end: 0,
            icsk_retransmits: 0,
        }
    }
}

/// What the receiver remembers of out-of-order data (`tp->out_of_order_queue`,
/// `tp->selective_acks`, `tp->duplicate_sack`).
#[derive(Clone, Debug, Default)]
pub struct RcvSack {
    /// Out-of-order segments: `seq -> (end_seq, truesize)`.
    pub out_of_order_queue: std::collections::BTreeMap<u64, (u64, u64)>,
    /// SACK blocks `[start, end)`, most recently changed first (at most `TCP_NUM_SACKS`).
    pub selective_acks: Vec<(u64, u64)>,
    /// A D-SACK block to report in the next ACK (RFC 2883).
    pub duplicate_sack: Option<(u64, u64)>,
}

/// Receive-buffer autotuning state (`tp->rcvq_space`).
#[derive(Clone, Debug, Default)]
pub struct RcvqSpace {
    pub space: u64,
    pub seq: u64,
    pub time_ns: u64,
}

/// `tcp_memory_allocated`: the pages of TCP memory a host's sockets have reserved, kept as the
/// kernel keeps it, as a running total that each socket's whole-page reservations and releases
/// move (`sk_memory_allocated_add`/`_sub`), not summed over the sockets when read. Every socket
/// of a host holds the same counter (the kernel's `sk->sk_prot->memory_allocated`).
///
/// An atomic only so that a `World` stays `Send`; one simulation runs on one thread, so plain
/// loads and stores suffice.
#[derive(Clone, Debug, Default)]
pub struct TcpMemoryAllocated(Arc<AtomicU64>);

impl TcpMemoryAllocated {
    /// Pages reserved now.
    pub fn pages(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn add(&self, pages: u64) {
        self.0.store(self.pages() + pages, Ordering::Relaxed);
    }

    fn sub(&self, pages: u64) {
        self.0.store(self.pages() - pages, Ordering::Relaxed);
    }
}

/// One TCP socket.
#[derive(Clone, Debug)]
pub struct TcpSock {
    pub id: SockId,
    pub host: u16,
    /// The socket at the other end, and its host.
    pub peer: SockId,
    pub peer_host: u16,
    /// The host's sysctls and per-host settings (a network namespace's view).
    pub net: Arc<HostConfig>,
    pub profile: Arc<Profile>,
    pub state: TcpState,
    /// `sk->sk_shutdown`: `RCV_SHUTDOWN` | `SEND_SHUTDOWN` (`close()` sets both).
    pub sk_shutdown: u8,
    pub cc: CongestionControl,

    // ---- send side ----
    /// `sk_write_queue` (head = `tcp_send_head`).
    pub write_queue: VecDeque<Skb>,
    /// `tcp_rtx_queue`: sent, not fully acknowledged.
    pub rtx_queue: VecDeque<Skb>,
    pub write_seq: u64,
    pub snd_nxt: u64,
    pub snd_una: u64,
    pub pushed_seq: u64,
    /// End of the last sub-MSS segment sent (Minshall's variant of Nagle).
    pub snd_sml: u64,
    /// Peer's receive window (bytes, unscaled) and the largest ever seen.
    pub snd_wnd: u64,
    pub max_window: u64,
    pub snd_wl1: u64,
    /// `tp->mss_cache`, `tp->advmss`, `rx_opt.mss_clamp`.
    pub mss_cache: u32,
    pub advmss: u32,
    pub mss_clamp: u32,
    /// TCP header length with fixed options (20, or 32 with timestamps).
    pub tcp_header_len: u32,
    /// `tp->gso_segs` (3.x: `xmit_size_goal_segs`): cached MSS count of the size goal.
    pub gso_segs: u32,
    /// `sk_gso_max_size`: device GSO limit minus `MAX_TCP_HEADER + 1`.
    pub sk_gso_max_size: u32,
    pub nonagle: u8,
    pub sk_sndbuf: u64,
    pub sk_wmem_queued: u64,
    /// `sk_forward_alloc`: memory reserved from `tcp_memory_allocated` (whole pages) but not
    /// used by a queued skb. What `/proc/net/protocols` counts is queued plus this.
    pub sk_forward_alloc: u64,
    /// `sk->sk_prot->memory_allocated`: the host's `tcp_memory_allocated`, which
    /// [`TcpSock::sk_mem_charge`] and the reclaims move by the pages they reserve or release.
    pub memory_allocated: TcpMemoryAllocated,
    /// `sk_wmem_alloc`: 1 + truesize of this socket's clones below TCP (+2 per pure ACK).
    pub sk_wmem_alloc: u64,
    pub sndbuf_locked: bool,
    pub rcvbuf_locked: bool,
    pub tsq_flags: u8,
    /// `tp->pacing_timer` is queued, to run at this instant (`hrtimer_is_queued`).
    pub pacing_timer_ns: Option<u64>,
    /// `tp->notsent_lowat` (the socket option; 0 = use the sysctl).
    pub notsent_lowat: u64,
    /// `sk_pacing_rate` and `sk_max_pacing_rate`, bytes per second (`u64::MAX` = unlimited).
    pub sk_pacing_rate: u64,
    pub sk_max_pacing_rate: u64,
    pub sk_pacing_shift: u32,
    pub sk_pacing_status: PacingStatus,
    /// EDT: departure time of the next skb (`tp->tcp_wstamp_ns`), ns.
    pub tcp_wstamp_ns: u64,
    pub sk_priority: u8,
    /// `SOCK_NOSPACE`: a writer found no room and waits for `sk_write_space`.
    pub sock_nospace: bool,
    /// `SOCK_QUEUE_SHRUNK` (≤ 5.x): skbs were freed since the last `tcp_check_space`.
    pub queue_shrunk: bool,

    // ---- congestion control and RTT ----
    pub snd_cwnd: u32,
    pub snd_ssthresh: u32,
    pub snd_cwnd_cnt: u32,
    pub snd_cwnd_clamp: u32,
    /// Jiffies of the last cwnd change or validation (`snd_cwnd_stamp`).
    pub snd_cwnd_stamp: u64,
    pub packets_out: u32,
    pub retrans_out: u32,
    pub lost_out: u32,
    pub sacked_out: u32,
    pub is_cwnd_limited: bool,
    /// Packets out at the most of the current window (`tcp_cwnd_validate`, 4.0+ per window).
    pub max_packets_out: u32,
    /// Where the current window of cwnd usage ends (`cwnd_usage_seq`, 6.0+; `max_packets_seq`
    /// 4.0 .. 5.19): once `snd_una` passes it, the next transmit starts a new window.
    pub cwnd_usage_seq: u64,
    /// `snd_cwnd_used`: the largest flight while cwnd was not filled (RFC 2861).
    pub snd_cwnd_used: u32,
    pub ca: CongState,
    /// Smoothed RTT in µs << 3, deviation in µs << 2 (RFC 6298 with Linux's scaling).
    pub srtt_us: u64,
    pub mdev_us: u64,
    pub mdev_max_us: u64,
    pub rttvar_us: u64,
    pub rtt_seq: u64,
    /// Minimum RTT seen, µs (`tcp_min_rtt`; the kernel keeps a 5-minute windowed minimum).
    pub min_rtt_us: u64,
    /// Retransmission timeout, ns (`icsk_rto` is in jiffies; converted on arming).
    pub rto_ns: u64,
    pub icsk_pending: IcskPending,
    /// Absolute expiry of the retransmit-family timer, ns.
    pub icsk_timeout_ns: u64,
    /// Time of the `WriteTimer` event currently queued for this socket, if any. Timers are
    /// lazy: re-arming later keeps the queued event, which re-queues itself when it fires
    /// early (what `mod_timer` achieves without touching the queue).
    pub write_timer_queued_ns: Option<u64>,
    /// Time of the `Delack` event currently queued, if any (same scheme).
    pub delack_queued_ns: Option<u64>,
    /// When the SYN (or SYN-ACK) left: the handshake's RTT sample.
    pub syn_sent_ns: u64,
    pub icsk_backoff: u32,
    pub icsk_probes_out: u32,
    /// Jiffies of the last data sent (`lsndtime`).
    pub lsndtime: u64,
    /// ≤ 3.x `tp->tso_deferred`: jiffies + 1 when TSO deferral started, 0 = not deferring.
    pub tso_deferred: u64,
    pub data_segs_out: u64,
    /// `snd_nxt` when the last RTO fired; retransmissions end there.
    pub high_seq: u64,
    /// `tlp_high_seq`: `snd_nxt` when the tail loss probe went out, until its episode ends
    /// (None: no probe outstanding; Linux uses 0).
    pub tlp_high_seq: Option<u64>,
    /// `tlp_retrans`: the probe retransmitted old data (rather than sending new data).
    pub tlp_retrans: bool,
    /// `tp->rx_opt.sack_ok` (`tcp_is_sack`): both SYNs offered SACK. Always between the
    /// model's own hosts; a packetdrill script's SYN may not offer it.
    pub rx_opt_sack_ok: bool,
    /// `icsk_ca_state`: `TCP_CA_OPEN` .. `TCP_CA_LOSS`.
    pub icsk_ca_state: u8,
    /// Loss recovery: SACK scoreboard totals are `sacked_out`/`lost_out`/`retrans_out`; the
    /// rest of the state is here (`net/ipv4/tcp_input.rs`, `tcp_recovery.rs`).
    pub lr: LossRecovery,
    pub rack: TcpRack,
    pub segs_out: u64,
    pub bytes_acked: u64,
    /// Delivery-rate sampling (`net/ipv4/tcp_rate.rs`, fields of `struct tcp_sock`):
    /// `delivered` counts packets delivered (acked) so far, `delivered_mstamp` is when it last
    /// grew (µs), `first_tx_mstamp` the send time of the first skb of the current flight (µs),
    /// `app_limited` the `delivered` mark up to which samples are application-limited (0 =
    /// not limited), and `rate_delivered`/`rate_interval_us`/`rate_app_limited` the last
    /// sample that `tcp_rate_gen` kept.
    pub delivered: u32,
    pub delivered_mstamp: u64,
    pub first_tx_mstamp: u64,
    pub app_limited: u32,
    pub rate_delivered: u32,
    pub rate_interval_us: u32,
    pub rate_app_limited: bool,

    // ---- receive side ----
    pub rcv_nxt: u64,
    pub rcv_wup: u64,
    pub copied_seq: u64,
    pub rcv_wnd: u64,
    pub rcv_ssthresh: u64,
    pub window_clamp: u64,
    /// Our receive window scale and the peer's.
    pub rcv_wscale: u8,
    pub snd_wscale: u8,
    pub sk_rcvbuf: u64,
    /// Truesize of data in the receive queue (`sk_rmem_alloc`).
    pub sk_rmem_alloc: u64,
    /// In-order data not yet read by the application: `(end_seq, truesize)`.
    pub receive_queue: VecDeque<(u64, u64)>,
    /// The reader holds the socket (`sock_owned_by_user`, 6.x receive side): nonzero while a
    /// `tcp_recvmsg` call runs, the end of its current copy; segments that arrive meanwhile
    /// wait in `sk_backlog`.
    pub owned_until_ns: u64,
    /// The writer holds the socket: its `send()` took `lock_sock` and has not yet returned
    /// (`release_sock` runs when the call's CPU time is over, at the application's next step).
    pub send_owned: bool,
    /// When that `send()` took the socket (`lock_sock`, after the system call's entry).
    pub send_owned_from_ns: u64,
    /// Until when a receive softirq on another CPU holds the socket's spinlock
    /// (`bh_lock_sock`, from `tcp_v4_rcv` through `tcp_v4_do_rcv`): a `lock_sock` that comes
    /// meanwhile spins on `sk_lock.slock` until then (`World::note_bh_locked`).
    pub bh_locked_until_ns: u64,
    pub sk_backlog: VecDeque<Packet>,
    /// The backlog is being processed (`__release_sock`, `__sk_flush_backlog`).
    pub processing_backlog: bool,
    /// `TCP_ACK_DEFERRED`: an ACK held back while the backlog ran, for `tcp_release_cb`.
    pub ack_deferred: bool,
    /// Bytes the reader's current `tcp_recvmsg` call has copied.
    pub recv_copied: u64,
    /// Out-of-order data and the SACK blocks that report it.
    pub rcv_sack: RcvSack,
    pub icsk_ack: IcskAck,
    pub rcvq_space: RcvqSpace,
    /// `tp->scaling_ratio` (6.6+): the share of the receive buffer (truesize) that becomes
    /// window, in 1/256 (`TCP_RMEM_TO_WIN_SCALE`), measured from the received skbs' len over
    /// truesize; `TCP_DEFAULT_SCALING_RATIO` (128, half) until the first data.
    pub scaling_ratio: u32,
    /// `tp->rcv_rtt_est.rtt_us` (scaled by 8), the receiver's RTT estimate that paces
    /// receive-buffer autotuning; and `rcv_rtt_est.seq`/`.time` for the window-based sample.
    pub rcv_rtt_est_us8: u64,
    pub rcv_rtt_est_seq: u64,
    pub rcv_rtt_est_time_ns: u64,
    /// `tp->rcv_rtt_last_tsecr` (ms) and `tp->rx_opt.ts_recent` (the peer's last TSval, ms).
    pub rcv_rtt_last_tsecr_ms: u64,
    pub ts_recent_ms: u64,

    // ---- application linkage ----
    /// The application that owns this socket.
    pub app: u32,
    /// The writer sleeps in `sk_stream_wait_memory`.
    pub writer_waiting: bool,
    /// The reader sleeps waiting for data.
    pub reader_waiting: bool,
    /// Set once `TCP_QUICKACK` was applied after connect.
    pub quickack_applied: bool,
}

impl TcpSock {
    /// `sock_owned_by_user` at `now_ns`: a reader's `tcp_recvmsg` or a writer's `send()`
    /// holds the socket; segments wait in `sk_backlog` and the TSQ handler is deferred until
    /// `release_sock`.
    #[inline]
    pub fn sock_owned_by_user(&self, now_ns: u64) -> bool {
        self.owned_until_ns > 0 || (self.send_owned && now_ns >= self.send_owned_from_ns)
    }

    /// `tcp_packets_in_flight`.
    pub fn packets_in_flight(&self) -> u32 {
        self.packets_out - (self.sacked_out + self.lost_out) + self.retrans_out
    }

    /// `tcp_wnd_end`: first byte outside the peer's window.
    pub fn wnd_end(&self) -> u64 {
        self.snd_una + self.snd_wnd
    }

    /// `tcp_notsent_lowat`: the socket option if set, else the sysctl.
    pub fn tcp_notsent_lowat(&self) -> u64 {
        if self.notsent_lowat != 0 {
            self.notsent_lowat
        } else {
            self.net.sysctl.tcp_notsent_lowat
        }
    }

    /// Unsent bytes (`write_seq - snd_nxt`).
    pub fn notsent_bytes(&self) -> u64 {
        self.write_seq - self.snd_nxt
    }

    /// `tcp_stream_memory_free(sk, wake)` (6.x; 3.12 had no `wake`): `notsent << wake < lowat`.
    pub fn tcp_stream_memory_free(&self, wake: u32) -> bool {
        (self.notsent_bytes() << wake) < self.tcp_notsent_lowat()
    }

    /// `__sk_stream_memory_free(sk, wake)`: below `sk_sndbuf` and the NOTSENT_LOWAT rule.
    pub fn sk_stream_memory_free(&self, wake: u32) -> bool {
        if self.sk_wmem_queued >= self.sk_sndbuf {
            return false;
        }
        self.tcp_stream_memory_free(wake)
    }

    /// `__sk_stream_is_writeable(sk, wake)`: at least a third of `sk_sndbuf` free
    /// (`sk_stream_wspace >= sk_stream_min_wspace`) and memory free.
    pub fn sk_stream_is_writeable(&self, wake: u32) -> bool {
        let wspace = self.sk_sndbuf as i64 - self.sk_wmem_queued as i64;
        wspace >= (self.sk_wmem_queued / 2) as i64 && self.sk_stream_memory_free(wake)
    }

    /// The `wake` argument this kernel passes when waking writers (5.5+ halves the limit).
    pub fn write_space_wake(&self) -> u32 {
        u32::from(self.profile.kernel.at_least(5, 5))
    }

    /// `tcp_skb_can_collapse_to`: more data may be appended to this skb.
    pub fn tail_can_take_more(&self) -> bool {
        self.write_queue.back().is_some_and(|s| !s.eor)
    }

    /// `forced_push`: more than half the largest window written since the last PSH.
    pub fn forced_push(&self) -> bool {
        self.write_seq > self.pushed_seq + self.max_window / 2
    }

    /// `tcp_minshall_check`: a sub-MSS segment we sent is still unacknowledged.
    pub fn tcp_minshall_check(&self) -> bool {
        self.snd_sml > self.snd_una && self.snd_sml <= self.snd_nxt
    }

    /// Smoothed RTT in µs (`srtt_us >> 3`), 0 before the first sample.
    pub fn srtt(&self) -> u64 {
        self.srtt_us >> 3
    }

    /// `tcp_in_slow_start`.
    pub fn in_slow_start(&self) -> bool {
        self.snd_cwnd < self.snd_ssthresh
    }

    /// Bytes this socket has taken from `tcp_memory_allocated`: the send and receive queues'
    /// truesize plus `sk_forward_alloc`, always whole pages. `/proc/net/sockstat` "TCP: mem"
    /// and `/proc/net/protocols` sum it over the sockets.
    pub fn mem_bytes(&self) -> u64 {
        self.sk_wmem_queued + self.sk_rmem_alloc + self.sk_forward_alloc
    }

    /// `sk_wmem_schedule`/`sk_rmem_schedule` + `sk_mem_charge`: take `size` bytes from
    /// `sk_forward_alloc`, reserving whole pages (`__sk_mem_schedule`: `sk_mem_pages(size)`)
    /// when it holds less.
    ///
    /// Simplified: the global `tcp_mem` limits never refuse a charge.
    pub fn sk_mem_charge(&mut self, size: u64) {
        if self.sk_forward_alloc < size {
            let pages = size.div_ceil(SK_MEM_QUANTUM);
            self.sk_forward_alloc += pages * SK_MEM_QUANTUM;
            self.memory_allocated.add(pages);
        }
        self.sk_forward_alloc -= size;
    }

    /// `sk_mem_uncharge`: give `size` bytes back to `sk_forward_alloc`. 6.x then reclaims the
    /// whole pages at once (`sk_mem_reclaim` in `sk_mem_uncharge`); 3.x/4.4 keep them until a
    /// timer handler reclaims (`tcp_write_timer`, `tcp_delack_timer`), so a busy sender keeps
    /// its high-water mark.
    pub fn sk_mem_uncharge(&mut self, size: u64) {
        self.sk_forward_alloc += size;
        if self.profile.kernel.at_least(5, 0) {
            self.sk_mem_reclaim();
        }
    }

    /// `sk_mem_reclaim`: return `sk_forward_alloc`'s whole pages.
    pub fn sk_mem_reclaim(&mut self) {
        self.memory_allocated
            .sub(self.sk_forward_alloc / SK_MEM_QUANTUM);
        self.sk_forward_alloc %= SK_MEM_QUANTUM;
    }

    /// `sk_mem_reclaim_partial`: return `sk_forward_alloc`'s whole pages but one (3.x/4.4's
    /// delayed-ACK timer).
    pub fn sk_mem_reclaim_partial(&mut self) {
        if self.sk_forward_alloc > SK_MEM_QUANTUM {
            let kept = (self.sk_forward_alloc - 1) % SK_MEM_QUANTUM + 1;
            self.memory_allocated
                .sub((self.sk_forward_alloc - kept) / SK_MEM_QUANTUM);
            self.sk_forward_alloc = kept;
        }
    }

    /// Invariants checked after every event (debug and tests).
    pub fn check_invariants(&self) {
        assert!(
            self.snd_una <= self.snd_nxt,
            "sk{}: snd_una {} > snd_nxt {}",
            self.id,
            self.snd_una,
            self.snd_nxt
        );
        assert!(
            self.snd_nxt <= self.write_seq,
            "sk{}: snd_nxt {} > write_seq {}",
            self.id,
            self.snd_nxt,
            self.write_seq
        );
        assert!(
            self.sk_wmem_alloc >= 1,
            "sk{}: sk_wmem_alloc underflow",
            self.id
        );
        assert!(
            self.copied_seq <= self.rcv_nxt,
            "sk{}: copied_seq beyond rcv_nxt",
            self.id
        );
        let queued: u64 = self
            .write_queue
            .iter()
            .chain(self.rtx_queue.iter())
            .map(|s| s.truesize as u64)
            .sum();
        assert_eq!(
            queued, self.sk_wmem_queued,
            "sk{}: sk_wmem_queued out of sync",
            self.id
        );
        assert_eq!(
            self.mem_bytes() % SK_MEM_QUANTUM,
            0,
            "sk{}: memory accounting not in whole pages",
            self.id
        );
        if let (Some(a), Some(b)) = (self.rtx_queue.back(), self.write_queue.front()) {
            assert_eq!(
                a.end_seq, b.seq,
                "sk{}: hole between rtx and write queue",
                self.id
            );
        }
        let flagged = |bit: u8| -> u32 {
            self.rtx_queue
                .iter()
                .filter(|s| s.sacked & bit != 0)
                .map(|s| s.pcount)
                .sum()
        };
        assert_eq!(
            flagged(TCPCB_SACKED_ACKED),
            self.sacked_out,
            "sk{}: sacked_out",
            self.id
        );
        assert_eq!(
            flagged(TCPCB_LOST),
            self.lost_out,
            "sk{}: lost_out",
            self.id
        );
        assert_eq!(
            flagged(TCPCB_SACKED_RETRANS),
            self.retrans_out,
            "sk{}: retrans_out",
            self.id
        );
        let pkts: u32 = self.rtx_queue.iter().map(|s| s.pcount).sum();
        assert_eq!(
            pkts, self.packets_out,
            "sk{}: packets_out out of sync",
            self.id
        );
    }
}
