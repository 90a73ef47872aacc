//! The system at one instant, as a kernel engineer would look at it: `ss -ti` for the sockets
//! and `tc -s qdisc show` for the qdiscs (`sendpath run FILE --at 120ms`).
//!
//! The formats follow iproute2's: `ss`'s state line and `tcp_info` line (`tcp_show_info` in
//! `misc/ss.c`: times in ms with `%g`, rates with `sprint_bw`'s three significant digits) and
//! `tc`'s qdisc block (`print_tcstats_attr`). Addresses are made up: host `i` is `10.0.0.(i+1)`
//! (`127.0.0.1` on loopback), the connecting side uses port `40000 + flow`, the passive side 5201.
//!
//! Simplified: fields the model does not keep (`lastrcv`, `rcv_rtt`, `busy`, the per-qdisc
//! parameters of `tc`'s first line) are left out rather than made up.

use crate::net::core::sock::{TcpSock, TcpState};
use crate::scenario::{Config, CongestionControl};
use crate::sim::world::World;
use crate::trace::Trace;

/// Runs `cfg` until every event due at or before `at_ns` has run (or the workload finished, or
/// the duration ended) and returns the world at that instant.
pub fn world_at(cfg: Config, at_ns: u64) -> World {
    let mut w = World::new(cfg, Trace::new(false, 0));
    while w.next_event_ns().is_some_and(|t| t <= at_ns) {
        if !w.step() || (w.app_stepped() && w.finished()) {
            break;
        }
    }
    w
}

/// `sendpath run FILE --at TIME`'s text (the site's "ss -ti / tc -s qdisc at this time"): a
/// header naming `file` and the instant, then the sockets as `ss -tin` and the qdiscs as
/// `tc -s qdisc show` print them at `at_ns`. An instant after the run's end is an error.
pub fn at_report(file: &str, cfg: Config, at_ns: u64) -> Result<String, String> {
    if at_ns > cfg.duration_ns {
        return Err(format!(
            "run: --at {} ms is after the run ends (sim.duration_ms = {})",
            at_ns as f64 / 1e6,
            cfg.duration_ns / 1_000_000
        ));
    }
    let w = world_at(cfg, at_ns);
    let mut o = format!("# {file} at t = {:.6} ms\n", at_ns as f64 / 1e6);
    if w.finished() {
        o.push_str(&format!(
            "# (the workload finished at {:.6} ms: this is the state then)\n",
            w.now_ns as f64 / 1e6
        ));
    }
    o.push_str(&ss_ti(&w, at_ns));
    o.push_str(&tc_s_qdisc(&w));
    Ok(o)
}

/// `%g` as C prints it (six significant digits, no trailing zeros).
fn g(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let exp = x.abs().log10().floor() as i32;
    if !(-5..6).contains(&exp) {
        return format!("{x:e}");
    }
    let decimals = (5 - exp).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `sprint_bw`: bits per second with three significant digits and K/M/G.
pub fn sprint_bw(bps: f64) -> String {
    let (v, unit) = if bps >= 1e12 {
        (bps / 1e12, "T")
    } else if bps >= 1e9 {
        (bps / 1e9, "G")
    } else if bps >= 1e6 {
        (bps / 1e6, "M")
    } else if bps >= 1e3 {
        (bps / 1e3, "K")
    } else {
        (bps, "")
    };
    // %.3g
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    let s = format!("{v:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{unit}")
}

fn addr(w: &World, host: u16) -> String {
    if w.cfg.link.loopback {
        "127.0.0.1".to_string()
    } else {
        format!("10.0.0.{}", host + 1)
    }
}

fn state_name(s: TcpState) -> &'static str {
    match s {
        TcpState::Established => "ESTAB",
        TcpState::SynRecv => "SYN-RECV",
        TcpState::FinWait1 => "FIN-WAIT-1",
        TcpState::FinWait2 => "FIN-WAIT-2",
        TcpState::Closing => "CLOSING",
        TcpState::TimeWait => "TIME-WAIT",
        // Closed: as before the teardown states (a socket that has not connected yet).
        TcpState::Closed | TcpState::SynSent => "SYN-SENT",
    }
}

fn cc_name(cc: CongestionControl) -> &'static str {
    match cc {
        CongestionControl::Cubic => "cubic",
        CongestionControl::Reno => "reno",
        CongestionControl::Bbr => "bbr",
    }
}

/// One socket's `tcp_info` line, in `ss -ti`'s order.
fn tcp_info_line(w: &World, tp: &TcpSock, at_ns: u64) -> String {
    let mut f: Vec<String> = vec![cc_name(tp.cc).to_string()];
    let est = tp.state == TcpState::Established;
    if est {
        f.push(format!("wscale:{},{}", tp.snd_wscale, tp.rcv_wscale));
    }
    // icsk_rto is in jiffies; tcp_info reports jiffies_to_usecs of it.
    let hz = w.hz.max(1);
    let jiffy_ns = 1_000_000_000 / hz;
    let rto_ms = tp.rto_ns.div_ceil(jiffy_ns) as f64 * 1000.0 / hz as f64;
    f.push(format!("rto:{}", g(rto_ms)));
    let srtt_us = tp.srtt_us >> 3;
    if srtt_us > 0 {
        f.push(format!(
            "rtt:{}/{}",
            g(srtt_us as f64 / 1e3),
            g((tp.mdev_us >> 2) as f64 / 1e3)
        ));
    }
    if tp.icsk_ack.ato > 0 {
        // icsk_ack.ato is in jiffies; tcp_info reports µs, ss prints ms.
        let ms = tp.icsk_ack.ato as f64 * 1000.0 / w.hz.max(1) as f64;
        f.push(format!("ato:{}", g(ms)));
    }
    f.push(format!("mss:{}", tp.mss_cache));
    f.push(format!("pmtu:{}", w.cfg.link.mtu));
    f.push(format!("rcvmss:{}", tp.icsk_ack.rcv_mss));
    f.push(format!("advmss:{}", tp.advmss));
    f.push(format!("cwnd:{}", tp.snd_cwnd));
    // ss prints ssthresh only below TCP_INFINITE_SSTHRESH.
    if tp.snd_ssthresh < 0x7fff_ffff {
        f.push(format!("ssthresh:{}", tp.snd_ssthresh));
    }
    let bytes_sent = tp.snd_nxt.saturating_sub(1);
    if bytes_sent > 0 {
        f.push(format!("bytes_sent:{bytes_sent}"));
    }
    if tp.bytes_acked > 0 {
        f.push(format!("bytes_acked:{}", tp.bytes_acked));
    }
    let received = tp.rcv_nxt.saturating_sub(1);
    if received > 0 {
        f.push(format!("bytes_received:{received}"));
    }
    f.push(format!("segs_out:{}", tp.segs_out));
    if tp.data_segs_out > 0 {
        f.push(format!("data_segs_out:{}", tp.data_segs_out));
    }
    if srtt_us > 0 {
        // tcp_show_info: "send %sbps" = cwnd * mss * 8 / rtt
        let bps = tp.snd_cwnd as f64 * tp.mss_cache as f64 * 8.0 / (srtt_us as f64 / 1e6);
        f.push(format!("send {}bps", sprint_bw(bps)));
    }
    let now_j = (at_ns as u128 * hz as u128 / 1_000_000_000) as u64;
    if tp.data_segs_out > 0 {
        let ms = now_j.saturating_sub(tp.lsndtime) * 1000 / hz;
        f.push(format!("lastsnd:{ms}"));
    }
    if tp.sk_pacing_rate > 0 && tp.sk_pacing_rate < tp.profile.pacing_unlimited() {
        f.push(format!(
            "pacing_rate {}bps",
            sprint_bw(tp.sk_pacing_rate as f64 * 8.0)
        ));
    }
    if tp.rate_interval_us > 0 {
        let bps = tp.rate_delivered as f64 * tp.mss_cache as f64 * 8.0
            / (tp.rate_interval_us as f64 / 1e6);
        f.push(format!("delivery_rate {}bps", sprint_bw(bps)));
    }
    if tp.delivered > 0 {
        f.push(format!("delivered:{}", tp.delivered));
    }
    if tp.rate_app_limited {
        f.push("app_limited".to_string());
    }
    if tp.packets_out > 0 {
        f.push(format!("unacked:{}", tp.packets_out));
    }
    if tp.retrans_out > 0 {
        f.push(format!("retrans:{}", tp.retrans_out));
    }
    if tp.lost_out > 0 {
        f.push(format!("lost:{}", tp.lost_out));
    }
    if tp.sacked_out > 0 {
        f.push(format!("sacked:{}", tp.sacked_out));
    }
    f.push(format!("rcv_space:{}", tp.rcvq_space.space));
    f.push(format!("rcv_ssthresh:{}", tp.rcv_ssthresh));
    let notsent = tp.write_seq.saturating_sub(tp.snd_nxt);
    if notsent > 0 {
        f.push(format!("notsent:{notsent}"));
    }
    if tp.min_rtt_us > 0 && tp.min_rtt_us < u32::MAX as u64 {
        f.push(format!("minrtt:{}", g(tp.min_rtt_us as f64 / 1e3)));
    }
    f.push(format!("snd_wnd:{}", tp.snd_wnd));
    f.push(format!("rcv_wnd:{}", tp.rcv_wnd));
    f.join(" ")
}

/// `ss -tin` on each host at `at_ns`: the state line and `tcp_info` of every socket.
pub fn ss_ti(w: &World, at_ns: u64) -> String {
    let mut out = String::new();
    let hosts: Vec<u16> = if w.cfg.link.loopback {
        vec![0]
    } else {
        (0..w.hosts.len() as u16).collect()
    };
    for h in hosts {
        out.push_str(&format!("# {}: ss -tin\n", w.hosts[h as usize].name));
        let rows: Vec<(String, &TcpSock)> = w
            .socks
            .iter()
            .filter(|tp| tp.host == h)
            .map(|tp| {
                let a = &w.apps[tp.app as usize];
                let active = w.sock_is_active(tp.id);
                let (lport, rport) = if active {
                    (40000 + a.flow, 5201)
                } else {
                    (5201, 40000 + a.flow)
                };
                let recv_q = tp.rcv_nxt.saturating_sub(tp.copied_seq);
                let send_q = tp.write_seq.saturating_sub(tp.snd_una);
                let line = format!(
                    "{:<6} {:<6} {:<6} {:>21} {:>21}",
                    state_name(tp.state),
                    recv_q,
                    send_q,
                    format!("{}:{lport}", addr(w, tp.host)),
                    format!("{}:{rport}", addr(w, tp.peer_host)),
                );
                (line, tp)
            })
            .collect();
        out.push_str(&format!(
            "{:<6} {:<6} {:<6} {:>21} {:>21} Process\n",
            "State", "Recv-Q", "Send-Q", "Local Address:Port", "Peer Address:Port"
        ));
        for (line, tp) in rows {
            out.push_str(&line);
            out.push('\n');
            out.push('\t');
            out.push(' ');
            out.push_str(&tcp_info_line(w, tp, at_ns));
            out.push('\n');
        }
    }
    out
}

/// `tc -s qdisc show` on each host: its device's root qdisc (loopback and veth: `noqueue`).
pub fn tc_s_qdisc(w: &World) -> String {
    let mut out = String::new();
    let dev = if w.cfg.link.loopback {
        "lo"
    } else if w.cfg.link.veth {
        "veth0"
    } else {
        "eth0"
    };
    let hosts = if w.cfg.link.loopback {
        1
    } else {
        w.hosts.len()
    };
    for h in &w.hosts[..hosts] {
        out.push_str(&format!("# {}: tc -s qdisc show dev {dev}\n", h.name));
        let q = &h.dev.qdisc;
        let s = match h.dev.qdisc_stats() {
            Some(st) => st.tc_s(q.kind()),
            None => "qdisc noqueue 0: root\n Sent 0 bytes 0 pkt (dropped 0, overlimits 0 requeues 0)\n backlog 0b 0p requeues 0\n".to_string(),
        };
        // tc prints pfifo_fast's bands and priomap on its first line (the defaults).
        let params = if q.kind() == "pfifo_fast" {
            " bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1"
        } else {
            ""
        };
        out.push_str(&s.replacen(
            " 0: root",
            &format!(" 0: dev {dev} root refcnt 2{params}"),
            1,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_print_with_three_significant_digits_as_ss_does() {
        assert_eq!(sprint_bw(9_412_000_000.0), "9.41G");
        assert_eq!(sprint_bw(11_600_000.0), "11.6M");
        assert_eq!(sprint_bw(120_000_000.0), "120M");
        assert_eq!(sprint_bw(800.0), "800");
    }

    #[test]
    fn times_print_as_percent_g() {
        assert_eq!(g(0.123), "0.123");
        assert_eq!(g(204.0), "204");
        assert_eq!(g(0.0505), "0.0505");
    }
}
