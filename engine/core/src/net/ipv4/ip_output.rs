//! `net/ipv4/ip_output.c` and what the device asks back: `ip_queue_xmit` hands an skb to the
//! device (`dev_queue_xmit`), and the device's answers (a timer to set, frames for the wire,
//! skbs dropped or completed) are carried out here; a freed skb runs its destructor
//! (`tcp_wfree`).
//!
//! Simplified:
//! - no routing, fragmentation or netfilter: one device per host, MTU-sized segments from TCP;
//!   visible effect: none for the flows modelled.

use crate::include::linux::skbuff::{Packet, SockId, NO_SOCK};
use crate::include::uapi::linux::snmp::Mib;
use crate::net::core::dev::{DevOut, DevTimer, NetXmit};
use crate::net::host::{CpuCharge, Event, Stack};
use crate::net::ipv4::tcp_output;
use crate::trace::{DropSite, Ev};

impl Stack {
    /// `ip_queue_xmit` → `__ip_local_out` → `ip_output` → `ip_finish_output2` →
    /// `dev_queue_xmit`: count the IP MIBs and hand the packet to the host's device.
    ///
    /// IpOutRequests and IpExtOutOctets count once per skb, whatever its segment count: a
    /// 45-segment TSO skb is one request (net/ipv4/ip_output.c).
    ///
    /// Returns what the device returned (`NET_XMIT_*`), for `__tcp_transmit_skb`.
    pub fn ip_queue_xmit(&mut self, host: u16, pkt: Packet) -> NetXmit {
        let len = pkt.len as u64 - crate::include::linux::skbuff::ETH_HLEN as u64;
        let mib = &mut self.hosts[host as usize].mib;
        mib.inc(Mib::IpOutRequests);
        if self.cfg.profile.ip_out_requests_in_local_out {
            mib.inc(Mib::IpOutTransmits);
        }
        mib.add(Mib::IpExtOutOctets, len);
        if let Some(sack) = self.tcp_sack_opts.get(&pkt.id) {
            // The capture tap (`sendpath run --pcap`) keeps the ACK's SACK blocks for its header.
            self.trace.tap_sack(pkt.id, sack);
        }
        let mut out = self.dev_out.take();
        let now = self.now_ns;
        let sk = pkt.sk;
        let id = pkt.id;
        let rc = self.hosts[host as usize]
            .dev
            .dev_queue_xmit(pkt, now, &mut out, &mut self.trace);
        if matches!(rc, NetXmit::Drop | NetXmit::Down) {
            self.xmit_refused = Some(id);
        }
        self.handle_dev_out(host, &mut out, Some(sk));
        self.xmit_refused = None;
        self.dev_out.put(out);
        rc
    }

    /// Carry out what a device asked for.
    fn handle_dev_out(&mut self, host: u16, out: &mut DevOut, charge_to: Option<SockId>) {
        // fq saw these sockets: TCP now leaves pacing to the qdisc (SK_PACING_FQ) and stamps
        // departure times (EDT) for it.
        // (Each list is looked at only when it holds something: most calls fill one or two.)
        if !out.sk_pacing_fq.is_empty() {
            for sk in out.sk_pacing_fq.drain(..) {
                self.socks[sk as usize].sk_pacing_status = crate::net::core::sock::PacingStatus::Fq;
            }
        }
        if !out.timers.is_empty() {
            for (t, timer) in out.timers.drain(..) {
                self.schedule(t.max(self.now_ns), Event::Dev(host, timer));
            }
        }
        if !out.to_wire.is_empty() {
            self.put_on_wire(host, out);
        }
        if !out.dropped.is_empty() {
            for (pkt, why) in out.dropped.drain(..) {
                self.tcp_sack_opts.remove(&pkt.id);
                self.warn_drop(&pkt, DropSite::Qdisc, &format!("{why:?}"));
                self.skb_free(pkt);
            }
        }
        let charge_to = charge_to.or_else(|| {
            out.completed
                .first()
                .map(|p| p.sk)
                .filter(|&sk| sk != NO_SOCK)
        });
        if !out.completed.is_empty() {
            for pkt in out.completed.drain(..) {
                self.skb_free(pkt);
            }
        }
        if out.cpu_ns > 0 {
            // The device work runs in the context of the flow it served (transmit path), or of
            // the interrupt that completed its packets (charged to that flow's core).
            match charge_to {
                Some(sk) if sk != NO_SOCK => self.charge(sk, out.cpu_ns),
                _ => {
                    self.cpu_charges.push(CpuCharge::Core(host, 0, out.cpu_ns));
                }
            }
        }
    }

    /// The frames a device put on its wire ([`DevOut::to_wire`]) go to the peer: over the
    /// link (through its router), or onto a backlog: the veth peer's, or this host's again
    /// (loopback).
    fn put_on_wire(&mut self, host: u16, out: &mut DevOut) {
        for (t, pkt) in out.to_wire.drain(..) {
            if let Some(peer) = self.hosts[host as usize].veth_peer {
                // veth_forward_skb → __netif_rx: the peer's backlog.
                self.netif_rx(peer, t, pkt);
                continue;
            }
            match self.hosts[host as usize].link_out {
                // loopback_xmit → __netif_rx: this host's backlog.
                None => self.netif_rx(host, t, pkt),
                Some(l) if self.links[l as usize].bottleneck.is_some() => {
                    self.bottleneck_rcv(l, t, pkt);
                }
                Some(l) => {
                    let arrive = t + self.links[l as usize].delay_ns;
                    self.links[l as usize].in_flight.push_back((arrive, pkt));
                    self.schedule(arrive, Event::Arrive(l));
                }
            }
        }
    }

    /// `__netif_rx`: `pkt`, transmitted at `t`, onto host `to`'s backlog; its NET_RX runs in the
    /// context that transmitted (a softirq's, or the sending socket's task) once that context's
    /// CPU work so far is done (`World::schedule_veth_rx`).
    fn netif_rx(&mut self, to: u16, t: u64, pkt: Packet) {
        let owner = self.softirq_owner.unwrap_or(pkt.sk);
        self.hosts[to as usize].veth_rx.push_back((pkt, owner));
        self.veth_backlogged.push((to, owner, t));
    }

    /// A frame that left the NIC at `t` reaches the bottleneck router of link `l`: each frame
    /// it is cut into either waits its turn and then travels the link's delay, or is dropped
    /// (a `drop` event at [`DropSite::Bottleneck`]; the sender learns of it only from the
    /// receiver's SACKs or its own timers, as on a real path).
    fn bottleneck_rcv(&mut self, l: u16, t: u64, pkt: Packet) {
        let mut out = Vec::new();
        let mut dropped = Vec::new();
        let link = &mut self.links[l as usize];
        let delay = link.delay_ns;
        link.bottleneck
            .as_mut()
            .expect("a link with a bottleneck")
            .enqueue(t, pkt, &mut out, &mut dropped);
        for (txdone, frame) in out {
            let arrive = txdone + delay;
            self.links[l as usize].in_flight.push_back((arrive, frame));
            self.schedule(arrive, Event::Arrive(l));
        }
        for frame in dropped {
            let (id, host, sk) = (frame.id, frame.src_host, frame.sk);
            self.tcp_sack_opts.remove(&id);
            self.emit(host, sk, || Ev::Drop {
                pkt: id,
                site: DropSite::Bottleneck,
            });
        }
    }

    /// A packet below TCP is freed: run its destructor (`tcp_wfree` for data clones,
    /// `__sock_wfree` for pure ACKs).
    fn skb_free(&mut self, pkt: Packet) {
        if pkt.sk == NO_SOCK {
            return;
        }
        if pkt.pure_ack {
            let tp = &mut self.socks[pkt.sk as usize];
            tp.sk_wmem_alloc -= pkt.truesize as u64;
            return;
        }
        tcp_output::tcp_wfree(self, pkt);
    }

    /// A packet dropped at `site` (`detail`: why): a warning for the run, and a `drop` event.
    fn warn_drop(&mut self, pkt: &Packet, site: DropSite, detail: &str) {
        let w = if self.xmit_refused == Some(pkt.id) {
            // NET_XMIT_DROP: the caller learns of it at once (tcp_write_xmit stops there).
            format!(
                "a packet was refused by the {} ({detail}) at {} µs: it never left, so TCP keeps the data queued, sends it again on the next ACK and reduces cwnd (TCP_CA_CWR)",
                site.name(),
                self.now_ns / 1000
            )
        } else {
            format!(
                "a packet was dropped in the {} ({detail}) at {} µs: the sender's own queue overflowed, and TCP must retransmit it",
                site.name(),
                self.now_ns / 1000
            )
        };
        if !self.warnings.contains(&w) && self.warnings.len() < 20 {
            self.warnings.push(w);
        }
        let id = pkt.id;
        let host = pkt.src_host;
        self.emit(host, pkt.sk, || Ev::Drop { pkt: id, site });
    }

    /// `tc qdisc replace dev DEV root ...` while the run goes on (`qdisc_graft`): the new root
    /// qdisc takes over; the old one is destroyed and the packets it held are freed
    /// (`qdisc_reset`, `rtnl_kfree_skbs`: not counted as drops, lost to TCP).
    pub fn tc_qdisc_replace(&mut self, host: u16, q: crate::net::sched::sch_api::Qdisc) {
        let old = std::mem::replace(&mut self.hosts[host as usize].dev.qdisc, q);
        for p in old.packets().cloned().collect::<Vec<_>>() {
            self.skb_free(p);
        }
    }

    /// A device timer fired (qdisc watchdog, end of a frame on the wire, TX-completion
    /// interrupt): run it and carry out what the device asks for.
    pub fn dev_timer(&mut self, h: u16, timer: DevTimer) {
        let mut out = self.dev_out.take();
        let now = self.now_ns;
        self.hosts[h as usize]
            .dev
            .on_timer(timer, now, &mut out, &mut self.trace);
        self.handle_dev_out(h, &mut out, None);
        self.dev_out.put(out);
    }
}
