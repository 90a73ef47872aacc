//! The run summary's figures against the event log they come from: each figure is recomputed
//! here from the recorded trace, by code of its own, and must agree exactly.

mod common;

use std::collections::BTreeMap;

use sendpath_core::trace::summary::{Distribution, LevelSummary, Summary};
use sendpath_core::trace::{Ev, Record};
use sendpath_core::{run_source, RunOptions, RunOutput};

fn run_traced(name: &str, variant: Option<&str>, sets: &[&str]) -> RunOutput {
    let src = std::fs::read_to_string(common::scenarios_dir().join(name)).unwrap();
    let opts = RunOptions {
        variant: variant.map(str::to_string),
        sets: sets.iter().map(|s| s.to_string()).collect(),
        trace: true,
        trace_limit: 5_000_000,
        summary: true,
        ..Default::default()
    };
    let out = run_source(&src, name, &opts).unwrap();
    assert!(
        !out.trace.truncated,
        "{name}: the whole run must be in the log"
    );
    out
}

/// The nearest-rank percentile of sorted samples.
fn rank(sorted: &[u64], p: usize) -> u64 {
    let i = (p * sorted.len()).div_ceil(100).max(1) - 1;
    sorted[i]
}

/// Time-weighted figures of a step function given as change points `(t, value)` in time order,
/// from 0 (value 0) to `end`.
fn weighted(points: &[(u64, u64)], end: u64) -> LevelSummary {
    let mut spans: Vec<(u64, u64)> = Vec::new(); // (value, duration)
    let (mut t0, mut v0) = (0u64, 0u64);
    for &(t, v) in points {
        let t = t.max(t0);
        spans.push((v0, t - t0));
        (t0, v0) = (t, v);
    }
    spans.push((v0, end - t0));
    let total: u64 = spans.iter().map(|s| s.1).sum();
    let avg = spans.iter().map(|s| s.0 as f64 * s.1 as f64).sum::<f64>() / total as f64;
    spans.sort();
    let pct = |p: u64| {
        let mut cum = 0;
        for &(v, d) in &spans {
            cum += d;
            if cum * 100 >= p * total {
                return v;
            }
        }
        unreachable!()
    };
    let max = points.iter().map(|p| p.1).max().unwrap_or(0);
    LevelSummary {
        avg,
        p50: pct(50),
        p99: pct(99),
        max,
    }
}

/// A host's qdisc backlog in bytes over time: `qdisc_enqueue` gives it, each packet's bytes are
/// its growth there; they leave at its `qdisc_dequeue` or `qdisc_drop`, return at `requeue`.
fn qdisc_backlog(records: &[Record], host: u16) -> Vec<(u64, u64)> {
    let mut bytes_of: BTreeMap<u64, u64> = BTreeMap::new();
    let mut now = 0u64;
    let mut points = Vec::new();
    for r in records.iter().filter(|r| r.host == host) {
        match r.ev {
            Ev::QdiscEnqueue { pkt, backlog, .. } => {
                bytes_of.insert(pkt, backlog.saturating_sub(now));
                now = backlog;
            }
            Ev::QdiscDequeue { pkt, .. } | Ev::QdiscDrop { pkt, .. } => match bytes_of.remove(&pkt)
            {
                Some(b) => now = now.saturating_sub(b),
                None => continue,
            },
            Ev::Requeue { pkt } => {
                let b = bytes_of.get(&pkt).copied().unwrap_or(0);
                bytes_of.insert(pkt, b);
                now += b;
            }
            _ => continue,
        }
        points.push((r.t_ns, now));
    }
    points
}

/// Every hold at one of TCP's gates, per skb: (gate name, ns).
fn skb_holds(records: &[Record], end: u64) -> BTreeMap<&'static str, Vec<u64>> {
    let mut open: BTreeMap<(u32, u64), (&'static str, u64)> = BTreeMap::new();
    let mut out: BTreeMap<&'static str, Vec<u64>> = BTreeMap::new();
    let mut close = |open: &mut BTreeMap<(u32, u64), (&'static str, u64)>, k, t: u64| {
        if let Some((g, since)) = open.remove(&k) {
            out.entry(g).or_default().push(t - since);
        }
    };
    for r in records {
        let (skb, gate) = match r.ev {
            Ev::Autocork { skb, .. } => (skb, Some("autocork")),
            Ev::XmitHold { skb, gate, .. } => (skb, Some(gate.name())),
            Ev::Xmit { skb, .. } => (skb, None),
            _ => continue,
        };
        // The socket's tcp_write_xmit ran: autocorks end.
        if !matches!(r.ev, Ev::Autocork { .. }) {
            let corked: Vec<_> = open
                .iter()
                .filter(|(k, v)| k.0 == r.sk && v.0 == "autocork")
                .map(|(k, _)| *k)
                .collect();
            for k in corked {
                close(&mut open, k, r.t_ns);
            }
        }
        let key = (r.sk, skb);
        match gate {
            None => close(&mut open, key, r.t_ns),
            Some(g) if g == "bql" || g == "qdisc" || g == "ring_full" => {}
            Some(g) => {
                if open.get(&key).is_none_or(|o| o.0 != g) {
                    close(&mut open, key, r.t_ns);
                    open.insert(key, (g, r.t_ns));
                }
            }
        }
    }
    let rest: Vec<_> = open.keys().copied().collect();
    for k in rest {
        close(&mut open, k, end);
    }
    out
}

fn check_distribution(what: &str, got: &Distribution, samples: &mut [u64]) {
    samples.sort_unstable();
    assert_eq!(got.count, samples.len() as u64, "{what}: count");
    if samples.is_empty() {
        return;
    }
    assert_eq!(got.p50, rank(samples, 50), "{what}: p50");
    assert_eq!(got.p90, rank(samples, 90), "{what}: p90");
    assert_eq!(got.p99, rank(samples, 99), "{what}: p99");
    assert_eq!(got.max, *samples.last().unwrap(), "{what}: max");
    let mean = samples.iter().sum::<u64>() as f64 / samples.len() as f64;
    assert!(
        (got.mean - mean).abs() < 1e-6 * mean.max(1.0),
        "{what}: mean"
    );
}

fn check(out: &RunOutput) -> Summary {
    let r = &out.result;
    let s = r.summary.clone().expect("a summary");
    let recs = &out.trace.records;
    let end = s.elapsed_ns;
    assert_eq!(end, (r.elapsed_s * 1e9).round() as u64);
    // Backlog over the run, per host with a qdisc.
    for d in &s.devices {
        let h = r.host_names.iter().position(|n| *n == d.host).unwrap() as u16;
        if let Some(q) = &d.qdisc_bytes {
            let want = weighted(&qdisc_backlog(recs, h), end);
            assert_eq!(
                (q.p50, q.p99, q.max),
                (want.p50, want.p99, want.max),
                "{}",
                d.host
            );
            assert!(
                (q.avg - want.avg).abs() < 1e-6 * want.avg.max(1.0),
                "{}",
                d.host
            );
            // The deepest backlog is one a qdisc_enqueue line reports.
            let deepest = recs
                .iter()
                .filter(|x| x.host == h)
                .filter_map(|x| match x.ev {
                    Ev::QdiscEnqueue { backlog, .. } => Some(backlog),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            assert_eq!(q.max, deepest, "{}", d.host);
        }
    }
    // Holds per gate.
    let mut holds = skb_holds(recs, end);
    let mut qdisc: Vec<u64> = recs
        .iter()
        .filter_map(|x| match x.ev {
            Ev::QdiscDequeue { sojourn_ns, .. } => Some(sojourn_ns),
            _ => None,
        })
        .collect();
    let mut posted: BTreeMap<(u16, u64), u64> = BTreeMap::new();
    let mut ring: Vec<u64> = Vec::new();
    for x in recs {
        match x.ev {
            Ev::RingPost { pkt, .. } => {
                posted.insert((x.host, pkt), x.t_ns);
            }
            Ev::WireTx { pkt, .. } => {
                if let Some(t) = posted.remove(&(x.host, pkt)) {
                    ring.push(x.t_ns - t);
                }
            }
            _ => {}
        }
    }
    for h in &s.holds {
        let mut samples = match h.gate.as_str() {
            "qdisc" => std::mem::take(&mut qdisc),
            "ring" => std::mem::take(&mut ring),
            g => holds.remove(g).unwrap_or_default(),
        };
        check_distribution(&format!("hold {}", h.gate), &h.ns, &mut samples);
        assert_eq!(h.total_ns, samples.iter().sum::<u64>(), "hold {}", h.gate);
    }
    // Per flow: bytes, TSO sizes, cwnd and srtt extremes.
    for f in &s.flows {
        let mine: Vec<&Record> = recs.iter().filter(|x| x.sk == f.sk).collect();
        let mut segs = Vec::new();
        let mut sent = 0;
        let (mut cwnd, mut srtt) = (Vec::new(), Vec::new());
        for x in &mine {
            match x.ev {
                Ev::Xmit { segs: n, len, .. } => {
                    segs.push(n);
                    sent += len;
                }
                Ev::AckRcvd {
                    cwnd: c, srtt_us, ..
                } => {
                    cwnd.push(c);
                    srtt.push(srtt_us);
                }
                _ => {}
            }
        }
        assert_eq!(f.sent_bytes, sent, "flow {}", f.flow);
        let peer = r.sockets[f.sk as usize].peer;
        let read: u64 = recs
            .iter()
            .filter(|x| x.sk == peer)
            .filter_map(|x| match x.ev {
                Ev::Recvmsg { bytes } => Some(bytes),
                _ => None,
            })
            .sum();
        assert_eq!(f.peer_read_bytes, read, "flow {}", f.flow);
        check_distribution(&format!("flow {} tso", f.flow), &f.tso_segs, &mut segs);
        let hist_total: u64 = f.tso_histogram.iter().map(|h| h[1]).sum();
        assert_eq!(hist_total, f.tso_segs.count);
        if let Some(c) = &f.cwnd {
            assert_eq!(c.min, *cwnd.iter().min().unwrap());
            assert_eq!(c.max, *cwnd.iter().max().unwrap());
            assert!(c.avg >= c.min as f64 && c.avg <= c.max as f64);
        }
        if let Some(x) = &f.srtt_us {
            assert_eq!(x.min, *srtt.iter().min().unwrap());
            assert_eq!(x.max, *srtt.iter().max().unwrap());
        }
    }
    s
}

#[test]
fn backlog_holds_and_tso_sizes_of_autocorking_recompute_from_its_event_log() {
    let out = run_traced("autocorking.toml", None, &["sim.duration_ms=20"]);
    let s = check(&out);
    let held = |g: &str| s.holds.iter().find(|h| h.gate == g).unwrap().ns.count;
    assert!(
        held("autocork") > 100,
        "autocork holds: {}",
        held("autocork")
    );
    // With autocorking on the flows reach the line rate and the qdisc holds their packets, so
    // autocork holds most tails; Nagle still holds some (18 in this run).
    assert!(held("nagle") > 10, "nagle holds: {}", held("nagle"));
    let sender = s.devices.iter().find(|d| d.host == "sender").unwrap();
    assert!(
        sender.qdisc_bytes.as_ref().unwrap().max > 0,
        "the qdisc queued"
    );
}

#[test]
fn a_bulk_flow_with_a_tcp_small_queues_limit_recomputes_from_its_event_log() {
    let out = run_traced("tcp-small-queues.toml", None, &["sim.duration_ms=200"]);
    let s = check(&out);
    let f = &s.flows[0];
    assert!(f.tso_segs.max > 1, "TSO packets of more than one segment");
    assert!(f.cwnd.as_ref().unwrap().max > 10, "cwnd grew");
    assert!(f.goodput_bps > 0.0);
}

#[test]
fn a_ping_pong_has_a_flow_each_way() {
    let out = run_traced(
        "nagle-delayed-ack.toml",
        Some("default"),
        &["app.rounds=20"],
    );
    let s = check(&out);
    assert_eq!(s.flows.len(), 2, "client and server both send");
    assert!(s.devices.is_empty(), "loopback has neither qdisc nor ring");
}

#[test]
fn the_time_series_ends_at_the_summary_totals() {
    let src =
        std::fs::read_to_string(common::scenarios_dir().join("tcp-small-queues.toml")).unwrap();
    let opts = RunOptions {
        sets: vec!["sim.duration_ms=100".into()],
        summary: true,
        series_interval_ns: 10_000_000,
        ..Default::default()
    };
    let out = run_source(&src, "tsq", &opts).unwrap();
    let s = out.result.summary.unwrap();
    let series = out.series.expect("a series");
    let last = series.flows.iter().rev().find(|f| f.sk == 0).unwrap();
    assert_eq!(last.t_ns, 100_000_000);
    assert_eq!(last.sent_bytes, s.flows[0].sent_bytes);
    assert_eq!(last.acked_bytes, s.flows[0].acked_bytes);
    // One row per socket every 10 ms once the socket has an event.
    let times: Vec<u64> = series
        .flows
        .iter()
        .filter(|f| f.sk == 0)
        .map(|f| f.t_ns)
        .collect();
    assert!(
        times.windows(2).all(|w| w[1] - w[0] == 10_000_000),
        "{times:?}"
    );
    let sent: Vec<u64> = series
        .flows
        .iter()
        .filter(|f| f.sk == 0)
        .map(|f| f.sent_bytes)
        .collect();
    assert!(sent.windows(2).all(|w| w[0] <= w[1]), "cumulative");
    assert!(!series.devices.is_empty());
}

#[test]
fn the_summary_does_not_change_the_run() {
    let plain = common::run("autocorking.toml", None, &["sim.duration_ms=5"]);
    let src = std::fs::read_to_string(common::scenarios_dir().join("autocorking.toml")).unwrap();
    let opts = RunOptions {
        sets: vec!["sim.duration_ms=5".into()],
        summary: true,
        ..Default::default()
    };
    let mut with = run_source(&src, "autocorking.toml", &opts).unwrap().result;
    assert!(with.summary.take().is_some());
    assert_eq!(format!("{plain:?}"), format!("{with:?}"));
}
