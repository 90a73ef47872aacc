//! `net/core/skbuff.c`: what the layers below TCP ask of an skb (its lengths on the wire and in
//! the qdisc). The structure itself is in `include/linux/skbuff.rs`.

use crate::include::linux::skbuff::{tcp_flags, Packet, SockId, ETH_HLEN, IPV4_HLEN, TCP_HLEN};
use crate::net::core::sock::TCPOLEN_TSTAMP_ALIGNED;

impl Packet {
    /// A data packet for tests and benchmarks: `payload` bytes (sequence space `0..payload`)
    /// in `gso_segs` segments of `mss`, from socket `sk` on host 0 to host 1, with the
    /// timestamp option (66 header bytes in each frame), no pacing rate and no departure
    /// time. Tests change the fields they are about with `Packet { hash, ..Packet::test_data(..) }`.
    pub fn test_data(id: u64, sk: SockId, payload: u32, gso_segs: u32, mss: u32) -> Packet {
        let hdr = ETH_HLEN + IPV4_HLEN + TCP_HLEN + TCPOLEN_TSTAMP_ALIGNED;
        Packet {
            id,
            orig_skb: id,
            sk,
            src_host: 0,
            dst_host: 1,
            hash: sk.wrapping_mul(2654435761),
            priority: 0,
            len: hdr + payload,
            hdr_len: hdr,
            truesize: 768 + payload,
            gso_segs,
            gso_size: if gso_segs > 1 { mss } else { 0 },
            tstamp_ns: 0,
            sk_pacing_rate_bps: u64::MAX,
            pure_ack: false,
            seq: 0,
            end_seq: payload as u64,
            ack_seq: 0,
            window: 65535,
            flags: tcp_flags::ACK,
            tsecr_ms: 0,
            sent_ns: 0,
        }
    }

    /// Payload bytes (`end_seq - seq` without SYN/FIN).
    pub fn payload_len(&self) -> u32 {
        let mut n = self.end_seq - self.seq;
        if self.flags & tcp_flags::SYN != 0 {
            n -= 1;
        }
        if self.flags & tcp_flags::FIN != 0 {
            n -= 1;
        }
        n as u32
    }

    /// `qdisc_pkt_len()` after `qdisc_pkt_len_init()` (net/core/dev.c): a GSO skb is charged
    /// the headers of every segment it will become, not just its own.
    pub fn qdisc_pkt_len(&self) -> u32 {
        if self.gso_segs > 1 {
            self.len + (self.gso_segs - 1) * self.hdr_len
        } else {
            self.len
        }
    }

    /// Bytes this packet occupies on an Ethernet wire: every segment's frame plus preamble
    /// (7), start-of-frame delimiter (1), FCS (4) and inter-frame gap (12), with frames padded
    /// to the 60-byte minimum (64 with FCS).
    pub fn wire_bytes(&self) -> u64 {
        const PER_FRAME_OVERHEAD: u64 = 7 + 1 + 4 + 12;
        let segs = self.gso_segs.max(1) as u64;
        let frame = |l: u64| l.max(60) + PER_FRAME_OVERHEAD;
        if segs == 1 {
            return frame(self.len as u64);
        }
        let payload = (self.len - self.hdr_len) as u64;
        let full = payload / self.gso_size as u64;
        let rest = payload % self.gso_size as u64;
        let mut b = full * frame(self.hdr_len as u64 + self.gso_size as u64);
        if rest > 0 {
            b += frame(self.hdr_len as u64 + rest);
        }
        b
    }

    /// `skb_gso_segment` with every GSO feature off (`net/core/gso.c` → `tcp_gso_segment`):
    /// hand `f` the `gso_segs` segments of this GSO skb, each with `gso_size` bytes of payload
    /// and its own headers (`len` = `hdr_len` + payload, which `qdisc_pkt_len` is). The first
    /// keeps the skb's id, the others take theirs from `next_seg_id`; FIN and PSH stay on the
    /// last segment; each carries its share of the truesize (the last the remainder), so its
    /// own free releases it (`tcp_wfree` per segment). Used by the device's software GSO and by
    /// `tbf_segment`.
    pub fn for_each_gso_segment(&self, next_seg_id: &mut u64, mut f: impl FnMut(Packet)) {
        let payload = self.len - self.hdr_len;
        let mss = self.gso_size;
        let segs = payload.div_ceil(mss);
        let fin = (self.flags & tcp_flags::FIN != 0) as u64;
        let mut given_truesize = 0u32;
        for i in 0..segs {
            let seg_payload = mss.min(payload - i * mss);
            let last = i + 1 == segs;
            let mut s = self.clone();
            if i > 0 {
                s.id = *next_seg_id;
                *next_seg_id += 1;
            }
            s.len = self.hdr_len + seg_payload;
            s.gso_segs = 1;
            s.gso_size = 0;
            s.seq = self.seq + (i * mss) as u64;
            s.end_seq = s.seq + seg_payload as u64;
            if last {
                s.end_seq += fin;
                s.truesize = self.truesize - given_truesize;
            } else {
                s.flags &= !(tcp_flags::FIN | tcp_flags::PSH);
                s.truesize = ((self.truesize as u64 * seg_payload as u64) / payload as u64) as u32;
                given_truesize += s.truesize;
            }
            f(s);
        }
    }
}
