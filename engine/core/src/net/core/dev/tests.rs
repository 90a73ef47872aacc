//! Mechanism tests of the device: a minimal world (an event queue of device timers ordered by
//! (time, sequence)) drives a `NetDevice` as the simulation does.

use std::collections::BTreeMap;

use super::*;
use crate::include::linux::skbuff::{tcp_flags, ETH_HLEN, IPV4_HLEN, TCP_HLEN};
use crate::net::sched::sch_api::Qdisc;
use crate::net::sched::sch_fq::{Fq, FqConfig};
use crate::net::sched::sch_generic::PfifoFast;

const HDR: u32 = ETH_HLEN + IPV4_HLEN + TCP_HLEN + 12;
const MSS: u32 = 1448;
/// 1538 B on the wire at 10 Gbit/s: 1230.4 ns, rounded up.
const FRAME_NS: u64 = 1231;

fn data(id: u64, payload: u32, segs: u32) -> Packet {
    Packet {
        hash: 0x1234_5678,
        truesize: 1280 + payload,
        seq: 1000,
        end_seq: 1000 + payload as u64,
        ack_seq: 1,
        flags: tcp_flags::ACK | tcp_flags::PSH,
        ..Packet::test_data(id, 3, payload, segs, MSS)
    }
}

/// The world around one device.
struct Sim {
    dev: NetDevice,
    timers: BTreeMap<(u64, u64), DevTimer>,
    seq: u64,
    out: DevOut,
    trace: Trace,
    wire: Vec<(u64, Packet)>,
    /// (time the NAPI poll handed it back, packet)
    completed: Vec<(u64, Packet)>,
    dropped: Vec<Packet>,
    timers_armed: Vec<(u64, DevTimer)>,
}

impl Sim {
    fn new((cfg, params): (DevConfig, DevParams), qdisc: Qdisc) -> Sim {
        Sim {
            dev: NetDevice::with_params(0, cfg, params, qdisc),
            timers: BTreeMap::new(),
            seq: 0,
            out: DevOut::default(),
            trace: Trace::new(true, 1_000_000),
            wire: Vec::new(),
            completed: Vec::new(),
            dropped: Vec::new(),
            timers_armed: Vec::new(),
        }
    }

    fn absorb(&mut self, now: u64) {
        for &(t, k) in &self.out.timers {
            assert!(t >= now, "timer armed in the past");
            self.seq += 1;
            self.timers.insert((t, self.seq), k);
            self.timers_armed.push((t, k));
        }
        self.wire.append(&mut self.out.to_wire);
        for p in self.out.completed.drain(..) {
            self.completed.push((now, p));
        }
        for (p, _) in self.out.dropped.drain(..) {
            self.dropped.push(p);
        }
        self.out.clear();
    }

    fn run_until(&mut self, t: u64) {
        while let Some((&(at, s), &k)) = self.timers.first_key_value() {
            if at > t {
                break;
            }
            self.timers.remove(&(at, s));
            self.dev.on_timer(k, at, &mut self.out, &mut self.trace);
            self.absorb(at);
        }
    }

    fn xmit(&mut self, p: Packet, t: u64) {
        self.run_until(t);
        self.dev
            .dev_queue_xmit(p, t, &mut self.out, &mut self.trace);
        self.absorb(t);
    }

    fn run(&mut self) {
        self.run_until(u64::MAX);
    }

    fn kinds(&self) -> Vec<&'static str> {
        self.trace
            .records
            .iter()
            .map(|r| r.ev.kind_name())
            .collect()
    }
}

/// A 10 Gbit/s NIC, BQL off unless the test turns it on.
struct Nic {
    c: DevConfig,
    p: DevParams,
}

fn nic(f: impl FnOnce(&mut Nic)) -> (DevConfig, DevParams) {
    let mut n = Nic {
        c: DevConfig::ethernet(10_000_000_000),
        p: DevParams {
            bql: false,
            ..DevParams::default()
        },
    };
    f(&mut n);
    (n.c, n.p)
}

fn pfifo() -> Qdisc {
    Qdisc::PfifoFast(PfifoFast::new(1000))
}

#[test]
fn wire_time_of_a_full_mss_frame_at_10_gbit_is_1538_bytes_times_8_over_the_rate() {
    let mut s = Sim::new(nic(|_| {}), pfifo());
    s.xmit(data(1, MSS, 1), 0);
    s.run();
    // 1538 * 8 / 10e9 s = 1230.4 ns; the model rounds a frame's end up to whole ns.
    assert_eq!(s.wire.len(), 1);
    assert_eq!(
        s.wire[0].0,
        (1538u64 * 8 * 1_000_000_000).div_ceil(10_000_000_000)
    );
    assert_eq!(s.wire[0].0, FRAME_NS);
    // A 10-segment TSO skb takes 10 frames back to back.
    let mut s = Sim::new(nic(|_| {}), pfifo());
    s.xmit(data(1, 10 * MSS, 10), 0);
    s.run();
    assert_eq!(
        s.wire[0].0,
        (15380u64 * 8 * 1_000_000_000).div_ceil(10_000_000_000)
    );
}

#[test]
fn a_tx_completion_with_tx_frames_n_frees_n_descriptors_at_once() {
    let mut s = Sim::new(
        nic(|c| {
            c.c.tx_usecs = 1000;
            c.c.tx_frames = 4;
        }),
        pfifo(),
    );
    for i in 0..10 {
        s.xmit(data(i, MSS, 1), 0);
    }
    s.run();
    let mut rounds: BTreeMap<u64, usize> = BTreeMap::new();
    for (t, _) in &s.completed {
        *rounds.entry(*t).or_default() += 1;
    }
    let rounds: Vec<(u64, usize)> = rounds.into_iter().collect();
    // Four descriptors at the 4th and 8th frame's end; the last two wait tx-usecs (1 ms)
    // after the 9th completed.
    assert_eq!(
        rounds,
        vec![
            (4 * FRAME_NS, 4),
            (8 * FRAME_NS, 4),
            (9 * FRAME_NS + 1_000_000, 2)
        ]
    );
    let st = s.dev.stats();
    assert_eq!((st.ch_events, st.tx_cqes, st.tx_packets), (3, 10, 10));
    let descs: Vec<u64> = s
        .trace
        .records
        .iter()
        .filter_map(|r| match r.ev {
            Ev::TxCompletion { descs, .. } => Some(descs),
            _ => None,
        })
        .collect();
    assert_eq!(descs, vec![4, 4, 2]);
}

#[test]
fn tx_usecs_delays_completion() {
    let mut s = Sim::new(
        nic(|c| {
            c.c.tx_usecs = 50;
            c.c.tx_frames = 0;
        }),
        pfifo(),
    );
    s.xmit(data(1, MSS, 1), 0);
    s.run();
    assert_eq!(s.wire[0].0, FRAME_NS);
    assert_eq!(s.completed.len(), 1);
    assert_eq!(s.completed[0].0, FRAME_NS + 50_000);
    // tx-usecs 0 and tx-frames 0: an interrupt per completion, at once.
    let mut s = Sim::new(
        nic(|c| {
            c.c.tx_usecs = 0;
            c.c.tx_frames = 0;
        }),
        pfifo(),
    );
    s.xmit(data(1, MSS, 1), 0);
    s.run();
    assert_eq!(s.completed[0].0, FRAME_NS);
}

#[test]
fn ring_full_stops_the_queue_and_a_completion_wakes_it() {
    let mut s = Sim::new(
        nic(|c| {
            c.c.tx_ring = 4;
            c.c.tx_usecs = 0;
            c.c.tx_frames = 0;
        }),
        pfifo(),
    );
    for i in 0..10 {
        s.xmit(data(i, MSS, 1), 0);
    }
    assert_eq!(s.dev.ring_used(), 4);
    assert!(s.dev.netif_xmit_stopped());
    assert_eq!(s.dev.qdisc.qlen(), 6, "the rest waits in the qdisc");
    s.run();
    let ids: Vec<u64> = s.wire.iter().map(|(_, p)| p.id).collect();
    assert_eq!(ids, (0..10).collect::<Vec<_>>(), "in order, none lost");
    let k = s.kinds();
    assert!(
        k.contains(&"queue_stop") && k.contains(&"queue_wake"),
        "{k:?}"
    );
    assert!(
        k.contains(&"requeue"),
        "the bypassed packet met a stopped queue"
    );
    let wake = s
        .trace
        .records
        .iter()
        .find(|r| matches!(r.ev, Ev::QueueWake { .. }))
        .unwrap();
    // Woken when two descriptors are free again (tx_wake_thresh 2): after the 2nd frame.
    assert_eq!(wake.t_ns, 2 * FRAME_NS);
    assert_eq!(
        wake.ev,
        Ev::QueueWake {
            gate: Gate::RingFull
        }
    );
    let st = s.dev.stats();
    assert!(st.tx_queue_stopped >= 2 && st.tx_queue_wake >= 2, "{st:?}");
    assert_eq!(st.tx_ring_used_max, 4);
}

#[test]
fn software_gso_splits_a_10_segment_skb_into_10_packets_whose_completions_each_release_their_truesize_share(
) {
    let mut s = Sim::new(
        nic(|c| {
            c.c.tso = false;
            c.c.tx_usecs = 0;
            c.c.tx_frames = 0;
        }),
        pfifo(),
    );
    let p = data(7, 10 * MSS, 10);
    let (truesize, seq) = (p.truesize, p.seq);
    s.xmit(p, 0);
    s.run();
    assert_eq!(s.wire.len(), 10);
    assert_eq!(
        s.completed.len(),
        10,
        "one completion (one tcp_wfree) per segment"
    );
    let sum: u32 = s.completed.iter().map(|(_, p)| p.truesize).sum();
    assert_eq!(sum, truesize);
    for (i, (t, p)) in s.completed.iter().enumerate() {
        assert_eq!(*t, (i as u64 + 1) * FRAME_NS, "each completes when it left");
        assert_eq!(p.gso_segs, 1);
        assert_eq!(p.len, HDR + MSS);
        assert_eq!(p.seq, seq + i as u64 * MSS as u64);
        assert_eq!(p.end_seq, p.seq + MSS as u64);
        assert_eq!(p.orig_skb, 7);
        assert_eq!(
            p.flags & tcp_flags::PSH != 0,
            i == 9,
            "PSH only on the last"
        );
        assert!(p.truesize.abs_diff(truesize / 10) <= 10);
    }
    assert_eq!(
        s.completed[0].1.id, 7,
        "the first segment keeps the skb's id"
    );
    assert!(s.kinds().contains(&"gso_segment"));
    assert_eq!(s.dev.stats().tx_sw_gso_segs, 10);
    // The other segments get ids of their own, which the site's f64 columns hold exactly.
    let ids: std::collections::BTreeSet<u64> = s.completed.iter().map(|(_, p)| p.id).collect();
    assert_eq!(ids.len(), 10, "distinct ids");
    for id in ids {
        assert_eq!(id as f64 as u64, id, "id {id} is exact as an f64");
    }
    // With TSO on, the same skb is one descriptor and one completion.
    let mut s = Sim::new(nic(|_| {}), pfifo());
    s.xmit(data(7, 10 * MSS, 10), 0);
    s.run();
    assert_eq!((s.wire.len(), s.completed.len()), (1, 1));
    assert_eq!(s.dev.stats().tx_tso_packets, 1);
}

#[test]
fn bql_stops_the_queue_when_over_its_limit_and_the_completion_grows_the_limit_and_wakes_it() {
    let mut s = Sim::new(
        nic(|c| {
            c.p.bql = true;
            c.c.tx_usecs = 0;
            c.c.tx_frames = 0;
        }),
        pfifo(),
    );
    for i in 0..20 {
        s.xmit(data(i, MSS, 1), 0);
    }
    // dql starts with limit 0: the first packet puts the queue over it.
    assert_eq!(s.dev.ring_used(), 1);
    assert_eq!(s.dev.qdisc.qlen(), 19);
    assert!(s.kinds().contains(&"queue_stop"));
    s.run();
    assert_eq!(s.wire.len(), 20);
    let st = s.dev.stats();
    assert!(st.bql_stack_xoff >= 2 && st.bql_wake >= 2, "{st:?}");
    assert!(
        st.bql_limit_max >= 2 * 1514,
        "limit grew under starvation: {st:?}"
    );
    assert_eq!(st.bql_inflight, 0);
    let wakes: Vec<Gate> = s
        .trace
        .records
        .iter()
        .filter_map(|r| match r.ev {
            Ev::QueueWake { gate } => Some(gate),
            _ => None,
        })
        .collect();
    assert!(wakes.iter().all(|g| *g == Gate::Bql));
}

#[test]
fn bql_lets_a_bulk_dequeue_take_several_packets_while_dql_avail_lasts() {
    let mut s = Sim::new(
        nic(|c| {
            c.p.bql = true;
        }),
        pfifo(),
    );
    // A BQL limit pinned at 10 frames (limit_min = limit_max), and the queue stopped by BQL
    // while 12 packets arrive.
    let d = &mut s.dev.dql;
    (d.min_limit, d.max_limit, d.limit, d.adj_limit) = (15140, 15140, 15140, 15140);
    s.dev.stack_xoff = true;
    for i in 0..12 {
        s.xmit(data(i, MSS, 1), 0);
    }
    assert_eq!(s.dev.qdisc.qlen(), 12);
    assert_eq!(
        s.dev.qdisc.requeued_len(),
        1,
        "the bypassed packet met the stopped queue"
    );
    // BQL wakes the queue (as netdev_tx_completed_queue would) and NET_TX runs the qdisc.
    s.dev.stack_xoff = false;
    s.dev.net_tx_at = Some(0);
    s.dev
        .on_timer(DevTimer::NetTxAction, 0, &mut s.out, &mut s.trace);
    s.absorb(0);
    // 1) the requeued packet alone; 2) one packet plus a bulk while the bytes stay under
    // dql_avail (13626 - 1514 = 12112 B: 8 more); 3) one more, which puts BQL over its limit.
    assert_eq!(s.dev.ring_used(), 11);
    assert_eq!(s.dev.stats().tx_xmit_more, 8, "one doorbell per bulk");
    assert!(s.dev.netif_xmit_stopped());
    assert_eq!(s.dev.qdisc.qlen(), 1);
}

#[test]
fn the_dev_tx_weight_quota_yields_to_a_net_tx_softirq() {
    let mut cfg = FqConfig::for_kernel(6, 6, 1514, 1000);
    cfg.initial_quantum = 100 * 1514;
    let mut s = Sim::new(nic(|c| c.p.dev_tx_weight = 4), Qdisc::Fq(Fq::new(cfg)));
    for i in 0..10 {
        let mut p = data(i, MSS, 1);
        p.tstamp_ns = 5_000; // EDT: all due at 5 µs
        s.xmit(p, 0);
    }
    assert_eq!(s.dev.ring_used(), 0, "throttled until 5 µs");
    s.run();
    let net_tx: Vec<u64> = s
        .timers_armed
        .iter()
        .filter(|(_, k)| *k == DevTimer::NetTxAction)
        .map(|(t, _)| *t)
        .collect();
    assert_eq!(net_tx, vec![5_000, 5_000], "4 + 4 + 2 packets");
    assert_eq!(s.wire.len(), 10);
}

#[test]
fn fq_on_the_device_paces_by_arming_the_qdisc_watchdog() {
    let cfg = FqConfig::for_kernel(4, 13, 1514, 1000);
    let mut s = Sim::new(nic(|_| {}), Qdisc::Fq(Fq::new(cfg)));
    for i in 0..3 {
        let mut p = data(i, MSS, 1);
        p.sk_pacing_rate_bps = 50_000; // below low_rate_threshold: each packet paced
        s.xmit(p, 0);
    }
    s.run();
    let starts: Vec<u64> = s.wire.iter().map(|(t, _)| t - FRAME_NS).collect();
    let gap = 1514 * 1_000_000_000 / 50_000;
    assert_eq!(starts, vec![0, gap, 2 * gap]);
    assert!(s
        .timers_armed
        .iter()
        .any(|(t, k)| *k == DevTimer::QdiscWatchdog && *t == gap));
    assert!(s.kinds().contains(&"qdisc_throttle"));
    assert_eq!(s.out.sk_pacing_fq.len(), 0);
}

#[test]
fn fq_reports_the_socket_it_paces() {
    let cfg = FqConfig::for_kernel(6, 18, 1514, 1000);
    let (dc, dp) = nic(|_| {});
    let mut d = NetDevice::with_params(0, dc, dp, Qdisc::Fq(Fq::new(cfg)));
    let (mut out, mut tr) = (DevOut::default(), Trace::new(false, 0));
    d.dev_queue_xmit(data(1, MSS, 1), 0, &mut out, &mut tr);
    assert_eq!(out.sk_pacing_fq, vec![3]);
    out.clear();
    d.dev_queue_xmit(data(2, MSS, 1), 0, &mut out, &mut tr);
    assert!(out.sk_pacing_fq.is_empty(), "reported once per socket");
}

#[test]
fn loopback_orphans_the_skb_at_once_and_delivers_it_to_the_same_host() {
    let mut s = Sim::new(
        (DevConfig::loopback(), DevParams::default()),
        Qdisc::Noqueue,
    );
    s.xmit(data(1, 60_000, 1), 100);
    assert_eq!(s.completed.len(), 1);
    assert_eq!(s.completed[0].0, 100);
    assert_eq!(s.wire[0].0, 100);
    assert!(s.timers_armed.is_empty());
}

#[test]
fn a_tun_device_orphans_each_skb_as_it_takes_it_where_a_nic_holds_it_until_tx_completion() {
    let mut tun = Sim::new(nic(|n| n.c.tun = true), pfifo());
    tun.xmit(data(1, 10_000, 10), 100);
    assert_eq!(tun.completed.len(), 1, "tun_net_xmit: skb_orphan");
    assert_eq!((tun.completed[0].0, tun.wire[0].0), (100, 100));
    let mut eth = Sim::new(nic(|_| {}), pfifo());
    eth.xmit(data(1, 10_000, 10), 100);
    assert!(
        eth.completed.is_empty(),
        "a NIC frees the skb at its TX completion"
    );
}

#[test]
fn stale_timers_are_ignored() {
    let mut s = Sim::new(nic(|_| {}), pfifo());
    s.xmit(data(1, MSS, 1), 0);
    for k in [
        DevTimer::TxIrq,
        DevTimer::WireDone,
        DevTimer::QdiscWatchdog,
        DevTimer::NetTxAction,
    ] {
        s.dev.on_timer(k, 7, &mut s.out, &mut s.trace);
        assert!(s.out.to_wire.is_empty() && s.out.completed.is_empty());
        assert!(s.out.timers.is_empty());
    }
    s.run();
    assert_eq!(s.completed.len(), 1);
}

#[test]
fn an_empty_pfifo_fast_is_bypassed_and_counts_the_packet_as_sent() {
    let mut s = Sim::new(nic(|_| {}), pfifo());
    s.xmit(data(1, MSS, 1), 0);
    assert_eq!(s.kinds()[0], "qdisc_bypass");
    let q = s.dev.qdisc_stats().unwrap();
    assert_eq!((q.sent_packets, q.backlog_packets), (1, 0));
    // A second packet while the first is on the wire: the qdisc is empty again, bypass too.
    s.xmit(data(2, MSS, 1), 10);
    assert_eq!(s.dev.qdisc_stats().unwrap().sent_packets, 2);
}

#[test]
fn a_stopped_noqueue_device_drops() {
    let mut s = Sim::new(
        nic(|c| {
            c.c.tx_ring = 1;
            c.p.tx_wake_thresh = 1;
        }),
        Qdisc::Noqueue,
    );
    s.xmit(data(1, MSS, 1), 0);
    s.xmit(data(2, MSS, 1), 0);
    assert_eq!(s.dropped.len(), 1);
    assert_eq!(s.dev.stats().tx_queue_dropped, 1);
}

#[test]
fn the_device_reports_the_cpu_time_of_its_work() {
    let c = CpuCosts::MEASURED_6_18_VM;
    let (dc, dp) = nic(|c| c.c.tso = false);
    let mut d = NetDevice::with_params(0, dc, dp, pfifo());
    let (mut out, mut tr) = (DevOut::default(), Trace::new(false, 0));
    // A 3-segment skb with TSO off: dev + qdisc + GSO of 3 segments + 3 descriptors, one
    // doorbell (the last of the bulk).
    d.dev_queue_xmit(data(1, 3 * MSS, 3), 0, &mut out, &mut tr);
    assert_eq!(
        out.cpu_ns,
        c.dev_xmit_ns + c.qdisc_ns + 3 * c.gso_segment_ns + 3 * c.driver_xmit_ns + c.doorbell_ns
    );
    // The completion interrupt: one interrupt, three descriptors cleaned.
    let mut t = 0;
    let mut timers: Vec<(u64, DevTimer)> = out.timers.drain(..).collect();
    let mut irq_cpu = 0;
    while let Some((at, k)) = timers.pop() {
        out.clear();
        d.on_timer(k, at, &mut out, &mut tr);
        if k == DevTimer::TxIrq && !out.completed.is_empty() {
            irq_cpu = out.cpu_ns;
        }
        timers.append(&mut out.timers);
        timers.sort_by_key(|t| std::cmp::Reverse(t.0));
        t = at;
    }
    assert!(t > 0);
    assert_eq!(irq_cpu, c.tx_irq_ns + 3 * c.tx_clean_ns);
}
