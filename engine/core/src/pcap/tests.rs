//! The pcapng writer read back by a reader written from the pcapng specification
//! (draft-ietf-opsawg-pcapng), so the file's structure and checksums are checked where tshark
//! is not installed. `engine/cli/tests/pcap_tshark.rs` reads the same files with tshark.

use std::collections::BTreeMap;

use super::*;
use crate::include::uapi::linux::snmp::Mib;
use crate::trace::Ev;
use crate::{run_source, RunOptions, RunOutput};

/// One block: its type and its body (between the two length fields).
fn blocks(b: &[u8]) -> Result<Vec<(u32, &[u8])>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let word = |o: usize| -> Result<u32, String> {
            b.get(o..o + 4)
                .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
                .ok_or(format!("block at {at}: cut short"))
        };
        let (kind, len) = (word(at)?, word(at + 4)? as usize);
        if len < 12 || len % 4 != 0 || at + len > b.len() {
            return Err(format!("block at {at}: bad length {len}"));
        }
        if word(at + len - 4)? as usize != len {
            return Err(format!("block at {at}: trailing length differs"));
        }
        out.push((kind, &b[at + 8..at + len - 4]));
        at += len;
    }
    Ok(out)
}

/// The options of a block's option area: (code, value), up to `opt_endofopt`.
fn options(mut b: &[u8]) -> Result<Vec<(u16, Vec<u8>)>, String> {
    let mut out = Vec::new();
    while b.len() >= 4 {
        let code = u16::from_le_bytes([b[0], b[1]]);
        let len = u16::from_le_bytes([b[2], b[3]]) as usize;
        if code == 0 {
            return Ok(out);
        }
        let padded = len.next_multiple_of(4);
        if 4 + padded > b.len() {
            return Err(format!("option {code}: runs past its block"));
        }
        out.push((code, b[4..4 + len].to_vec()));
        b = &b[4 + padded..];
    }
    Err("options without opt_endofopt".into())
}

#[derive(Debug)]
struct Iface {
    name: String,
    snaplen: u32,
    tsresol: u8,
}

#[derive(Debug)]
struct Frame {
    iface: u32,
    t_ns: u64,
    data: Vec<u8>,
    orig_len: usize,
    outbound: bool,
}

/// A whole file: its interfaces and frames, every structural rule checked.
fn read(b: &[u8]) -> Result<(Vec<Iface>, Vec<Frame>), String> {
    let bl = blocks(b)?;
    let (kind, shb) = bl.first().ok_or("empty file")?;
    if *kind != BT_SHB || u32::from_le_bytes(shb[0..4].try_into().unwrap()) != 0x1A2B_3C4D {
        return Err("no section header block first".into());
    }
    if shb[4..8] != [1, 0, 0, 0] {
        return Err("not pcapng 1.0".into());
    }
    options(&shb[16..])?;
    let (mut ifaces, mut frames) = (Vec::new(), Vec::new());
    for (kind, body) in &bl[1..] {
        match *kind {
            BT_IDB => {
                if u16::from_le_bytes([body[0], body[1]]) != LINKTYPE_ETHERNET {
                    return Err("interface is not Ethernet".into());
                }
                let opts = options(&body[8..])?;
                let get = |c| opts.iter().find(|(k, _)| *k == c).map(|(_, v)| v.clone());
                ifaces.push(Iface {
                    name: String::from_utf8(get(2).ok_or("interface without if_name")?)
                        .map_err(|e| e.to_string())?,
                    snaplen: u32::from_le_bytes(body[4..8].try_into().unwrap()),
                    tsresol: get(9).map_or(6, |v| v[0]),
                });
            }
            BT_EPB => {
                let w = |o: usize| u32::from_le_bytes(body[o..o + 4].try_into().unwrap());
                let (iface, cap, orig) = (w(0), w(12) as usize, w(16) as usize);
                if iface as usize >= ifaces.len() {
                    return Err(format!("packet on undeclared interface {iface}"));
                }
                if cap > orig || 20 + cap > body.len() {
                    return Err(format!("captured length {cap} of {orig}"));
                }
                let snap = ifaces[iface as usize].snaplen as usize;
                if snap > 0 && cap > snap {
                    return Err(format!("{cap} B captured above the snap length {snap}"));
                }
                let opts = options(&body[20 + cap.next_multiple_of(4)..])?;
                frames.push(Frame {
                    iface,
                    t_ns: ((w(4) as u64) << 32) | w(8) as u64,
                    data: body[20..20 + cap].to_vec(),
                    orig_len: orig,
                    outbound: opts.iter().any(|(c, v)| *c == 2 && v[..] == [2, 0, 0, 0]),
                });
            }
            k => return Err(format!("unexpected block type {k:#x}")),
        }
    }
    Ok((ifaces, frames))
}

/// The TCP/IP view of a frame.
#[derive(Debug)]
struct Seg {
    src: [u8; 4],
    sport: u16,
    dport: u16,
    seq: u32,
    ack: u32,
    flags: u8,
    window: u16,
    payload: usize,
    /// (kind, value) of each option but NOP.
    opts: Vec<(u8, Vec<u8>)>,
}

/// Parse a frame's headers; the IPv4 checksum must hold, and the TCP checksum when the whole
/// frame was kept.
fn parse(f: &Frame) -> Result<Seg, String> {
    let d = &f.data;
    if d.len() < 54 || d[12..14] != [8, 0] || d[14] != 0x45 || d[23] != 6 {
        return Err("not Ethernet + IPv4 without options + TCP".into());
    }
    let ip = &d[14..34];
    if checksum(ip, 0) != 0 {
        return Err("bad IPv4 checksum".into());
    }
    let ip_len = u16::from_be_bytes([ip[2], ip[3]]) as usize;
    if ip_len + 14 != f.orig_len {
        return Err(format!(
            "IP length {ip_len} + 14 is not the frame's {}",
            f.orig_len
        ));
    }
    let t = &d[34..];
    let hlen = (t[12] >> 4) as usize * 4;
    if hlen < 20 || t.len() < hlen {
        return Err(format!("TCP header of {hlen} B"));
    }
    if f.data.len() == f.orig_len {
        let mut sum = add_words(&ip[12..20], 0);
        sum += 6 + (ip_len - 20) as u32;
        if checksum(t, sum) != 0 {
            return Err("bad TCP checksum".into());
        }
    }
    let mut opts = Vec::new();
    let mut o = &t[20..hlen];
    while let [kind, rest @ ..] = o {
        match kind {
            0 => break,
            1 => o = rest,
            _ => {
                let len = *rest.first().ok_or("option cut short")? as usize;
                if len < 2 || len > o.len() {
                    return Err(format!("option {kind} of length {len}"));
                }
                opts.push((*kind, o[2..len].to_vec()));
                o = &o[len..];
            }
        }
    }
    let be16 = |x: &[u8]| u16::from_be_bytes([x[0], x[1]]);
    let be32 = |x: &[u8]| u32::from_be_bytes(x[..4].try_into().unwrap());
    Ok(Seg {
        src: ip[12..16].try_into().unwrap(),
        sport: be16(&t[0..]),
        dport: be16(&t[2..]),
        seq: be32(&t[4..]),
        ack: be32(&t[8..]),
        flags: t[13],
        window: be16(&t[14..]),
        payload: ip_len - 20 - hlen,
        opts,
    })
}

fn scenario(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn run(name: &str, sets: &[&str], trace: bool) -> RunOutput {
    let opts = RunOptions {
        sets: sets.iter().map(|s| s.to_string()).collect(),
        pcap: true,
        trace,
        ..Default::default()
    };
    run_source(&scenario(name), name, &opts).unwrap()
}

fn whole(frames: Frames) -> WriteOptions {
    WriteOptions { frames, snaplen: 0 }
}

/// A host's counter at the end of a run.
fn counter(out: &RunOutput, host: &str, m: Mib) -> u64 {
    out.result.hosts[host]
        .counters
        .get(m.name())
        .copied()
        .unwrap_or(0)
}

#[test]
fn every_seed_scenario_writes_pcapng_whose_frames_are_what_each_host_sent() {
    for path in std::fs::read_dir(format!("{}/../../scenarios", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
    {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        // Long enough for each scenario's mechanism to show, short enough to read back whole.
        let out = run(&name, &["sim.duration_ms=60"], false);
        let pcap = out.pcap.as_ref().unwrap();
        let (ifaces, frames) = read(&pcap.pcapng(&whole(Frames::Wire))).unwrap();
        assert_eq!(
            ifaces.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
            out.result.host_names,
            "{name}: one interface per host"
        );
        assert!(ifaces.iter().all(|i| i.tsresol == 9), "{name}: ns stamps");
        assert!(
            frames.windows(2).all(|w| w[0].t_ns <= w[1].t_ns),
            "{name}: frames in time order"
        );
        let mut per_host = BTreeMap::<u32, (u64, u64)>::new();
        for f in &frames {
            let s = parse(f).unwrap_or_else(|e| panic!("{name}: {e}: {f:?}"));
            assert!(f.outbound);
            assert_eq!(s.src, ip_of(&pcap.meta, f.iface as u16));
            let e = per_host.entry(f.iface).or_default();
            e.0 += 1;
            e.1 += f.orig_len as u64;
        }
        for (i, host) in out.result.host_names.iter().enumerate() {
            let (n, bytes) = per_host.get(&(i as u32)).copied().unwrap_or_default();
            match &out.result.hosts[host].qdisc {
                // What left the qdisc is what the driver took: `tc -s qdisc`'s "Sent N bytes M
                // pkt" counts every segment and every segment's headers. (An skb the driver
                // refused is in Sent and in the backlog until it takes it.)
                Some(q) if q.backlog_bytes > 0 => assert!(
                    n <= q.sent_packets
                        && (q.sent_bytes - q.backlog_bytes..=q.sent_bytes).contains(&bytes),
                    "{name}: {host}: {bytes} B against the qdisc's {q:?}"
                ),
                Some(q) => assert_eq!(
                    (n, bytes),
                    (q.sent_packets, q.sent_bytes),
                    "{name}: {host}'s frames and bytes against its qdisc's"
                ),
                // No qdisc: every segment TCP sent went straight to the driver.
                None => assert_eq!(
                    n,
                    counter(&out, host, Mib::TcpOutSegs) + counter(&out, host, Mib::TcpRetransSegs),
                    "{name}: {host}'s frames against TcpOutSegs + TcpRetransSegs"
                ),
            }
        }
    }
}

#[test]
fn headers_carry_the_models_sequence_numbers_windows_and_options() {
    let out = run("tso-autosizing.toml", &["sim.duration_ms=50"], false);
    let pcap = out.pcap.as_ref().unwrap();
    let (_, frames) = read(&pcap.pcapng(&whole(Frames::Tso))).unwrap();
    let segs: Vec<Seg> = frames.iter().map(|f| parse(f).unwrap()).collect();
    // The three-way handshake, with the SYN options of each side.
    let (syn, synack, ack) = (&segs[0], &segs[1], &segs[2]);
    assert_eq!(syn.flags, tcp_flags::SYN);
    assert_eq!(synack.flags, tcp_flags::SYN | tcp_flags::ACK);
    assert_eq!(ack.flags, tcp_flags::ACK);
    assert_eq!(synack.ack, syn.seq.wrapping_add(1));
    assert_eq!(ack.ack, synack.seq.wrapping_add(1));
    let kinds = |s: &Seg| s.opts.iter().map(|o| o.0).collect::<Vec<_>>();
    assert_eq!(kinds(syn), [2, 4, 8, 3], "MSS, SACK_PERM, TS, WS");
    let client = &pcap.meta.endpoints[0];
    assert_eq!(syn.opts[0].1, client.advmss.to_be_bytes());
    assert_eq!(syn.opts[3].1, [client.rcv_wscale]);
    assert_eq!((syn.sport, syn.dport), (client.port, SERVER_PORT));
    // Data: the sequence numbers continue from the ISN; every tapped skb is one frame with its
    // payload, and the timestamps carry the sender's clock in ms.
    let mut next = syn.seq.wrapping_add(1);
    for (s, t) in segs.iter().zip(&pcap.tap.packets).skip(3) {
        if s.sport != client.port || s.payload == 0 {
            continue;
        }
        assert_eq!(s.payload as u32, t.pkt.payload_len());
        assert_eq!(s.seq, next, "in-order data without losses");
        next = s.seq.wrapping_add(s.payload as u32);
        let ts = &s.opts.iter().find(|o| o.0 == 8).unwrap().1;
        assert_eq!(
            u32::from_be_bytes(ts[..4].try_into().unwrap()),
            (t.pkt.sent_ns / 1_000_000) as u32
        );
        // The receiver's window in the sender's units: the advertised bytes, scaled.
    }
    let acks = segs
        .iter()
        .zip(&pcap.tap.packets)
        .filter(|(s, _)| s.sport == SERVER_PORT);
    let server = &pcap.meta.endpoints[1];
    for (s, t) in acks.skip(1) {
        assert_eq!(s.window as u32, t.pkt.window >> server.rcv_wscale);
        assert_eq!(s.ack, client.isn.wrapping_add(t.pkt.ack_seq as u32));
    }
}

#[test]
fn wire_frames_start_when_the_models_nic_puts_them_on_the_wire() {
    // One flow through a 1 Gbit/s NIC with TSO: the frames' stamps are the trace's wire_tx
    // starts, each TSO skb's MSS frames following each other at the link rate.
    let out = run("tcp-small-queues.toml", &["sim.duration_ms=100"], true);
    let pcap = out.pcap.as_ref().unwrap();
    let mut starts: BTreeMap<u64, u64> = BTreeMap::new();
    for r in &out.trace.records {
        if let Ev::WireTx { pkt, .. } = r.ev {
            starts.insert(pkt, r.t_ns);
        }
    }
    let (_, tso) = read(&pcap.pcapng(&whole(Frames::Tso))).unwrap();
    let (_, wire) = read(&pcap.pcapng(&whole(Frames::Wire))).unwrap();
    let tso_segs: u64 = pcap
        .tap
        .packets
        .iter()
        .map(|t| t.pkt.gso_segs.max(1) as u64)
        .sum();
    assert_eq!(tso.len(), pcap.tap.packets.len());
    assert_eq!(wire.len() as u64, tso_segs);
    assert!(
        tso_segs > tso.len() as u64 * 2,
        "TSO skbs of several segments"
    );
    // Match each skb to its first wire frame by port, sequence, ACK and whether it has data.
    let key = |s: &Seg| (s.sport, s.seq, s.ack, s.payload > 0);
    let mut first_frame_at: BTreeMap<_, u64> = BTreeMap::new();
    for f in &wire {
        let s = parse(f).unwrap();
        first_frame_at.entry(key(&s)).or_insert(f.t_ns);
    }
    let mut checked = 0;
    for (t, f) in pcap.tap.packets.iter().zip(&tso) {
        let s = parse(f).unwrap();
        assert_eq!(f.t_ns, t.t_ns, "TSO frames carry the tap's instant");
        let Some(&start) = starts.get(&t.pkt.id) else {
            continue; // still in the ring when the run ended
        };
        assert_eq!(first_frame_at[&key(&s)], start, "skb #{}", t.pkt.id);
        checked += 1;
    }
    assert!(checked > 100, "{checked} skbs compared");
}

#[test]
fn sack_blocks_reach_the_acks_that_carried_them() {
    // Loss at a bottleneck: the receiver's ACKs carry SACK blocks beside the timestamps.
    let opts = RunOptions {
        sets: vec![
            "kernel=6.18".into(),
            "sim.hz=250".into(),
            "TCP_CONGESTION=cubic".into(),
            "sim.duration_ms=1500".into(),
        ],
        pcap: true,
        ..Default::default()
    };
    let name = "conformance/setups/loss-recovery.toml";
    let out = run_source(&scenario(name), name, &opts).unwrap();
    assert!(counter(&out, "sender", Mib::TcpRetransSegs) > 0);
    let pcap = out.pcap.as_ref().unwrap();
    let (_, frames) = read(&pcap.pcapng(&WriteOptions::default())).unwrap();
    let data_isn = pcap.meta.endpoints[0].isn;
    let mut with_sack = 0;
    for (f, t) in frames.iter().zip(&pcap.tap.packets) {
        let s = parse(f).unwrap();
        assert!(f.data.len() <= DEFAULT_SNAPLEN as usize);
        let Some(blocks) = pcap.tap.sack.get(&t.pkt.id) else {
            assert!(s.opts.iter().all(|o| o.0 != 5));
            continue;
        };
        let sack = &s.opts.iter().find(|o| o.0 == 5).unwrap().1;
        assert_eq!(sack.len(), 8 * blocks.len().min(3));
        for (i, &(start, end)) in blocks.iter().take(3).enumerate() {
            let edge = |o: usize| u32::from_be_bytes(sack[o..o + 4].try_into().unwrap());
            assert_eq!(edge(8 * i), data_isn.wrapping_add(start as u32));
            assert_eq!(edge(8 * i + 4), data_isn.wrapping_add(end as u32));
        }
        with_sack += 1;
    }
    assert!(with_sack > 10, "{with_sack} ACKs with SACK blocks");
}

#[test]
fn gso_segment_cuts_as_the_kernels_gso_does() {
    let mut p = Packet::test_data(1, 0, 3 * 1448 + 100, 4, 1448);
    p.flags |= tcp_flags::PSH | tcp_flags::FIN;
    p.end_seq += 1;
    let mut id = 100;
    let mut k = 0;
    p.for_each_gso_segment(&mut id, |s| {
        let mine = gso_segment(&p, k);
        assert_eq!(
            (mine.seq, mine.end_seq, mine.len, mine.flags),
            (s.seq, s.end_seq, s.len, s.flags),
            "segment {k}"
        );
        k += 1;
    });
    assert_eq!(k, 4);
}

#[test]
fn checksum_is_rfc_1071s() {
    // RFC 1071's example: the sum of 0001 f203 f4f5 f6f7 is ddf2, complemented 220d.
    assert_eq!(
        checksum(&[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7], 0),
        0x220d
    );
    assert_eq!(checksum(&[0xff], 0), !0xff00u16);
}

#[test]
fn a_full_tap_stops_and_the_file_says_so() {
    let mut tap = Tap::new(2);
    for i in 0..5 {
        tap.push(0, i, &Packet::test_data(i, 0, 100, 1, 1448));
    }
    assert_eq!(tap.packets.len(), 2);
    assert!(tap.truncated);
    let mut out = Vec::new();
    section_header(&mut out, Some(2));
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("stopped after 2 packets"), "{text}");
}

#[test]
fn frames_parses_its_names_and_names_the_choices_otherwise() {
    assert_eq!(Frames::parse("tso"), Ok(Frames::Tso));
    assert_eq!(Frames::parse("wire"), Ok(Frames::Wire));
    let e = Frames::parse("mss").unwrap_err();
    assert!(
        e.contains("tso") && e.contains("wire") && e.contains("mss"),
        "{e}"
    );
}
