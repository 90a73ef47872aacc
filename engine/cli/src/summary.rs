//! `sendpath run`'s summary for engineers (per flow, per device, holds per gate) and its
//! `--csv` time series. The figures come from `sendpath_core::trace::summary`, which reads the
//! same event stream as `sendpath trace`.

use std::io::{self, Write};

use sendpath_core::sim::csv;
use sendpath_core::trace::summary::{Distribution, LevelSummary, Series, Summary};
use sendpath_core::RunResult;

fn mbit(bps: f64) -> String {
    format!("{:.2} Mbit/s", bps / 1e6)
}

fn us(ns: u64) -> String {
    format!("{:.1}", ns as f64 / 1e3)
}

/// The power-of-two buckets of a TSO histogram: `1`, `2-3`, `4-7`, ... with their skbs.
fn buckets(hist: &[[u64; 2]]) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut lo = 1u64;
    let max = hist.last().map_or(0, |h| h[0]);
    while lo <= max.max(1) {
        let hi = lo * 2 - 1;
        let n: u64 = hist
            .iter()
            .filter(|h| h[0] >= lo && h[0] <= hi)
            .map(|h| h[1])
            .sum();
        let label = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        };
        out.push((label, n));
        lo *= 2;
    }
    out
}

fn dist_line(d: &Distribution) -> String {
    format!(
        "n {}  mean {:.1}  p50 {}  p90 {}  p99 {}  max {}",
        d.count, d.mean, d.p50, d.p90, d.p99, d.max
    )
}

/// The summary after the applications' lines.
pub fn print(o: &mut impl Write, s: &Summary) -> io::Result<()> {
    writeln!(
        o,
        "\n# flows: throughput = IP bytes sent (headers and retransmissions included), goodput = bytes the peer application read, over {:.6} s",
        s.elapsed_ns as f64 / 1e9
    )?;
    for f in &s.flows {
        writeln!(
            o,
            "flow {} {}:sk{} {}  throughput {}  goodput {}  retransmitted {} B",
            f.flow,
            f.host,
            f.sk,
            f.app,
            mbit(f.throughput_bps),
            mbit(f.goodput_bps),
            f.retrans_bytes
        )?;
        if let (Some(r), Some(c)) = (&f.srtt_us, &f.cwnd) {
            writeln!(
                o,
                "  srtt     min {} µs  avg {:.1} µs  max {} µs (time-weighted from the first ACK)",
                r.min, r.avg, r.max
            )?;
            writeln!(
                o,
                "  cwnd     min {}  avg {:.1}  max {} packets",
                c.min, c.avg, c.max
            )?;
        }
        writeln!(o, "  TSO segments per skb: {}", dist_line(&f.tso_segs))?;
        let b = buckets(&f.tso_histogram);
        let most = b.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
        for (label, n) in b {
            let bar = "#".repeat(((n * 40).div_ceil(most)) as usize);
            writeln!(o, "    {label:>7} segs {n:>10} skbs {bar}")?;
        }
    }
    if !s.devices.is_empty() {
        writeln!(
            o,
            "\n# devices: backlog over the run, time-weighted from t = 0 to {:.6} s",
            s.elapsed_ns as f64 / 1e9
        )?;
        writeln!(
            o,
            "{:<12} {:<24} {:>12} {:>10} {:>10} {:>10}",
            "host", "queue", "avg", "p50", "p99", "max"
        )?;
        for d in &s.devices {
            let rows: [(&str, &Option<LevelSummary>); 4] = [
                ("qdisc backlog bytes", &d.qdisc_bytes),
                ("qdisc backlog packets", &d.qdisc_packets),
                ("TX ring descriptors", &d.ring_descs),
                ("BQL inflight bytes", &d.bql_inflight_bytes),
            ];
            for (name, l) in rows {
                if let Some(l) = l {
                    writeln!(
                        o,
                        "{:<12} {:<24} {:>12.1} {:>10} {:>10} {:>10}",
                        d.host, name, l.avg, l.p50, l.p99, l.max
                    )?;
                }
            }
        }
    }
    writeln!(
        o,
        "\n# holds: time from the first hold of an skb at a gate to its transmission (qdisc: per packet, enqueue to dequeue; ring: per packet, posted to on the wire), µs"
    )?;
    writeln!(
        o,
        "{:<10} {:<7} {:>9} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "gate", "per", "held", "total ms", "mean", "p50", "p90", "p99", "max"
    )?;
    for h in &s.holds {
        if h.ns.count == 0 {
            continue;
        }
        writeln!(
            o,
            "{:<10} {:<7} {:>9} {:>12.3} {:>10.1} {:>10} {:>10} {:>10} {:>10}",
            h.gate,
            h.per,
            h.ns.count,
            h.total_ns as f64 / 1e6,
            h.ns.mean / 1e3,
            us(h.ns.p50),
            us(h.ns.p90),
            us(h.ns.p99),
            us(h.ns.max)
        )?;
    }
    if s.holds_open_at_end > 0 {
        writeln!(
            o,
            "({} skb holds were still open at the end and count up to it)",
            s.holds_open_at_end
        )?;
    }
    Ok(())
}

/// Writes `PREFIX.flows.csv` and `PREFIX.devices.csv`; returns their names.
pub fn write_csv(prefix: &str, series: &Series, r: &RunResult) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for (what, text) in [
        ("flows", csv::flows_csv(series, r)),
        ("devices", csv::devices_csv(series, r)),
    ] {
        let name = format!("{prefix}.{what}.csv");
        std::fs::write(&name, text).map_err(|e| format!("--csv: cannot write {name}: {e}"))?;
        names.push(name);
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tso_buckets_are_powers_of_two() {
        let b = buckets(&[[1, 5], [2, 1], [3, 2], [44, 7]]);
        assert_eq!(b[0], ("1".to_string(), 5));
        assert_eq!(b[1], ("2-3".to_string(), 3));
        assert_eq!(b.last().unwrap(), &("32-63".to_string(), 7));
    }
}
