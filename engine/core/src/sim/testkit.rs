//! Shared fixtures for the decision-table tests: a real connection between two hosts, set up
//! by the model's own handshake, then frozen (no further events run) so a test can put the
//! socket in the state it wants and call one kernel function.

use crate::include::linux::skbuff::{tcp_flags, Packet, SockId};
use crate::net::core::sock::{Skb, TcpState};
use crate::scenario::Scenario;
use crate::sim::world::World;
use crate::trace::Trace;

/// The world of a scenario's text (its first variant-free configuration).
pub fn world(src: &str, trace: Trace) -> World {
    let cfg = Scenario::parse(src, "fixture.toml")
        .unwrap()
        .config(None, &[])
        .unwrap();
    World::new(cfg, trace)
}

/// A scenario's text run to its end, without a trace.
pub fn run(src: &str) -> World {
    let mut w = world(src, Trace::new(false, 0));
    w.run();
    w
}

/// A world for kernel `kernel` with extra scenario lines (any table but `[app]`), stepped
/// until both ends are established, with no data queued. Socket 0 is the connecting side
/// (on host 0), socket 1 the accepting side (on host 1).
pub fn established(kernel: &str, extra: &str) -> World {
    // The ping-pong server (socket 1) writes first, and it is the last end to be established,
    // so when both are established no application data has been queued yet.
    let src = format!(
        "title = \"fixture\"\nkernel = \"{kernel}\"\n{extra}\n[app]\nkind = \"pingpong\"\n"
    );
    let mut w = world(&src, Trace::new(true, 100_000));
    while !(w.socks[0].state == TcpState::Established && w.socks[1].state == TcpState::Established)
    {
        assert!(w.step(), "the handshake never completed");
    }
    w
}

/// Append an unsent skb of `len` bytes to the sender's write queue, with the truesize the
/// kernel's allocation gives it.
pub fn queue_skb(w: &mut World, sk: SockId, len: u32) -> u64 {
    let id = w.next_skb_id();
    let tp = &mut w.socks[sk as usize];
    let linear = tp.profile.skb_linear_payload;
    let truesize = tp.profile.skb_alloc_truesize(linear) + len.saturating_sub(linear);
    let seq = tp.write_seq;
    tp.write_queue.push_back(Skb {
        id,
        seq,
        end_seq: seq + len as u64,
        truesize,
        pcount: 0,
        gso_size: 0,
        flags: crate::include::linux::skbuff::tcp_flags::ACK,
        eor: false,
        linear_room: linear.saturating_sub(len),
        tstamp_ns: 0,
        first_write_ns: 0,
        retrans: false,
        sacked: 0,
        tx: Default::default(),
    });
    tp.write_seq += len as u64;
    tp.sk_wmem_queued += truesize as u64;
    tp.sk_mem_charge(truesize as u64);
    id
}

/// Move the head of the write queue to the retransmit queue as if it had been sent at
/// `sent_ns`, with its clone still below TCP when `clone_below` (charged to `sk_wmem_alloc`).
pub fn mark_sent(w: &mut World, sk: SockId, sent_ns: u64, clone_below: bool) {
    let tp = &mut w.socks[sk as usize];
    let mut skb = tp.write_queue.pop_front().unwrap();
    let mss = tp.mss_cache;
    crate::net::ipv4::tcp_output::tcp_init_tso_segs(&mut skb, mss);
    skb.tstamp_ns = sent_ns;
    tp.snd_nxt = skb.end_seq;
    tp.packets_out += skb.pcount;
    if clone_below {
        tp.sk_wmem_alloc += skb.truesize as u64;
    }
    tp.rtx_queue.push_back(skb);
}

/// A pure ACK of `ack_seq` from the accepting side (socket 1) to the connecting side (socket 0),
/// advertising the sender's current `snd_wnd`, with a fresh packet id.
pub fn peer_ack(w: &mut World, ack_seq: u64) -> Packet {
    let id = w.next_pkt_id();
    let window = w.socks[0].snd_wnd as u32;
    Packet {
        sk: 1,
        src_host: 1,
        dst_host: 0,
        len: 66,
        hdr_len: 66,
        pure_ack: true,
        seq: w.socks[1].snd_nxt,
        end_seq: w.socks[1].snd_nxt,
        ack_seq,
        window,
        flags: tcp_flags::ACK,
        ..Packet::test_data(id, 1, 0, 1, 1448)
    }
}
