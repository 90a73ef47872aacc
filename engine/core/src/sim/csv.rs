//! `sendpath run --csv PREFIX --interval TIME`'s two tables (`PREFIX.flows.csv`,
//! `PREFIX.devices.csv`) from a run's time series ([`crate::trace::summary::Series`]); the
//! site's summary panel downloads the same text.

use std::collections::BTreeMap;

use crate::trace::summary::Series;
use crate::RunResult;

/// The per-flow table: one row per socket per sample; rates over the interval before it.
pub fn flows_csv(series: &Series, r: &RunResult) -> String {
    let mut out = String::from(
        "t_ms,flow,host,sk,app,cwnd,srtt_us,packets_out,sent_bytes,acked_bytes,read_bytes,throughput_mbit,acked_mbit\n",
    );
    let mut last: BTreeMap<u32, (u64, u64)> = Default::default();
    let secs = series.interval_ns as f64 / 1e9;
    for f in &series.flows {
        let info = r.sockets.get(f.sk as usize);
        let host = info
            .and_then(|i| r.host_names.get(i.host as usize))
            .map_or("?", |h| h.as_str());
        let (sent0, acked0) = last
            .insert(f.sk, (f.sent_bytes, f.acked_bytes))
            .unwrap_or((0, 0));
        let rate = |b: u64| {
            if f.t_ns == 0 {
                0.0
            } else {
                b as f64 * 8.0 / secs / 1e6
            }
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{:.3},{:.3}\n",
            f.t_ns as f64 / 1e6,
            info.map_or(0, |i| i.flow),
            host,
            f.sk,
            info.map_or("", |i| i.app.as_str()),
            f.cwnd,
            f.srtt_us,
            f.packets_out,
            f.sent_bytes,
            f.acked_bytes,
            f.read_bytes,
            rate(f.sent_bytes - sent0),
            rate(f.acked_bytes - acked0),
        ));
    }
    out
}

/// The per-device table: one row per host per sample.
pub fn devices_csv(series: &Series, r: &RunResult) -> String {
    let mut out = String::from(
        "t_ms,host,qdisc_bytes,qdisc_packets,ring_descs,bql_inflight_bytes,bql_limit_bytes,wire_bytes,wire_mbit\n",
    );
    let mut last: BTreeMap<u16, u64> = Default::default();
    let secs = series.interval_ns as f64 / 1e9;
    for d in &series.devices {
        let host = r
            .host_names
            .get(d.host as usize)
            .map_or("?", |h| h.as_str());
        let w0 = last.insert(d.host, d.wire_bytes).unwrap_or(0);
        let rate = if d.t_ns == 0 {
            0.0
        } else {
            (d.wire_bytes - w0) as f64 * 8.0 / secs / 1e6
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{:.3}\n",
            d.t_ns as f64 / 1e6,
            host,
            d.qdisc_bytes,
            d.qdisc_packets,
            d.ring_descs,
            d.bql_inflight_bytes,
            d.bql_limit_bytes,
            d.wire_bytes,
            rate
        ));
    }
    out
}
