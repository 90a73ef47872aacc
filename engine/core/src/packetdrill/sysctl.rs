//! The shell commands of a script: `sysctl` lines and packetdrill's set-up scripts
//! (`gtests/net/common/defaults.sh`), mapped onto the engine's scenario keys.
//!
//! A sysctl the model has a key for becomes a `--set` override of the run. A sysctl the model
//! has no key for is accepted when the model behaves as that value anyway (`tcp_sack=1`: the
//! model always uses SACK) and reported as unsupported otherwise, except in `defaults.sh`,
//! whose every line sets up the environment: there a value the model does not follow becomes a
//! note on the run, so that a script failing because of it can name the mechanism.

/// What a command line does to the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Applied {
    /// `KEY=VALUE` scenario overrides.
    pub sets: Vec<String>,
    /// Set-up values the model does not follow, in words.
    pub notes: Vec<String>,
}

/// `gtests/net/common/defaults.sh` (upstream, 2c4001c4d6fc), line by line.
pub const DEFAULTS_SH: &[&str] = &[
    "net.ipv4.tcp_rmem=4096 540000 15728640",
    "net.ipv4.tcp_wmem=4096 262144 4194304",
    "net.ipv4.tcp_timestamps=1",
    "net.ipv4.tcp_syn_retries=5",
    "net.ipv4.tcp_synack_retries=5",
    "net.ipv4.tcp_frto=2",
    "net.ipv4.tcp_sack=1",
    "net.ipv4.tcp_dsack=1",
    "net.ipv4.tcp_fack=0",
    "net.ipv4.tcp_reordering=3",
    "net.ipv4.tcp_congestion_control=cubic",
    "net.ipv4.tcp_slow_start_after_idle=0",
    "net.ipv4.tcp_early_retrans=4",
    "net.ipv4.tcp_recovery=1",
    "net.ipv4.tcp_tso_win_divisor=3",
    "net.ipv4.tcp_ecn=0",
    "net.ipv4.tcp_ecn_option=2",
    "net.ipv4.tcp_pacing_ss_ratio=200",
    "net.ipv4.tcp_pacing_ca_ratio=120",
    "net.ipv4.tcp_notsent_lowat=4294967295",
    "net.ipv4.tcp_fastopen=0x70403",
    "net.ipv4.tcp_syncookies=1",
];

/// Sysctls the engine has a scenario key for (the key has the same name).
const MODELLED: &[&str] = &[
    "net.ipv4.tcp_rmem",
    "net.ipv4.tcp_wmem",
    "net.ipv4.tcp_timestamps",
    "net.ipv4.tcp_congestion_control",
    "net.ipv4.tcp_slow_start_after_idle",
    "net.ipv4.tcp_tso_win_divisor",
    "net.ipv4.tcp_pacing_ss_ratio",
    "net.ipv4.tcp_pacing_ca_ratio",
    "net.ipv4.tcp_notsent_lowat",
    "net.ipv4.tcp_autocorking",
    "net.ipv4.tcp_limit_output_bytes",
    "net.ipv4.tcp_min_tso_segs",
    "net.ipv4.tcp_tso_rtt_log",
    "net.ipv4.tcp_moderate_rcvbuf",
    "net.ipv4.tcp_frto",
    "net.ipv4.tcp_early_retrans",
    "net.ipv4.tcp_pingpong_thresh",
    "net.core.wmem_max",
    "net.core.rmem_max",
    "net.core.default_qdisc",
];

/// Sysctls without a key: the values the model behaves as (`None`: any value, because the
/// mechanism never comes into play in a passive-open TCP script), and what the model does.
const FIXED: &[(&str, Option<&str>, &str)] = &[
    (
        "net.ipv4.tcp_sack",
        Some("1"),
        "the model always negotiates and uses SACK",
    ),
    (
        "net.ipv4.tcp_dsack",
        Some("1"),
        "the model always sends D-SACKs",
    ),
    (
        "net.ipv4.tcp_fack",
        None,
        "FACK is gone since Linux 4.15 (RACK replaced it)",
    ),
    (
        "net.ipv4.tcp_reordering",
        Some("3"),
        "the model starts with a reordering degree of 3",
    ),
    (
        "net.ipv4.tcp_recovery",
        Some("1"),
        "the model detects losses with RACK",
    ),
    ("net.ipv4.tcp_ecn", Some("0"), "the model has no ECN"),
    ("net.ipv4.tcp_ecn_option", None, "the model has no ECN"),
    (
        "net.ipv4.tcp_syn_retries",
        None,
        "the model does not retransmit SYNs",
    ),
    (
        "net.ipv4.tcp_synack_retries",
        None,
        "the model does not retransmit SYN-ACKs",
    ),
    (
        "net.ipv4.tcp_fastopen",
        None,
        "no script here uses Fast Open",
    ),
    (
        "net.ipv4.tcp_fastopen_key",
        None,
        "no script here uses Fast Open",
    ),
    (
        "net.ipv4.tcp_syncookies",
        None,
        "a listener with room never sends cookies",
    ),
];

/// `tcp_cubic`'s module parameters (`/sys/module/tcp_cubic/parameters/NAME`, `net/ipv4/tcp_cubic.c`)
/// with their defaults, which the model's CUBIC always runs with: writing the default is
/// accepted, any other value is unsupported.
const TCP_CUBIC_PARAMETERS: &[(&str, &str)] = &[
    ("fast_convergence", "1"),
    ("beta", "717"),
    ("initial_ssthresh", "0"),
    ("bic_scale", "41"),
    ("tcp_friendliness", "1"),
    ("hystart", "1"),
    ("hystart_detect", "3"),
    ("hystart_low_window", "16"),
    ("hystart_ack_delta_us", "2000"),
];

/// `echo VALUE > /sys/module/tcp_cubic/parameters/NAME`.
fn module_parameter(path: &str, value: &str) -> Result<(), String> {
    let value = value.trim().trim_matches('"').trim_matches('\'');
    let Some(name) = path.strip_prefix("/sys/module/tcp_cubic/parameters/") else {
        return Err(format!("writing {path}: the model has no such setting"));
    };
    match TCP_CUBIC_PARAMETERS.iter().find(|(n, _)| *n == name) {
        Some((_, d)) if *d == value => Ok(()),
        Some((_, d)) => Err(format!(
            "tcp_cubic's module parameter {name}={value}: the model's CUBIC runs with the default {name}={d}"
        )),
        None => Err(format!("tcp_cubic's module parameter {name}: the model has no such setting")),
    }
}

/// Normalise `net/ipv4/tcp_rmem` and `/proc/sys/...` to the dotted name.
fn dotted(name: &str) -> String {
    name.trim_start_matches("/proc/sys/").replace('/', ".")
}

/// One `name=value` setting. `defaults`: it comes from `defaults.sh`.
pub fn apply(name: &str, value: &str, defaults: bool, out: &mut Applied) -> Result<(), String> {
    let name = dotted(name);
    let value = value.trim().trim_matches('"').trim_matches('\'');
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    if MODELLED.contains(&name.as_str()) {
        out.sets.push(format!("{name}={value}"));
        return Ok(());
    }
    if let Some((_, fixed, what)) = FIXED.iter().find(|(n, _, _)| *n == name) {
        return match fixed {
            Some(f) if *f != value => {
                if defaults {
                    out.notes.push(format!(
                        "defaults.sh sets {name}={value}: {what} (it behaves as {name}={f})"
                    ));
                    Ok(())
                } else {
                    Err(format!(
                        "sysctl {name}={value}: {what} (it behaves as {name}={f})"
                    ))
                }
            }
            _ => Ok(()),
        };
    }
    Err(format!("sysctl {name}: the model has no such setting"))
}

/// A back-quoted command of a script: its lines, each `sysctl -q a=b ...`, the set-up script
/// `defaults.sh`, or the restore script packetdrill's set-up wrote (`/tmp/sysctl_restore_*`,
/// which undoes the settings after the test). Anything else is unsupported.
pub fn command(text: &str, out: &mut Applied) -> Result<(), String> {
    let joined = text.replace("\\\n", " ");
    for raw in joined.split(['\n', ';']) {
        if raw.trim_start().starts_with('#') {
            continue;
        }
        // `echo VALUE > /sys/module/...`: a module parameter.
        if let Some((echo, path)) = raw
            .trim()
            .strip_prefix("echo ")
            .and_then(|r| r.split_once('>'))
        {
            module_parameter(path.trim(), echo)?;
            continue;
        }
        // Drop redirections (`> /dev/null 2>&1`).
        let line = match raw.split_once('>') {
            Some((before, _)) => before.trim().trim_end_matches(" 2").trim(),
            None => raw.trim(),
        };
        if line.is_empty() {
            continue;
        }
        if line.ends_with("defaults.sh") {
            for d in DEFAULTS_SH {
                let (n, v) = d.split_once('=').unwrap();
                apply(n, v, true, out)?;
            }
            continue;
        }
        if line.starts_with("/tmp/sysctl_restore_") {
            continue;
        }
        let mut words = shell_words(line).into_iter();
        let first = words.next();
        match first.as_deref() {
            // gtests/net/tcp/common/set_sysctls.py: `/proc/sys/FILE=VALUE` arguments.
            Some(p) if p.ends_with("set_sysctls.py") => {
                for w in words {
                    let Some((n, v)) = w.split_once('=') else {
                        return Err(format!("set_sysctls.py {w}"));
                    };
                    apply(n, v, false, out)?;
                }
            }
            // `tc qdisc add|replace dev tun0 root KIND`: the device's root qdisc.
            Some("tc") => {
                let rest: Vec<String> = words.collect();
                let r: Vec<&str> = rest.iter().map(String::as_str).collect();
                match r[..] {
                    ["qdisc", "add" | "replace", "dev", _, "root", kind] => {
                        let kind = match kind {
                            "pfifo" | "pfifo_fast" => "pfifo_fast",
                            "fq" | "fq_codel" => kind,
                            _ => return Err(format!("the qdisc {kind}")),
                        };
                        out.sets.push(format!("tc.qdisc={kind}"));
                    }
                    _ => return Err(format!("the shell command `{line}`")),
                }
            }
            Some("sysctl") => {
                for w in words {
                    if w.starts_with('-') {
                        if w != "-q" && w != "-w" && w != "-e" {
                            return Err(format!("sysctl option {w}"));
                        }
                        continue;
                    }
                    let Some((n, v)) = w.split_once('=') else {
                        return Err(format!("sysctl {w}: reading a sysctl"));
                    };
                    apply(n, v, false, out)?;
                }
            }
            _ => return Err(format!("the shell command `{line}`")),
        }
    }
    Ok(())
}

/// Split a command line into words, honouring double and single quotes.
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (_, c) => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// `tc qdisc add|replace dev DEV root pfifo limit N`: the limit, else `None`.
pub fn pfifo_replace(line: &str) -> Option<u32> {
    let words = shell_words(line);
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    match w[..] {
        ["tc", "qdisc", "add" | "replace", "dev", _, "root", "pfifo", "limit", n] => n.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_sh_sets_the_modelled_sysctls_and_notes_nothing() {
        let mut a = Applied::default();
        command("../common/defaults.sh", &mut a).unwrap();
        assert!(a
            .sets
            .contains(&"net.ipv4.tcp_rmem=4096 540000 15728640".to_string()));
        assert!(a
            .sets
            .contains(&"net.ipv4.tcp_slow_start_after_idle=0".to_string()));
        assert!(a.sets.contains(&"net.ipv4.tcp_early_retrans=4".to_string()));
        // Every value defaults.sh sets is one the model follows (F-RTO since 2026-11-27).
        assert!(a.notes.is_empty(), "{:?}", a.notes);
    }

    #[test]
    fn a_sysctl_line_with_quotes_and_several_settings_sets_each() {
        let mut a = Applied::default();
        command(
            "sysctl -q net.ipv4.tcp_wmem=\"4096 16384 65536\" net.ipv4.tcp_autocorking=0",
            &mut a,
        )
        .unwrap();
        assert_eq!(
            a.sets,
            [
                "net.ipv4.tcp_wmem=4096 16384 65536",
                "net.ipv4.tcp_autocorking=0"
            ]
        );
    }

    #[test]
    fn a_tcp_cubic_module_parameter_is_accepted_only_at_its_default() {
        let mut a = Applied::default();
        command(
            "echo 3 > /sys/module/tcp_cubic/parameters/hystart_detect",
            &mut a,
        )
        .unwrap();
        assert_eq!(a, Applied::default(), "the default changes nothing");
        let e = command(
            "echo 1 > /sys/module/tcp_cubic/parameters/hystart_detect",
            &mut a,
        );
        assert!(e.unwrap_err().contains("default hystart_detect=3"));
        let e = command("echo 1 > /sys/module/tcp_bbr/parameters/x", &mut a);
        assert!(e.unwrap_err().contains("no such setting"));
    }

    #[test]
    fn an_unmodelled_sysctl_or_shell_command_is_unsupported() {
        let mut a = Applied::default();
        let e = command("sysctl -q net.ipv4.tcp_reordering=5", &mut a).unwrap_err();
        assert!(e.contains("reordering degree of 3"), "{e}");
        command("sysctl -q net.ipv4.tcp_frto=0", &mut a).unwrap();
        assert_eq!(a.sets.last().unwrap(), "net.ipv4.tcp_frto=0");
        assert!(command("sysctl -q net.ipv4.tcp_sack=1", &mut a).is_ok());
        assert!(command("ip link set dev tun0 mtu 1000", &mut a).is_err());
        assert_eq!(
            pfifo_replace("tc qdisc replace dev tun0 root pfifo limit 0"),
            Some(0)
        );
        assert_eq!(
            pfifo_replace("tc qdisc add dev tun0 root pfifo limit 10"),
            Some(10)
        );
        assert_eq!(pfifo_replace("tc qdisc replace dev tun0 root fq"), None);
        command("tc qdisc replace dev tun0 root fq", &mut a).unwrap();
        assert_eq!(a.sets.last().unwrap(), "tc.qdisc=fq");
    }
}
