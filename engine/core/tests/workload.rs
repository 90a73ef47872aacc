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
