//! Device events per second of wall time: a `NetDevice` at 10 Gbit/s driven by a minimal
//! event loop (a binary heap of device timers) standing in for the simulation's.
//!
//!     cargo bench -p sendpath-core --bench dev
//!
//! An "event" is one call into the device: `dev_queue_xmit` or `on_timer`. The rate is given
//! per second of the thread's CPU time (`/proc/thread-self/schedstat`), which a machine shared
//! with other jobs disturbs less than wall time (both are printed).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use sendpath_core::include::linux::skbuff::Packet;
use sendpath_core::net::core::dev::{DevConfig, DevOut, DevParams, DevTimer, NetDevice};
use sendpath_core::net::sched::sch_api::Qdisc;
use sendpath_core::net::sched::sch_fq::{Fq, FqConfig};
use sendpath_core::net::sched::sch_generic::PfifoFast;
use sendpath_core::trace::Trace;

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`), if available.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn timer_code(t: DevTimer) -> u8 {
    match t {
        DevTimer::QdiscWatchdog => 0,
        DevTimer::WireDone => 1,
        DevTimer::TxIrq => 2,
        DevTimer::NetTxAction => 3,
    }
}

fn timer_of(c: u8) -> DevTimer {
    [
        DevTimer::QdiscWatchdog,
        DevTimer::WireDone,
        DevTimer::TxIrq,
        DevTimer::NetTxAction,
    ][c as usize]
}

/// Offer `n` packets of `segs` MSS segments from `flows` sockets, one every `gap_ns`, and
/// run the device until idle. Returns (device events, wall seconds, CPU seconds).
fn run(qdisc: Qdisc, tso: bool, n: u64, segs: u32, flows: u32, gap_ns: u64) -> (u64, f64, f64) {
    let mut cfg = DevConfig::ethernet(10_000_000_000);
    cfg.tso = tso;
    let mut dev = NetDevice::with_params(0, cfg, DevParams::default(), qdisc);
    let mut out = DevOut::default();
    let mut trace = Trace::new(false, 0);
    let mut heap: BinaryHeap<Reverse<(u64, u64, u8)>> = BinaryHeap::new();
    let (mut seq, mut events, mut done) = (0u64, 0u64, 0u64);
    let t0 = Instant::now();
    let c0 = thread_cpu_ns();
    let mut next_pkt = 0u64;
    loop {
        let pkt_t = if next_pkt < n {
            next_pkt * gap_ns
        } else {
            u64::MAX
        };
        let timer_t = heap.peek().map_or(u64::MAX, |Reverse((t, _, _))| *t);
        if pkt_t == u64::MAX && timer_t == u64::MAX {
            break;
        }
        out.clear();
        if pkt_t <= timer_t {
            let now = pkt_t;
            let payload = segs * 1448;
            let sk = (next_pkt % flows as u64) as u32;
            let p = Packet {
                hash: sk * 0x9E37_79B9,
                truesize: 1280 + payload,
                sent_ns: now,
                ..Packet::test_data(next_pkt + 1, sk, payload, segs, 1448)
            };
            next_pkt += 1;
            dev.dev_queue_xmit(p, now, &mut out, &mut trace);
        } else {
            let Reverse((t, _, k)) = heap.pop().unwrap();
            dev.on_timer(timer_of(k), t, &mut out, &mut trace);
        }
        events += 1;
        done += out.completed.len() as u64;
        for &(t, k) in &out.timers {
            seq += 1;
            heap.push(Reverse((t, seq, timer_code(k))));
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (c0, thread_cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => wall,
    };
    assert!(done > 0);
    (events, wall, cpu)
}

fn main() {
    type Case = Box<dyn Fn() -> (u64, f64, f64)>;
    let cases: Vec<(&str, Case)> = vec![
        (
            "pfifo_fast, 1-segment skbs, line rate",
            Box::new(|| {
                run(
                    Qdisc::PfifoFast(PfifoFast::new(1000)),
                    true,
                    2_000_000,
                    1,
                    4,
                    1_231,
                )
            }),
        ),
        (
            "pfifo_fast, 44-segment TSO skbs",
            Box::new(|| {
                run(
                    Qdisc::PfifoFast(PfifoFast::new(1000)),
                    true,
                    200_000,
                    44,
                    4,
                    54_000,
                )
            }),
        ),
        (
            "pfifo_fast, TSO off (software GSO of 10 segments)",
            Box::new(|| {
                run(
                    Qdisc::PfifoFast(PfifoFast::new(1000)),
                    false,
                    200_000,
                    10,
                    4,
                    12_310,
                )
            }),
        ),
        (
            "fq 6.18, 200 flows, 1-segment skbs",
            Box::new(|| {
                let cfg = FqConfig::for_kernel(6, 18, 1514, 1000);
                run(Qdisc::Fq(Fq::new(cfg)), true, 2_000_000, 1, 200, 1_231)
            }),
        ),
    ];
    for (name, f) in cases {
        let (events, wall, cpu) = f();
        println!(
            "{name:52} {events:>9} events  cpu {cpu:>6.3} s {:>6.1} M/s  wall {wall:>6.3} s {:>6.1} M/s",
            events as f64 / cpu / 1e6,
            events as f64 / wall / 1e6
        );
    }
}
