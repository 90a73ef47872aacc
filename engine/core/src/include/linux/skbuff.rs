//! `struct sk_buff` as the layers below TCP see it.
//!
//! Follows: `include/linux/skbuff.h` (Linux 6.18) for the fields, `include/net/sch_generic.h`
//! (`qdisc_skb_cb`, `qdisc_pkt_len`) for the length the qdiscs account.
//!
//! A [`Packet`] is one skb handed by TCP (or by the ACK path) to the IP layer: a *clone* of a
//! write-queue skb for data, or a header-only skb for a pure ACK. One TSO/GSO skb of `gso_segs`
//! segments is one `Packet`; its wire frames are counted arithmetically (see `net/core/dev.rs`). Its methods
//! are in `net/core/skbuff.rs`.
//!
//! Simplified:
//! - no payload bytes, only lengths and sequence numbers, because no layer below TCP reads
//!   payload; visible effect: none.
//! - `sk_pacing_rate_bps` is copied from the socket when the clone is made, not read through
//!   `skb->sk` at dequeue time, because the model keeps sockets and qdiscs in separate borrows;
//!   visible effect: pre-EDT fq paces with the rate of the moment of transmission (at most one
//!   ACK older than the kernel's).

/// Index of a socket in the simulation (`struct sock *`).
pub type SockId = u32;
/// "No socket" (`skb->sk == NULL`, e.g. an orphaned skb).
pub const NO_SOCK: SockId = u32::MAX;

/// Ethernet header bytes (`ETH_HLEN`), part of `skb->len` from `dev_queue_xmit` on.
pub const ETH_HLEN: u32 = 14;
/// IPv4 header without options.
pub const IPV4_HLEN: u32 = 20;
/// TCP header without options.
pub const TCP_HLEN: u32 = 20;

/// TCP header flags carried by a packet (`tcp_skb_cb->tcp_flags`).
pub mod tcp_flags {
    pub const FIN: u8 = 0x01;
    pub const SYN: u8 = 0x02;
    pub const RST: u8 = 0x04;
    pub const PSH: u8 = 0x08;
    pub const ACK: u8 = 0x10;
    pub const URG: u8 = 0x20;
}

/// One skb below TCP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique id, stable for the packet's life below TCP (plays the role of `skbaddr`).
    pub id: u64,
    /// Id of the write-queue skb this is a clone of (0 for pure ACKs and control packets).
    pub orig_skb: u64,
    /// Sending socket (`skb->sk`), or [`NO_SOCK`].
    pub sk: SockId,
    /// Host the packet leaves from, and the host it is addressed to.
    pub src_host: u16,
    pub dst_host: u16,
    /// Flow hash (`skb->hash`, from `sk_txhash`): what fq_codel and fq's orphan path hash on.
    pub hash: u32,
    /// `skb->priority` (`sk->sk_priority`); pfifo_fast and fq 6.7+ map it to a band.
    pub priority: u8,
    /// `skb->len` at the device: L2 + IP + TCP headers (with options) + payload.
    pub len: u32,
    /// Header bytes of one segment (L2 + IP + TCP with options): `skb_tcp_all_headers` + L2.
    pub hdr_len: u32,
    /// `skb->truesize`: memory charged to `sk_wmem_alloc` while this clone is below TCP.
    pub truesize: u32,
    /// Number of TCP segments (`skb_shinfo(skb)->gso_segs`, 1 for a non-GSO skb).
    pub gso_segs: u32,
    /// Payload bytes per segment (`gso_size`; 0 when `gso_segs == 1`).
    pub gso_size: u32,
    /// Earliest departure time set by TCP (`skb->tstamp`, EDT model, 4.20+); 0 = none.
    pub tstamp_ns: u64,
    /// The socket's `sk_pacing_rate` (bytes per second) when the clone was made; `u64::MAX` =
    /// unlimited. Read by pre-EDT fq, which paced TCP itself.
    pub sk_pacing_rate_bps: u64,
    /// A pure ACK (`skb_is_tcp_pure_ack`): no payload, no SYN/FIN; truesize is 2.
    pub pure_ack: bool,
    /// TCP sequence space of the payload (relative to the connection's ISN).
    pub seq: u64,
    pub end_seq: u64,
    /// Acknowledgement number and advertised window (bytes, already unscaled).
    pub ack_seq: u64,
    pub window: u32,
    /// TCP flags ([`tcp_flags`]).
    pub flags: u8,
    /// When TCP handed the packet to IP (ns); lets tracing measure sojourn times.
    /// The TCP timestamp option's TSecr, ms (`tcp_time_stamp_ts` echoed; 0: none).
    pub tsecr_ms: u64,
    pub sent_ns: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(len_payload: u32, segs: u32, mss: u32) -> Packet {
        Packet {
            orig_skb: 1,
            hash: 7,
            truesize: 2304 + len_payload,
            seq: 1,
            end_seq: 1 + len_payload as u64,
            ack_seq: 1,
            ..Packet::test_data(1, 0, len_payload, segs, mss)
        }
    }

    #[test]
    fn qdisc_pkt_len_charges_every_segment_header_of_a_gso_skb() {
        let p = data(2 * 1448, 2, 1448);
        assert_eq!(p.qdisc_pkt_len(), p.len + 66);
    }

    #[test]
    fn wire_bytes_of_a_full_mss_frame_is_1538() {
        // 1448 payload + 12 TS option + 20 TCP + 20 IP + 14 Ethernet = 1514, + 24 overhead.
        assert_eq!(data(1448, 1, 1448).wire_bytes(), 1538);
        assert_eq!(data(3 * 1448, 3, 1448).wire_bytes(), 3 * 1538);
    }

    #[test]
    fn wire_bytes_pads_tiny_frames_to_the_ethernet_minimum() {
        let mut ack = data(0, 1, 1448);
        ack.len = ETH_HLEN + IPV4_HLEN + TCP_HLEN; // 54 bytes, no options
        assert_eq!(ack.wire_bytes(), 60 + 24);
    }
}
