//! The claims of the scenarios written for the classroom lessons (`scenarios/lessons/`), tested
//! on the runs the lessons show: each scenario's first comment line must stay true.

mod common;
use common::*;
use sendpath_core::metric;

fn m(r: &sendpath_core::RunResult, name: &str) -> f64 {
    metric(r, name).unwrap_or_else(|| panic!("no metric {name}"))
}

/// Mean bytes per IP packet the sender sent.
fn bytes_per_packet(r: &sendpath_core::RunResult) -> f64 {
    counter(r, "sender", "IpExtOutOctets") as f64 / counter(r, "sender", "IpOutRequests") as f64
}

// ---- scenarios/tcp-small-queues.toml ----

#[test]
fn tsq_keeps_a_bulk_flows_qdisc_backlog_near_its_limit_where_without_it_megabytes_wait() {
    let tsq = run("tcp-small-queues.toml", Some("tsq"), &[]);
    let off = run("tcp-small-queues.toml", Some("off"), &[]);
    let limit_bytes = 131072.0;
    let tsq_backlog = m(&tsq, "sender:qdisc_backlog_bytes");
    let off_backlog = m(&off, "sender:qdisc_backlog_bytes");
    assert!(
        tsq_backlog <= limit_bytes,
        "with TSQ the qdisc holds {tsq_backlog} B, above the limit"
    );
    assert!(
        off_backlog > 1_000_000.0,
        "without TSQ the qdisc holds only {off_backlog} B"
    );
    // "Without reduction of nominal bandwidth": the same throughput either way.
    within(m(&tsq, "throughput_mbit"), m(&off, "throughput_mbit"), 0.02).unwrap();
}

#[test]
fn qdisc_backlog_metric_is_what_tc_reports_at_the_end_of_the_run() {
    let r = run("tcp-small-queues.toml", Some("off"), &[]);
    let q = r.hosts["sender"]
        .qdisc
        .as_ref()
        .expect("pfifo_fast on the sender");
    assert_eq!(m(&r, "sender:qdisc_backlog_bytes"), q.backlog_bytes as f64);
    assert!(sendpath_core::metric_name_is_valid(
        "sender:qdisc_backlog_bytes"
    ));
}

// ---- scenarios/fq-pacing-autocorking.toml ----

#[test]
fn fq_pacing_below_the_senders_rate_lets_autocorked_skbs_grow_to_many_mss() {
    let mss = 1448.0;
    let paced = run("fq-pacing-autocorking.toml", Some("paced"), &[]);
    let unpaced = run("fq-pacing-autocorking.toml", Some("unpaced"), &[]);
    assert!(
        bytes_per_packet(&paced) > 10.0 * mss,
        "paced: {} B per packet",
        bytes_per_packet(&paced)
    );
    assert!(
        bytes_per_packet(&unpaced) < 2.0 * mss,
        "unpaced: {} B per packet",
        bytes_per_packet(&unpaced)
    );
    // Bigger packets, less CPU for about the same throughput.
    within(
        m(&paced, "throughput_mbit"),
        m(&unpaced, "throughput_mbit"),
        0.10,
    )
    .unwrap();
    assert!(paced.hosts["sender"].cpus_utilized < 0.8 * unpaced.hosts["sender"].cpus_utilized);
}

#[test]
fn fq_pacing_above_what_the_senders_reach_holds_nothing_and_changes_nothing() {
    let mss = 1448.0;
    let above = run("fq-pacing-autocorking.toml", Some("paced_above"), &[]);
    assert!(
        bytes_per_packet(&above) < 2.0 * mss,
        "paced above the senders' rate: {} B per packet",
        bytes_per_packet(&above)
    );
}
