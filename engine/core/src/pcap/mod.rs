//! pcapng out: the packets of a run as `tcpdump -w` on each host would have written them, for
//! Wireshark and `tshark` (`sendpath run --pcap FILE`, the site's "Download pcap").
//!
//! The tap ([`Tap`], in `trace/tap.rs`, filled by [`crate::trace::Trace::tap`]) records every skb a host's device
//! driver takes, where Linux's `dev_queue_xmit_nit` hands `tcpdump` its copy (after the qdisc,
//! before the NIC), with the TCP options the model keeps beside it (SACK blocks); [`Meta`]
//! names the hosts and gives each socket its addresses, ports and initial sequence number; and
//! [`Pcap::pcapng`] writes them as one pcapng section:
//!
//! - one interface (IDB) per host, named after it, Ethernet link type, timestamps in ns
//!   (`if_tsresol` 9); each packet is on the interface of the host that sent it, marked
//!   outbound (`epb_flags`), so every packet is in the file once and in time order;
//! - Ethernet, IPv4 and TCP headers with the model's numbers: 32-bit sequence and
//!   acknowledgement numbers (the model's relative numbers plus a fixed initial sequence number
//!   per socket), the window as the sender's window scale encodes it, the TCP options the model
//!   counts in its header lengths (MSS, SACK_PERM, timestamps and window scale on a SYN;
//!   timestamps and SACK blocks after it, in Linux's order and NOP padding), and correct IPv4
//!   and TCP checksums;
//! - [`Frames::Tso`]: one record per skb as the sender's tap sees it (a TSO/GSO skb is one
//!   large frame, stamped when the driver took it), or [`Frames::Wire`]: the MSS frames the NIC
//!   cuts it into, each stamped when its first bit goes on the wire (the NIC serialises them
//!   back to back at its rate, in the order its driver took them).
//!
//! Simplified:
//! - payload bytes are zeros, because the model carries lengths, not data; visible effect:
//!   none for TCP analysis; the checksums are those of zero payload.
//! - host `i` is `10.0.0.<i+1>` with MAC `02:00:00:00:00:<i+1>` (loopback: `127.0.0.1`, zero
//!   MACs, as on Linux's `lo`); the connecting socket's port is `32768 + socket id`, the
//!   accepting one's 5001; the TSval is the sender's clock in ms (the model's, with no random
//!   per-connection offset); the IP ID counts frames per socket from 0; visible effect: none on
//!   what the headers say about TCP.
//! - packets are stamped on the sender's wire, not also where they arrive, because a second
//!   copy of each would read as a retransmission to Wireshark's analysis; visible effect: no
//!   receiver-side view in one file.

use std::collections::BTreeMap;

use crate::include::linux::skbuff::{tcp_flags, Packet, SockId, ETH_HLEN, IPV4_HLEN, TCP_HLEN};
pub use crate::trace::tap::{Tap, Tapped, DEFAULT_TAP_LIMIT};

/// Bytes kept of each frame unless asked otherwise (`tcpdump -s 128`): every header with its
/// options, and the start of the (zero) payload.
pub const DEFAULT_SNAPLEN: u32 = 128;
/// The accepting socket's port (the conformance lab's `sp-tcp server -p 5001`).
pub const SERVER_PORT: u16 = 5001;
/// The connecting socket's port is this plus its socket id (Linux's first ephemeral port).
pub const CLIENT_PORT_BASE: u16 = 32768;

/// A host as a capture interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interface {
    pub name: String,
    /// The NIC's rate (bits per second) that serialises its frames; 0 for loopback and veth,
    /// which pass a packet on whole at once.
    pub rate_bps: u64,
    pub loopback: bool,
}

/// What the headers of a socket's packets need that a [`Packet`] does not carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub host: u16,
    pub peer: SockId,
    pub port: u16,
    /// Initial sequence number: the model's sequence 0 (the SYN) on the wire.
    pub isn: u32,
    /// The window scale this socket announced (`rcv_wscale`): its windows are sent shifted
    /// right by it.
    pub rcv_wscale: u8,
    /// The MSS option of its SYN (`advmss`).
    pub advmss: u16,
    /// It sends the timestamp option (`net.ipv4.tcp_timestamps`).
    pub timestamps: bool,
}

/// The names and numbers of a run's hosts and sockets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub interfaces: Vec<Interface>,
    /// By socket id.
    pub endpoints: Vec<Endpoint>,
}

impl Meta {
    /// The hosts and sockets of a world.
    pub fn of(w: &crate::sim::world::World) -> Meta {
        Meta {
            interfaces: w
                .hosts
                .iter()
                .map(|h| Interface {
                    name: h.name.clone(),
                    rate_bps: if h.dev.cfg.loopback || h.dev.cfg.veth {
                        0
                    } else {
                        h.dev.cfg.rate_bps
                    },
                    loopback: h.dev.cfg.loopback,
                })
                .collect(),
            endpoints: w
                .socks
                .iter()
                .map(|s| Endpoint {
                    host: s.host,
                    peer: s.peer,
                    // The connecting socket of a pair is made first (`sim::app::build`).
                    port: if s.id < s.peer {
                        CLIENT_PORT_BASE.saturating_add(s.id.min(u16::MAX as u32) as u16)
                    } else {
                        SERVER_PORT
                    },
                    isn: initial_seq(s.id),
                    rcv_wscale: s.rcv_wscale,
                    advmss: s.advmss.min(u16::MAX as u32) as u16,
                    timestamps: s.tcp_header_len > TCP_HLEN,
                })
                .collect(),
        }
    }
}

/// A fixed, different-looking initial sequence number per socket (so that Wireshark's relative
/// numbers are visibly relative).
pub fn initial_seq(sk: SockId) -> u32 {
    (sk.wrapping_add(1)).wrapping_mul(0x9E37_79B1)
}

/// Which frames the file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Frames {
    /// One frame per skb, as `tcpdump` on the sender sees a TSO/GSO skb (`tso`).
    #[default]
    Tso,
    /// The MSS-sized frames on the wire (`wire`).
    Wire,
}

impl Frames {
    pub const NAMES: [&'static str; 2] = ["tso", "wire"];

    pub fn parse(s: &str) -> Result<Frames, String> {
        match s {
            "tso" => Ok(Frames::Tso),
            "wire" => Ok(Frames::Wire),
            _ => Err(format!(
                "pcap frames must be tso (one frame per skb, as the sender's tap sees it) or wire (MSS frames as on the wire), not {s:?}"
            )),
        }
    }
}

/// How to write the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    pub frames: Frames,
    /// Bytes kept of each frame (`tcpdump -s`); 0 keeps whole frames.
    pub snaplen: u32,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            frames: Frames::Tso,
            snaplen: DEFAULT_SNAPLEN,
        }
    }
}

/// A run's capture: what the tap saw and who the endpoints are.
#[derive(Clone, Debug, Default)]
pub struct Pcap {
    pub tap: Tap,
    pub meta: Meta,
}

/// One frame of the file before it is written: when, which skb, which of its MSS frames (`k` of
/// `n`; `n` is 1 for a whole skb).
#[derive(Clone, Copy, Debug)]
struct FrameRef {
    t_ns: u64,
    idx: u32,
    k: u32,
    n: u32,
}

impl Pcap {
    /// The capture as a pcapng file.
    pub fn pcapng(&self, opts: &WriteOptions) -> Vec<u8> {
        let mut frames = Vec::with_capacity(self.tap.packets.len());
        // When each host's NIC is free again: it serialises the skbs its driver took in that
        // order, back to back, each from when it was taken or when the one before ended
        // (`NetDevice::start_wire`: wire_bytes * 8 s / rate, rounded up).
        let mut wire_free_ns = vec![0u64; self.meta.interfaces.len()];
        for (idx, tp) in self.tap.packets.iter().enumerate() {
            let rate = self
                .meta
                .interfaces
                .get(tp.host as usize)
                .map_or(0, |i| i.rate_bps);
            let n = match opts.frames {
                Frames::Wire if tp.pkt.gso_segs > 1 => tp.pkt.gso_segs,
                _ => 1,
            };
            if opts.frames == Frames::Tso || rate == 0 {
                // The tap's instant; a loopback or a veth passes the skb on whole at once.
                for k in 0..n {
                    frames.push(FrameRef {
                        t_ns: tp.t_ns,
                        idx: idx as u32,
                        k,
                        n,
                    });
                }
                continue;
            }
            let free = &mut wire_free_ns[tp.host as usize];
            let start = tp.t_ns.max(*free);
            let mut before_bytes = 0;
            for k in 0..n {
                frames.push(FrameRef {
                    t_ns: start + wire_ns(before_bytes, rate),
                    idx: idx as u32,
                    k,
                    n,
                });
                if n > 1 {
                    before_bytes += gso_segment(&tp.pkt, k).wire_bytes();
                }
            }
            *free = start + wire_ns(tp.pkt.wire_bytes(), rate);
        }
        // Every host's frames in one time line (stable: equal times keep the tap's order).
        frames.sort_by_key(|f| f.t_ns);

        let mut out = Vec::new();
        section_header(&mut out, self.tap.truncated.then_some(self.tap.limit));
        for i in &self.meta.interfaces {
            interface_description(&mut out, i, opts.snaplen);
        }
        let mut ip_id: BTreeMap<SockId, u16> = BTreeMap::new();
        let mut frame = Vec::with_capacity(256);
        for f in &frames {
            let tp = &self.tap.packets[f.idx as usize];
            let seg;
            let pkt = if f.n > 1 {
                seg = gso_segment(&tp.pkt, f.k);
                &seg
            } else {
                &tp.pkt
            };
            let id = ip_id.entry(pkt.sk).or_insert(0);
            let this_id = *id;
            *id = id.wrapping_add(pkt.gso_segs.max(1) as u16);
            frame.clear();
            let sack = self.tap.sack.get(&pkt.id).map(|b| &b[..]);
            let orig_len = build_frame(&mut frame, pkt, sack, &self.meta, this_id);
            let keep = if opts.snaplen == 0 {
                orig_len
            } else {
                orig_len.min(opts.snaplen as usize)
            };
            // Payload bytes are zeros: only as many as the snap length keeps are written.
            frame.resize(keep, 0);
            enhanced_packet(&mut out, tp.host as u32, f.t_ns, &frame, orig_len);
        }
        out
    }
}

/// Time to serialise `wire_bytes` at `rate_bps`, rounded up (0 without a rate).
fn wire_ns(wire_bytes: u64, rate_bps: u64) -> u64 {
    if rate_bps == 0 {
        return 0;
    }
    (wire_bytes as u128 * 8_000_000_000).div_ceil(rate_bps as u128) as u64
}

/// The `k`-th MSS frame of a GSO skb, as `Packet::for_each_gso_segment` cuts it (headers
/// only: the ids and truesize of the cut skbs do not reach the wire).
fn gso_segment(p: &Packet, k: u32) -> Packet {
    let payload = p.len - p.hdr_len;
    let mss = p.gso_size;
    let segs = payload.div_ceil(mss);
    let seg_payload = mss.min(payload - k * mss);
    let mut s = p.clone();
    s.len = p.hdr_len + seg_payload;
    s.gso_segs = 1;
    s.gso_size = 0;
    s.seq = p.seq + (k * mss) as u64;
    s.end_seq = s.seq + seg_payload as u64;
    if k + 1 == segs {
        s.end_seq += (p.flags & tcp_flags::FIN != 0) as u64;
    } else {
        s.flags &= !(tcp_flags::FIN | tcp_flags::PSH);
    }
    s
}

const BT_SHB: u32 = 0x0A0D_0D0A;
const BT_IDB: u32 = 1;
const BT_EPB: u32 = 6;
const LINKTYPE_ETHERNET: u16 = 1;

/// Append a pcapng option (code, length, value padded to 32 bits).
fn option(b: &mut Vec<u8>, code: u16, value: &[u8]) {
    b.extend_from_slice(&code.to_le_bytes());
    b.extend_from_slice(&(value.len() as u16).to_le_bytes());
    b.extend_from_slice(value);
    b.resize(b.len().next_multiple_of(4), 0);
}

/// Append a block: type, total length, body (32-bit aligned), total length again.
fn block(out: &mut Vec<u8>, kind: u32, body: &[u8]) {
    debug_assert_eq!(body.len() % 4, 0);
    let len = (12 + body.len()) as u32;
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(body);
    out.extend_from_slice(&len.to_le_bytes());
}

/// Section Header Block, with the writing application and, when the tap stopped, a comment
/// saying so.
fn section_header(out: &mut Vec<u8>, truncated_at: Option<usize>) {
    let mut b = Vec::new();
    b.extend_from_slice(&0x1A2B_3C4Du32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    b.extend_from_slice(&(-1i64).to_le_bytes()); // section length: not given
    let mut comment = String::from(
        "Simulated by sendpath: the Linux TCP send path model. Payload bytes are zeros.",
    );
    if let Some(n) = truncated_at {
        comment.push_str(&format!(
            " The capture stopped after {n} packets; the run went on."
        ));
    }
    option(&mut b, 1, comment.as_bytes()); // opt_comment
    option(&mut b, 4, format!("sendpath {}", crate::VERSION).as_bytes()); // shb_userappl
    option(&mut b, 0, &[]); // opt_endofopt
    block(out, BT_SHB, &b);
}

/// Interface Description Block of a host.
fn interface_description(out: &mut Vec<u8>, i: &Interface, snaplen: u32) {
    let mut b = Vec::new();
    b.extend_from_slice(&LINKTYPE_ETHERNET.to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    b.extend_from_slice(&snaplen.to_le_bytes());
    option(&mut b, 2, i.name.as_bytes()); // if_name
    let what = if i.loopback {
        "loopback"
    } else if i.rate_bps == 0 {
        "veth"
    } else {
        "NIC"
    };
    option(
        &mut b,
        3,
        format!("host {} ({what}), as sendpath simulated it", i.name).as_bytes(),
    ); // if_description
    if i.rate_bps > 0 {
        option(&mut b, 8, &i.rate_bps.to_le_bytes()); // if_speed
    }
    option(&mut b, 9, &[9]); // if_tsresol: 10^-9 s
    option(&mut b, 0, &[]);
    block(out, BT_IDB, &b);
}

/// Enhanced Packet Block of one frame (`data` as captured, `orig_len` on the wire), outbound.
fn enhanced_packet(out: &mut Vec<u8>, iface: u32, t_ns: u64, data: &[u8], orig_len: usize) {
    let mut b = Vec::with_capacity(32 + data.len());
    b.extend_from_slice(&iface.to_le_bytes());
    b.extend_from_slice(&((t_ns >> 32) as u32).to_le_bytes());
    b.extend_from_slice(&(t_ns as u32).to_le_bytes());
    b.extend_from_slice(&(data.len() as u32).to_le_bytes());
    b.extend_from_slice(&(orig_len as u32).to_le_bytes());
    b.extend_from_slice(data);
    b.resize(b.len().next_multiple_of(4), 0);
    option(&mut b, 2, &2u32.to_le_bytes()); // epb_flags: outbound
    option(&mut b, 0, &[]);
    block(out, BT_EPB, &b);
}

/// IPv4 address of host `h` (loopback: 127.0.0.1).
pub fn ip_of(meta: &Meta, h: u16) -> [u8; 4] {
    if meta.interfaces.get(h as usize).is_some_and(|i| i.loopback) {
        [127, 0, 0, 1]
    } else {
        [10, 0, 0, (h as u8).wrapping_add(1)]
    }
}

fn mac_of(meta: &Meta, h: u16) -> [u8; 6] {
    if meta.interfaces.get(h as usize).is_some_and(|i| i.loopback) {
        [0; 6]
    } else {
        [2, 0, 0, 0, 0, (h as u8).wrapping_add(1)]
    }
}

/// Write the headers of `pkt` (Ethernet, IPv4, TCP with options) into `f`; returns the frame's
/// length on the wire (headers + payload), whose payload is zeros.
fn build_frame(
    f: &mut Vec<u8>,
    pkt: &Packet,
    sack: Option<&[(u64, u64)]>,
    meta: &Meta,
    ip_id: u16,
) -> usize {
    let me = &meta.endpoints[pkt.sk as usize];
    let peer = &meta.endpoints[me.peer as usize];
    let tcp_hlen = (pkt.hdr_len - ETH_HLEN - IPV4_HLEN) as usize;
    let payload = (pkt.len - pkt.hdr_len) as usize;
    let ip_len = IPV4_HLEN as usize + tcp_hlen + payload;
    assert!(
        ip_len <= u16::MAX as usize,
        "packet #{} of {ip_len} B does not fit an IPv4 header",
        pkt.id
    );
    let (src, dst) = (ip_of(meta, pkt.src_host), ip_of(meta, pkt.dst_host));

    // Ethernet II
    f.extend_from_slice(&mac_of(meta, pkt.dst_host));
    f.extend_from_slice(&mac_of(meta, pkt.src_host));
    f.extend_from_slice(&0x0800u16.to_be_bytes());

    // IPv4: no options, DF (Linux sets it on TCP: path MTU discovery), TTL 64.
    let ip0 = f.len();
    f.push(0x45);
    f.push(0);
    f.extend_from_slice(&(ip_len as u16).to_be_bytes());
    f.extend_from_slice(&ip_id.to_be_bytes());
    f.extend_from_slice(&0x4000u16.to_be_bytes());
    f.push(64);
    f.push(6);
    f.extend_from_slice(&[0, 0]);
    f.extend_from_slice(&src);
    f.extend_from_slice(&dst);
    let c = checksum(&f[ip0..ip0 + 20], 0);
    f[ip0 + 10..ip0 + 12].copy_from_slice(&c.to_be_bytes());

    // TCP
    let t0 = f.len();
    let syn = pkt.flags & tcp_flags::SYN != 0;
    f.extend_from_slice(&me.port.to_be_bytes());
    f.extend_from_slice(&peer.port.to_be_bytes());
    f.extend_from_slice(&me.isn.wrapping_add(pkt.seq as u32).to_be_bytes());
    let ack = if pkt.flags & tcp_flags::ACK != 0 {
        peer.isn.wrapping_add(pkt.ack_seq as u32)
    } else {
        0
    };
    f.extend_from_slice(&ack.to_be_bytes());
    f.push(((tcp_hlen / 4) as u8) << 4);
    f.push(pkt.flags);
    // "The window field in a SYN segment itself is never scaled" (RFC 7323 2.2).
    let window = if syn {
        pkt.window
    } else {
        pkt.window >> me.rcv_wscale
    };
    f.extend_from_slice(&(window.min(u16::MAX as u32) as u16).to_be_bytes());
    f.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
    tcp_options(f, pkt, sack, me, peer, tcp_hlen - TCP_HLEN as usize);
    let tcp_len = tcp_hlen + payload;
    // Pseudo-header (RFC 793 3.1); the zero payload adds nothing to the sum.
    let mut sum = 0u32;
    for w in [&src[..], &dst[..]] {
        sum = add_words(w, sum);
    }
    sum += 6 + tcp_len as u32;
    let c = checksum(&f[t0..], sum);
    f[t0 + 16..t0 + 18].copy_from_slice(&c.to_be_bytes());
    ETH_HLEN as usize + ip_len
}

/// The TCP options of `pkt`, `len` bytes, in the order Linux writes them (`tcp_options_write`):
/// a SYN's MSS, SACK_PERM with the timestamps, NOP + window scale; then timestamps and SACK
/// blocks, each after two NOPs. What the model's header length has room for beyond them is NOPs.
fn tcp_options(
    f: &mut Vec<u8>,
    pkt: &Packet,
    sack: Option<&[(u64, u64)]>,
    me: &Endpoint,
    peer: &Endpoint,
    len: usize,
) {
    let start = f.len();
    let tsval = (pkt.sent_ns / 1_000_000) as u32;
    let tsecr = pkt.tsecr_ms as u32;
    let timestamps = |f: &mut Vec<u8>| {
        f.extend_from_slice(&[8, 10]);
        f.extend_from_slice(&tsval.to_be_bytes());
        f.extend_from_slice(&tsecr.to_be_bytes());
    };
    if pkt.flags & tcp_flags::SYN != 0 {
        f.extend_from_slice(&[2, 4]);
        f.extend_from_slice(&me.advmss.to_be_bytes());
        if me.timestamps {
            f.extend_from_slice(&[4, 2]);
            timestamps(f);
        } else {
            f.extend_from_slice(&[1, 1, 4, 2]);
        }
        f.extend_from_slice(&[1, 3, 3, me.rcv_wscale]);
    } else {
        if me.timestamps && len >= 12 {
            f.extend_from_slice(&[1, 1]);
            timestamps(f);
        }
        if let Some(blocks) = sack.filter(|b| !b.is_empty()) {
            let room = (len.saturating_sub(f.len() - start + 4)) / 8;
            let blocks = &blocks[..blocks.len().min(room)];
            if !blocks.is_empty() {
                f.extend_from_slice(&[1, 1, 5, 2 + 8 * blocks.len() as u8]);
                for &(s, e) in blocks {
                    // The blocks are in the peer's (the data sender's) sequence space.
                    f.extend_from_slice(&peer.isn.wrapping_add(s as u32).to_be_bytes());
                    f.extend_from_slice(&peer.isn.wrapping_add(e as u32).to_be_bytes());
                }
            }
        }
    }
    debug_assert!(
        f.len() - start <= len,
        "packet #{}: {} B of options in a {len} B option space",
        pkt.id,
        f.len() - start
    );
    f.truncate(start + len);
    f.resize(start + len, 1); // NOP
}

/// Add `data` as big-endian 16-bit words to a ones' complement sum.
fn add_words(data: &[u8], mut sum: u32) -> u32 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        sum += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    if let [last] = chunks.remainder() {
        sum += (*last as u32) << 8;
    }
    sum
}

/// The Internet checksum (RFC 1071) of `data` with `sum` already added.
pub fn checksum(data: &[u8], sum: u32) -> u16 {
    let mut s = add_words(data, sum) as u64;
    while s >> 16 != 0 {
        s = (s & 0xffff) + (s >> 16);
    }
    !(s as u16)
}

#[cfg(test)]
mod tests;
