//! Scenario files (`scenarios/*.toml`) and their resolution into a [`Config`].
//!
//! A scenario is TOML. Top level: `title`, `summary`, `kernel`. Tables: `[sim]`, `[link]`,
//! `[cpu]`, `[app]`, `[tc]`, `[ethtool]`, `[bql]` whose entries are the keys `section.name`
//! (`[link] rate_mbit = 10000` is the key `link.rate_mbit`); `[sysctl]` whose entries are sysctl
//! dotted names; `[socket]` whose entries are socket options (`TCP_NODELAY = 1`);
//! `[host.NAME]` with the same tables for one host; `[variants.NAME]` with flat keys (optionally
//! `"HOST:key"`) and an optional `label`. See `docs/scenario-format.md`.
//!
//! Resolution order, later wins: the profile's defaults, the file's values, the file's per-host
//! values, the chosen variant, then `--set` overrides.

pub mod cpu_costs;
pub mod keys;
pub mod profile;
pub(crate) mod tomldoc;

use std::collections::BTreeMap;
use std::fmt;

use keys::{DefaultCtx, Kind, Value, KEYS};
use profile::{Kernel, Profile};
use tomldoc::Tv;

/// A scenario error: names the file, the key and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub file: String,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(k) => write!(f, "{}: {}: {}", self.file, clip(k), self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// The largest scenario text the parser reads: 1 MiB (the largest scenario shipped is a few kB).
pub const MAX_SCENARIO_BYTES: usize = 1 << 20;

/// The longest key name: longer ones are unknown without a suggestion (the longest real key
/// has 40 characters; the suggestion's edit distance is quadratic in the length).
pub const MAX_KEY_CHARS: usize = 128;

/// The most MSS-sized packets one run may carry: `sim.duration_ms` x the path's rate (a veth or
/// loopback counts as 40 Gbit/s, what a CPU moves), or the flows' `app.bytes` if less. A packet
/// costs about 2.5 events without TSO and the engine runs about 5 M events a second natively,
/// so the largest run allowed takes about 20 minutes natively without TSO (2 with it); a
/// larger one is refused before it starts (issue 15).
pub const MAX_RUN_PACKETS: u64 = 2_400_000_000;

/// Above this many packets (about a minute natively without TSO) the run starts with a warning.
pub const WARN_RUN_PACKETS: u64 = 120_000_000;

/// User text quoted in an error, cut to 60 characters so a huge value cannot flood the terminal.
pub fn clip(s: &str) -> String {
    const N: usize = 60;
    match s.char_indices().nth(N) {
        None => s.to_string(),
        Some((i, _)) => format!("{}... ({} bytes)", &s[..i], s.len()),
    }
}

/// A scenario file's bytes as text: at most [`MAX_SCENARIO_BYTES`], UTF-8, no NUL byte (a
/// binary file or `/dev/zero` is an error naming the limit or the place, not a hang). A reader
/// reads at most `MAX_SCENARIO_BYTES + 1` bytes and passes them here.
pub fn decode<'a>(bytes: &'a [u8], file: &str) -> Result<&'a str, ScenarioError> {
    if bytes.len() > MAX_SCENARIO_BYTES {
        return Err(ScenarioError {
            file: file.to_string(),
            key: None,
            message: format!(
                "larger than {MAX_SCENARIO_BYTES} bytes: a scenario file is at most 1 MiB"
            ),
        });
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ScenarioError {
            file: file.to_string(),
            key: None,
            message: "line 1: UTF-16 text (it starts with a UTF-16 byte-order mark): a scenario is a UTF-8 TOML file; save it as UTF-8".into(),
        });
    }
    let src = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
        ScenarioError {
            file: file.to_string(),
            key: None,
            message: format!(
                "line {line}: not UTF-8 text (byte offset {at}): a scenario is a UTF-8 TOML file"
            ),
        }
    })?;
    check_text(src, file)?;
    Ok(src)
}

/// What a text that is not TOML is, when it is another tool's output the site reads as a
/// recording: `sendpath run` given a capture by mistake.
fn other_tool(src: &str) -> Option<&'static str> {
    let mut lines = src.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    let head: Vec<&str> = std::iter::once(first).chain(lines.take(3)).collect();
    if first.starts_with('{') && src.contains("sendpath-capture") {
        Some("a sendpath capture (sendpath-record's JSON lines)")
    } else if first.starts_with('{') {
        Some("JSON (nstat -j or bpftrace -f json output?)")
    } else if first == "#kernel" || first.starts_with("#kernel ") {
        Some("nstat output")
    } else if head.iter().any(|l| l.starts_with("Attaching ")) {
        Some("bpftrace output")
    } else {
        None
    }
}

/// Check a scenario text before parsing: its size, and that it is text (no NUL byte). The
/// error names the limit.
pub fn check_text(src: &str, file: &str) -> Result<(), ScenarioError> {
    let err = |message: String| ScenarioError {
        file: file.to_string(),
        key: None,
        message,
    };
    if src.len() > MAX_SCENARIO_BYTES {
        return Err(err(format!(
            "larger than {MAX_SCENARIO_BYTES} bytes: a scenario file is at most 1 MiB"
        )));
    }
    if let Some(i) = src.find('\0') {
        let line = src[..i].matches('\n').count() + 1;
        return Err(err(format!(
            "line {line}: a NUL byte (offset {i}): a binary file, not a scenario (TOML text)"
        )));
    }
    Ok(())
}

/// Host names of the two topologies.
pub const SENDER: &str = "sender";
pub const RECEIVER: &str = "receiver";
pub const LOCALHOST: &str = "localhost";

/// One variant of a scenario (an A/B side).
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub name: String,
    pub label: String,
    /// `(host or None, key, value)` in file order.
    pub values: Vec<(Option<String>, String, Value)>,
}

/// A parsed, validated scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub file: String,
    pub title: String,
    pub summary: String,
    /// Values for every host.
    pub global: BTreeMap<String, Value>,
    /// Values for one host: host name -> key -> value.
    pub per_host: BTreeMap<String, BTreeMap<String, Value>>,
    pub variants: Vec<Variant>,
    /// What the source document measured, per variant (`[source.VARIANT]`), if it says.
    pub source: Option<Source>,
}

/// The measurements of the document a scenario reproduces: `[source]` with `name` (and an
/// optional `url`), and `[source.VARIANT]` tables of `metric = value` (metrics: see
/// [`crate::metric`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub name: String,
    pub url: String,
    /// variant name -> (metric, value) in file order.
    pub values: Vec<(String, Vec<(String, f64)>)>,
    /// Ratios worth comparing, as `"A/B"` variant pairs.
    pub compare: Vec<(String, String)>,
}

/// Sections whose entries are `section.entry` keys.
const PREFIXED_SECTIONS: &[&str] = &["sim", "link", "path", "cpu", "app", "tc", "ethtool", "bql"];

impl Scenario {
    /// Parse and validate a scenario file's text. `file` names it in errors.
    pub fn parse(src: &str, file: &str) -> Result<Scenario, ScenarioError> {
        let err = |key: Option<String>, message: String| ScenarioError {
            file: file.to_string(),
            key,
            message,
        };
        check_text(src, file)?;
        let doc = tomldoc::parse(src).map_err(|e| {
            err(
                None,
                match other_tool(src) {
                    Some(what) => format!(
                        "line 1: this is {what}, not a scenario (TOML); open it in the site with \"Open a recording…\""
                    ),
                    None => format!("not valid TOML: {e}"),
                },
            )
        })?;
        let mut sc = Scenario {
            file: file.to_string(),
            title: String::new(),
            summary: String::new(),
            global: BTreeMap::new(),
            per_host: BTreeMap::new(),
            variants: Vec::new(),
            source: None,
        };
        for (k, v) in &doc {
            match k.as_str() {
                "title" | "summary" => {
                    let s = v
                        .as_str()
                        .ok_or_else(|| err(Some(k.clone()), "must be a string".into()))?
                        .to_string();
                    if k == "title" {
                        sc.title = s;
                    } else {
                        sc.summary = s;
                    }
                }
                "kernel" => {
                    let val = toml_to_value(file, "kernel", v)?;
                    sc.global
                        .insert("kernel".into(), check_value(file, "kernel", val)?);
                }
                "host" => {
                    let hosts = v.as_table().ok_or_else(|| {
                        err(Some("host".into()), "must be a table of hosts".into())
                    })?;
                    for (h, body) in hosts {
                        if ![SENDER, RECEIVER, LOCALHOST].contains(&h.as_str()) {
                            return Err(err(
                                Some(format!("host.{h}")),
                                format!("unknown host; hosts are \"{SENDER}\" and \"{RECEIVER}\" (or \"{LOCALHOST}\" on loopback)"),
                            ));
                        }
                        let body = body.as_table().ok_or_else(|| {
                            err(Some(format!("host.{h}")), "must be a table".into())
                        })?;
                        let mut vals = BTreeMap::new();
                        for (sec, t) in body {
                            collect_section(file, sec, t, &mut vals)?;
                        }
                        for key in vals.keys() {
                            let def = keys::key(key).unwrap();
                            if !def.per_host {
                                return Err(err(
                                    Some(format!("host.{h}.{key}")),
                                    "applies to the whole run, not to one host".into(),
                                ));
                            }
                        }
                        sc.per_host.insert(h.clone(), vals);
                    }
                }
                "source" => sc.source = Some(parse_source(file, v)?),
                "variants" => {
                    let vs = v.as_table().ok_or_else(|| {
                        err(
                            Some("variants".into()),
                            "must be a table of variants".into(),
                        )
                    })?;
                    for (name, body) in vs {
                        sc.variants.push(parse_variant(file, name, body)?);
                    }
                }
                sec => collect_section(file, sec, v, &mut sc.global)?,
            }
        }
        if sc.title.is_empty() {
            return Err(err(
                Some("title".into()),
                "missing: every scenario states its title".into(),
            ));
        }
        Ok(sc)
    }

    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// Resolve into a runnable configuration: defaults, file, per-host values, the variant
    /// `variant` (if any) and the `sets` overrides (`KEY=VALUE` or `HOST:KEY=VALUE`).
    pub fn config(&self, variant: Option<&str>, sets: &[String]) -> Result<Config, ScenarioError> {
        let err = |key: Option<String>, message: String| ScenarioError {
            file: self.file.clone(),
            key,
            message,
        };
        let r = self.resolve(variant, sets)?;
        let (kernel, profile, loopback, variant_name) =
            (r.kernel, r.kernel.profile(), r.loopback, r.variant.clone());
        let warnings = r.warnings.clone();
        let layers = r.layers;
        let veth = last_global(&layers, "link.kind").is_some_and(|(v, _)| v.render() == "veth");
        // IFF_NO_QUEUE: lo, and veth since 4.3 (veth_setup), get noqueue, not the default qdisc.
        let no_queue = loopback || (veth && kernel.at_least(4, 3));
        let ctx = DefaultCtx {
            profile: &profile,
            loopback,
        };
        let mut hosts = Vec::new();
        for (name, vals) in r.host_names.iter().zip(&r.hosts) {
            let vals: BTreeMap<&'static str, Value> =
                vals.iter().map(|(k, (v, _))| (*k, v.clone())).collect();
            hosts.push(HostConfig::from_values(name, &vals, &profile, no_queue));
        }
        let first: BTreeMap<&'static str, Value> = {
            let mut vals: BTreeMap<&'static str, Value> =
                KEYS.iter().map(|k| (k.name, (k.default)(&ctx))).collect();
            for (h, k, v, _) in &layers {
                if h.is_none() {
                    vals.insert(keys::key(k).unwrap().name, v.clone());
                }
            }
            vals
        };
        let g = Getter(&first);
        let mut profile = profile;
        profile.set_max_header(g.int("kernel.max_header") as u32);
        let mut warnings = warnings;
        inapplicable_keys(&layers, &first, &hosts, loopback, veth, &mut warnings);
        let cfg = Config {
            file: self.file.clone(),
            title: self.title.clone(),
            kernel,
            profile,
            variant: variant_name,
            seed: g.int("sim.seed") as u64,
            duration_ns: g.int("sim.duration_ms") as u64 * 1_000_000,
            hz: g.str("sim.hz").parse().unwrap(),
            link: LinkConfig {
                loopback,
                veth,
                // Only a delay the scenario sets: the key's default (20 µs) is an Ethernet's.
                forwarder: veth
                    && (last_global(&layers, "link.delay_us")
                        .is_some_and(|(v, _)| v.render().parse::<u64>().is_ok_and(|d| d > 0))
                        || g.int("path.bottleneck_mbit") > 0),
                rate_bps: g.int("link.rate_mbit") as u64 * 1_000_000,
                delay_ns: g.int("link.delay_us") as u64 * 1000,
                mtu: g.int("link.mtu") as u32,
                bottleneck_bps: g.int("path.bottleneck_mbit") as u64 * 1_000_000,
                queue_packets: g.int("path.queue_packets") as u32,
            },
            app: AppConfig {
                kind: if g.str("app.kind") == "pingpong" {
                    AppKind::Pingpong
                } else {
                    AppKind::TcpStream
                },
                flows: g.int("app.flows") as u32,
                write_size_bytes: g.int("app.write_size_bytes") as u64,
                bytes: g.int("app.bytes") as u64,
                interval_ns: g.int("app.interval_us") as u64 * 1000,
                connect_interval_ns: g.int("app.connect_interval_us") as u64 * 1000,
                io: match g.str("app.io") {
                    "eagain" => AppIo::Eagain,
                    "once" => AppIo::Once,
                    _ => AppIo::Block,
                },
                read_size_bytes: g.int("app.read_size_bytes") as u64,
                send_bytes: g.int("app.send_bytes") as u64,
                n_chunk: g.int("app.n_chunk") as u64,
                rounds: g.int("app.rounds") as u64,
                msg_more: g.bool("app.msg_more"),
                cork: g.bool("app.cork"),
            },
            hosts,
            warnings,
        };
        if loopback
            && cfg.app.kind == AppKind::TcpStream
            && cfg.hosts.iter().any(|h| !h.cpu.costs())
        {
            // On loopback the CPU is the only thing that takes time: without its costs a
            // stream moves any amount of data at t = 0 (and an endless one never ends).
            return Err(err(
                Some("cpu.model".into()),
                "\"free\" with link.kind = \"loopback\" and app.kind = \"tcp_stream\": on loopback only the CPU takes time, so the stream would move unlimited data at t = 0; use cpu.model = \"reference\" (cpu.speed_percent makes it faster)".into(),
            ));
        }
        if veth
            && !cfg.link.forwarder
            && cfg.app.kind == AppKind::TcpStream
            && cfg.hosts.iter().any(|h| !h.cpu.costs())
        {
            // A veth has no line rate and no wire: as on loopback, only the CPU takes time.
            return Err(err(
                Some("cpu.model".into()),
                "\"free\" with link.kind = \"veth\" and app.kind = \"tcp_stream\": a veth has no line rate, so only the CPU takes time and the stream would move unlimited data at t = 0; use cpu.model = \"reference\" (cpu.speed_percent makes it faster), or a bottleneck (path.bottleneck_mbit)".into(),
            ));
        }
        if cfg.link.forwarder
            && cfg.link.bottleneck_bps == 0
            && cfg.app.kind == AppKind::TcpStream
            && cfg.hosts.iter().any(|h| !h.cpu.costs())
        {
            // The lab's forwarder holds each frame for the delay but serialises nothing: without
            // the CPU's costs a stream moves a whole window per round trip, whatever the window
            // (160 Gbit/s at link.delay_us = 1), and its run has no size a rate can bound.
            return Err(err(
                Some("cpu.model".into()),
                "\"free\" with link.kind = \"veth\" through the forwarder (link.delay_us) and app.kind = \"tcp_stream\": the forwarder has no rate unless path.bottleneck_mbit sets one, so only the delay takes time and the stream would move a whole window per round trip; use cpu.model = \"reference\", or set path.bottleneck_mbit".into(),
            ));
        }
        let (packets, how) = cfg.run_size();
        if packets > MAX_RUN_PACKETS {
            return Err(err(
                Some("sim.duration_ms".into()),
                format!(
                    "{how} is about {} M packets; a run carries at most {} M (the run size limit: it would take minutes or hours); lower sim.duration_ms, link.rate_mbit or app.flows, or set app.bytes",
                    packets / 1_000_000,
                    MAX_RUN_PACKETS / 1_000_000
                ),
            ));
        }
        let mut cfg = cfg;
        if packets > WARN_RUN_PACKETS {
            cfg.warnings.push(format!(
                "{how} is about {} M packets: this run may take a minute or more (the run size limit is {} M)",
                packets / 1_000_000,
                MAX_RUN_PACKETS / 1_000_000
            ));
        }
        if cfg.app.kind == AppKind::Pingpong && cfg.app.n_chunk > cfg.app.send_bytes {
            return Err(err(
                Some("app.n_chunk".into()),
                format!(
                    "{} chunks cannot split {} bytes",
                    cfg.app.n_chunk, cfg.app.send_bytes
                ),
            ));
        }
        Ok(cfg)
    }
}

/// Warnings for keys a scenario, variant or `--set` gives that the rest of the configuration
/// makes meaningless (issue 15): a line rate on loopback, a qdisc's parameters when no host
/// runs that qdisc, the ping-pong's keys on a stream and the stream's on a ping-pong. The value
/// is kept (`--show-config` shows it) and has no effect; the warning says so.
fn inapplicable_keys(
    layers: &[Layer],
    first: &BTreeMap<&'static str, Value>,
    hosts: &[HostConfig],
    loopback: bool,
    veth: bool,
    warnings: &mut Vec<String>,
) {
    let pingpong = first
        .get("app.kind")
        .is_some_and(|v| v.render() == "pingpong");
    let runs = |kind: QdiscKind| hosts.iter().any(|h| h.qdisc.kind == kind);
    let mut seen: Vec<&str> = Vec::new();
    for (_, key, value, _) in layers {
        if seen.contains(&key.as_str()) {
            continue;
        }
        let why = match key.as_str() {
            "link.rate_mbit" if loopback => Some("link.kind = \"loopback\" (lo has no line rate)"),
            "link.rate_mbit" if veth => Some("link.kind = \"veth\" (a veth has no line rate)"),
            "link.delay_us" if loopback => Some("link.kind = \"loopback\" (lo has no delay)"),
            "path.bottleneck_mbit" | "path.queue_packets" if loopback => {
                Some("link.kind = \"loopback\" (no router between the ends)")
            }
            k if k.starts_with("tc.fq.") && !runs(QdiscKind::Fq) => Some("no host running fq"),
            k if k.starts_with("tc.fq_codel.") && !runs(QdiscKind::FqCodel) => {
                Some("no host running fq_codel")
            }
            k if k.starts_with("tc.tbf.") && !runs(QdiscKind::Tbf) => Some("no host running tbf"),
            "app.send_bytes" | "app.n_chunk" | "app.rounds" | "app.msg_more" | "app.cork"
                if !pingpong =>
            {
                Some("app.kind = \"tcp_stream\" (a ping-pong key)")
            }
            "app.flows"
            | "app.write_size_bytes"
            | "app.bytes"
            | "app.interval_us"
            | "app.connect_interval_us"
            | "app.read_size_bytes"
                if pingpong =>
            {
                Some("app.kind = \"pingpong\" (a stream key)")
            }
            _ => None,
        };
        if let Some(why) = why {
            seen.push(key);
            warnings.push(format!(
                "{key} = {} has no effect with {why}; kept, ignored",
                clip(&value.render())
            ));
        }
    }
}

/// Where a resolved value came from, for `sendpath run --show-config`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The kernel profile's default.
    Default,
    /// The scenario file, for every host.
    Scenario,
    /// The scenario file's `[host.NAME]` table.
    ScenarioHost(String),
    /// The chosen variant.
    Variant(String),
    /// A `--set` override.
    Set,
}

impl Origin {
    /// "kernel 6.18 default", "scenario", "scenario [host.sender]", "variant NAME", "--set".
    pub fn describe(&self, kernel: Kernel) -> String {
        match self {
            Origin::Default => format!("kernel {kernel} default"),
            Origin::Scenario => "scenario".into(),
            Origin::ScenarioHost(h) => format!("scenario [host.{h}]"),
            Origin::Variant(v) => format!("variant {v}"),
            Origin::Set => "--set".into(),
        }
    }
}

/// One `(host or every host, key, value, origin)` override, in resolution order.
type Layer = (Option<String>, String, Value, Origin);

/// A scenario resolved for a variant and `--set` overrides: each host's value of every key and
/// where it came from.
struct Resolution {
    kernel: Kernel,
    loopback: bool,
    variant: Option<String>,
    host_names: Vec<&'static str>,
    layers: Vec<Layer>,
    /// Per host (in `host_names` order): key -> (value, origin).
    hosts: Vec<BTreeMap<&'static str, (Value, Origin)>>,
    warnings: Vec<String>,
}

/// One line of `sendpath run --show-config`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// `None`: the same on every host.
    pub host: Option<String>,
    pub key: &'static str,
    pub value: String,
    /// "kernel 6.18 default", "scenario", "scenario [host.sender]", "variant NAME", "--set".
    pub origin: String,
}

impl Scenario {
    fn resolve(&self, variant: Option<&str>, sets: &[String]) -> Result<Resolution, ScenarioError> {
        let err = |key: Option<String>, message: String| ScenarioError {
            file: self.file.clone(),
            key,
            message,
        };
        let mut layers: Vec<Layer> = Vec::new();
        for (k, v) in &self.global {
            layers.push((None, k.clone(), v.clone(), Origin::Scenario));
        }
        for (h, vals) in &self.per_host {
            for (k, v) in vals {
                layers.push((
                    Some(h.clone()),
                    k.clone(),
                    v.clone(),
                    Origin::ScenarioHost(h.clone()),
                ));
            }
        }
        let variant_name = match variant {
            None => None,
            Some(name) => {
                let v = self.variant(name).ok_or_else(|| {
                    let known: Vec<_> = self.variants.iter().map(|v| v.name.as_str()).collect();
                    err(
                        None,
                        format!(
                            "no variant \"{}\"; variants: {}",
                            clip(name),
                            known.join(", ")
                        ),
                    )
                })?;
                let o = Origin::Variant(name.to_string());
                layers.extend(
                    v.values
                        .iter()
                        .map(|(h, k, v)| (h.clone(), k.clone(), v.clone(), o.clone())),
                );
                Some(name.to_string())
            }
        };
        for set in sets {
            let (h, k, v) = parse_set(&self.file, set)?;
            layers.push((h, k, v, Origin::Set));
        }

        // The kernel and the topology come first: defaults depend on them.
        let kernel_layer = last_global(&layers, "kernel");
        let kernel_name = kernel_layer
            .map(|(v, _)| v.render())
            .unwrap_or_else(|| "6.18".to_string());
        let kernel_origin = kernel_layer.map_or(Origin::Default, |(_, o)| o.clone());
        let kernel = Kernel::parse(&kernel_name).unwrap();
        let profile = kernel.profile();
        let loopback =
            last_global(&layers, "link.kind").is_some_and(|(v, _)| v.render() == "loopback");
        let host_names: Vec<&'static str> = if loopback {
            vec![LOCALHOST]
        } else {
            vec![SENDER, RECEIVER]
        };
        for (h, k, _, _) in &layers {
            if let Some(h) = h {
                if !host_names.contains(&h.as_str()) {
                    return Err(err(
                        Some(format!("{h}:{k}")),
                        format!(
                            "no host \"{}\" in this topology; hosts: {}",
                            clip(h),
                            host_names.join(", ")
                        ),
                    ));
                }
            }
        }

        let ctx = DefaultCtx {
            profile: &profile,
            loopback,
        };
        let mut warnings = Vec::new();
        let mut hosts = Vec::new();
        for name in &host_names {
            let mut vals: BTreeMap<&'static str, (Value, Origin)> = KEYS
                .iter()
                .map(|k| (k.name, ((k.default)(&ctx), Origin::Default)))
                .collect();
            for (h, k, v, o) in &layers {
                if h.as_deref().is_some_and(|h| h != *name) {
                    continue;
                }
                let def = keys::key(k).unwrap();
                if !keys::exists_in(def, kernel) {
                    let (maj, min) = def.since.unwrap();
                    let w = format!(
                        "{k} does not exist in kernel {kernel} (added in {maj}.{min}): ignored"
                    );
                    if !warnings.contains(&w) {
                        warnings.push(w);
                    }
                    continue;
                }
                vals.insert(def.name, (v.clone(), o.clone()));
            }
            hosts.push(vals);
        }
        // A kernel chosen by a variant or --set keeps the values the file pins: say so for each
        // one whose default differs between the file's kernel and the chosen one.
        if matches!(kernel_origin, Origin::Variant(_) | Origin::Set) {
            let file_kernel = self
                .global
                .get("kernel")
                .and_then(|v| Kernel::parse(&v.render()))
                .unwrap_or(Kernel::V6_18);
            if file_kernel != kernel {
                let file_profile = file_kernel.profile();
                let file_ctx = DefaultCtx {
                    profile: &file_profile,
                    loopback,
                };
                for vals in &hosts {
                    for def in KEYS {
                        let (v, o) = &vals[def.name];
                        if !matches!(o, Origin::Scenario | Origin::ScenarioHost(_)) {
                            continue;
                        }
                        let (d_new, d_file) = ((def.default)(&ctx), (def.default)(&file_ctx));
                        if d_new != d_file && *v != d_new {
                            let w = format!(
                                "kernel {kernel} (from {}) keeps the scenario's {} = {}, written for kernel {file_kernel}; kernel {kernel}'s default is {} (--set {}={} to use it)",
                                kernel_origin.describe(kernel),
                                def.name,
                                v.render(),
                                d_new.render(),
                                def.name,
                                d_new.render()
                            );
                            if !warnings.contains(&w) {
                                warnings.push(w);
                            }
                        }
                    }
                }
            }
        }
        Ok(Resolution {
            kernel,
            loopback,
            variant: variant_name,
            host_names,
            layers,
            hosts,
            warnings,
        })
    }

    /// The resolved configuration, one entry per key (per host where the hosts differ), with
    /// where each value came from: `sendpath run FILE --show-config`.
    pub fn show_config(
        &self,
        variant: Option<&str>,
        sets: &[String],
    ) -> Result<(Vec<Shown>, Vec<String>), ScenarioError> {
        let r = self.resolve(variant, sets)?;
        let mut out = Vec::new();
        for def in KEYS {
            let per: Vec<&(Value, Origin)> = r.hosts.iter().map(|h| &h[def.name]).collect();
            let same = per.windows(2).all(|w| w[0] == w[1]);
            let mut push = |host: Option<String>, (v, o): &(Value, Origin)| {
                let mut origin = o.describe(r.kernel);
                if !keys::exists_in(def, r.kernel) {
                    origin.push_str(" (not in this kernel: ignored)");
                }
                out.push(Shown {
                    host,
                    key: def.name,
                    value: v.render(),
                    origin,
                });
            };
            if same {
                push(None, per[0]);
            } else {
                for (h, vo) in r.host_names.iter().zip(per) {
                    push(Some(h.to_string()), vo);
                }
            }
        }
        Ok((out, r.warnings))
    }
}

fn last_global<'a>(layers: &'a [Layer], key: &str) -> Option<(&'a Value, &'a Origin)> {
    layers
        .iter()
        .rev()
        .find(|(h, k, _, _)| h.is_none() && k == key)
        .map(|(_, _, v, o)| (v, o))
}

/// Flatten one table of the file into `key -> value`.
fn collect_section(
    file: &str,
    sec: &str,
    t: &Tv,
    out: &mut BTreeMap<String, Value>,
) -> Result<(), ScenarioError> {
    let err = |key: String, message: String| ScenarioError {
        file: file.to_string(),
        key: Some(key),
        message,
    };
    let table = match t.as_table() {
        Some(t) => t,
        None => {
            // A bare top-level key: only allowed when it is a full key name.
            return insert_key(file, sec, t, out);
        }
    };
    for (k, v) in table {
        let full = match sec {
            "sysctl" | "socket" => k.clone(),
            s if PREFIXED_SECTIONS.contains(&s) => format!("{s}.{k}"),
            _ => {
                let mut m = format!(
                    "unknown section [{}]; sections are sim, link, path, sysctl, socket, tc, ethtool, bql, cpu, app, host.NAME, variants.NAME",
                    clip(sec)
                );
                if let Some(s) = keys::suggest(sec) {
                    m.push_str(&format!(" (did you mean the key \"{s}\"?)"));
                }
                return Err(err(sec.to_string(), m));
            }
        };
        // tc.fq.quantum is written [tc.fq] quantum = ... or [tc] "fq.quantum" = ...
        if let Some(sub) = v.as_table() {
            for (k2, v2) in sub {
                insert_key(file, &format!("{full}.{k2}"), v2, out)?;
            }
            continue;
        }
        if sec == "sysctl" && !k.starts_with("net.") {
            return Err(err(
                k.clone(),
                "sysctls are written by their full dotted name (e.g. \"net.ipv4.tcp_autocorking\")"
                    .into(),
            ));
        }
        insert_key(file, &full, v, out)?;
    }
    Ok(())
}

fn insert_key(
    file: &str,
    key: &str,
    v: &Tv,
    out: &mut BTreeMap<String, Value>,
) -> Result<(), ScenarioError> {
    let val = toml_to_value(file, key, v)?;
    let val = check_value(file, key, val)?;
    if out.insert(key.to_string(), val).is_some() {
        return Err(ScenarioError {
            file: file.into(),
            key: Some(key.into()),
            message: "given twice".into(),
        });
    }
    Ok(())
}

fn unknown_key(file: &str, key: &str) -> ScenarioError {
    let mut message = "unknown key".to_string();
    let chars = key.chars().count();
    if chars > MAX_KEY_CHARS {
        message.push_str(&format!(
            " ({chars} characters; key names have at most {MAX_KEY_CHARS})"
        ));
    } else if let Some(s) = keys::suggest(key) {
        message.push_str(&format!("; did you mean \"{s}\"?"));
    }
    ScenarioError {
        file: file.into(),
        key: Some(key.into()),
        message,
    }
}

fn toml_to_value(file: &str, key: &str, v: &Tv) -> Result<Value, ScenarioError> {
    let def = keys::key(key).ok_or_else(|| unknown_key(file, key))?;
    let bad = |what: &str| ScenarioError {
        file: file.into(),
        key: Some(key.into()),
        message: format!("expected {what}, got {}", v.type_name()),
    };
    Ok(match def.kind {
        Kind::Int { .. } => match v {
            Tv::Integer(i) => Value::Int(*i),
            _ => return Err(bad("an integer")),
        },
        Kind::Bool => match v {
            Tv::Integer(i) => Value::Int(*i),
            Tv::Boolean(b) => Value::Int(*b as i64),
            _ => return Err(bad("0 or 1")),
        },
        Kind::Choice(_) => match v {
            Tv::String(s) => Value::Str(s.clone()),
            Tv::Integer(i) => Value::Str(i.to_string()),
            _ => return Err(bad("a string")),
        },
        Kind::Triple { .. } => match v {
            Tv::String(s) => parse_triple(file, key, s)?,
            Tv::Array(a) if a.len() == 3 && a.iter().all(|x| x.as_integer().is_some()) => {
                Value::Triple([
                    a[0].as_integer().unwrap(),
                    a[1].as_integer().unwrap(),
                    a[2].as_integer().unwrap(),
                ])
            }
            _ => return Err(bad("three integers, e.g. \"4096 16384 4194304\"")),
        },
    })
}

fn parse_triple(file: &str, key: &str, s: &str) -> Result<Value, ScenarioError> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let nums: Option<Vec<i64>> = parts.iter().map(|p| p.parse().ok()).collect();
    match nums {
        Some(n) if n.len() == 3 => Ok(Value::Triple([n[0], n[1], n[2]])),
        _ => Err(ScenarioError {
            file: file.into(),
            key: Some(key.into()),
            message: format!(
                "expected three integers like \"4096 16384 4194304\", got \"{}\"",
                clip(s)
            ),
        }),
    }
}

/// Range-check a value against its key.
fn check_value(file: &str, key: &str, v: Value) -> Result<Value, ScenarioError> {
    let def = keys::key(key).ok_or_else(|| unknown_key(file, key))?;
    let fail = |message: String| ScenarioError {
        file: file.into(),
        key: Some(key.into()),
        message,
    };
    match (def.kind, &v) {
        (Kind::Int { min, max }, Value::Int(x)) if !(min..=max).contains(x) => {
            Err(fail(format!("accepts {min}..{max} (got {x})")))
        }
        (Kind::Bool, Value::Int(x)) if *x != 0 && *x != 1 => {
            Err(fail(format!("accepts 0..1 (got {x})")))
        }
        (Kind::Choice(c), Value::Str(s)) if !c.contains(&s.as_str()) => Err(fail(format!(
            "accepts {} (got \"{}\")",
            c.iter()
                .map(|c| if c.is_empty() {
                    "\"\"".to_string()
                } else {
                    format!("\"{c}\"")
                })
                .collect::<Vec<_>>()
                .join(", "),
            clip(s)
        ))),
        (Kind::Triple { min, max }, Value::Triple(t)) => {
            if let Some(x) = t.iter().find(|x| !(min..=max).contains(*x)) {
                return Err(fail(format!("each value accepts {min}..{max} (got {x})")));
            }
            if !(t[0] <= t[1] && t[1] <= t[2]) {
                return Err(fail(format!(
                    "min <= default <= max expected (got {} {} {})",
                    t[0], t[1], t[2]
                )));
            }
            Ok(v)
        }
        _ => Ok(v),
    }
}

fn parse_variant(file: &str, name: &str, body: &Tv) -> Result<Variant, ScenarioError> {
    let t = body.as_table().ok_or_else(|| ScenarioError {
        file: file.into(),
        key: Some(format!("variants.{name}")),
        message: "must be a table of KEY = VALUE".into(),
    })?;
    let mut v = Variant {
        name: name.to_string(),
        label: name.to_string(),
        values: Vec::new(),
    };
    for (k, val) in t {
        if k == "label" {
            v.label = val.as_str().unwrap_or(name).to_string();
            continue;
        }
        let (host, key) = split_host(k);
        let where_ = format!("variants.{name}.{k}");
        let value = toml_to_value(file, key, val).map_err(|mut e| {
            e.key = Some(where_.clone());
            e
        })?;
        let value = check_value(file, key, value).map_err(|mut e| {
            e.key = Some(where_.clone());
            e
        })?;
        v.values
            .push((host.map(str::to_string), key.to_string(), value));
    }
    Ok(v)
}

fn parse_source(file: &str, v: &Tv) -> Result<Source, ScenarioError> {
    let err = |key: String, message: String| ScenarioError {
        file: file.into(),
        key: Some(key),
        message,
    };
    let t = v
        .as_table()
        .ok_or_else(|| err("source".into(), "must be a table".into()))?;
    let mut src = Source {
        name: String::new(),
        url: String::new(),
        values: Vec::new(),
        compare: Vec::new(),
    };
    for (k, v) in t {
        match (k.as_str(), v) {
            ("name", Tv::String(s)) => src.name = s.clone(),
            ("url", Tv::String(s)) => src.url = s.clone(),
            ("compare", Tv::Array(a)) => {
                for x in a {
                    let pair = x.as_str().and_then(|p| p.split_once('/')).ok_or_else(|| {
                        err(
                            "source.compare".into(),
                            "expected \"VARIANT/VARIANT\" strings".into(),
                        )
                    })?;
                    src.compare.push((pair.0.to_string(), pair.1.to_string()));
                }
            }
            (variant, Tv::Table(vals)) => {
                let mut list = Vec::new();
                for (m, x) in vals {
                    let x = match x {
                        Tv::Integer(i) => *i as f64,
                        Tv::Float(f) => *f,
                        _ => {
                            return Err(err(
                                format!("source.{variant}.{m}"),
                                "must be a number".into(),
                            ))
                        }
                    };
                    if !crate::metric_name_is_valid(m) {
                        return Err(err(
                            format!("source.{variant}.{m}"),
                            "unknown metric; metrics are elapsed_s, throughput_mbit, ctxt_switches, HOST:tcp_mem_pages and HOST:<nstat counter>".into(),
                        ));
                    }
                    list.push((m.clone(), x));
                }
                src.values.push((variant.to_string(), list));
            }
            _ => {
                return Err(err(
                    format!("source.{k}"),
                    "expected name, url or a table of measurements per variant".into(),
                ))
            }
        }
    }
    Ok(src)
}

fn split_host(k: &str) -> (Option<&str>, &str) {
    match k.split_once(':') {
        Some((h, rest)) => (Some(h), rest),
        None => (None, k),
    }
}

/// Parse one `--set` argument: `KEY=VALUE` or `HOST:KEY=VALUE`.
pub fn parse_set(file: &str, set: &str) -> Result<(Option<String>, String, Value), ScenarioError> {
    let (lhs, rhs) = set.split_once('=').ok_or_else(|| ScenarioError {
        file: file.into(),
        key: Some(set.into()),
        message: "expected KEY=VALUE or HOST:KEY=VALUE".into(),
    })?;
    let (host, key) = split_host(lhs.trim());
    let def = keys::key(key).ok_or_else(|| unknown_key(file, key))?;
    let rhs = rhs.trim();
    let value = match def.kind {
        Kind::Int { .. } | Kind::Bool => match rhs {
            "true" | "on" => Value::Int(1),
            "false" | "off" => Value::Int(0),
            _ => Value::Int(rhs.parse().map_err(|_| ScenarioError {
                file: file.into(),
                key: Some(key.into()),
                message: format!("expected an integer, got \"{}\"", clip(rhs)),
            })?),
        },
        Kind::Choice(_) => Value::Str(rhs.trim_matches('"').to_string()),
        Kind::Triple { .. } => parse_triple(file, key, rhs)?,
    };
    if host.is_some() && !def.per_host {
        return Err(ScenarioError {
            file: file.into(),
            key: Some(lhs.into()),
            message: "applies to the whole run, not to one host".into(),
        });
    }
    let value = check_value(file, key, value)?;
    Ok((host.map(str::to_string), key.to_string(), value))
}

struct Getter<'a>(&'a BTreeMap<&'static str, Value>);

impl Getter<'_> {
    fn int(&self, k: &str) -> i64 {
        match self.0.get(k) {
            Some(Value::Int(v)) => *v,
            other => panic!("key {k} is not an integer: {other:?}"),
        }
    }
    fn bool(&self, k: &str) -> bool {
        self.int(k) != 0
    }
    fn str(&self, k: &str) -> &str {
        match self.0.get(k) {
            Some(Value::Str(v)) => v,
            other => panic!("key {k} is not a string: {other:?}"),
        }
    }
    fn triple(&self, k: &str) -> [u64; 3] {
        match self.0.get(k) {
            Some(Value::Triple(t)) => [t[0] as u64, t[1] as u64, t[2] as u64],
            other => panic!("key {k} is not a triple: {other:?}"),
        }
    }
}

/// A resolved, runnable configuration.
#[derive(Clone, Debug)]
pub struct Config {
    pub file: String,
    pub title: String,
    pub kernel: Kernel,
    pub profile: Profile,
    pub variant: Option<String>,
    pub seed: u64,
    pub duration_ns: u64,
    pub hz: u32,
    pub link: LinkConfig,
    pub app: AppConfig,
    /// `[sender, receiver]`, or `[localhost]` on loopback.
    pub hosts: Vec<HostConfig>,
    /// Keys ignored because the kernel lacks them, and similar notes.
    pub warnings: Vec<String>,
}

impl Config {
    /// How many MSS-sized packets the run carries at most, and the keys that say so in words
    /// (`sim.duration_ms = 600000 at 800000 Mbit/s`): the path's rate over the duration, or the
    /// flows' bytes if fewer ([`MAX_RUN_PACKETS`]); with `cpu.model = "free"`, a stream's
    /// sub-MSS writes and the readers' sub-MSS reads count as packets too (nothing else bounds
    /// how many system calls they make).
    pub fn run_size(&self) -> (u64, String) {
        let mss = u64::from(self.link.mtu.saturating_sub(52).max(1));
        let secs = self.duration_ns as f64 / 1e9;
        let dur_ms = self.duration_ns / 1_000_000;
        let (rate_bps, rate_how) =
            if self.link.loopback || (self.link.veth && self.link.bottleneck_bps == 0) {
                (
                    40e9,
                    "40 Gbit/s (what a CPU moves over lo or veth)".to_string(),
                )
            } else {
                let mut r = self.link.rate_bps;
                if self.link.bottleneck_bps > 0 {
                    r = if self.link.veth {
                        self.link.bottleneck_bps
                    } else {
                        r.min(self.link.bottleneck_bps)
                    };
                }
                (r as f64, format!("{} Mbit/s", r / 1_000_000))
            };
        let by_rate = (secs * rate_bps / 8.0 / mss as f64) as u64;
        let flows = u64::from(self.app.flows.max(1));
        let by_app = match self.app.kind {
            AppKind::TcpStream if self.app.bytes > 0 => {
                Some(flows.saturating_mul(self.app.bytes) / mss + 1)
            }
            AppKind::Pingpong => Some(
                self.app
                    .rounds
                    .saturating_mul(self.app.send_bytes.saturating_mul(2))
                    / mss
                    + self.app.rounds * 2,
            ),
            _ => None,
        };
        let (packets, how) = match by_app {
            Some(n) if n < by_rate => (
                n,
                format!("app.flows = {flows} x app.bytes = {}", self.app.bytes),
            ),
            _ => (by_rate, format!("sim.duration_ms = {dur_ms} at {rate_how}")),
        };
        // Without the CPU's costs a write takes no time, so a stream's writes are bounded only by
        // the bytes it moves: 1-byte writes at 10 Gbit/s are 1.25 G system calls a second, each
        // an event of its own.
        // So are the reader's reads (`app.read_size_bytes`).
        let free_cpu = self.hosts.iter().any(|h| !h.cpu.costs());
        if !free_cpu {
            return (packets, how);
        }
        let bytes = packets.saturating_mul(mss);
        let mut calls = 0u64;
        let mut what = Vec::new();
        if self.app.kind == AppKind::TcpStream && self.app.write_size_bytes < mss {
            calls = calls.saturating_add(bytes / self.app.write_size_bytes.max(1));
            what.push(format!("{}-byte write", self.app.write_size_bytes));
        }
        if self.app.read_size_bytes < mss {
            calls = calls.saturating_add(bytes / self.app.read_size_bytes.max(1));
            what.push(format!("{}-byte read", self.app.read_size_bytes));
        }
        if calls == 0 {
            return (packets, how);
        }
        (
            packets.saturating_add(calls),
            format!(
                "{how}, with each {} counted as a packet (cpu.model = \"free\": system calls take no time),",
                what.join(" and each ")
            ),
        )
    }
}

#[derive(Clone, Debug)]
pub struct LinkConfig {
    pub loopback: bool,
    /// A veth pair between the two hosts (`drivers/net/veth.c`): no line rate, no wire, no
    /// delay; `rate_bps` does not apply. With `delay_ns` or a bottleneck it is two veth pairs
    /// through a forwarder (`forwarder`).
    pub veth: bool,
    /// The conformance lab's topology: each host's veth peer is in a middle namespace where a
    /// forwarder (sp-delayfwd) holds each frame `delay_ns` (behind the bottleneck router, if
    /// any) before it sends it on the receiver's veth pair.
    pub forwarder: bool,
    pub rate_bps: u64,
    pub delay_ns: u64,
    pub mtu: u32,
    /// A bottleneck router on each direction of the link (`path.bottleneck_mbit`, 0 = none):
    /// its rate, bits per second, and its drop-tail queue, packets (`path.queue_packets`).
    pub bottleneck_bps: u64,
    pub queue_packets: u32,
}

/// The stream writer's I/O (`sp-tcp --io`): blocking `send()`, or `O_NONBLOCK` with a
/// level-triggered `epoll_wait` for `EPOLLOUT` between sends until `EAGAIN`, or one send per
/// wake-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppIo {
    Block,
    Eagain,
    Once,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppKind {
    TcpStream,
    Pingpong,
}

#[derive(Clone, Copy, Debug)]
pub struct AppConfig {
    pub kind: AppKind,
    pub flows: u32,
    pub write_size_bytes: u64,
    pub bytes: u64,
    pub interval_ns: u64,
    /// Flow i's `connect()` at i × this (`app.connect_interval_us`).
    pub connect_interval_ns: u64,
    pub io: AppIo,
    pub read_size_bytes: u64,
    pub send_bytes: u64,
    pub n_chunk: u64,
    pub rounds: u64,
    pub msg_more: bool,
    pub cork: bool,
}

/// Congestion control algorithms the model implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionControl {
    Cubic,
    Reno,
    Bbr,
}

/// A host's sysctls (per network namespace, as in Linux).
#[derive(Clone, Debug)]
pub struct Sysctls {
    pub tcp_autocorking: bool,
    pub tcp_limit_output_bytes: u64,
    pub tcp_min_tso_segs: u32,
    pub tcp_tso_win_divisor: u32,
    pub tcp_tso_rtt_log: u32,
    pub tcp_notsent_lowat: u64,
    pub tcp_wmem: [u64; 3],
    pub tcp_rmem: [u64; 3],
    pub tcp_mem: [u64; 3],
    pub tcp_slow_start_after_idle: bool,
    pub tcp_congestion_control: CongestionControl,
    pub tcp_pacing_ss_ratio: u64,
    pub tcp_pacing_ca_ratio: u64,
    pub tcp_timestamps: bool,
    pub tcp_moderate_rcvbuf: bool,
    /// `net.ipv4.tcp_early_retrans`: 3 or 4 enable the tail loss probe.
    pub tcp_early_retrans: u32,
    /// `net.ipv4.tcp_frto`: nonzero runs F-RTO after an RTO (1 and 2 alike since 4.10's
    /// RFC 5682 rewrite: SACK-enhanced when the flow has SACK).
    pub tcp_frto: u32,
    pub tcp_pingpong_thresh: u32,
    pub wmem_max: u64,
    pub rmem_max: u64,
}

/// Socket options the applications set on every socket of the host.
#[derive(Clone, Debug)]
pub struct SockOpts {
    pub tcp_nodelay: bool,
    pub tcp_cork: bool,
    pub tcp_quickack: bool,
    pub tcp_notsent_lowat: u64,
    pub so_sndbuf: u64,
    pub so_rcvbuf: u64,
    pub so_priority: u8,
    pub so_max_pacing_rate: u64,
    pub tcp_congestion: Option<CongestionControl>,
}

/// The qdisc the host's device gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QdiscKind {
    Noqueue,
    PfifoFast,
    Fq,
    FqCodel,
    Tbf,
}

#[derive(Clone, Debug)]
pub struct QdiscConfig {
    pub kind: QdiscKind,
    pub txqueuelen: u32,
    pub fq_limit: u32,
    pub fq_flow_limit: u32,
    /// Bytes; 0 in the scenario means the kernel's default (computed from the MTU here).
    pub fq_quantum: u32,
    pub fq_initial_quantum: u32,
    pub fq_maxrate_bps: u64,
    pub fq_refill_delay_ms: u32,
    pub fq_pacing: bool,
    pub fq_horizon_ns: u64,
    pub fq_codel_limit: u32,
    pub fq_codel_flows: u32,
    pub fq_codel_quantum: u32,
    pub fq_codel_target_ns: u64,
    pub fq_codel_interval_ns: u64,
    /// tbf's `rate` (bytes per second), `burst` and `limit` (bytes) as tc hands them to the
    /// kernel (`limit` already computed from `latency` when the scenario gives no limit).
    pub tbf_rate_bytes_ps: u64,
    pub tbf_burst_bytes: u32,
    pub tbf_limit_bytes: u32,
    pub tbf_latency_us: u64,
}

#[derive(Clone, Debug)]
pub struct NicConfig {
    pub tx_ring: u32,
    pub tso: bool,
    pub gso: bool,
    /// GRO on the receiving side: a GSO packet reaches TCP whole (on) or one skb per MSS frame.
    pub gro: bool,
    pub tx_usecs: u32,
    pub tx_frames: u32,
    pub bql_enabled: bool,
    pub bql_limit_min: u64,
    pub bql_limit_max: u64,
}

#[derive(Clone, Debug)]
pub struct CpuConfig {
    pub cores: u32,
    /// 100 = the measured machine; 200 = twice as fast.
    pub speed_percent: u32,
    /// Which measured cost table CPU work follows, or none (`free`).
    pub model: CpuModel,
}

/// `cpu.model`: the cost table of a host's CPU work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuModel {
    /// [`cpu_costs::CpuCosts::MEASURED_6_18_VM`]: the Intel Xeon VM the project was built on.
    Reference,
    /// [`cpu_costs::CpuCosts::MEASURED_6_18_EPYC_VM`]: the AMD EPYC VM it runs on since.
    EpycVm,
    /// CPU work takes no time.
    Free,
}

impl CpuConfig {
    /// CPU work takes time (a cost table applies).
    pub fn costs(&self) -> bool {
        self.model != CpuModel::Free
    }
}

/// Everything that may differ between hosts.
#[derive(Clone, Debug)]
pub struct HostConfig {
    pub name: String,
    pub sysctl: Sysctls,
    pub sock: SockOpts,
    pub qdisc: QdiscConfig,
    pub nic: NicConfig,
    pub cpu: CpuConfig,
}

impl HostConfig {
    fn from_values(
        name: &str,
        vals: &BTreeMap<&'static str, Value>,
        _profile: &Profile,
        no_queue: bool,
    ) -> HostConfig {
        let g = Getter(vals);
        let cc = |s: &str| match s {
            "reno" => CongestionControl::Reno,
            "bbr" => CongestionControl::Bbr,
            _ => CongestionControl::Cubic,
        };
        let mtu = g.int("link.mtu") as u32;
        let qdisc_kind = match g.str("tc.qdisc") {
            "noqueue" => QdiscKind::Noqueue,
            "pfifo_fast" => QdiscKind::PfifoFast,
            "fq" => QdiscKind::Fq,
            "fq_codel" => QdiscKind::FqCodel,
            "tbf" => QdiscKind::Tbf,
            _ if no_queue => QdiscKind::Noqueue,
            _ => match g.str("net.core.default_qdisc") {
                "fq" => QdiscKind::Fq,
                "fq_codel" => QdiscKind::FqCodel,
                _ => QdiscKind::PfifoFast,
            },
        };
        // psched_mtu(dev) = mtu + hard_header_len (14).
        let psched_mtu = mtu + 14;
        let or_default = |v: i64, d: u32| if v == 0 { d } else { v as u32 };
        HostConfig {
            name: name.to_string(),
            sysctl: Sysctls {
                tcp_autocorking: g.bool("net.ipv4.tcp_autocorking"),
                tcp_limit_output_bytes: g.int("net.ipv4.tcp_limit_output_bytes") as u64,
                tcp_min_tso_segs: g.int("net.ipv4.tcp_min_tso_segs") as u32,
                tcp_tso_win_divisor: g.int("net.ipv4.tcp_tso_win_divisor") as u32,
                tcp_tso_rtt_log: g.int("net.ipv4.tcp_tso_rtt_log") as u32,
                tcp_notsent_lowat: g.int("net.ipv4.tcp_notsent_lowat") as u64,
                tcp_wmem: g.triple("net.ipv4.tcp_wmem"),
                tcp_rmem: g.triple("net.ipv4.tcp_rmem"),
                tcp_mem: g.triple("net.ipv4.tcp_mem"),
                tcp_slow_start_after_idle: g.bool("net.ipv4.tcp_slow_start_after_idle"),
                tcp_congestion_control: cc(g.str("net.ipv4.tcp_congestion_control")),
                tcp_pacing_ss_ratio: g.int("net.ipv4.tcp_pacing_ss_ratio") as u64,
                tcp_pacing_ca_ratio: g.int("net.ipv4.tcp_pacing_ca_ratio") as u64,
                tcp_timestamps: g.int("net.ipv4.tcp_timestamps") != 0,
                tcp_moderate_rcvbuf: g.bool("net.ipv4.tcp_moderate_rcvbuf"),
                tcp_early_retrans: g.int("net.ipv4.tcp_early_retrans") as u32,
                tcp_frto: g.int("net.ipv4.tcp_frto") as u32,
                tcp_pingpong_thresh: g.int("net.ipv4.tcp_pingpong_thresh") as u32,
                wmem_max: g.int("net.core.wmem_max") as u64,
                rmem_max: g.int("net.core.rmem_max") as u64,
            },
            sock: SockOpts {
                tcp_nodelay: g.bool("TCP_NODELAY"),
                tcp_cork: g.bool("TCP_CORK"),
                tcp_quickack: g.bool("TCP_QUICKACK"),
                tcp_notsent_lowat: g.int("TCP_NOTSENT_LOWAT") as u64,
                so_sndbuf: g.int("SO_SNDBUF") as u64,
                so_rcvbuf: g.int("SO_RCVBUF") as u64,
                so_priority: g.int("SO_PRIORITY") as u8,
                so_max_pacing_rate: g.int("SO_MAX_PACING_RATE") as u64,
                tcp_congestion: match g.str("TCP_CONGESTION") {
                    "" => None,
                    s => Some(cc(s)),
                },
            },
            qdisc: QdiscConfig {
                kind: qdisc_kind,
                txqueuelen: g.int("link.txqueuelen") as u32,
                fq_limit: g.int("tc.fq.limit") as u32,
                fq_flow_limit: g.int("tc.fq.flow_limit") as u32,
                fq_quantum: or_default(g.int("tc.fq.quantum"), 2 * psched_mtu),
                fq_initial_quantum: or_default(g.int("tc.fq.initial_quantum"), 10 * psched_mtu),
                fq_maxrate_bps: g.int("tc.fq.maxrate_mbit") as u64 * 1_000_000,
                fq_refill_delay_ms: g.int("tc.fq.refill_delay_ms") as u32,
                fq_pacing: g.bool("tc.fq.pacing"),
                fq_horizon_ns: g.int("tc.fq.horizon_ms") as u64 * 1_000_000,
                fq_codel_limit: g.int("tc.fq_codel.limit") as u32,
                fq_codel_flows: g.int("tc.fq_codel.flows") as u32,
                fq_codel_quantum: g.int("tc.fq_codel.quantum") as u32,
                fq_codel_target_ns: g.int("tc.fq_codel.target_us") as u64 * 1000,
                fq_codel_interval_ns: g.int("tc.fq_codel.interval_us") as u64 * 1000,
                // tc's "mbit" is 10^6 bit/s; get_rate64 gives bytes per second.
                tbf_rate_bytes_ps: g.int("tc.tbf.rate_mbit") as u64 * 1_000_000 / 8,
                tbf_burst_bytes: g.int("tc.tbf.burst_bytes") as u32,
                tbf_limit_bytes: g.int("tc.tbf.limit_bytes") as u32,
                tbf_latency_us: g.int("tc.tbf.latency_ms") as u64 * 1000,
            },
            nic: NicConfig {
                tx_ring: g.int("ethtool.tx") as u32,
                tso: g.bool("ethtool.tso"),
                gso: g.bool("ethtool.gso"),
                gro: g.bool("ethtool.gro"),
                tx_usecs: g.int("ethtool.tx-usecs") as u32,
                tx_frames: g.int("ethtool.tx-frames") as u32,
                bql_enabled: g.bool("bql.enabled"),
                bql_limit_min: g.int("bql.limit_min") as u64,
                bql_limit_max: g.int("bql.limit_max") as u64,
            },
            cpu: CpuConfig {
                cores: g.int("cpu.cores") as u32,
                speed_percent: g.int("cpu.speed_percent") as u32,
                model: match g.str("cpu.model") {
                    "reference" => CpuModel::Reference,
                    "epyc-vm" => CpuModel::EpycVm,
                    _ => CpuModel::Free,
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = r#"
title = "t"
kernel = "3.14"
[link]
rate_mbit = 1000
[sysctl]
"net.ipv4.tcp_autocorking" = 1
[socket]
TCP_NODELAY = 1
[tc.fq]
quantum = 3000
[host.sender.ethtool]
tx-usecs = 0
[variants.off]
label = "autocorking off"
"net.ipv4.tcp_autocorking" = 0
"#;

    fn parse(s: &str) -> Result<Scenario, ScenarioError> {
        Scenario::parse(s, "x.toml")
    }

    #[test]
    fn a_scenario_resolves_file_values_host_values_and_variants() {
        let sc = parse(OK).unwrap();
        let base = sc.config(None, &[]).unwrap();
        assert_eq!(base.kernel, Kernel::V3_14);
        assert_eq!(base.link.rate_bps, 1_000_000_000);
        assert!(base.hosts[0].sysctl.tcp_autocorking);
        assert!(base.hosts[0].sock.tcp_nodelay);
        assert_eq!(base.hosts[0].qdisc.fq_quantum, 3000);
        assert_eq!(base.hosts[0].nic.tx_usecs, 0);
        assert_eq!(base.hosts[1].nic.tx_usecs, 16);
        let off = sc.config(Some("off"), &[]).unwrap();
        assert!(!off.hosts[0].sysctl.tcp_autocorking);
        assert_eq!(sc.variants[0].label, "autocorking off");
    }

    #[test]
    fn set_overrides_a_host_or_every_host() {
        let sc = parse(OK).unwrap();
        let c = sc
            .config(
                None,
                &["receiver:TCP_NODELAY=0".into(), "link.delay_us=500".into()],
            )
            .unwrap();
        assert!(c.hosts[0].sock.tcp_nodelay);
        assert!(!c.hosts[1].sock.tcp_nodelay);
        assert_eq!(c.link.delay_ns, 500_000);
        let c = sc.config(None, &["kernel=3.13".into()]).unwrap();
        assert_eq!(c.kernel, Kernel::V3_13);
        assert!(c
            .warnings
            .iter()
            .any(|w| w.contains("tcp_autocorking does not exist in kernel 3.13")));
    }

    #[test]
    fn an_out_of_range_value_names_the_key_and_the_kernel_range() {
        let e = parse("title = \"t\"\n[sysctl]\n\"net.ipv4.tcp_autocorking\" = 2\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.toml: net.ipv4.tcp_autocorking: accepts 0..1 (got 2)"
        );
    }

    #[test]
    fn a_misspelt_key_gets_a_suggestion() {
        let e = parse("title = \"t\"\n[sysctl]\n\"net.ipv4.tcp_autocork\" = 1\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("net.ipv4.tcp_autocork"));
        assert!(
            e.message
                .contains("did you mean \"net.ipv4.tcp_autocorking\""),
            "{e}"
        );
        let e = parse("title = \"t\"\n[link]\nrate = 5\n").unwrap_err();
        assert!(e.to_string().contains("link.rate"), "{e}");
    }

    #[test]
    fn wrong_types_and_bad_syntax_are_errors_not_panics() {
        assert!(parse("title = \"t\"\n[link]\nrate_mbit = \"fast\"\n")
            .unwrap_err()
            .message
            .contains("expected an integer"));
        assert!(parse("title = ")
            .unwrap_err()
            .message
            .contains("not valid TOML"));
        assert!(parse("[link]\nrate_mbit = 5\n")
            .unwrap_err()
            .message
            .contains("missing"));
        assert!(parse("title = \"t\"\n[sysctl]\n\"net.ipv4.tcp_wmem\" = \"1 2\"\n").is_err());
        assert!(
            parse("title = \"t\"\n[host.router.sysctl]\n\"net.ipv4.tcp_autocorking\" = 1\n")
                .is_err()
        );
        let sc = parse(OK).unwrap();
        assert!(sc
            .config(Some("nope"), &[])
            .unwrap_err()
            .message
            .contains("variants: off"));
        assert!(sc.config(None, &["nonsense".into()]).is_err());
        assert!(sc.config(None, &["link.rate_mbit=0".into()]).is_err());
    }

    #[test]
    fn loopback_gets_lo_defaults_and_one_host() {
        let c = parse("title = \"t\"\n[link]\nkind = \"loopback\"\n")
            .unwrap()
            .config(None, &[])
            .unwrap();
        assert_eq!(c.hosts.len(), 1);
        assert_eq!(c.hosts[0].name, "localhost");
        assert_eq!(c.link.mtu, 65_536);
        assert_eq!(c.hosts[0].qdisc.kind, QdiscKind::Noqueue);
    }
}
