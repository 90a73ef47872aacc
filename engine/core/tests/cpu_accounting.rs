//! What `getrusage` counts as an application's CPU time: the time its task was current, with
//! the softirqs that ran meanwhile, and not the softirq work its socket caused while it slept.

mod common;
use common::*;

/// 128-byte writes behind tbf 200 Mbit/s on a veth (the conformance lab's
/// `autocork-tbf200m-off`): the writer fills its send buffer and sleeps most of the second;
/// tbf's watchdog, the veth receive softirq and the ACKs run on its core while it sleeps.
#[test]
fn softirq_work_while_the_writer_sleeps_keeps_its_core_busy_but_is_not_its_cpu_time() {
    let sets = [
        "kernel=6.18",
        // The lab's kernel build (MAX_HEADER 32), as the experiment sets it.
        "kernel.max_header=32",
        "link.kind=veth",
        "app.flows=1",
        "cpu.cores=2",
        "link.delay_us=0",
        "sim.duration_ms=1000",
        "tc.qdisc=tbf",
        "tc.tbf.rate_mbit=200",
        "tc.tbf.burst_bytes=16384",
        "tc.tbf.latency_ms=50",
    ];
    let r = run("autocorking.toml", Some("off"), &sets);
    let writer = r.apps.iter().find(|a| a.kind == "tcp_stream").unwrap();
    assert!(
        writer.voluntary_ctxt_switches > 20,
        "the writer sleeps on its send buffer ({} sleeps)",
        writer.voluntary_ctxt_switches
    );
    let busy_s = r.hosts["sender"].cpus_utilized * r.elapsed_s;
    // Everything the sender's CPUs did ran for this one flow; the part done while the writer
    // slept is the difference.
    assert!(
        writer.cpu_s < 0.8 * busy_s,
        "writer {} s of CPU against {busy_s} s of busy sender CPU",
        writer.cpu_s
    );
    // Linux's writer (3 runs of this kernel): 0.0902..0.0916 s.
    within(writer.cpu_s, 0.0915, 0.15).unwrap();
}
