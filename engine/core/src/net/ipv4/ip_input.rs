//! `net/ipv4/ip_input.c` with the receive entry of `net/core/dev.c`: a frame arrives from the
//! wire or from loopback, `netif_receive_skb` → `ip_rcv` counts the IP MIBs and hands it to
//! `tcp_v4_rcv`.
//!
//! Simplified:
//! - the receiving socket is the sender's peer (one connection per socket pair), not a lookup;
//!   visible effect: none.

use crate::include::linux::skbuff::{Packet, NO_SOCK};
use crate::include::uapi::linux::snmp::Mib;
use crate::net::host::Stack;
use crate::net::ipv4::tcp_input;
use crate::trace::Ev;

impl Stack {
    /// The oldest frame on link `l` reaches the far end.
    pub fn link_arrive(&mut self, l: u16) {
        let (t, pkt) = self.links[l as usize]
            .in_flight
            .pop_front()
            .expect("arrival without packet");
        debug_assert_eq!(t, self.now_ns);
        let to = self.links[l as usize].to;
        if pkt.gso_segs > 1 && !self.hosts[to as usize].cfg.nic.gro {
            // GRO off (`ethtool -K gro off`, or a forwarder that cuts GSO frames): each MSS
            // frame on the wire reaches IP and TCP as its own skb.
            let mut id = self.hosts[to as usize].rx_seg_id;
            let mut frames = Vec::with_capacity(pkt.gso_segs as usize);
            pkt.for_each_gso_segment(&mut id, |s| frames.push(s));
            self.hosts[to as usize].rx_seg_id = id;
            for f in frames {
                self.netif_receive(to, &f);
            }
            return;
        }
        self.netif_receive(to, &pkt);
    }

    /// The NET_RX softirq takes the oldest skb a veth (or host `h`'s loopback) put on host `h`'s
    /// backlog
    /// (`process_backlog` → `__netif_receive_skb`), in the context of the task whose transmit
    /// raised it: on Linux it runs on that task's CPU when `__dev_queue_xmit` re-enables bottom
    /// halves, so every CPU cost of the receive, and of what it transmits in turn (an ACK, a
    /// window update), is charged to that task's socket (`crate::drivers::net::veth`).
    pub fn veth_rx(&mut self, h: u16) {
        let (pkt, owner) = self.hosts[h as usize]
            .veth_rx
            .pop_front()
            .expect("veth backlog event without packet");
        let outer = self.softirq_owner;
        self.softirq_owner = (owner != NO_SOCK).then_some(owner);
        self.netif_receive(h, &pkt);
        self.softirq_owner = outer;
    }

    /// `netif_receive_skb` → `ip_rcv` → `tcp_v4_rcv`: the IP MIBs, then TCP. The skb is
    /// lent, not moved: TCP copies it only to keep it (the socket's backlog).
    fn netif_receive(&mut self, host: u16, pkt: &Packet) {
        let segs = pkt.gso_segs.max(1) as u64;
        let id = pkt.id;
        self.emit(host, NO_SOCK, || Ev::WireRx { pkt: id, segs });
        let mib = &mut self.hosts[host as usize].mib;
        mib.inc(Mib::IpInReceives);
        mib.inc(Mib::IpInDelivers);
        mib.add(
            Mib::IpExtInOctets,
            (pkt.len - crate::include::linux::skbuff::ETH_HLEN) as u64,
        );
        // The receiving socket is the sender's peer (one connection per socket pair).
        let sk = self.socks[pkt.sk as usize].peer;
        tcp_input::tcp_v4_rcv(self, sk, pkt);
    }
}

#[cfg(test)]
mod tests {
    use crate::include::uapi::linux::snmp::Mib;

    /// One 100,000-byte write over a 40 ms path; the receiver's IpInReceives and TcpInSegs.
    fn receiver_counts(extra: &str) -> (u64, u64, u64) {
        let src = format!(
            "title = \"t\"\nkernel = \"6.18\"\n[link]\ndelay_us = 20000\n[app]\nkind = \"tcp_stream\"\nbytes = 100000\nwrite_size_bytes = 100000\n{extra}"
        );
        let w = crate::sim::testkit::run(&src);
        let mib = &w.hosts[1].mib;
        let segs = w.hosts[0].mib.get(Mib::TcpOutSegs);
        (mib.get(Mib::IpInReceives), mib.get(Mib::TcpInSegs), segs)
    }

    #[test]
    fn without_gro_each_mss_frame_of_a_tso_packet_is_received_as_its_own_skb() {
        let (gro_rx, _, segs) = receiver_counts("");
        assert!(
            gro_rx + 10 < segs,
            "GRO on: TSO packets arrive whole ({gro_rx} skbs, {segs} segments)"
        );
        let (rx, in_segs, segs) = receiver_counts("[ethtool]\ngro = 0\n");
        // The handshake's ACK arrives as one skb, like every data segment now.
        assert!(
            rx >= segs && rx <= segs + 2,
            "{rx} skbs for {segs} segments"
        );
        assert_eq!(in_segs, rx, "TcpInSegs counts skbs");
    }
}
