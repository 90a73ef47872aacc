//! `drivers/net/veth.c`, Linux 6.18: one end of a virtual Ethernet pair, the device two network
//! namespaces share. Its `ndo_start_xmit` is [`Veth::veth_xmit`]: it hands the skb to the peer
//! device and returns `NETDEV_TX_OK`. Nothing is serialized and nothing waits for a
//! TX-completion interrupt: a veth has no line rate, no TX ring and no BQL.
//!
//! What follows the hand-over in the kernel, and where the model does it:
//! - `veth_forward_skb` → `__dev_forward_skb` (scrub, `eth_type_trans`) → `__netif_rx` puts
//!   the skb on this CPU's backlog (RPS off) and raises NET_RX. The softirq runs when
//!   `__dev_queue_xmit` re-enables bottom halves (`rcu_read_unlock_bh`), so the peer's
//!   `ip_rcv` and `tcp_v4_rcv` run in the sender's context, on the sender's CPU. The world
//!   queues the skb on the peer's backlog and runs it once the sender's CPU work so far (the
//!   transmit path) is done (`World::schedule_veth_rx`, `Stack::veth_rx` in
//!   `net/ipv4/ip_input.rs`), charging the softirq's CPU work to the socket whose transmit
//!   raised it.
//! - `ip_rcv_core` orphans the skb (`skb_orphan`, which runs `tcp_wfree`) in that softirq,
//!   before `__dev_queue_xmit` returns to TCP. The device therefore reports the skb as freed
//!   at once: it leaves the sender's `sk_wmem_alloc` at xmit, so TSQ never holds the flow and
//!   `tcp_should_autocork` almost never finds a packet of the flow below TCP.
//! - A new veth has `IFF_NO_QUEUE` (noqueue, since 4.3), TSO and GSO on and GRO off. With GRO
//!   off the peer's receive queue has no NAPI (`rq->napi` is NULL), so `use_napi` is false
//!   and the whole GSO skb goes through `__netif_rx`: the receiver gets it as the sender built
//!   it, one skb of `gso_segs` segments, without per-frame driver work or GRO.
//!
//! Simplified:
//! - the peer's NET_RX softirq runs in an event of its own once the transmitting context's
//!   CPU work so far is done, not nested inside `__dev_queue_xmit` (the sender's own ACKs
//!   would re-enter `tcp_write_xmit`); visible effect: a `sendmsg` that transmits several skbs
//!   has the peer see them after all of its transmits' work, and the sender processes the
//!   ACKs afterwards, as Linux does at `release_sock`.
//! - no NAPI/XDP mode (`ethtool -K gro on` or an XDP program on the peer: `veth_xdp_rcv`, the
//!   ptr_ring and its backpressure with `NETDEV_TX_BUSY`), because a new veth has neither;
//!   visible effect: a veth with GRO on has no model.
//! - `__netif_rx` never drops (the backlog's `netdev_max_backlog` of 1000 skbs), because the
//!   world drains the backlog as soon as the transmitting context's work is done; visible
//!   effect: none unless one context transmits more than 1000 skbs in a row.
//! - no MTU check (`is_skb_forwardable`), because TCP builds skbs for the link's MTU; visible
//!   effect: none.

use crate::include::linux::skbuff::Packet;
use crate::scenario::cpu_costs::CpuCosts;
use crate::trace::{Ev, Trace};

/// One end of a veth pair: its software TX counters (`dev_sw_netstats_tx_add`, what
/// `ip -s link` prints as TX).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Veth {
    /// skbs handed to the peer (one per skb, whatever its segment count).
    pub tx_packets: u64,
    /// Their `skb->len`, Ethernet header included.
    pub tx_bytes: u64,
}

impl Veth {
    /// `veth_xmit`: forward `skb` to the peer (`veth_forward_skb` → `__netif_rx`, `use_napi`
    /// false: no GRO, no XDP), count it (`dev_sw_netstats_tx_add(dev, 1, length)`) and return
    /// `NETDEV_TX_OK`. Returns the skb for the peer's backlog and the CPU time of the call; the
    /// caller also reports the skb as freed (orphaned in the peer's `ip_rcv_core` before
    /// `__dev_queue_xmit` returns). Never refuses an skb, never stops the queue.
    ///
    /// Follows `drivers/net/veth.c` `veth_xmit`, `veth_forward_skb`, Linux 6.18.
    ///
    /// Simplified:
    /// - the CPU time is the measured `veth_xmit` ([`CpuCosts::driver_xmit_ns`], 305..325 ns on
    ///   this project's VM, which includes `__netif_rx`), not split into forward and backlog
    ///   parts, because only their sum was measured; visible effect: none.
    pub fn veth_xmit(
        &mut self,
        skb: Packet,
        host: u16,
        now_ns: u64,
        costs: &CpuCosts,
        trace: &mut Trace,
    ) -> (Packet, u64) {
        let length = skb.len as u64; // int length = skb->len, before __dev_forward_skb pulls
        let (id, sk, segs) = (skb.id, skb.sk, skb.gso_segs.max(1) as u64);
        // The skb crosses to the peer whole, at once (nothing is serialized).
        trace.emit(now_ns, host, sk, || Ev::WireTx {
            pkt: id,
            wire_bytes: length,
            segs,
            end_ns: now_ns,
        });
        // case NET_RX_SUCCESS: if (!use_napi) dev_sw_netstats_tx_add(dev, 1, length);
        self.tx_packets += 1;
        self.tx_bytes += length;
        (skb, costs.driver_xmit_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn veth_xmit_hands_the_whole_gso_skb_to_the_peer_and_counts_one_packet() {
        let mut v = Veth::default();
        let mut trace = Trace::new(true, 100);
        let costs = CpuCosts::MEASURED_6_18_VM;
        let (skb, cpu_ns) = v.veth_xmit(
            Packet::test_data(7, 0, 10 * 1448, 10, 1448),
            0,
            5_000,
            &costs,
            &mut trace,
        );
        assert_eq!(skb.gso_segs, 10, "no segmentation: GRO off, TSO on");
        assert_eq!((v.tx_packets, v.tx_bytes), (1, skb.len as u64));
        assert_eq!(cpu_ns, costs.driver_xmit_ns);
    }

    // ---- the veth as the world uses it ----

    use crate::net::ipv4::tcp::tcp_should_autocork;
    use crate::net::ipv4::tcp_output::tcp_push_pending_frames;
    use crate::net::sched::sch_api::Qdisc;
    use crate::scenario::{QdiscKind, Scenario};
    use crate::sim::testkit::{established, queue_skb};
    use crate::sim::world::World;

    const VETH: &str = "[link]\nkind = \"veth\"\n";

    /// A connection with one 10-byte write transmitted by socket 0, and a second 10-byte write
    /// queued behind it: the moment `tcp_push` asks `tcp_should_autocork`.
    fn second_small_write(link: &str) -> (World, u64) {
        let mut w = established("6.18", &format!("{link}[socket]\nTCP_NODELAY = 1\n"));
        let before = w.socks[0].sk_wmem_alloc;
        queue_skb(&mut w, 0, 10);
        tcp_push_pending_frames(&mut w, 0);
        assert_eq!(w.socks[0].packets_out, 1, "the first write left");
        queue_skb(&mut w, 0, 10);
        (w, before)
    }

    #[test]
    fn veth_orphans_the_skb_at_xmit_so_autocorking_does_not_hold() {
        let (w, before) = second_small_write(VETH);
        assert_eq!(
            w.socks[0].sk_wmem_alloc, before,
            "the clone left sk_wmem_alloc before dev_queue_xmit returned"
        );
        assert!(!tcp_should_autocork(&w.socks[0], 45 * 1448));
        // On the Ethernet NIC the clone waits for its TX-completion interrupt: autocork holds.
        let (w, before) = second_small_write("");
        assert!(w.socks[0].sk_wmem_alloc > before);
        assert!(tcp_should_autocork(&w.socks[0], 45 * 1448));
    }

    #[test]
    fn a_veth_delivers_to_the_peer_in_the_senders_softirq() {
        let (mut w, _) = second_small_write(VETH);
        let now = w.now_ns;
        let (pkt, owner) = w.hosts[1]
            .veth_rx
            .front()
            .cloned()
            .expect("on the peer's backlog");
        assert_eq!(owner, 0, "raised by socket 0's transmit");
        assert_eq!(pkt.end_seq - pkt.seq, 10);
        let app_of = |w: &World, sk: u32| w.apps.iter().position(|a| a.sk == sk).unwrap();
        let (sender, receiver) = (app_of(&w, 0), app_of(&w, 1));
        let (sender_cpu, receiver_cpu) = (w.apps[sender].cpu_ns, w.apps[receiver].cpu_ns);
        let receiver_host_busy = w.cpus[1].core(w.apps[receiver].core as usize).busy_total_ns;
        let rcv_nxt = w.socks[1].rcv_nxt;
        w.veth_rx(1);
        w.flush_charges();
        assert_eq!(w.now_ns, now, "no wire, no delay");
        assert_eq!(
            w.socks[1].rcv_nxt,
            rcv_nxt + 10,
            "tcp_v4_rcv ran on the peer"
        );
        // The receive (and any ACK it sent) ran on the sender's core, as its task's time.
        assert!(w.apps[sender].cpu_ns >= sender_cpu + w.costs(1).rx_skb_ns);
        assert_eq!(w.apps[receiver].cpu_ns, receiver_cpu);
        let core = w.apps[receiver].core as usize;
        assert_eq!(w.cpus[1].core(core).busy_total_ns, receiver_host_busy);
    }

    #[test]
    fn the_peers_softirq_runs_once_the_transmit_paths_work_is_done() {
        let (mut w, _) = second_small_write(VETH);
        w.flush_charges();
        let sender = w.apps.iter().find(|a| a.sk == 0).unwrap();
        let busy = w.cpus[0].core(sender.core as usize).busy_until_ns;
        assert!(busy > w.now_ns, "the transmit charged the sender's core");
        let rcv_nxt = w.socks[1].rcv_nxt;
        while w.socks[1].rcv_nxt == rcv_nxt {
            assert!(w.step());
        }
        assert!(
            w.now_ns >= busy,
            "NET_RX runs when __dev_queue_xmit re-enables bottom halves, after the transmit"
        );
    }

    const FORWARDER: &str = "[link]\nkind = \"veth\"\ndelay_us = 20000\n";

    #[test]
    fn a_veth_with_a_delay_is_two_pairs_through_the_labs_forwarder() {
        let (mut w, before) = second_small_write(FORWARDER);
        assert!(w.cfg.link.forwarder);
        assert!(
            w.hosts[0].veth_peer.is_none(),
            "not delivered to the peer's backlog"
        );
        assert_eq!(
            w.socks[0].sk_wmem_alloc, before,
            "orphaned as the forwarder's veth receives it: TSQ and autocork find nothing below TCP"
        );
        let l = w.hosts[0].link_out.expect("the forwarder's link") as usize;
        let (arrive, _) = *w.links[l].in_flight.front().expect("held by the forwarder");
        assert_eq!(
            arrive,
            w.now_ns + 20_000_000,
            "the forwarder's delay, no line rate"
        );
        let rcv_nxt = w.socks[1].rcv_nxt;
        while w.socks[1].rcv_nxt == rcv_nxt {
            assert!(w.step());
        }
        assert_eq!(w.now_ns, arrive);
        // A veth without a delay stays one pair; the delay key's default is an Ethernet's.
        assert!(!established("6.18", VETH).cfg.link.forwarder);
    }

    #[test]
    fn a_veth_forwarder_may_hold_a_bottleneck_router_and_carry_a_free_cpu_stream() {
        let src = format!(
            "title = \"t\"\n{FORWARDER}[path]\nbottleneck_mbit = 200\nqueue_packets = 100\n[cpu]\nmodel = \"free\"\n"
        );
        let cfg = Scenario::parse(&src, "t.toml")
            .unwrap()
            .config(None, &[])
            .expect("the lab's router sits between the two veth pairs");
        assert!(cfg.link.forwarder && cfg.link.bottleneck_bps == 200_000_000);
    }

    #[test]
    fn the_peer_gets_the_gso_skb_whole_without_per_frame_receive_work() {
        let w = established("6.18", VETH);
        assert_eq!(
            w.costs(1).rx_seg_ns,
            0,
            "no NIC RX ring, no GRO (off on a new veth)"
        );
        assert!(w.costs(1).rx_skb_ns > 0);
        assert!(w.hosts[0].dev.cfg.tso && w.hosts[0].dev.cfg.gso);
        assert!(
            !w.hosts[0].dev.params.bql,
            "veth_xmit never calls netdev_tx_sent_queue"
        );
    }

    fn qdisc_of(kernel: &str, extra: &str) -> QdiscKind {
        let src = format!("title = \"t\"\nkernel = \"{kernel}\"\n{VETH}{extra}");
        let cfg = Scenario::parse(&src, "t.toml")
            .unwrap()
            .config(None, &[])
            .unwrap();
        assert!(cfg.link.veth && !cfg.link.loopback);
        cfg.hosts[0].qdisc.kind.clone()
    }

    #[test]
    fn a_new_veth_gets_noqueue_from_4_3_and_the_default_qdisc_before() {
        assert_eq!(qdisc_of("6.18", ""), QdiscKind::Noqueue);
        assert_eq!(qdisc_of("4.4", ""), QdiscKind::Noqueue);
        assert_eq!(qdisc_of("3.14", ""), QdiscKind::PfifoFast);
        // A qdisc set with tc stays: veth_xmit is then called from the qdisc run.
        assert_eq!(qdisc_of("6.18", "[tc]\nqdisc = \"fq\"\n"), QdiscKind::Fq);
        let w = established("6.18", VETH);
        assert!(matches!(w.hosts[0].dev.qdisc, Qdisc::Noqueue));
    }

    #[test]
    fn a_veth_stream_with_free_cpu_is_refused_because_nothing_else_takes_time() {
        let src = format!("title = \"t\"\n{VETH}[cpu]\nmodel = \"free\"\n");
        let e = Scenario::parse(&src, "t.toml")
            .unwrap()
            .config(None, &[])
            .unwrap_err();
        assert_eq!(e.key.as_deref(), Some("cpu.model"));
        assert!(e.message.contains("veth"), "{}", e.message);
    }
}
