//! A bottleneck router on one direction of the link: frames leave the sender's NIC, wait in a
//! FIFO that serialises them at the bottleneck's rate, and a frame that finds the queue full is
//! dropped (tail drop); what leaves the queue then travels the link's one-way delay.
//!
//! Follows the conformance lab's forwarder, `capture/lab/sp-delayfwd.c` (`enqueue`,
//! `advance_queue`, `segment_and_enqueue`), run as `sp-delayfwd -d DELAY -R RATE -q PACKETS -S`:
//! - a GSO frame is cut into MSS-sized frames first (`-S`), as a NIC's TSO puts them on a
//!   wire, so the queue counts and drops single packets and the receiver gets one skb per
//!   segment (no GRO merging across them);
//! - a frame occupies the queue from its arrival until its last byte is serialised
//!   (`txdone_ns`); one that finds `queue_packets` frames waiting for or in serialisation is
//!   dropped;
//! - serialisation counts Ethernet frame bytes (14-byte header + IP packet: `skb->len` here),
//!   without preamble, FCS or inter-frame gap;
//! - the one-way delay is added after serialisation (`due_ns = txdone_ns + delay_ns`).
//!
//! The router is a plain state machine: [`Bottleneck::enqueue`] decides, at a frame's arrival,
//! when it leaves or that it is dropped. Because the queue is FIFO at a constant rate, the
//! departure time is known at arrival and no event is needed for the queue itself.
//!
//! Simplified:
//! - no scheduling latency of the forwarder (sp-delayfwd adds a few tens of µs measured on the
//!   lab kernel, docs/capture.md), because it is a property of that machine; visible effect:
//!   the RTT is that much shorter than the lab's.

use std::collections::VecDeque;

use serde::Serialize;

use crate::include::linux::skbuff::Packet;

/// A router's counters (sp-delayfwd's JSON statistics line).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BottleneckStats {
    /// Bottleneck rate, bits per second, and the queue limit, packets.
    pub rate_bps: u64,
    pub queue_packets: u32,
    /// Frames (single segments) that entered the queue, and their bytes.
    pub packets: u64,
    pub bytes: u64,
    /// Frames dropped because the queue was full (`drops_rate_queue`).
    pub drops: u64,
    /// The most frames the queue held at once (`max_inq`).
    pub max_queue_packets: u64,
}

/// One direction's bottleneck router.
#[derive(Clone, Debug)]
pub struct Bottleneck {
    rate_bps: u64,
    queue_limit: u32,
    /// When the serialiser finishes what it holds (`link_free_ns`).
    link_free_ns: u64,
    /// End of serialisation of each frame still queued or being serialised, oldest first.
    inq: VecDeque<u64>,
    /// Ids for the frames a GSO packet is cut into.
    next_seg_id: u64,
    pub stats: BottleneckStats,
}

/// Ids of frames cut by the router of link `n`: above the devices' GSO segment ids (2^52 +
/// host × 2^36) and below 2^53, so the site's f64 trace columns hold them exactly.
const ROUTER_SEG_ID_BASE: u64 = (1 << 52) + (1 << 51);

impl Bottleneck {
    /// A router serialising at `rate_bps` with room for `queue_packets` frames, on link `link`.
    pub fn new(link: u16, rate_bps: u64, queue_packets: u32) -> Bottleneck {
        assert!(rate_bps > 0, "a bottleneck needs a rate");
        Bottleneck {
            rate_bps,
            queue_limit: queue_packets,
            link_free_ns: 0,
            inq: VecDeque::new(),
            next_seg_id: ROUTER_SEG_ID_BASE + ((link as u64) << 36),
            stats: BottleneckStats {
                rate_bps,
                queue_packets,
                ..BottleneckStats::default()
            },
        }
    }

    /// `advance_queue`: forget frames that finished serialisation by `now_ns`.
    fn advance_queue(&mut self, now_ns: u64) {
        while self.inq.front().is_some_and(|&t| t <= now_ns) {
            self.inq.pop_front();
        }
    }

    /// Frames in the queue (waiting for or in serialisation) at `now_ns`.
    pub fn queued(&mut self, now_ns: u64) -> usize {
        self.advance_queue(now_ns);
        self.inq.len()
    }

    /// A packet reaches the router at `arrival_ns`: cut it into frames (`-S`), then for each
    /// frame either its end of serialisation goes to `out` with the frame, or the frame goes to
    /// `dropped` (the queue was full). Frames are handled in sequence order, so a full queue
    /// drops the tail of a GSO packet, as sp-delayfwd does.
    pub fn enqueue(
        &mut self,
        arrival_ns: u64,
        pkt: Packet,
        out: &mut Vec<(u64, Packet)>,
        dropped: &mut Vec<Packet>,
    ) {
        if pkt.gso_segs <= 1 {
            self.enqueue_frame(arrival_ns, pkt, out, dropped);
            return;
        }
        // segment_and_enqueue: MSS frames with their own headers.
        let mss = pkt.gso_size as u64;
        let mut seq = pkt.seq;
        while seq < pkt.end_seq {
            let end = (seq + mss).min(pkt.end_seq);
            let payload = (end - seq) as u32;
            let id = self.next_seg_id;
            self.next_seg_id += 1;
            let seg = Packet {
                id,
                len: pkt.hdr_len + payload,
                gso_segs: 1,
                gso_size: 0,
                seq,
                end_seq: end,
                truesize: 0,
                // PSH (and FIN) stay on the last frame, as tcp_gso_segment leaves them.
                flags: if end == pkt.end_seq {
                    pkt.flags
                } else {
                    pkt.flags
                        & !(crate::include::linux::skbuff::tcp_flags::PSH
                            | crate::include::linux::skbuff::tcp_flags::FIN)
                },
                ..pkt.clone()
            };
            self.enqueue_frame(arrival_ns, seg, out, dropped);
            seq = end;
        }
    }

    /// `enqueue` of one frame.
    fn enqueue_frame(
        &mut self,
        arrival_ns: u64,
        pkt: Packet,
        out: &mut Vec<(u64, Packet)>,
        dropped: &mut Vec<Packet>,
    ) {
        self.advance_queue(arrival_ns);
        if self.queue_limit > 0 && self.inq.len() as u64 + 1 > self.queue_limit as u64 {
            self.stats.drops += 1;
            dropped.push(pkt);
            return;
        }
        let start = self.link_free_ns.max(arrival_ns);
        let bytes = pkt.len as u64;
        let txdone = start + bytes * 8_000_000_000 / self.rate_bps;
        self.link_free_ns = txdone;
        self.inq.push_back(txdone);
        self.stats.packets += 1;
        self.stats.bytes += bytes;
        self.stats.max_queue_packets = self.stats.max_queue_packets.max(self.inq.len() as u64);
        out.push((txdone, pkt));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(id: u64, payload: u32) -> Packet {
        Packet::test_data(id, 0, payload, 1, 1448)
    }

    #[test]
    fn a_frame_leaves_after_its_bytes_at_the_bottleneck_rate() {
        let mut b = Bottleneck::new(0, 200_000_000, 100);
        let (mut out, mut dropped) = (Vec::new(), Vec::new());
        b.enqueue(1000, frame(1, 1448), &mut out, &mut dropped);
        // 1514 bytes at 200 Mbit/s = 60.56 µs.
        assert_eq!(out[0].0, 1000 + 60_560);
        b.enqueue(2000, frame(2, 1448), &mut out, &mut dropped);
        assert_eq!(
            out[1].0,
            1000 + 2 * 60_560,
            "the second waits for the first"
        );
    }

    #[test]
    fn a_frame_that_finds_the_queue_full_is_dropped_at_the_tail() {
        let mut b = Bottleneck::new(0, 200_000_000, 2);
        let (mut out, mut dropped) = (Vec::new(), Vec::new());
        for id in 1..=3 {
            b.enqueue(0, frame(id, 1448), &mut out, &mut dropped);
        }
        assert_eq!(out.len(), 2);
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].id, 3);
        assert_eq!(b.stats.drops, 1);
        // Once the first frame is serialised there is room again.
        b.enqueue(60_560, frame(4, 1448), &mut out, &mut dropped);
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn a_gso_packet_is_cut_into_mss_frames_and_loses_only_its_tail() {
        let mut b = Bottleneck::new(0, 200_000_000, 3);
        let (mut out, mut dropped) = (Vec::new(), Vec::new());
        let p = Packet {
            seq: 1,
            end_seq: 1 + 5 * 1448,
            ..Packet::test_data(1, 0, 5 * 1448, 5, 1448)
        };
        b.enqueue(0, p, &mut out, &mut dropped);
        assert_eq!(out.len(), 3);
        assert_eq!(dropped.len(), 2);
        assert_eq!((out[0].1.seq, out[0].1.end_seq), (1, 1449));
        assert_eq!(dropped[0].seq, 1 + 3 * 1448);
        assert!(out
            .iter()
            .all(|(_, f)| f.gso_segs == 1 && f.len == 66 + 1448));
    }
}
