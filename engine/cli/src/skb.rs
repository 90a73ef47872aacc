//! `sendpath skb FILE N`: one skb's life, from the `tcp_sendmsg` that copied its first byte to
//! the ACK that freed it, with every hold and its reason (the site's "Why is it waiting?" in
//! the terminal).
//!
//! The skb's events name it (`sendmsg_copy`, `autocork`, `xmit_hold`, `fragment`, `xmit`); the
//! packets it left as are the `pkt`s of its `xmit` lines, followed through the qdisc, the ring,
//! the wire and `tcp_wfree`; on the peer, the data it carried arrives (`rcv_data` overlapping
//! its bytes) and is acknowledged (`ack_xmit` up to its end); the life ends at the sender's
//! first `tcp_ack` that covers its last byte, which frees it from the retransmit queue.

use std::collections::BTreeSet;
use std::io::Write;

use sendpath_core::trace::{Ev, Record};
use sendpath_core::RunOptions;

use crate::trace_cmd::{header, line, pkt_of};
use crate::Fail;

/// How long each stage of the life took, from one line to the next, named by what it waited for.
fn stage(prev: &Record, next: &Record) -> Option<&'static str> {
    Some(match prev.ev {
        Ev::SendmsgCopy { .. } => "filling (more send() calls)",
        Ev::Autocork { .. } => "autocorked",
        Ev::XmitHold { gate, .. } => gate.name(),
        Ev::QdiscEnqueue { .. } => "in the qdisc",
        Ev::RingPost { .. } => "in the TX ring",
        Ev::WireTx { .. } => "serialization and propagation",
        Ev::RcvData { .. } if matches!(next.ev, Ev::AckXmit { .. }) => "peer: ACK held back",
        Ev::AckXmit { .. } => "ACK on its way back",
        _ => return None,
    })
}

pub fn run(
    o: &mut impl Write,
    file: &str,
    src: &str,
    mut opts: RunOptions,
    skb: u64,
) -> Result<(), Fail> {
    opts.trace = true;
    if opts.trace_limit == 0 {
        opts.trace_limit = 20_000_000;
    }
    let out = crate::run_announced(src, file, &opts)?;
    let r = &out.result;
    let recs = &out.trace.records;
    // Its socket, from the first event that names it.
    let first = recs.iter().position(|x| match x.ev {
        Ev::SendmsgCopy { skb: s, .. } | Ev::Xmit { skb: s, .. } => s == skb,
        Ev::Fragment { new_skb, .. } => new_skb == skb,
        _ => false,
    });
    let Some(first) = first else {
        let most = recs
            .iter()
            .filter_map(|x| match x.ev {
                Ev::SendmsgCopy { skb, .. } => Some(skb),
                Ev::Fragment { new_skb, .. } => Some(new_skb),
                _ => None,
            })
            .max();
        return Err(match most {
            Some(m) => format!("skb: {file}: no skb#{skb} in this run (it made skbs up to #{m}; `sendpath trace {file} --func tcp_sendmsg_locked` lists them)"),
            None => format!("skb: {file}: this run made no data skb"),
        }
        .into());
    };
    let sk = recs[first].sk;
    let info = r.sockets.get(sk as usize);
    let peer = info.map_or(u32::MAX, |i| i.peer);
    let mut pkts: BTreeSet<u64> = BTreeSet::new();
    let (mut start, mut end) = (u64::MAX, 0u64);
    let mut life: Vec<&Record> = Vec::new();
    let mut freed = false;
    let mut peer_acked = false;
    for rec in &recs[first..] {
        let mine = match rec.ev {
            Ev::SendmsgCopy {
                skb: s,
                seq,
                end_seq,
                ..
            } if s == skb => {
                start = start.min(seq);
                end = end.max(end_seq);
                true
            }
            Ev::Autocork { skb: s, .. } | Ev::XmitHold { skb: s, .. } => s == skb,
            Ev::Fragment {
                skb: s, new_skb, ..
            } => s == skb || new_skb == skb,
            Ev::Xmit {
                skb: s,
                pkt,
                seq,
                end_seq,
                ..
            } if s == skb => {
                pkts.insert(pkt);
                start = start.min(seq);
                // After a split the skb keeps the bytes it is transmitted with.
                end = end_seq;
                true
            }
            Ev::GsoSegment { pkt, .. } => pkts.contains(&pkt),
            Ev::RcvData { seq, end_seq, .. } if rec.sk == peer => {
                !pkts.is_empty() && seq < end && end_seq > start
            }
            Ev::AckXmit { ack, .. } if rec.sk == peer => {
                let first_ack = !pkts.is_empty() && ack >= end && !peer_acked;
                peer_acked |= first_ack;
                first_ack
            }
            Ev::AckRcvd { ack, .. } if rec.sk == sk => {
                if !pkts.is_empty() && ack >= end {
                    freed = true;
                    true
                } else {
                    false
                }
            }
            _ => {
                // Packets of the skb, on this host and on the wire to the peer.
                pkt_of(&rec.ev).is_some_and(|p| pkts.contains(&p))
                    && !matches!(rec.ev, Ev::AckXmit { .. })
            }
        };
        if mine {
            life.push(rec);
        }
        if freed {
            break;
        }
    }
    header(o, file, r)?;
    writeln!(
        o,
        "# skb#{skb} of sk{sk} (flow {}, {}): bytes [{start}, {end}), sent as packet{} {}",
        info.map_or(0, |i| i.flow),
        info.map_or("?", |i| i.app.as_str()),
        if pkts.len() == 1 { "" } else { "s" },
        pkts.iter()
            .map(|p| format!("#{p}"))
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    for rec in &life {
        line(o, rec, r)?;
    }
    // Where the time went: each wait from the line that started it to the next line.
    let mut waits: Vec<(&str, u64)> = Vec::new();
    // tcp_wfree runs at the TX completion, beside the packet's way to the peer: not a stage.
    let steps: Vec<&Record> = life
        .iter()
        .copied()
        .filter(|x| !matches!(x.ev, Ev::TcpWfree { .. }))
        .collect();
    for pair in steps.windows(2) {
        if let Some(name) = stage(pair[0], pair[1]) {
            let ns = pair[1].t_ns.saturating_sub(pair[0].t_ns);
            match waits.iter_mut().find(|(n, _)| *n == name) {
                Some(w) => w.1 += ns,
                None => waits.push((name, ns)),
            }
        }
    }
    let (t0, t1) = (
        life.first().map_or(0, |x| x.t_ns),
        life.last().map_or(0, |x| x.t_ns),
    );
    writeln!(
        o,
        "# {} from its first byte to {}: {:.3} µs",
        if freed { "life" } else { "so far" },
        if freed {
            "the ACK that freed it"
        } else {
            "the end of the run (not freed)"
        },
        (t1 - t0) as f64 / 1e3
    )?;
    for (name, ns) in waits.iter().filter(|(_, ns)| *ns > 0) {
        writeln!(o, "#   {name:<32} {:>12.3} µs", *ns as f64 / 1e3)?;
    }
    if out.trace.truncated && !freed {
        writeln!(
            o,
            "# the trace was cut at {} events (--limit): the rest of the life is not shown",
            recs.len()
        )?;
    }
    Ok(())
}
