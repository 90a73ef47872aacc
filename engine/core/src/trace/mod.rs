//! The engine's event stream: every decision on the send path, with the kernel function that
//! made it and the reason. The CLI (`sendpath trace`), the tests and the site all read this one
//! stream; nothing else reports what happened.
//!
//! Each event is a [`Record`]: time, host, socket and a typed [`Ev`]. For the web the stream is
//! encoded as columns ([`Columns`]): one kind code and a fixed number of numeric fields per event,
//! with the field names of each kind published by [`schema`], so the TypeScript side never
//! duplicates this file.

use std::fmt::Write as _;

pub mod summary;
pub mod tap;

use crate::include::linux::skbuff::{Packet, SockId, NO_SOCK};

/// Why data is waiting: the gates of the send path (shown by the site's "Why is it waiting?").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Gate {
    /// `tcp_push` autocorked the tail skb (`tcp_should_autocork`).
    Autocork = 0,
    /// `tcp_nagle_test` / `tcp_mss_split_point`: Nagle with Minshall's check.
    Nagle = 1,
    /// `TCP_CORK` set, or `MSG_MORE` on the last `sendmsg` (`TCP_NAGLE_CORK`).
    Cork = 2,
    /// `tcp_tso_should_defer`: waiting for a bigger TSO burst.
    TsoDefer = 3,
    /// `tcp_small_queue_check`: too many bytes already below TCP (TSQ).
    Tsq = 4,
    /// `tcp_cwnd_test`: congestion window full.
    Cwnd = 5,
    /// `tcp_snd_wnd_test`: peer's receive window full.
    Rwnd = 6,
    /// `tcp_pacing_check` (internal pacing) or fq's `time_next_packet`.
    Pacing = 7,
    /// Waiting in the qdisc behind other packets.
    Qdisc = 8,
    /// Waiting because Byte Queue Limits stopped the TX queue.
    Bql = 9,
    /// Waiting because the NIC TX ring had no free descriptor.
    RingFull = 10,
    /// Sent, waiting for the peer's ACK.
    PeerAck = 11,
    /// `sk_stream_wait_memory`: `sk_wmem_queued >= sk_sndbuf`.
    Sndbuf = 12,
    /// `sk_stream_wait_memory`: unsent bytes above `TCP_NOTSENT_LOWAT`.
    NotsentLowat = 13,
    /// On the wire (serialization and propagation).
    Wire = 14,
    /// Waiting for a CPU (the host's cores were busy).
    Cpu = 15,
}

impl Gate {
    pub const ALL: [Gate; 16] = [
        Gate::Autocork,
        Gate::Nagle,
        Gate::Cork,
        Gate::TsoDefer,
        Gate::Tsq,
        Gate::Cwnd,
        Gate::Rwnd,
        Gate::Pacing,
        Gate::Qdisc,
        Gate::Bql,
        Gate::RingFull,
        Gate::PeerAck,
        Gate::Sndbuf,
        Gate::NotsentLowat,
        Gate::Wire,
        Gate::Cpu,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Gate::Autocork => "autocork",
            Gate::Nagle => "nagle",
            Gate::Cork => "cork",
            Gate::TsoDefer => "tso_defer",
            Gate::Tsq => "tsq",
            Gate::Cwnd => "cwnd",
            Gate::Rwnd => "rwnd",
            Gate::Pacing => "pacing",
            Gate::Qdisc => "qdisc",
            Gate::Bql => "bql",
            Gate::RingFull => "ring_full",
            Gate::PeerAck => "peer_ack",
            Gate::Sndbuf => "sndbuf",
            Gate::NotsentLowat => "notsent_lowat",
            Gate::Wire => "wire",
            Gate::Cpu => "cpu",
        }
    }

    pub fn from_u8(v: u8) -> Option<Gate> {
        Gate::ALL.get(v as usize).copied()
    }
}

/// Why an ACK left now (`__tcp_ack_snd_check` and friends).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum AckReason {
    /// More than one full frame received and the window would not shrink.
    TwoFrames = 0,
    /// `tcp_in_quickack_mode`: quick-ACK credits left and not in pingpong mode.
    Quickack = 1,
    /// `ICSK_ACK_NOW` (out-of-order, CWR, ...).
    Now = 2,
    /// The delayed-ACK timer fired (`tcp_delack_timer_handler`).
    DelackTimer = 3,
    /// `tcp_cleanup_rbuf` on read (`ICSK_ACK_PUSHED`, or a window update).
    Recvmsg = 4,
    /// `tcp_send_delayed_ack` found the running timer about to fire anyway.
    DelackSoon = 5,
    /// `setsockopt(TCP_QUICKACK, 1)` with an ACK pending.
    SockoptQuickack = 6,
    /// Handshake or connection control.
    Control = 7,
    /// `tcp_release_cb`: the one ACK deferred while the socket backlog ran
    /// (`tcp_backlog_ack_defer`, 6.8+).
    ReleaseCb = 8,
    /// `tcp_xmit_probe_skb`: the probe timer found the peer's window closed and sent an ACK
    /// with an old sequence number (`snd_una - 1`) to make the peer answer with its window.
    WindowProbe = 9,
}

impl AckReason {
    /// Every reason, in code order (the `reason` field of `ack_xmit`).
    pub const ALL: [AckReason; 10] = [
        AckReason::TwoFrames,
        AckReason::Quickack,
        AckReason::Now,
        AckReason::DelackTimer,
        AckReason::Recvmsg,
        AckReason::DelackSoon,
        AckReason::SockoptQuickack,
        AckReason::Control,
        AckReason::ReleaseCb,
        AckReason::WindowProbe,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AckReason::TwoFrames => "more than one full frame received",
            AckReason::Quickack => "quickack mode",
            AckReason::Now => "ICSK_ACK_NOW",
            AckReason::DelackTimer => "delayed-ACK timer expired",
            AckReason::Recvmsg => "tcp_cleanup_rbuf on read",
            AckReason::DelackSoon => "delayed-ACK timer about to fire",
            AckReason::SockoptQuickack => "setsockopt TCP_QUICKACK",
            AckReason::Control => "connection control",
            AckReason::ReleaseCb => "tcp_release_cb after the socket backlog",
            AckReason::WindowProbe => "zero-window probe (tcp_xmit_probe_skb)",
        }
    }
}

/// Where a packet was dropped (the `site` field of `drop`). The model's links are lossless, so
/// the qdisc is the one place today; the site is a code, named by the schema's `dropSites`, so
/// the site's log can word it in any language without reading the English line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DropSite {
    /// The device's qdisc refused or dropped the packet (`qdisc_drop`, with its reason, comes
    /// first).
    Qdisc = 0,
    /// The bottleneck router between the hosts found its queue full (`path.queue_packets`,
    /// tail drop).
    Bottleneck = 1,
}

impl DropSite {
    /// Every site, in code order.
    pub const ALL: [DropSite; 2] = [DropSite::Qdisc, DropSite::Bottleneck];

    pub fn name(self) -> &'static str {
        match self {
            DropSite::Qdisc => "qdisc",
            DropSite::Bottleneck => "bottleneck",
        }
    }
}

/// One event of the stream. Byte positions (`seq`, `end_seq`, `ack`) are relative to the
/// connection's initial sequence number, as `tcpdump -S` does not and Wireshark does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ev {
    /// `tcp_sendmsg` entered by the application: `size` bytes, `msg_more` = `MSG_MORE`.
    SendmsgCall { size: u64, msg_more: bool },
    /// `tcp_sendmsg_locked` copied `[seq, end_seq)` into skb `skb`, now `skb_len` bytes of a
    /// `size_goal`; `new_skb` when `tcp_stream_alloc_skb` + `tcp_skb_entail` started it.
    SendmsgCopy {
        skb: u64,
        seq: u64,
        end_seq: u64,
        skb_len: u64,
        size_goal: u64,
        new_skb: bool,
    },
    /// `sk_stream_wait_memory`: the writer sleeps (`gate` is `Sndbuf` or `NotsentLowat`).
    SendmsgWait {
        gate: Gate,
        wmem_queued: u64,
        sndbuf: u64,
        notsent: u64,
    },
    /// `sk_stream_write_space` woke the writer.
    WriteSpace {
        wmem_queued: u64,
        sndbuf: u64,
        notsent: u64,
    },
    /// `tcp_sendmsg` returned `copied` bytes to the application.
    SendmsgDone { copied: u64 },
    /// `tcp_push`: the tail skb was autocorked (`tcp_should_autocork`) and `TSQ_THROTTLED` set.
    /// `counted` when `TcpExtTCPAutoCorking` was incremented (the bit was not yet set).
    Autocork {
        skb: u64,
        skb_len: u64,
        size_goal: u64,
        wmem_alloc: u64,
        truesize: u64,
        counted: bool,
    },
    /// `tcp_write_xmit` stopped at skb `skb` `[seq, end_seq)` because of `gate`;
    /// `a`, `b` are the numbers the test compared (documented per gate in [`Ev::describe`]).
    XmitHold {
        skb: u64,
        seq: u64,
        end_seq: u64,
        gate: Gate,
        a: u64,
        b: u64,
    },
    /// `tso_fragment` / `tcp_fragment` split skb `skb` at `len` bytes; the rest is `new_skb`.
    Fragment {
        skb: u64,
        new_skb: u64,
        len: u64,
        rest: u64,
    },
    /// `__tcp_transmit_skb`: clone `pkt` of skb `skb` carrying `[seq, end_seq)` in `segs`
    /// segments, `len` bytes at the IP layer, `truesize` charged to `sk_wmem_alloc`.
    Xmit {
        skb: u64,
        pkt: u64,
        seq: u64,
        end_seq: u64,
        segs: u64,
        len: u64,
        truesize: u64,
    },
    /// A pure ACK `pkt` acknowledging `ack` left TCP, advertising `window` bytes.
    AckXmit {
        pkt: u64,
        ack: u64,
        window: u64,
        reason: AckReason,
    },
    /// `q->enqueue`: `pkt` entered the qdisc, now `qlen` packets / `backlog` bytes.
    QdiscEnqueue { pkt: u64, qlen: u64, backlog: u64 },
    /// The qdisc dropped `pkt` (reason: see `qdisc::DropReason` as a number).
    QdiscDrop { pkt: u64, reason: u64 },
    /// `dequeue_skb`: `pkt` left the qdisc after waiting `sojourn_ns`.
    QdiscDequeue { pkt: u64, sojourn_ns: u64 },
    /// fq throttled a flow: next packet may leave at `until_ns` (`time_next_packet`).
    QdiscThrottle { until_ns: u64 },
    /// `ndo_start_xmit`: `pkt` posted to the TX ring (`ring_used` of `ring_size` slots);
    /// BQL `inflight` bytes against `limit`.
    RingPost {
        pkt: u64,
        ring_used: u64,
        ring_size: u64,
        bql_inflight: u64,
        bql_limit: u64,
    },
    /// `netif_tx_stop_queue` (ring full: `gate` RingFull) or BQL `STACK_XOFF` (`gate` Bql).
    QueueStop { gate: Gate },
    /// The TX queue was woken: BQL has room again (`gate` Bql, `netdev_tx_completed_queue`
    /// cleared `STACK_XOFF`) or the driver freed descriptors (`gate` RingFull,
    /// `netif_tx_wake_queue`).
    QueueWake { gate: Gate },
    /// `__dev_xmit_skb`: the qdisc was empty and `TCQ_F_CAN_BYPASS`, so `pkt` went straight
    /// to `sch_direct_xmit` without being enqueued.
    QdiscBypass { pkt: u64 },
    /// `validate_xmit_skb`: software GSO (TSO off) split `pkt` into `segs` packets.
    GsoSegment { pkt: u64, segs: u64 },
    /// `dev_requeue_skb`: the driver refused `pkt` (`NETDEV_TX_BUSY` or the queue stopped
    /// mid-bulk); it goes back to the qdisc and leaves first.
    Requeue { pkt: u64 },
    /// Frame(s) of `pkt` start serialization; the last bit leaves at `end_ns`.
    WireTx {
        pkt: u64,
        wire_bytes: u64,
        segs: u64,
        end_ns: u64,
    },
    /// `pkt` fully received by the peer's NIC.
    WireRx { pkt: u64, segs: u64 },
    /// A TX-completion interrupt's NAPI poll cleaned `descs` descriptors, `bytes` bytes
    /// (`netdev_tx_completed_queue`); BQL `limit` after `dql_completed`.
    TxCompletion {
        descs: u64,
        bytes: u64,
        bql_limit: u64,
    },
    /// `tcp_wfree`: clone `pkt` freed, `truesize` released, `wmem_alloc` left;
    /// `tsq_queued` when `TSQ_THROTTLED` was set and the TSQ handler is scheduled.
    TcpWfree {
        pkt: u64,
        truesize: u64,
        wmem_alloc: u64,
        tsq_queued: bool,
    },
    /// `tcp_tsq_handler` ran `tcp_write_xmit` for the socket.
    TsqHandler,
    /// GRO merged `segs` segments into one skb before TCP saw it (`napi_gro_receive`).
    Gro { segs: u64, bytes: u64 },
    /// `tcp_rcv_established` accepted in-order data `[seq, end_seq)`.
    RcvData { seq: u64, end_seq: u64, segs: u64 },
    /// `tcp_send_delayed_ack` armed the delayed-ACK timer: fires at `timeout_ns`, `ato_ms`.
    DelackSched {
        timeout_ns: u64,
        ato_us: u64,
        quick: u64,
        pingpong: u64,
    },
    /// `tcp_ack`: cumulative `ack`, `acked` bytes newly acknowledged, state after.
    AckRcvd {
        ack: u64,
        acked: u64,
        cwnd: u64,
        ssthresh: u64,
        srtt_us: u64,
        pacing_rate: u64,
        packets_out: u64,
    },
    /// The application read `bytes` (`tcp_recvmsg`).
    Recvmsg { bytes: u64 },
    /// A zero-window / cork probe timer (`ICSK_TIME_PROBE0`) fired and sent `bytes`.
    Probe0 { bytes: u64 },
    /// Retransmission timeout fired.
    Rto { seq: u64 },
    /// The tail loss probe went out (`tcp_send_loss_probe`): new data, or (`retrans` 1) the
    /// last segment again; `seq` is `tlp_high_seq` (`snd_nxt` then).
    LossProbe { seq: u64, retrans: bool },
    /// The application's system call started on a busy CPU and waited `wait_ns`.
    CpuWait { wait_ns: u64 },
    /// Connection established (`tcp_finish_connect` / `tcp_rcv_state_process`), with the
    /// `sk_pacing_rate` `tcp_init_transfer` set (bytes per second, `u64::MAX` unlimited): what
    /// sizes the first skbs and TSO packets before any ACK carries a rate.
    Established {
        mss: u64,
        sndbuf: u64,
        rcvbuf: u64,
        pacing_rate: u64,
    },
    /// A packet was freed without reaching the wire, at `site` (`kfree_skb`). Never silent: the
    /// run also gets a warning, since links are lossless in this model and the flow may stall.
    Drop { pkt: u64, site: DropSite },
    /// `skb` `[seq, end_seq)` (`segs` segments) went out again (`__tcp_retransmit_skb`, where
    /// the `tcp:tcp_retransmit_skb` tracepoint fires): a loss repair, a loss probe's
    /// retransmission or an RTO's.
    Retransmit {
        skb: u64,
        seq: u64,
        end_seq: u64,
        segs: u64,
    },
    /// The congestion state became `state` (`tcp_set_ca_state`, the `tcp:tcp_cong_state_set`
    /// tracepoint): `TCP_CA_Open` 0 .. `TCP_CA_Loss` 4 ([`CA_STATE_NAMES`]).
    CaState { state: u8 },
}

/// The names of `icsk_ca_state`'s values (`enum tcp_ca_state`), by value.
pub const CA_STATE_NAMES: [&str; 5] = [
    "TCP_CA_Open",
    "TCP_CA_Disorder",
    "TCP_CA_CWR",
    "TCP_CA_Recovery",
    "TCP_CA_Loss",
];

/// One event with its place and time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub t_ns: u64,
    pub host: u16,
    /// Socket the event belongs to, or [`NO_SOCK`] for device events.
    pub sk: SockId,
    pub ev: Ev,
}

/// Field values of an event as `(name, value)` pairs, in a fixed order per kind.
pub type Fields = Vec<(&'static str, u64)>;

impl Ev {
    /// Stable numeric code of the kind (the `kind` column).
    pub fn code(&self) -> u16 {
        KINDS
            .iter()
            .position(|k| k.name == self.kind_name())
            .unwrap() as u16
    }

    /// Short kind name (`"autocork"`, `"xmit"`, ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Ev::SendmsgCall { .. } => "sendmsg",
            Ev::SendmsgCopy { .. } => "sendmsg_copy",
            Ev::SendmsgWait { .. } => "sendmsg_wait",
            Ev::WriteSpace { .. } => "write_space",
            Ev::SendmsgDone { .. } => "sendmsg_done",
            Ev::Autocork { .. } => "autocork",
            Ev::XmitHold { .. } => "xmit_hold",
            Ev::Fragment { .. } => "fragment",
            Ev::Xmit { .. } => "xmit",
            Ev::AckXmit { .. } => "ack_xmit",
            Ev::QdiscEnqueue { .. } => "qdisc_enqueue",
            Ev::QdiscDrop { .. } => "qdisc_drop",
            Ev::QdiscDequeue { .. } => "qdisc_dequeue",
            Ev::QdiscThrottle { .. } => "qdisc_throttle",
            Ev::RingPost { .. } => "ring_post",
            Ev::QueueStop { .. } => "queue_stop",
            Ev::QueueWake { .. } => "queue_wake",
            Ev::QdiscBypass { .. } => "qdisc_bypass",
            Ev::GsoSegment { .. } => "gso_segment",
            Ev::Requeue { .. } => "requeue",
            Ev::WireTx { .. } => "wire_tx",
            Ev::WireRx { .. } => "wire_rx",
            Ev::TxCompletion { .. } => "tx_completion",
            Ev::TcpWfree { .. } => "tcp_wfree",
            Ev::TsqHandler => "tsq_handler",
            Ev::Gro { .. } => "gro",
            Ev::RcvData { .. } => "rcv_data",
            Ev::DelackSched { .. } => "delack_sched",
            Ev::AckRcvd { .. } => "ack_rcvd",
            Ev::Recvmsg { .. } => "recvmsg",
            Ev::Probe0 { .. } => "probe0",
            Ev::Rto { .. } => "rto",
            Ev::LossProbe { .. } => "loss_probe",
            Ev::CpuWait { .. } => "cpu_wait",
            Ev::Established { .. } => "established",
            Ev::Drop { .. } => "drop",
            Ev::Retransmit { .. } => "retransmit",
            Ev::CaState { .. } => "ca_state",
        }
    }

    /// The kernel function that made this decision (on the connecting side, where the two
    /// sides differ: see [`Ev::func_on`]).
    pub fn func(&self) -> &'static str {
        KINDS[self.code() as usize].func
    }

    /// The kernel function that made this decision on a socket of the `active` (connecting)
    /// side or the passive one: the passive side's connection is established by
    /// `tcp_rcv_state_process` in `TCP_SYN_RECV` (after `tcp_v4_rcv` -> `tcp_check_req` made
    /// the child), never by `tcp_finish_connect`, which only `connect()`'s side runs.
    pub fn func_on(&self, active: bool) -> &'static str {
        if !active {
            let kind = self.kind_name();
            if let Some((_, f)) = PASSIVE_FUNCS.iter().find(|(k, _)| *k == kind) {
                return f;
            }
        }
        self.func()
    }

    /// Numeric fields, in the order [`schema`] publishes.
    pub fn fields(&self) -> Fields {
        use Ev::*;
        match *self {
            SendmsgCall { size, msg_more } => vec![("size", size), ("msg_more", msg_more as u64)],
            SendmsgCopy {
                skb,
                seq,
                end_seq,
                skb_len,
                size_goal,
                new_skb,
            } => vec![
                ("skb", skb),
                ("seq", seq),
                ("end_seq", end_seq),
                ("skb_len", skb_len),
                ("size_goal", size_goal),
                ("new_skb", new_skb as u64),
            ],
            SendmsgWait {
                gate,
                wmem_queued,
                sndbuf,
                notsent,
            } => vec![
                ("gate", gate as u64),
                ("wmem_queued", wmem_queued),
                ("sndbuf", sndbuf),
                ("notsent", notsent),
            ],
            WriteSpace {
                wmem_queued,
                sndbuf,
                notsent,
            } => {
                vec![
                    ("wmem_queued", wmem_queued),
                    ("sndbuf", sndbuf),
                    ("notsent", notsent),
                ]
            }
            SendmsgDone { copied } => vec![("copied", copied)],
            Autocork {
                skb,
                skb_len,
                size_goal,
                wmem_alloc,
                truesize,
                counted,
            } => vec![
                ("skb", skb),
                ("skb_len", skb_len),
                ("size_goal", size_goal),
                ("wmem_alloc", wmem_alloc),
                ("truesize", truesize),
                ("counted", counted as u64),
            ],
            XmitHold {
                skb,
                seq,
                end_seq,
                gate,
                a,
                b,
            } => vec![
                ("skb", skb),
                ("seq", seq),
                ("end_seq", end_seq),
                ("gate", gate as u64),
                ("a", a),
                ("b", b),
            ],
            Fragment {
                skb,
                new_skb,
                len,
                rest,
            } => {
                vec![
                    ("skb", skb),
                    ("new_skb", new_skb),
                    ("len", len),
                    ("rest", rest),
                ]
            }
            Xmit {
                skb,
                pkt,
                seq,
                end_seq,
                segs,
                len,
                truesize,
            } => vec![
                ("skb", skb),
                ("pkt", pkt),
                ("seq", seq),
                ("end_seq", end_seq),
                ("segs", segs),
                ("len", len),
                ("truesize", truesize),
            ],
            AckXmit {
                pkt,
                ack,
                window,
                reason,
            } => {
                vec![
                    ("pkt", pkt),
                    ("ack", ack),
                    ("window", window),
                    ("reason", reason as u64),
                ]
            }
            QdiscEnqueue { pkt, qlen, backlog } => {
                vec![("pkt", pkt), ("qlen", qlen), ("backlog", backlog)]
            }
            QdiscDrop { pkt, reason } => vec![("pkt", pkt), ("reason", reason)],
            QdiscDequeue { pkt, sojourn_ns } => vec![("pkt", pkt), ("sojourn_ns", sojourn_ns)],
            QdiscThrottle { until_ns } => vec![("until_ns", until_ns)],
            RingPost {
                pkt,
                ring_used,
                ring_size,
                bql_inflight,
                bql_limit,
            } => vec![
                ("pkt", pkt),
                ("ring_used", ring_used),
                ("ring_size", ring_size),
                ("bql_inflight", bql_inflight),
                ("bql_limit", bql_limit),
            ],
            QueueStop { gate } => vec![("gate", gate as u64)],
            QueueWake { gate } => vec![("gate", gate as u64)],
            QdiscBypass { pkt } => vec![("pkt", pkt)],
            GsoSegment { pkt, segs } => vec![("pkt", pkt), ("segs", segs)],
            Requeue { pkt } => vec![("pkt", pkt)],
            WireTx {
                pkt,
                wire_bytes,
                segs,
                end_ns,
            } => {
                vec![
                    ("pkt", pkt),
                    ("wire_bytes", wire_bytes),
                    ("segs", segs),
                    ("end_ns", end_ns),
                ]
            }
            WireRx { pkt, segs } => vec![("pkt", pkt), ("segs", segs)],
            TxCompletion {
                descs,
                bytes,
                bql_limit,
            } => {
                vec![("descs", descs), ("bytes", bytes), ("bql_limit", bql_limit)]
            }
            TcpWfree {
                pkt,
                truesize,
                wmem_alloc,
                tsq_queued,
            } => vec![
                ("pkt", pkt),
                ("truesize", truesize),
                ("wmem_alloc", wmem_alloc),
                ("tsq_queued", tsq_queued as u64),
            ],
            TsqHandler => vec![],
            Gro { segs, bytes } => vec![("segs", segs), ("bytes", bytes)],
            RcvData { seq, end_seq, segs } => {
                vec![("seq", seq), ("end_seq", end_seq), ("segs", segs)]
            }
            DelackSched {
                timeout_ns,
                ato_us,
                quick,
                pingpong,
            } => vec![
                ("timeout_ns", timeout_ns),
                ("ato_us", ato_us),
                ("quick", quick),
                ("pingpong", pingpong),
            ],
            AckRcvd {
                ack,
                acked,
                cwnd,
                ssthresh,
                srtt_us,
                pacing_rate,
                packets_out,
            } => vec![
                ("ack", ack),
                ("acked", acked),
                ("cwnd", cwnd),
                ("ssthresh", ssthresh),
                ("srtt_us", srtt_us),
                ("pacing_rate", pacing_rate),
                ("packets_out", packets_out),
            ],
            Recvmsg { bytes } => vec![("bytes", bytes)],
            Probe0 { bytes } => vec![("bytes", bytes)],
            Rto { seq } => vec![("seq", seq)],
            LossProbe { seq, retrans } => vec![("seq", seq), ("retrans", retrans as u64)],
            CpuWait { wait_ns } => vec![("wait_ns", wait_ns)],
            Established {
                mss,
                sndbuf,
                rcvbuf,
                pacing_rate,
            } => {
                vec![
                    ("mss", mss),
                    ("sndbuf", sndbuf),
                    ("rcvbuf", rcvbuf),
                    ("pacing_rate", pacing_rate),
                ]
            }
            Drop { pkt, site } => vec![("pkt", pkt), ("site", site as u64)],
            Retransmit {
                skb,
                seq,
                end_seq,
                segs,
            } => vec![
                ("skb", skb),
                ("seq", seq),
                ("end_seq", end_seq),
                ("segs", segs),
            ],
            CaState { state } => vec![("state", state as u64)],
        }
    }

    /// The event in words, as the decision log and `sendpath trace` show it.
    pub fn describe(&self) -> String {
        use Ev::*;
        let mut s = String::new();
        let _ = match *self {
            SendmsgCall { size, msg_more } => write!(
                s,
                "application calls send() of {size} B{}",
                if msg_more { " with MSG_MORE" } else { "" }
            ),
            SendmsgCopy { skb, seq, end_seq, skb_len, size_goal, new_skb } => write!(
                s,
                "copied {} B [{seq}, {end_seq}) into {}skb#{skb}, now {skb_len} B of size_goal {size_goal} B",
                end_seq - seq,
                if new_skb { "new " } else { "tail " }
            ),
            SendmsgWait { gate, wmem_queued, sndbuf, notsent } => match gate {
                Gate::NotsentLowat => write!(
                    s,
                    "writer sleeps: {notsent} B not yet sent is above TCP_NOTSENT_LOWAT"
                ),
                _ => write!(
                    s,
                    "writer sleeps: sk_wmem_queued {wmem_queued} B >= sk_sndbuf {sndbuf} B"
                ),
            },
            WriteSpace { wmem_queued, sndbuf, notsent } => write!(
                s,
                "writer woken: sk_wmem_queued {wmem_queued} B of sk_sndbuf {sndbuf} B, {notsent} B unsent"
            ),
            SendmsgDone { copied } => write!(s, "send() returns {copied}"),
            Autocork { skb, skb_len, size_goal, wmem_alloc, truesize, counted } => write!(
                s,
                "skb#{skb} {skb_len} B < size_goal {size_goal} B and sk_wmem_alloc {wmem_alloc} > truesize {truesize}: autocorked{}",
                if counted { " (TcpExtTCPAutoCorking +1)" } else { " (TSQ_THROTTLED already set)" }
            ),
            XmitHold { skb, seq, end_seq, gate, a, b } => {
                let what = format!("skb#{skb} [{seq}, {end_seq}) held: ");
                s.push_str(&what);
                match gate {
                    Gate::Nagle => write!(
                        s,
                        "Nagle: sub-MSS segment while an earlier small segment (snd_sml {a}) is unacked (snd_una {b})"
                    ),
                    Gate::Cork => write!(s, "corked (TCP_CORK or MSG_MORE)"),
                    Gate::TsoDefer => write!(
                        s,
                        "tcp_tso_should_defer: only {a} B may be sent now, waiting for an ACK to send up to {b} B"
                    ),
                    Gate::Tsq => write!(
                        s,
                        "TCP Small Queues: sk_wmem_alloc {a} B > limit {b} B, TSQ_THROTTLED set"
                    ),
                    Gate::Cwnd => write!(s, "congestion window full: {a} packets in flight, cwnd {b}"),
                    Gate::Rwnd => write!(
                        s,
                        "receive window full: segment ends at {a}, window ends at {b}"
                    ),
                    Gate::Pacing => write!(s, "pacing: next departure at {a} ns"),
                    _ => write!(s, "{}", gate.name()),
                }
            }
            Fragment { skb, new_skb, len, rest } => write!(
                s,
                "split skb#{skb}: {len} B leave now, {rest} B stay in skb#{new_skb}"
            ),
            Xmit { skb, pkt, seq, end_seq, segs, len, truesize } => write!(
                s,
                "transmit skb#{skb} [{seq}, {end_seq}) as packet #{pkt}: {segs} segment{}, {len} B, truesize {truesize}",
                if segs == 1 { "" } else { "s" }
            ),
            AckXmit { pkt, ack, window, reason } => write!(
                s,
                "ACK #{pkt} ack {ack} win {window}: {}",
                reason.name()
            ),
            QdiscEnqueue { pkt, qlen, backlog } => {
                write!(s, "packet #{pkt} enqueued: qdisc holds {qlen} packets, {backlog} B")
            }
            QdiscDrop { pkt, reason } => write!(s, "packet #{pkt} dropped by the qdisc (reason {reason})"),
            QdiscDequeue { pkt, sojourn_ns } => write!(
                s,
                "packet #{pkt} dequeued after {} µs in the qdisc",
                sojourn_ns / 1000
            ),
            QdiscThrottle { until_ns } => write!(s, "flow throttled until {until_ns} ns"),
            RingPost { pkt, ring_used, ring_size, bql_inflight, bql_limit } => write!(
                s,
                "packet #{pkt} posted to the TX ring ({ring_used}/{ring_size} descriptors), BQL inflight {bql_inflight} B of limit {bql_limit} B"
            ),
            QueueStop { gate } => match gate {
                Gate::Bql => write!(s, "TX queue stopped by BQL (__QUEUE_STATE_STACK_XOFF)"),
                _ => write!(s, "TX queue stopped: ring full (__QUEUE_STATE_DRV_XOFF)"),
            },
            QueueWake { gate } => match gate {
                Gate::Bql => write!(s, "TX queue woken: BQL has room again (STACK_XOFF cleared)"),
                _ => write!(s, "TX queue woken: the driver freed TX descriptors"),
            },
            QdiscBypass { pkt } => write!(
                s,
                "packet #{pkt} bypassed the empty qdisc (TCQ_F_CAN_BYPASS) straight to the driver"
            ),
            GsoSegment { pkt, segs } => write!(
                s,
                "packet #{pkt} segmented in software (TSO off) into {segs} packets"
            ),
            Requeue { pkt } => write!(
                s,
                "packet #{pkt} refused by the driver, requeued at the head of the qdisc"
            ),
            WireTx { pkt, wire_bytes, segs, end_ns } => write!(
                s,
                "packet #{pkt} on the wire: {segs} frame{}, {wire_bytes} B incl. framing, last bit at {end_ns} ns",
                if segs == 1 { "" } else { "s" }
            ),
            WireRx { pkt, segs } => write!(s, "packet #{pkt} received ({segs} frames)"),
            TxCompletion { descs, bytes, bql_limit } => write!(
                s,
                "TX completion: {descs} descriptors, {bytes} B freed; BQL limit {bql_limit} B"
            ),
            TcpWfree { pkt, truesize, wmem_alloc, tsq_queued } => write!(
                s,
                "packet #{pkt} freed: sk_wmem_alloc -{truesize} = {wmem_alloc}{}",
                if tsq_queued { ", TSQ_THROTTLED was set: TSQ handler scheduled" } else { "" }
            ),
            TsqHandler => write!(s, "TSQ handler runs tcp_write_xmit"),
            Gro { segs, bytes } => write!(s, "GRO merged {segs} segments, {bytes} B"),
            RcvData { seq, end_seq, segs } => write!(
                s,
                "received [{seq}, {end_seq}) in {segs} segment{}",
                if segs == 1 { "" } else { "s" }
            ),
            DelackSched { timeout_ns, ato_us, quick, pingpong } => write!(
                s,
                "delayed ACK scheduled at {timeout_ns} ns (ato {} ms, quick {quick}, pingpong {pingpong})",
                ato_us as f64 / 1000.0
            ),
            AckRcvd { ack, acked, cwnd, ssthresh, srtt_us, pacing_rate, packets_out } => write!(
                s,
                "ACK {ack} acknowledges {acked} B: cwnd {cwnd}, ssthresh {ssthresh}, srtt {srtt_us} µs, pacing {} Mbit/s, {packets_out} packets out",
                if pacing_rate == u64::MAX { u64::MAX } else { pacing_rate * 8 / 1_000_000 }
            ),
            Recvmsg { bytes } => write!(s, "application read {bytes} B"),
            Probe0 { bytes } => write!(s, "probe timer sent {bytes} B ignoring Nagle/cork"),
            Rto { seq } => write!(s, "retransmission timeout at {seq}"),
            LossProbe { seq, retrans } => write!(
                s,
                "tail loss probe: {}, tlp_high_seq {seq}",
                if retrans { "the last segment again" } else { "new data" }
            ),
            CpuWait { wait_ns } => write!(s, "waited {} µs for a CPU", wait_ns / 1000),
            Established { mss, sndbuf, rcvbuf, .. } => write!(
                s,
                "connection established: mss {mss}, sk_sndbuf {sndbuf}, sk_rcvbuf {rcvbuf}"
            ),
            Drop { pkt, site } => write!(s, "packet #{pkt} dropped in {}", site.name()),
            Retransmit {
                skb,
                seq,
                end_seq,
                segs,
            } => write!(
                s,
                "retransmit skb#{skb} [{seq}, {end_seq}): {segs} segment{}",
                if segs == 1 { "" } else { "s" }
            ),
            CaState { state } => write!(
                s,
                "congestion state {}",
                CA_STATE_NAMES.get(state as usize).unwrap_or(&"?")
            ),
        };
        s
    }
}

/// Static description of one event kind: its name, the kernel function, its field names.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    pub name: &'static str,
    pub func: &'static str,
    pub fields: &'static [&'static str],
}

/// Every event kind, in code order.
pub const KINDS: &[KindInfo] = &[
    KindInfo {
        name: "sendmsg",
        func: "tcp_sendmsg",
        fields: &["size", "msg_more"],
    },
    KindInfo {
        name: "sendmsg_copy",
        func: "tcp_sendmsg_locked",
        fields: &["skb", "seq", "end_seq", "skb_len", "size_goal", "new_skb"],
    },
    KindInfo {
        name: "sendmsg_wait",
        func: "sk_stream_wait_memory",
        fields: &["gate", "wmem_queued", "sndbuf", "notsent"],
    },
    KindInfo {
        name: "write_space",
        func: "sk_stream_write_space",
        fields: &["wmem_queued", "sndbuf", "notsent"],
    },
    KindInfo {
        name: "sendmsg_done",
        func: "tcp_sendmsg",
        fields: &["copied"],
    },
    KindInfo {
        name: "autocork",
        func: "tcp_push",
        fields: &[
            "skb",
            "skb_len",
            "size_goal",
            "wmem_alloc",
            "truesize",
            "counted",
        ],
    },
    KindInfo {
        name: "xmit_hold",
        func: "tcp_write_xmit",
        fields: &["skb", "seq", "end_seq", "gate", "a", "b"],
    },
    KindInfo {
        name: "fragment",
        func: "tso_fragment",
        fields: &["skb", "new_skb", "len", "rest"],
    },
    KindInfo {
        name: "xmit",
        func: "__tcp_transmit_skb",
        fields: &["skb", "pkt", "seq", "end_seq", "segs", "len", "truesize"],
    },
    KindInfo {
        name: "ack_xmit",
        func: "__tcp_send_ack",
        fields: &["pkt", "ack", "window", "reason"],
    },
    KindInfo {
        name: "qdisc_enqueue",
        func: "dev_queue_xmit",
        fields: &["pkt", "qlen", "backlog"],
    },
    KindInfo {
        name: "qdisc_drop",
        func: "qdisc_drop",
        fields: &["pkt", "reason"],
    },
    KindInfo {
        name: "qdisc_dequeue",
        func: "dequeue_skb",
        fields: &["pkt", "sojourn_ns"],
    },
    KindInfo {
        name: "qdisc_throttle",
        func: "fq_dequeue",
        fields: &["until_ns"],
    },
    KindInfo {
        name: "ring_post",
        func: "ndo_start_xmit",
        fields: &["pkt", "ring_used", "ring_size", "bql_inflight", "bql_limit"],
    },
    KindInfo {
        name: "queue_stop",
        func: "netif_tx_stop_queue",
        fields: &["gate"],
    },
    KindInfo {
        name: "queue_wake",
        func: "netif_tx_wake_queue",
        fields: &["gate"],
    },
    KindInfo {
        name: "wire_tx",
        func: "phy",
        fields: &["pkt", "wire_bytes", "segs", "end_ns"],
    },
    KindInfo {
        name: "wire_rx",
        func: "napi_gro_receive",
        fields: &["pkt", "segs"],
    },
    KindInfo {
        name: "tx_completion",
        func: "netdev_tx_completed_queue",
        fields: &["descs", "bytes", "bql_limit"],
    },
    KindInfo {
        name: "tcp_wfree",
        func: "tcp_wfree",
        fields: &["pkt", "truesize", "wmem_alloc", "tsq_queued"],
    },
    KindInfo {
        name: "tsq_handler",
        func: "tcp_tsq_handler",
        fields: &[],
    },
    KindInfo {
        name: "gro",
        func: "napi_gro_receive",
        fields: &["segs", "bytes"],
    },
    KindInfo {
        name: "rcv_data",
        func: "tcp_rcv_established",
        fields: &["seq", "end_seq", "segs"],
    },
    KindInfo {
        name: "delack_sched",
        func: "tcp_send_delayed_ack",
        fields: &["timeout_ns", "ato_us", "quick", "pingpong"],
    },
    KindInfo {
        name: "ack_rcvd",
        func: "tcp_ack",
        fields: &[
            "ack",
            "acked",
            "cwnd",
            "ssthresh",
            "srtt_us",
            "pacing_rate",
            "packets_out",
        ],
    },
    KindInfo {
        name: "recvmsg",
        func: "tcp_recvmsg",
        fields: &["bytes"],
    },
    KindInfo {
        name: "probe0",
        func: "tcp_send_probe0",
        fields: &["bytes"],
    },
    KindInfo {
        name: "rto",
        func: "tcp_retransmit_timer",
        fields: &["seq"],
    },
    KindInfo {
        name: "cpu_wait",
        func: "schedule",
        fields: &["wait_ns"],
    },
    KindInfo {
        name: "established",
        func: "tcp_finish_connect",
        fields: &["mss", "sndbuf", "rcvbuf", "pacing_rate"],
    },
    KindInfo {
        name: "drop",
        func: "kfree_skb",
        fields: &["pkt", "site"],
    },
    KindInfo {
        name: "qdisc_bypass",
        func: "__dev_xmit_skb",
        fields: &["pkt"],
    },
    KindInfo {
        name: "gso_segment",
        func: "validate_xmit_skb",
        fields: &["pkt", "segs"],
    },
    KindInfo {
        name: "requeue",
        func: "dev_requeue_skb",
        fields: &["pkt"],
    },
    KindInfo {
        name: "loss_probe",
        func: "tcp_send_loss_probe",
        fields: &["seq", "retrans"],
    },
    KindInfo {
        name: "retransmit",
        func: "__tcp_retransmit_skb",
        fields: &["skb", "seq", "end_seq", "segs"],
    },
    KindInfo {
        name: "ca_state",
        func: "tcp_set_ca_state",
        fields: &["state"],
    },
];

/// The kinds whose function differs on the passive side of a connection: `(kind, function)`.
pub const PASSIVE_FUNCS: &[(&str, &str)] = &[("established", "tcp_rcv_state_process")];

/// The widest kind's field count: the number of value columns in [`Columns`].
pub const MAX_FIELDS: usize = 7;

/// The stream in columns, for the wasm boundary: row `i` is `t_ns[i]`, `host[i]`, `sk[i]`,
/// `kind[i]` and `values[i * MAX_FIELDS ..][..KINDS[kind].fields.len()]`.
#[derive(Clone, Debug, Default)]
pub struct Columns {
    pub t_ns: Vec<f64>,
    pub host: Vec<u16>,
    pub sk: Vec<u32>,
    pub kind: Vec<u16>,
    pub values: Vec<f64>,
}

impl Columns {
    /// The records as columns. Each kind's code is looked up once per enum variant, not per
    /// record ([`Ev::code`] searches [`KINDS`] by name): the site rebuilds these columns on
    /// every re-run.
    pub fn from_records(records: &[Record]) -> Columns {
        let mut c = Columns {
            t_ns: Vec::with_capacity(records.len()),
            host: Vec::with_capacity(records.len()),
            sk: Vec::with_capacity(records.len()),
            kind: Vec::with_capacity(records.len()),
            values: Vec::with_capacity(records.len() * MAX_FIELDS),
        };
        let mut codes: Vec<(std::mem::Discriminant<Ev>, u16)> = Vec::new();
        for r in records {
            let d = std::mem::discriminant(&r.ev);
            let code = match codes.iter().find(|(x, _)| *x == d) {
                Some(&(_, code)) => code,
                None => {
                    let code = r.ev.code();
                    codes.push((d, code));
                    code
                }
            };
            c.t_ns.push(r.t_ns as f64);
            c.host.push(r.host);
            c.sk.push(r.sk);
            c.kind.push(code);
            let f = r.ev.fields();
            for i in 0..MAX_FIELDS {
                // u64::MAX ("unlimited") becomes +Infinity rather than a rounded 1.8e19.
                c.values.push(f.get(i).map_or(0.0, |&(_, v)| {
                    if v == u64::MAX {
                        f64::INFINITY
                    } else {
                        v as f64
                    }
                }));
            }
        }
        c
    }
}

/// The schema the TypeScript side reads to name columns: kinds, functions, fields, gates.
pub fn schema() -> serde_json::Value {
    serde_json::json!({
        "maxFields": MAX_FIELDS,
        "kinds": KINDS.iter().map(|k| {
            let passive = PASSIVE_FUNCS.iter().find(|(n, _)| *n == k.name).map_or(k.func, |p| p.1);
            serde_json::json!({
                "name": k.name, "func": k.func, "passiveFunc": passive, "fields": k.fields,
            })
        }).collect::<Vec<_>>(),
        "gates": Gate::ALL.iter().map(|g| g.name()).collect::<Vec<_>>(),
        "ackReasons": AckReason::ALL.iter().map(|r| r.name()).collect::<Vec<_>>(),
        "dropSites": DropSite::ALL.iter().map(|d| d.name()).collect::<Vec<_>>(),
        "noSock": NO_SOCK,
    })
}

/// Where events go. Disabled tracing costs one branch per event.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub enabled: bool,
    /// Stop recording after this many events (the run continues; `truncated` says so).
    pub limit: usize,
    pub truncated: bool,
    pub records: Vec<Record>,
    /// Only events with `window.0 <= t_ns < window.1` are kept.
    pub window: (u64, u64),
    /// The packet tap for `--pcap` (every skb a device put on its wire), when asked for.
    pub capture: Option<tap::Tap>,
    /// Reads every event, recorded or not, for the run's summary ([`summary`]).
    pub collector: Option<Box<summary::Collector>>,
}

impl Trace {
    pub fn new(enabled: bool, limit: usize) -> Trace {
        Trace {
            enabled,
            limit,
            truncated: false,
            records: Vec::new(),
            window: (0, u64::MAX),
            capture: None,
            collector: None,
        }
    }

    /// Host `host`'s device driver took `pkt` at `t_ns` (where `dev_queue_xmit_nit` hands
    /// Linux's packet taps their copy): the tap records it when a capture was asked for.
    /// Disabled, it costs one branch per packet.
    #[inline]
    pub fn tap(&mut self, host: u16, t_ns: u64, pkt: &Packet) {
        if let Some(c) = &mut self.capture {
            c.push(host, t_ns, pkt);
        }
    }

    /// The SACK blocks of packet `pkt_id` (kept beside it below TCP), for the tap.
    #[inline]
    pub fn tap_sack(&mut self, pkt_id: u64, sack: &[(u64, u64)]) {
        if let Some(c) = &mut self.capture {
            c.sack.insert(pkt_id, Box::from(sack));
        }
    }

    #[inline]
    pub fn emit(&mut self, t_ns: u64, host: u16, sk: SockId, ev: impl FnOnce() -> Ev) {
        let record = self.enabled && t_ns >= self.window.0 && t_ns < self.window.1;
        if !record && self.collector.is_none() {
            return;
        }
        let ev = ev();
        if let Some(c) = self.collector.as_mut() {
            c.observe(t_ns, host, sk, &ev);
        }
        if !record {
            return;
        }
        if self.records.len() >= self.limit {
            self.truncated = true;
            return;
        }
        self.records.push(Record { t_ns, host, sk, ev });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_carry_each_records_kind_code_and_fields() {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/autocorking.toml"
        ))
        .unwrap();
        let opts = crate::RunOptions {
            trace: true,
            sets: vec!["sim.duration_ms=2".into()],
            ..Default::default()
        };
        let records = crate::run_source(&src, "autocorking.toml", &opts)
            .unwrap()
            .trace
            .records;
        let c = Columns::from_records(&records);
        assert!(records.len() > 1000);
        let kinds: std::collections::BTreeSet<u16> = c.kind.iter().copied().collect();
        assert!(kinds.len() > 5, "only {} kinds", kinds.len());
        for (i, r) in records.iter().enumerate() {
            assert_eq!(c.kind[i], r.ev.code(), "row {i}: {:?}", r.ev);
            assert_eq!(c.t_ns[i], r.t_ns as f64);
            let f = r.ev.fields();
            for (k, &(_, v)) in f.iter().enumerate() {
                let want = if v == u64::MAX {
                    f64::INFINITY
                } else {
                    v as f64
                };
                assert_eq!(c.values[i * MAX_FIELDS + k], want, "row {i} field {k}");
            }
        }
    }

    #[test]
    fn every_kind_publishes_the_fields_its_events_carry() {
        let samples = [
            Ev::SendmsgCall {
                size: 1,
                msg_more: false,
            },
            Ev::Autocork {
                skb: 1,
                skb_len: 2,
                size_goal: 3,
                wmem_alloc: 4,
                truesize: 5,
                counted: true,
            },
            Ev::Xmit {
                skb: 1,
                pkt: 2,
                seq: 3,
                end_seq: 4,
                segs: 5,
                len: 6,
                truesize: 7,
            },
            Ev::QueueWake { gate: Gate::Bql },
            Ev::Retransmit {
                skb: 1,
                seq: 2,
                end_seq: 3,
                segs: 4,
            },
            Ev::CaState { state: 3 },
            Ev::QdiscBypass { pkt: 1 },
            Ev::GsoSegment { pkt: 1, segs: 2 },
            Ev::Requeue { pkt: 1 },
            Ev::AckRcvd {
                ack: 1,
                acked: 2,
                cwnd: 3,
                ssthresh: 4,
                srtt_us: 5,
                pacing_rate: 6,
                packets_out: 7,
            },
        ];
        for ev in samples {
            let names: Vec<_> = ev.fields().iter().map(|f| f.0).collect();
            assert_eq!(
                names,
                KINDS[ev.code() as usize].fields,
                "{}",
                ev.kind_name()
            );
            assert!(names.len() <= MAX_FIELDS);
        }
    }

    #[test]
    fn columns_keep_unlimited_values_as_infinity() {
        let r = Record {
            t_ns: 5,
            host: 1,
            sk: 0,
            ev: Ev::AckRcvd {
                ack: 1,
                acked: 2,
                cwnd: 10,
                ssthresh: u64::MAX,
                srtt_us: 5,
                pacing_rate: 6,
                packets_out: 7,
            },
        };
        let c = Columns::from_records(&[r]);
        assert_eq!(c.values[3], f64::INFINITY);
        assert_eq!(c.values[2], 10.0);
    }

    #[test]
    fn ack_reasons_and_drop_sites_are_listed_in_code_order() {
        for (i, r) in AckReason::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i, "{}", r.name());
        }
        for (i, d) in DropSite::ALL.iter().enumerate() {
            assert_eq!(*d as usize, i, "{}", d.name());
        }
    }

    #[test]
    fn a_disabled_trace_records_nothing() {
        let mut t = Trace::new(false, 10);
        t.emit(1, 0, 0, || Ev::QueueWake { gate: Gate::Bql });
        assert!(t.records.is_empty());
    }
}
