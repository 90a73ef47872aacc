//! `sendpath trace FILE [--sk N]... [--skb N] [--func NAME] [--from T] [--to T] [--limit N]`:
//! the event log, one line per event, under a header naming the columns and their units.

use std::collections::BTreeSet;
use std::io::Write;

use sendpath_core::include::linux::skbuff::NO_SOCK;
use sendpath_core::trace::{Ev, Record};
use sendpath_core::{RunOptions, RunResult};

use crate::Fail;

/// Which events to print.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Sockets (`--sk 0 --sk 1`, `--sk 0,1` or `--sk sk0`); empty = all.
    pub sks: Vec<u32>,
    /// One skb and the packets it was transmitted as.
    pub skb: Option<u64>,
    /// Kernel function (`tcp_write_xmit`) or event kind (`xmit_hold`).
    pub func: Option<String>,
    pub from_ns: Option<u64>,
    pub to_ns: Option<u64>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.sks.is_empty() && self.skb.is_none() && self.func.is_none()
    }

    /// Parses `--sk`'s value: `3`, `sk3` or `0,1`.
    pub fn add_sks(&mut self, v: &str) -> Result<(), String> {
        for part in v.split(',') {
            let n = part.trim().trim_start_matches("sk");
            self.sks.push(n.parse().map_err(|_| {
                format!("sendpath trace: --sk: not a socket number: {part} (write 0, sk0 or 0,1)")
            })?);
        }
        Ok(())
    }
}

/// The kernel function of a record, right for its side of the connection.
pub fn func_of(r: &Record, result: &RunResult) -> &'static str {
    let active = result.sockets.get(r.sk as usize).is_none_or(|s| s.active);
    r.ev.func_on(active)
}

/// The skb ids an event names (its own, or the one a split created).
fn skbs_of(ev: &Ev) -> [Option<u64>; 2] {
    match *ev {
        Ev::SendmsgCopy { skb, .. }
        | Ev::Autocork { skb, .. }
        | Ev::XmitHold { skb, .. }
        | Ev::Xmit { skb, .. } => [Some(skb), None],
        Ev::Fragment { skb, new_skb, .. } => [Some(skb), Some(new_skb)],
        _ => [None, None],
    }
}

/// The packet id an event names, if any.
pub fn pkt_of(ev: &Ev) -> Option<u64> {
    ev.fields()
        .iter()
        .find(|(n, _)| *n == "pkt")
        .map(|&(_, v)| v)
}

/// The header: the command, the run and what each column holds.
pub fn header(o: &mut impl Write, file: &str, r: &RunResult) -> std::io::Result<()> {
    writeln!(
        o,
        "# sendpath trace {file}: kernel {}{}; hosts {}",
        r.kernel,
        r.variant
            .as_ref()
            .map(|v| format!(", variant {v}"))
            .unwrap_or_default(),
        r.host_names.join(", ")
    )?;
    writeln!(
        o,
        "# columns: t_ms = simulated time in ms (to the ns); host; sk = socket (- for a device event); function = the kernel function that decided; event = what it decided (sizes in B, seq/ack relative to the ISN, times as marked)"
    )?;
    writeln!(
        o,
        "# {:>10} {:<9} {:<5} {:<26} event",
        "t_ms", "host", "sk", "function"
    )
}

/// One event as a trace line.
pub fn line(o: &mut impl Write, r: &Record, result: &RunResult) -> std::io::Result<()> {
    let host = result
        .host_names
        .get(r.host as usize)
        .map_or("?", |h| h.as_str());
    let sk = if r.sk == NO_SOCK {
        "-".to_string()
    } else {
        format!("sk{}", r.sk)
    };
    writeln!(
        o,
        "{:>12.6} {:<9} {:<5} {:<26} {}",
        r.t_ns as f64 / 1e6,
        host,
        sk,
        func_of(r, result),
        r.ev.describe()
    )
}

/// `sendpath trace`.
pub fn run(
    o: &mut impl Write,
    file: &str,
    src: &str,
    mut opts: RunOptions,
    f: &Filter,
) -> Result<(), Fail> {
    opts.trace = true;
    if f.from_ns.is_some() || f.to_ns.is_some() {
        let (from, to) = (f.from_ns.unwrap_or(0), f.to_ns.unwrap_or(u64::MAX));
        if from >= to {
            return Err("trace: --from must come before --to".into());
        }
        opts.trace_window = Some((from, to));
    }
    if let Some(func) = &f.func {
        let known = sendpath_core::trace::KINDS
            .iter()
            .any(|k| k.func == func || k.name == func)
            || sendpath_core::trace::PASSIVE_FUNCS
                .iter()
                .any(|(_, p)| p == func);
        if !known {
            let mut funcs: Vec<&str> = sendpath_core::trace::KINDS.iter().map(|k| k.func).collect();
            funcs.extend(sendpath_core::trace::PASSIVE_FUNCS.iter().map(|(_, p)| *p));
            funcs.sort_unstable();
            funcs.dedup();
            return Err(format!(
                "trace: --func {func}: no event comes from that function; the trace names {}",
                funcs.join(", ")
            )
            .into());
        }
    }
    let out = crate::run_announced(src, file, &opts)?;
    let r = &out.result;
    for w in &r.warnings {
        eprintln!("sendpath: warning: {w}");
    }
    for &sk in &f.sks {
        if sk as usize >= r.sockets.len() {
            return Err(format!(
                "trace: --sk {sk}: this run has sockets 0..{}",
                r.sockets.len().saturating_sub(1)
            )
            .into());
        }
    }
    header(o, file, r)?;
    // The packets skb `--skb` left as, learnt from its `xmit` lines as the log goes.
    let mut pkts: BTreeSet<u64> = BTreeSet::new();
    let mut printed = 0usize;
    for rec in &out.trace.records {
        if !f.sks.is_empty() && !f.sks.contains(&rec.sk) {
            continue;
        }
        if let Some(func) = &f.func {
            if func_of(rec, r) != func && rec.ev.kind_name() != func {
                continue;
            }
        }
        if let Some(skb) = f.skb {
            if let Ev::Xmit { skb: s, pkt, .. } = rec.ev {
                if s == skb {
                    pkts.insert(pkt);
                }
            }
            let names_skb = skbs_of(&rec.ev).contains(&Some(skb));
            let names_pkt = pkt_of(&rec.ev).is_some_and(|p| pkts.contains(&p));
            if !names_skb && !names_pkt {
                continue;
            }
        }
        line(o, rec, r)?;
        printed += 1;
    }
    if out.trace.truncated {
        writeln!(
            o,
            "# trace truncated at {} events (--limit)",
            out.trace.records.len()
        )?;
    }
    if printed == 0 && !f.is_empty() {
        writeln!(o, "# no event matched the filters")?;
    }
    Ok(())
}
