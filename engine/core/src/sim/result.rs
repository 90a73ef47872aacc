//! What a run reports: the `sendpath run --json` contract, also returned to the site.
//!
//! The field names are a contract other tools depend on (see issue "Engine: the Linux TCP
//! socket layer"): `elapsed_s`, `hosts.<name>.counters.<nstat name>`, `hosts.<name>.tcp_mem_pages`,
//! `apps[].{host, bytes_written, throughput_bps, cpu_s, voluntary_ctxt_switches}`. Fields may be
//! added; none may be renamed.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::net::sched::sch_generic::QdiscStats;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunResult {
    /// Simulated seconds until the workload finished or the duration ended.
    pub elapsed_s: f64,
    /// Kernel profile the run used (`"3.14"`, `"6.18"`, ...).
    pub kernel: String,
    /// Scenario variant, if any.
    pub variant: Option<String>,
    pub hosts: BTreeMap<String, HostResult>,
    /// Host names in index order: `Record.host` in the trace indexes this list.
    pub host_names: Vec<String>,
    /// Every socket: `Record.sk` in the trace indexes this list.
    pub sockets: Vec<SockInfo>,
    pub apps: Vec<AppResult>,
    /// Events the simulation processed (the benchmark's numerator).
    pub events: u64,
    /// Problems the run hit that a user must see (a drop on a lossless link, a workload that
    /// did not finish in the duration, ...). Empty when all is well.
    pub warnings: Vec<String>,
    /// What the event stream adds up to (`sendpath run`'s summary), when the run was asked
    /// for it (`RunOptions::summary`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub summary: Option<crate::trace::summary::Summary>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HostResult {
    /// Counters under the names `nstat` prints, absolute values at the end of the run.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub counters: BTreeMap<String, u64>,
    /// TCP memory of all sockets in pages (`/proc/net/sockstat` "TCP: mem"), sampled at the
    /// end of the run.
    pub tcp_mem_pages: u64,
    /// Mean of `tcp_mem_pages` over the run's samples (the NOTSENT_LOWAT commit reads it under
    /// steady load).
    pub tcp_mem_pages_avg: f64,
    /// `tc -s qdisc` of the host's device, when it has a qdisc.
    pub qdisc: Option<QdiscStats>,
    /// The device's `ethtool -S`-like counters and BQL state (none on loopback).
    pub nic: Option<crate::net::core::dev::NicStats>,
    /// Busy fraction of the host's CPUs over the run, 0..1 per core summed (like `perf stat`'s
    /// "CPUs utilized").
    pub cpus_utilized: f64,
    /// The bottleneck router on the path this host transmits into (`path.bottleneck_mbit`):
    /// frames forwarded and dropped. Absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub bottleneck: Option<crate::path::bottleneck::BottleneckStats>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AppResult {
    pub host: String,
    /// What the application is (`"tcp_stream"`, `"pingpong_server"`, ...) and its flow index.
    pub kind: String,
    pub flow: u32,
    /// Bytes the application's `send()` calls accepted.
    pub bytes_written: u64,
    /// Bytes the application read.
    pub bytes_read: u64,
    /// What of its writes the peer application read, × 8 / elapsed: bits per second delivered
    /// (bytes still in the send buffer when the run ends are not throughput).
    pub throughput_bps: f64,
    /// CPU time of the application's threads (system calls and the softirq work charged to
    /// them), like `perf stat`'s task-clock.
    pub cpu_s: f64,
    /// Sleeps in `sk_stream_wait_memory` / `recv` / `poll`.
    pub voluntary_ctxt_switches: u64,
    /// `send()`/`write()` calls the application made.
    pub send_calls: u64,
    /// When the application finished its work, seconds (ping-pong: all rounds done).
    pub finished_s: Option<f64>,
}

/// Who a socket belongs to.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SockInfo {
    /// Index into `host_names`.
    pub host: u16,
    /// The socket at the other end of the connection.
    pub peer: u32,
    /// Flow number (0-based) of the application that owns it.
    pub flow: u32,
    /// The owning application's kind (`"tcp_stream"`, `"pingpong_server"`, ...).
    pub app: String,
    /// The side that connects (`connect()`, `tcp_finish_connect`); the other one is the
    /// passive side (`tcp_conn_request`, `tcp_check_req`, `tcp_rcv_state_process`).
    pub active: bool,
}
