//! The applications' workload as the scenario describes it.

mod common;
use common::*;

/// `app.connect_interval_us`: flow i calls connect() at i × the interval (the conformance lab's
/// recorder starts its four clients from a shell loop, their SYNs about 0.5 ms apart).
#[test]
fn flows_connect_one_interval_apart() {
    let opens = |interval_us: u32, until_us: u32| {
        let r = run(
            "notsent-lowat.toml",
            Some("off"),
            &[
                "app.flows=4",
                &format!("app.connect_interval_us={interval_us}"),
                // sim.duration_ms is whole ms: 1 ms sees the SYNs at 0 and 0.6 ms only.
                &format!("sim.duration_ms={}", until_us / 1000),
            ],
        );
        counter(&r, "sender", "TcpActiveOpens")
    };
    assert_eq!(opens(0, 1000), 4, "all four at t = 0");
    assert_eq!(
        opens(600, 1000),
        2,
        "SYNs at 0 and 0.6 ms within the first 1 ms"
    );
    assert_eq!(opens(600, 2000), 4, "the fourth at 1.8 ms");
}

/// Throughput is what arrived: a 10 Mbit/s link never reports more than 10 Mbit/s, however
/// much the writers' send buffers accepted before the run ended (issue 15).
#[test]
fn throughput_counts_bytes_delivered_not_bytes_the_send_buffer_accepted() {
    let r = run(
        "autocorking.toml",
        Some("on"),
        &["link.rate_mbit=10", "sim.duration_ms=300"],
    );
    let mbit = stream_mbps(&r);
    let written: u64 = r
        .apps
        .iter()
        .filter(|a| a.kind == "tcp_stream")
        .map(|a| a.bytes_written)
        .sum();
    let written_mbit = written as f64 * 8.0 / r.elapsed_s / 1e6;
    assert!(
        written_mbit > 10.0,
        "the writers' send buffers accepted more than the link carries ({written_mbit:.1} Mbit/s)"
    );
    assert!(
        mbit <= 10.0 && mbit > 8.0,
        "throughput {mbit:.2} Mbit/s on a 10 Mbit/s link"
    );
}

/// The fq lesson's paced run (4 flows, `maxrate` 2.5 Gbit/s each) stays under 4 x 2.5 Gbit/s
/// and under the unpaced run, which sends more (issue 17: it read 10,141 Mbit/s when throughput
/// counted what the send buffers accepted).
#[test]
fn fq_maxrate_caps_what_the_paced_flows_deliver() {
    let mbit = |variant: &str| stream_mbps(&run("fq-pacing-autocorking.toml", Some(variant), &[]));
    let (paced, unpaced) = (mbit("paced"), mbit("unpaced"));
    assert!(paced <= 4.0 * 2500.0, "paced {paced:.0} Mbit/s");
    assert!(
        paced < unpaced,
        "paced {paced:.0} against unpaced {unpaced:.0} Mbit/s"
    );
}
