//! The packet tap of `sendpath run --pcap`: every skb a host's device driver takes, where
//! Linux's `dev_queue_xmit_nit` hands `tcpdump` its copy. Instrumentation, like the event
//! stream: the `pcap` module writes what it recorded as a pcapng file.

use std::collections::BTreeMap;

use crate::include::linux::skbuff::Packet;

/// The most skbs a tap keeps (about 150 MB of memory); the run goes on, the file says it
/// stopped.
pub const DEFAULT_TAP_LIMIT: usize = 1_000_000;

/// One skb a host's device driver took (`dev_queue_xmit_nit`: where `tcpdump` sees it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tapped {
    pub t_ns: u64,
    /// The host whose device sent it.
    pub host: u16,
    pub pkt: Packet,
}

/// What a run's tap recorded.
#[derive(Clone, Debug, Default)]
pub struct Tap {
    /// In the order the drivers took them.
    pub packets: Vec<Tapped>,
    /// The SACK blocks of the pure ACKs that had some (`Stack::tcp_sack_opts`), by packet id,
    /// in the receiver's sequence space.
    pub sack: BTreeMap<u64, Box<[(u64, u64)]>>,
    /// Most skbs kept.
    pub limit: usize,
    /// More skbs left than `limit`.
    pub truncated: bool,
}

impl Tap {
    pub fn new(limit: usize) -> Tap {
        Tap {
            limit,
            ..Tap::default()
        }
    }

    /// Record `pkt`, which host `host`'s driver took at `t_ns`.
    pub fn push(&mut self, host: u16, t_ns: u64, pkt: &Packet) {
        if self.packets.len() >= self.limit {
            self.truncated = true;
            return;
        }
        self.packets.push(Tapped {
            t_ns,
            host,
            pkt: pkt.clone(),
        });
    }
}
