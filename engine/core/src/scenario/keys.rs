//! The scenario keys: every knob a scenario, `--set` or the site can turn, under the name users
//! already know (sysctl dotted names, socket options by C name, `tc`/`ethtool` names, units in
//! the name), with the kernel's valid range, the version that introduced it, its default for a
//! kernel profile and a one-line explanation. The parser, the error messages, the site's
//! controls and `docs/scenario-format.md` all come from this one table.

use crate::scenario::profile::{Kernel, Profile};

/// The groups the site shows, in the kernel's own grouping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// The run itself (`kernel`, `sim.*`).
    Run,
    /// `setsockopt()` options.
    Socket,
    /// `net.ipv4.tcp_*` sysctls.
    Ipv4,
    /// `net.core.*` sysctls.
    Core,
    /// The qdisc, as `tc qdisc replace dev eth0 root ...` sets it.
    Tc,
    /// The NIC, as `ethtool -G/-K/-C` and the BQL sysfs files set it.
    Nic,
    /// The link between the hosts (`ip link`, wire).
    Link,
    /// The host's CPUs.
    Cpu,
    /// The application (netperf-like options).
    App,
}

impl Group {
    pub fn name(self) -> &'static str {
        match self {
            Group::Run => "run",
            Group::Socket => "socket options",
            Group::Ipv4 => "net.ipv4 sysctls",
            Group::Core => "net.core sysctls",
            Group::Tc => "qdisc (tc)",
            Group::Nic => "NIC (ethtool)",
            Group::Link => "link",
            Group::Cpu => "CPU",
            Group::App => "application",
        }
    }
}

/// The type and valid range of a key's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// 0 or 1 (TOML `true`/`false` accepted too).
    Bool,
    /// One of the strings.
    Choice(&'static [&'static str]),
    /// Three integers in `min..=max`, written "a b c" as in `/proc/sys` (`tcp_wmem`).
    Triple { min: i64, max: i64 },
}

/// A value, after parsing.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    Int(i64),
    Str(String),
    Triple([i64; 3]),
}

impl Value {
    pub fn render(&self) -> String {
        match self {
            Value::Int(v) => v.to_string(),
            Value::Str(s) => s.clone(),
            Value::Triple(t) => format!("{} {} {}", t[0], t[1], t[2]),
        }
    }
}

/// What a default may depend on.
pub struct DefaultCtx<'a> {
    pub profile: &'a Profile,
    pub loopback: bool,
}

/// One key.
pub struct KeyDef {
    pub name: &'static str,
    pub group: Group,
    pub kind: Kind,
    /// The kernel version that introduced it (sysctls only); the key is ignored, with a
    /// warning, on older profiles.
    pub since: Option<(u32, u32)>,
    /// May differ between hosts (`HOST:KEY=VALUE`).
    pub per_host: bool,
    pub doc: &'static str,
    pub default: fn(&DefaultCtx) -> Value,
}

const U32_MAX: i64 = u32::MAX as i64;
const I32_MAX: i64 = i32::MAX as i64;

fn int(v: i64) -> Value {
    Value::Int(v)
}
fn s(v: &str) -> Value {
    Value::Str(v.to_string())
}

/// Every key, in the order the documentation and the site list them.
pub static KEYS: &[KeyDef] = &[
    // ---- run ----
    KeyDef {
        name: "kernel",
        group: Group::Run,
        kind: Kind::Choice(&["3.13", "3.14", "3.18", "3.19", "4.4", "6.18"]),
        since: None,
        per_host: false,
        doc: "Kernel version whose defaults and code paths the model follows",
        default: |_| s("6.18"),
    },
    KeyDef {
        name: "sim.seed",
        group: Group::Run,
        kind: Kind::Int { min: 0, max: U32_MAX },
        since: None,
        per_host: false,
        doc: "Seed of the run's random numbers (timer tick phase); same seed, same run",
        default: |_| int(1),
    },
    KeyDef {
        name: "sim.duration_ms",
        group: Group::Run,
        kind: Kind::Int { min: 1, max: 600_000 },
        since: None,
        per_host: false,
        doc: "Simulated time after which the run stops if the workload has not finished",
        default: |_| int(1000),
    },
    KeyDef {
        name: "sim.hz",
        group: Group::Run,
        kind: Kind::Choice(&["100", "250", "300", "1000"]),
        since: None,
        per_host: false,
        doc: "CONFIG_HZ: jiffies per second; delayed-ACK and retransmission timers tick in jiffies",
        default: |c| s(&c.profile.default_hz.to_string()),
    },
    KeyDef {
        name: "kernel.max_header",
        group: Group::Run,
        kind: Kind::Int { min: 32, max: 256 },
        since: None,
        per_host: false,
        doc: "MAX_HEADER of the kernel build, bytes: LL_MAX_HEADER (32; 96 with CONFIG_WLAN; 128 with CONFIG_HYPERV_NET) + 48 with IP tunnels; distribution kernels 176, a minimal build 32. MAX_TCP_HEADER = 128 + it sizes each skb's head (truesize) and tcp_sndbuf_expand's charge per MSS",
        default: |c| int(c.profile.max_header as i64),
    },
    // ---- socket options ----
    KeyDef {
        name: "TCP_NODELAY",
        group: Group::Socket,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "Disable Nagle's algorithm: send sub-MSS segments even while data is unacknowledged",
        default: |_| int(0),
    },
    KeyDef {
        name: "TCP_CORK",
        group: Group::Socket,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "Keep the socket corked: only full-sized segments leave (until uncorked or the probe timer fires)",
        default: |_| int(0),
    },
    KeyDef {
        name: "TCP_QUICKACK",
        group: Group::Socket,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "setsockopt(TCP_QUICKACK, 1) once after connect: leave pingpong mode (not permanent)",
        default: |_| int(0),
    },
    KeyDef {
        name: "TCP_NOTSENT_LOWAT",
        group: Group::Socket,
        kind: Kind::Int { min: 0, max: U32_MAX },
        since: None,
        per_host: true,
        doc: "Limit of unsent bytes before the writer sleeps; 0 = use net.ipv4.tcp_notsent_lowat",
        default: |_| int(0),
    },
    KeyDef {
        name: "SO_SNDBUF",
        group: Group::Socket,
        kind: Kind::Int { min: 0, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "Send buffer request (netperf -s); the kernel doubles it, caps it at net.core.wmem_max and stops autotuning; 0 = not set",
        default: |_| int(0),
    },
    KeyDef {
        name: "SO_RCVBUF",
        group: Group::Socket,
        kind: Kind::Int { min: 0, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "Receive buffer request (netperf -S); doubled, capped at net.core.rmem_max, disables autotuning; 0 = not set",
        default: |_| int(0),
    },
    KeyDef {
        name: "SO_PRIORITY",
        group: Group::Socket,
        kind: Kind::Int { min: 0, max: 6 },
        since: None,
        per_host: true,
        doc: "skb->priority of the socket's packets; pfifo_fast maps it to a band",
        default: |_| int(0),
    },
    KeyDef {
        name: "SO_MAX_PACING_RATE",
        group: Group::Socket,
        kind: Kind::Int { min: 0, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "Cap on sk_pacing_rate in bytes per second; 0 = unlimited",
        default: |_| int(0),
    },
    KeyDef {
        name: "TCP_CONGESTION",
        group: Group::Socket,
        kind: Kind::Choice(&["", "cubic", "reno", "bbr"]),
        since: None,
        per_host: true,
        doc: "Congestion control of the socket; empty = net.ipv4.tcp_congestion_control",
        default: |_| s(""),
    },
    // ---- net.ipv4 ----
    KeyDef {
        name: "net.ipv4.tcp_autocorking",
        group: Group::Ipv4,
        kind: Kind::Bool,
        since: Some((3, 14)),
        per_host: true,
        doc: "Hold a not-yet-full tail skb while earlier packets of the flow are still in the qdisc or NIC",
        default: |_| int(1),
    },
    KeyDef {
        name: "net.ipv4.tcp_limit_output_bytes",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: I32_MAX },
        since: Some((3, 6)),
        per_host: true,
        doc: "TCP Small Queues: most bytes (truesize) one socket may have in the qdisc and NIC",
        default: |c| int(c.profile.tcp_limit_output_bytes as i64),
    },
    KeyDef {
        name: "net.ipv4.tcp_min_tso_segs",
        group: Group::Ipv4,
        kind: Kind::Int { min: 1, max: 65535 },
        since: Some((3, 12)),
        per_host: true,
        doc: "Fewest MSS per TSO packet that TSO autosizing will choose",
        default: |_| int(2),
    },
    KeyDef {
        name: "net.ipv4.tcp_tso_win_divisor",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: 255 },
        since: None,
        per_host: true,
        doc: "tcp_tso_should_defer sends as soon as this fraction of the window (1/N) is available",
        default: |_| int(3),
    },
    KeyDef {
        name: "net.ipv4.tcp_tso_rtt_log",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: 255 },
        since: Some((5, 18)),
        per_host: true,
        doc: "TSO autosizing adds 64 KB >> (min_rtt_us >> N): bigger TSO packets on short paths",
        default: |_| int(9),
    },
    KeyDef {
        name: "net.ipv4.tcp_notsent_lowat",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: U32_MAX },
        since: Some((3, 12)),
        per_host: true,
        doc: "Unsent bytes above which a writer sleeps (sockets without TCP_NOTSENT_LOWAT); 4294967295 = off",
        default: |_| int(U32_MAX),
    },
    KeyDef {
        name: "net.ipv4.tcp_wmem",
        group: Group::Ipv4,
        kind: Kind::Triple { min: 1, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "Send buffer min, initial and autotuning max, bytes",
        default: |_| Value::Triple([4096, 16384, 4_194_304]),
    },
    KeyDef {
        name: "net.ipv4.tcp_rmem",
        group: Group::Ipv4,
        kind: Kind::Triple { min: 1, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "Receive buffer min, initial and autotuning max, bytes",
        default: |c| {
            let r = c.profile.tcp_rmem;
            Value::Triple([r[0] as i64, r[1] as i64, r[2] as i64])
        },
    },
    KeyDef {
        name: "net.ipv4.tcp_mem",
        group: Group::Ipv4,
        kind: Kind::Triple { min: 1, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "TCP memory thresholds in pages (low, pressure, high); the kernel sizes them from RAM (here: a 64 GB host)",
        default: |_| Value::Triple([1_540_000, 2_053_000, 3_080_000]),
    },
    KeyDef {
        name: "net.ipv4.tcp_slow_start_after_idle",
        group: Group::Ipv4,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "Reset cwnd after an idle period longer than the RTO",
        default: |_| int(1),
    },
    KeyDef {
        name: "net.ipv4.tcp_congestion_control",
        group: Group::Ipv4,
        kind: Kind::Choice(&["cubic", "reno", "bbr"]),
        since: None,
        per_host: true,
        doc: "Default congestion control (the model implements CUBIC, Reno and BBR)",
        default: |_| s("cubic"),
    },
    KeyDef {
        name: "net.ipv4.tcp_pacing_ss_ratio",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: 1000 },
        since: Some((4, 1)),
        per_host: true,
        doc: "sk_pacing_rate in slow start, percent of cwnd * mss / srtt",
        default: |_| int(200),
    },
    KeyDef {
        name: "net.ipv4.tcp_pacing_ca_ratio",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: 1000 },
        since: Some((4, 1)),
        per_host: true,
        doc: "sk_pacing_rate in congestion avoidance, percent of cwnd * mss / srtt",
        default: |_| int(120),
    },
    KeyDef {
        name: "net.ipv4.tcp_timestamps",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: 2 },
        since: None,
        per_host: true,
        doc: "TCP timestamps option (12 bytes per segment, so MSS 1448 instead of 1460 at MTU 1500)",
        default: |_| int(1),
    },
    KeyDef {
        name: "net.ipv4.tcp_moderate_rcvbuf",
        group: Group::Ipv4,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "Receive buffer autotuning",
        default: |_| int(1),
    },
    KeyDef {
        name: "net.ipv4.tcp_early_retrans",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: 4 },
        since: Some((3, 5)),
        per_host: true,
        doc: "3 or 4: a tail loss probe (TLP) 2 RTTs after the last send; the model probes from 4.14",
        default: |_| int(3),
    },
    KeyDef {
        name: "net.ipv4.tcp_frto",
        group: Group::Ipv4,
        kind: Kind::Int { min: 0, max: 2 },
        since: None,
        per_host: true,
        doc: "F-RTO (RFC 5682) after a retransmission timeout: nonzero sends new data first and undoes a timeout the next ACKs show spurious (TcpExtTCPSpuriousRTOs); 0 retransmits everything unacknowledged",
        default: |_| int(2),
    },
    KeyDef {
        name: "net.ipv4.tcp_pingpong_thresh",
        group: Group::Ipv4,
        kind: Kind::Int { min: 1, max: 255 },
        since: Some((6, 6)),
        per_host: true,
        doc: "Replies within ato needed before the receiver counts the connection as interactive (delays its ACKs)",
        default: |_| int(1),
    },
    // ---- net.core ----
    KeyDef {
        name: "net.core.default_qdisc",
        group: Group::Core,
        kind: Kind::Choice(&["pfifo_fast", "fq", "fq_codel"]),
        since: Some((3, 12)),
        per_host: true,
        doc: "Qdisc attached to a new device",
        default: |_| s("pfifo_fast"),
    },
    KeyDef {
        name: "net.core.wmem_max",
        group: Group::Core,
        kind: Kind::Int { min: 4608, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "Cap on SO_SNDBUF requests, bytes",
        default: |_| int(212_992),
    },
    KeyDef {
        name: "net.core.rmem_max",
        group: Group::Core,
        kind: Kind::Int { min: 2304, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "Cap on SO_RCVBUF requests, bytes",
        default: |_| int(212_992),
    },
    // ---- tc ----
    KeyDef {
        name: "tc.qdisc",
        group: Group::Tc,
        kind: Kind::Choice(&["default", "pfifo_fast", "fq", "fq_codel", "tbf", "noqueue"]),
        since: None,
        per_host: true,
        doc: "Root qdisc of the host's device; default = net.core.default_qdisc (noqueue on loopback, and on veth from 4.3)",
        default: |_| s("default"),
    },
    KeyDef {
        name: "tc.fq.limit",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "fq: most packets in the qdisc",
        default: |_| int(10_000),
    },
    KeyDef {
        name: "tc.fq.flow_limit",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "fq: most packets per flow",
        default: |_| int(100),
    },
    KeyDef {
        name: "tc.fq.quantum",
        group: Group::Tc,
        kind: Kind::Int { min: 0, max: 1 << 20 },
        since: None,
        per_host: true,
        doc: "fq: bytes a flow may send per round; 0 = 2 * (MTU + 14)",
        default: |_| int(0),
    },
    KeyDef {
        name: "tc.fq.initial_quantum",
        group: Group::Tc,
        kind: Kind::Int { min: 0, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "fq: credit of a new or long-idle flow; 0 = 10 * (MTU + 14)",
        default: |_| int(0),
    },
    KeyDef {
        name: "tc.fq.maxrate_mbit",
        group: Group::Tc,
        kind: Kind::Int { min: 0, max: 1_000_000 },
        since: None,
        per_host: true,
        doc: "fq: per-flow rate cap, Mbit/s; 0 = unlimited",
        default: |_| int(0),
    },
    KeyDef {
        name: "tc.fq.refill_delay_ms",
        group: Group::Tc,
        kind: Kind::Int { min: 0, max: 10_000 },
        since: None,
        per_host: true,
        doc: "fq: idle time after which a flow gets its quantum back",
        default: |_| int(40),
    },
    KeyDef {
        name: "tc.fq.pacing",
        group: Group::Tc,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "fq: enforce pacing (nopacing = 0)",
        default: |_| int(1),
    },
    KeyDef {
        name: "tc.fq.horizon_ms",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 100_000 },
        since: None,
        per_host: true,
        doc: "fq: packets timestamped further in the future than this are dropped (5.7+)",
        default: |_| int(10_000),
    },
    KeyDef {
        name: "tc.fq_codel.limit",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "fq_codel: most packets in the qdisc",
        default: |_| int(10_240),
    },
    KeyDef {
        name: "tc.fq_codel.flows",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 65_536 },
        since: None,
        per_host: true,
        doc: "fq_codel: number of flow buckets",
        default: |_| int(1024),
    },
    KeyDef {
        name: "tc.fq_codel.quantum",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 1 << 20 },
        since: None,
        per_host: true,
        doc: "fq_codel: bytes a flow may dequeue per round",
        default: |_| int(1514),
    },
    KeyDef {
        name: "tc.fq_codel.target_us",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 10_000_000 },
        since: None,
        per_host: true,
        doc: "fq_codel: acceptable standing queue delay",
        default: |_| int(5_000),
    },
    KeyDef {
        name: "tc.fq_codel.interval_us",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 100_000_000 },
        since: None,
        per_host: true,
        doc: "fq_codel: window over which the delay must stay above target before dropping",
        default: |_| int(100_000),
    },
    KeyDef {
        name: "tc.tbf.rate_mbit",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 1_000_000 },
        since: None,
        per_host: true,
        doc: "tbf: token rate (tc's rate), Mbit/s",
        default: |_| int(1000),
    },
    KeyDef {
        name: "tc.tbf.burst_bytes",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: U32_MAX },
        since: None,
        per_host: true,
        doc: "tbf: bucket depth (tc's burst), bytes; a larger GSO packet is segmented, any other dropped",
        default: |_| int(16_384),
    },
    KeyDef {
        name: "tc.tbf.latency_ms",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 100_000 },
        since: None,
        per_host: true,
        doc: "tbf: longest wait in the queue (tc's latency); sets limit = rate * latency + burst",
        default: |_| int(50),
    },
    KeyDef {
        name: "tc.tbf.limit_bytes",
        group: Group::Tc,
        kind: Kind::Int { min: 0, max: U32_MAX },
        since: None,
        per_host: true,
        doc: "tbf: bytes the queue holds (tc's limit); 0 = from tc.tbf.latency_ms",
        default: |_| int(0),
    },
    KeyDef {
        name: "link.txqueuelen",
        group: Group::Tc,
        kind: Kind::Int { min: 1, max: 1_000_000 },
        since: None,
        per_host: true,
        doc: "Device transmit queue length (ip link set txqueuelen): pfifo_fast's per-band limit",
        default: |_| int(1000),
    },
    // ---- NIC ----
    KeyDef {
        name: "ethtool.tx",
        group: Group::Nic,
        kind: Kind::Int { min: 1, max: 65_536 },
        since: None,
        per_host: true,
        doc: "TX ring descriptors (ethtool -G tx)",
        default: |_| int(512),
    },
    KeyDef {
        name: "ethtool.tso",
        group: Group::Nic,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "TCP segmentation offload in the NIC (ethtool -K tso)",
        default: |_| int(1),
    },
    KeyDef {
        name: "ethtool.gso",
        group: Group::Nic,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "Generic segmentation offload in software when the NIC lacks TSO (ethtool -K gso)",
        default: |_| int(1),
    },
    KeyDef {
        name: "ethtool.gro",
        group: Group::Nic,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "Generic receive offload on the receiving side (ethtool -K gro): on, a TSO packet reaches TCP as one skb; off, as one skb per MSS frame (through a veth forwarder: it cuts GSO frames, sp-delayfwd -S)",
        default: |_| int(1),
    },
    KeyDef {
        name: "ethtool.tx-usecs",
        group: Group::Nic,
        kind: Kind::Int { min: 0, max: 100_000 },
        since: None,
        per_host: true,
        doc: "TX-completion interrupt coalescing: µs after the first completion (ethtool -C tx-usecs)",
        default: |_| int(16),
    },
    KeyDef {
        name: "ethtool.tx-frames",
        group: Group::Nic,
        kind: Kind::Int { min: 0, max: 65_536 },
        since: None,
        per_host: true,
        doc: "TX-completion interrupt coalescing: completed frames that raise the interrupt at once (ethtool -C tx-frames)",
        default: |_| int(16),
    },
    KeyDef {
        name: "bql.enabled",
        group: Group::Nic,
        kind: Kind::Bool,
        since: None,
        per_host: true,
        doc: "Byte Queue Limits on the TX queue (the driver calls netdev_tx_sent_queue)",
        default: |_| int(1),
    },
    KeyDef {
        name: "bql.limit_min",
        group: Group::Nic,
        kind: Kind::Int { min: 0, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "BQL: lowest limit, bytes (byte_queue_limits/limit_min)",
        default: |_| int(0),
    },
    KeyDef {
        name: "bql.limit_max",
        group: Group::Nic,
        kind: Kind::Int { min: 0, max: I32_MAX },
        since: None,
        per_host: true,
        doc: "BQL: highest limit, bytes (byte_queue_limits/limit_max; DQL_MAX_LIMIT by default)",
        default: |_| int(1_879_048_192),
    },
    // ---- link ----
    KeyDef {
        name: "link.kind",
        group: Group::Link,
        kind: Kind::Choice(&["ethernet", "loopback", "veth"]),
        since: None,
        per_host: false,
        doc: "Two hosts joined by an Ethernet link, both ends on one host's loopback (lo), or two network namespaces joined by a veth pair (noqueue, no line rate: the receiver's softirq runs on the sender's core); a veth with link.delay_us or path.bottleneck_mbit is two veth pairs through a forwarder namespace that delays (and with a bottleneck, serialises and drops) each frame, as the conformance lab's sp-delayfwd",
        default: |_| s("ethernet"),
    },
    KeyDef {
        name: "link.rate_mbit",
        group: Group::Link,
        kind: Kind::Int { min: 1, max: 800_000 },
        since: None,
        per_host: false,
        doc: "Line rate, Mbit/s (Ethernet framing overhead is on top of IP packets); lo and veth have none",
        default: |_| int(10_000),
    },
    KeyDef {
        name: "link.delay_us",
        group: Group::Link,
        kind: Kind::Int { min: 0, max: 10_000_000 },
        since: None,
        per_host: false,
        doc: "One-way propagation delay, µs (the RTT is twice this plus serialization); lo and veth have none",
        default: |_| int(20),
    },
    KeyDef {
        name: "link.mtu",
        group: Group::Link,
        kind: Kind::Int { min: 576, max: 65_536 },
        since: None,
        per_host: false,
        doc: "MTU, bytes (lo: 65536)",
        default: |c| int(if c.loopback { 65_536 } else { 1500 }),
    },
    KeyDef {
        name: "path.bottleneck_mbit",
        group: Group::Link,
        kind: Kind::Int { min: 0, max: 800_000 },
        since: None,
        per_host: false,
        doc: "A bottleneck router between the hosts, each direction: its rate, Mbit/s (Ethernet frame bytes, no preamble/FCS), before link.delay_us; GSO frames are cut into MSS frames there; 0 = none",
        default: |_| int(0),
    },
    KeyDef {
        name: "path.queue_packets",
        group: Group::Link,
        kind: Kind::Int { min: 1, max: 1_000_000 },
        since: None,
        per_host: false,
        doc: "The bottleneck router's drop-tail queue, packets waiting for or in serialisation; a packet that finds it full is dropped",
        default: |_| int(1000),
    },
    // ---- CPU ----
    KeyDef {
        name: "cpu.cores",
        group: Group::Cpu,
        kind: Kind::Int { min: 1, max: 1024 },
        since: None,
        per_host: true,
        doc: "CPU cores of the host; each application thread runs on its own core while cores last",
        default: |_| int(8),
    },
    KeyDef {
        name: "cpu.speed_percent",
        group: Group::Cpu,
        kind: Kind::Int { min: 10, max: 1000 },
        since: None,
        per_host: true,
        doc: "Speed of the host's CPUs relative to the machine the cost table was measured on (200 = every operation takes half as long)",
        default: |_| int(100),
    },
    KeyDef {
        name: "cpu.model",
        group: Group::Cpu,
        kind: Kind::Choice(&["reference", "epyc-vm", "free"]),
        since: None,
        per_host: true,
        doc: "Cost model of kernel work: reference = per-operation costs measured on the Intel Xeon VM the project was built on; epyc-vm = the same operations measured on the AMD EPYC VM it runs on since (2026-11-27); free = CPU is never a limit",
        default: |_| s("reference"),
    },
    // ---- application ----
    KeyDef {
        name: "app.kind",
        group: Group::App,
        kind: Kind::Choice(&["tcp_stream", "pingpong"]),
        since: None,
        per_host: false,
        doc: "tcp_stream: netperf TCP_STREAM flows; pingpong: the Nagle article's request/response rounds",
        default: |_| s("tcp_stream"),
    },
    KeyDef {
        name: "app.flows",
        group: Group::App,
        kind: Kind::Int { min: 1, max: 2000 },
        since: None,
        per_host: false,
        doc: "Concurrent connections (super_netperf N)",
        default: |_| int(1),
    },
    KeyDef {
        name: "app.write_size_bytes",
        group: Group::App,
        kind: Kind::Int { min: 1, max: 1 << 30 },
        since: None,
        per_host: false,
        doc: "Bytes per send() call (netperf -m)",
        default: |_| int(16_384),
    },
    KeyDef {
        name: "app.bytes",
        group: Group::App,
        kind: Kind::Int { min: 0, max: 1 << 40 },
        since: None,
        per_host: false,
        doc: "Bytes each flow sends before it stops (netperf -l -N); 0 = until sim.duration_ms",
        default: |_| int(0),
    },
    KeyDef {
        name: "app.interval_us",
        group: Group::App,
        kind: Kind::Int { min: 0, max: 10_000_000 },
        since: None,
        per_host: false,
        doc: "Think time between send() calls; 0 = back to back",
        default: |_| int(0),
    },
    KeyDef {
        name: "app.connect_interval_us",
        group: Group::App,
        kind: Kind::Int { min: 0, max: 10_000_000 },
        since: None,
        per_host: false,
        doc: "Time between successive flows' connect() calls: flow i connects at i times this; 0 = all at t = 0. (The conformance lab's recorder starts its clients from a shell loop: their SYNs leave about 0.5 ms apart.)",
        default: |_| int(0),
    },
    KeyDef {
        name: "app.io",
        group: Group::App,
        kind: Kind::Choice(&["block", "eagain", "once"]),
        since: None,
        per_host: false,
        doc: "How the stream writer sends: blocking send() calls; or non-blocking (O_NONBLOCK) with epoll_wait for EPOLLOUT, sending until EAGAIN or once per wake-up",
        default: |_| s("block"),
    },
    KeyDef {
        name: "app.read_size_bytes",
        group: Group::App,
        kind: Kind::Int { min: 1, max: 1 << 30 },
        since: None,
        per_host: false,
        doc: "Bytes per recv() call of the receiving application",
        default: |_| int(131_072),
    },
    KeyDef {
        name: "app.send_bytes",
        group: Group::App,
        kind: Kind::Int { min: 1, max: 1 << 30 },
        since: None,
        per_host: false,
        doc: "pingpong: bytes each side sends per round (the article's send)",
        default: |_| int(1000),
    },
    KeyDef {
        name: "app.n_chunk",
        group: Group::App,
        kind: Kind::Int { min: 1, max: 1 << 20 },
        since: None,
        per_host: false,
        doc: "pingpong: send() calls the bytes are split into (the article's n_chunk)",
        default: |_| int(100),
    },
    KeyDef {
        name: "app.rounds",
        group: Group::App,
        kind: Kind::Int { min: 1, max: 1_000_000 },
        since: None,
        per_host: false,
        doc: "pingpong: rounds (the article's round)",
        default: |_| int(100),
    },
    KeyDef {
        name: "app.msg_more",
        group: Group::App,
        kind: Kind::Bool,
        since: None,
        per_host: false,
        doc: "pingpong: pass MSG_MORE on every send() of a round but the last",
        default: |_| int(0),
    },
    KeyDef {
        name: "app.cork",
        group: Group::App,
        kind: Kind::Bool,
        since: None,
        per_host: false,
        doc: "pingpong: set TCP_CORK before a round's send() calls and clear it after the last",
        default: |_| int(0),
    },
];

/// The key called `name`.
pub fn key(name: &str) -> Option<&'static KeyDef> {
    KEYS.iter().find(|k| k.name == name)
}

/// The closest key name to a misspelt one, if close enough to be a likely typo.
pub fn suggest(name: &str) -> Option<&'static str> {
    // Bounded work: the distance is quadratic in the length, and a name this long is no typo.
    if name.chars().count() > crate::scenario::MAX_KEY_CHARS {
        return None;
    }
    let mut best: Option<(usize, &'static str)> = None;
    for k in KEYS {
        // Exact-case distance to the full name and to a sysctl's leaf ("tcp_autocorking"),
        // and a case-insensitive match one step behind ("tcp_nodelay" -> "TCP_NODELAY").
        let leaf = k.name.rsplit('.').next().unwrap_or(k.name);
        let d = edit_distance(name, k.name)
            .min(edit_distance(name, leaf))
            .min(edit_distance(&name.to_ascii_lowercase(), &k.name.to_ascii_lowercase()) + 1);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k.name));
        }
    }
    let (d, n) = best?;
    (d <= 2.max(name.len() / 4)).then_some(n)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Whether `key` exists in `kernel`.
pub fn exists_in(key: &KeyDef, kernel: Kernel) -> bool {
    key.since.is_none_or(|(maj, min)| kernel.at_least(maj, min))
}

/// The registry as JSON for the site's controls and `docs/scenario-format.md`: every key with
/// its group, type and range, the version that introduced it, and its default under each
/// kernel profile (ethernet link; loopback differs only for `link.mtu`).
pub fn keys_json() -> serde_json::Value {
    let profiles: Vec<_> = Kernel::ALL
        .iter()
        .map(|k| (k.name(), k.profile()))
        .collect();
    let keys: Vec<_> = KEYS
        .iter()
        .map(|k| {
            let kind = match k.kind {
                Kind::Int { min, max } => {
                    serde_json::json!({"type": "int", "min": min, "max": max})
                }
                Kind::Bool => serde_json::json!({"type": "bool"}),
                Kind::Choice(c) => serde_json::json!({"type": "choice", "choices": c}),
                Kind::Triple { min, max } => {
                    serde_json::json!({"type": "triple", "min": min, "max": max})
                }
            };
            let defaults: serde_json::Map<String, serde_json::Value> = profiles
                .iter()
                .map(|(name, p)| {
                    let v = (k.default)(&DefaultCtx {
                        profile: p,
                        loopback: false,
                    });
                    (name.to_string(), serde_json::Value::String(v.render()))
                })
                .collect();
            serde_json::json!({
                "name": k.name,
                "group": k.group.name(),
                "kind": kind,
                "since": k.since.map(|(a, b)| format!("{a}.{b}")),
                "perHost": k.per_host,
                "doc": k.doc,
                "defaults": defaults,
            })
        })
        .collect();
    serde_json::json!({ "kernels": Kernel::ALL.iter().map(|k| k.name()).collect::<Vec<_>>(), "keys": keys })
}

/// The key table of `docs/scenario-format.md` (between its `keys:begin`/`keys:end` markers),
/// generated from [`KEYS`]: `sendpath keys --markdown` prints it, a test checks the file.
pub fn markdown_table() -> String {
    let mut out = String::new();
    let mut group = None;
    let p = Kernel::V6_18.profile();
    let old = Kernel::V3_14.profile();
    for k in KEYS {
        if group != Some(k.group) {
            group = Some(k.group);
            out.push_str(&format!("\n### {}\n\n| key | values | default (6.18 / 3.14) | since | per host | meaning |\n|---|---|---|---|---|---|\n", k.group.name()));
        }
        let values = match k.kind {
            Kind::Int { min, max } => format!("{min}..{max}"),
            Kind::Bool => "0, 1".to_string(),
            Kind::Choice(c) => c
                .iter()
                .map(|c| {
                    if c.is_empty() {
                        "\"\"".to_string()
                    } else {
                        format!("`{c}`")
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
            Kind::Triple { min, max } => format!("three of {min}..{max}"),
        };
        let d_new = (k.default)(&DefaultCtx {
            profile: &p,
            loopback: false,
        })
        .render();
        let d_old = (k.default)(&DefaultCtx {
            profile: &old,
            loopback: false,
        })
        .render();
        let default = if d_new == d_old {
            format!("`{d_new}`")
        } else {
            format!("`{d_new}` / `{d_old}`")
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            k.name,
            values,
            default,
            k.since.map(|(a, b)| format!("{a}.{b}")).unwrap_or_default(),
            if k.per_host { "yes" } else { "" },
            k.doc
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names_are_unique() {
        for (i, a) in KEYS.iter().enumerate() {
            for b in &KEYS[i + 1..] {
                assert_ne!(a.name, b.name);
            }
        }
    }

    #[test]
    fn every_default_is_within_its_own_range() {
        for kernel in Kernel::ALL {
            let p = kernel.profile();
            for loopback in [false, true] {
                let ctx = DefaultCtx {
                    profile: &p,
                    loopback,
                };
                for k in KEYS {
                    let v = (k.default)(&ctx);
                    let ok = match (k.kind, &v) {
                        (Kind::Int { min, max }, Value::Int(x)) => (min..=max).contains(x),
                        (Kind::Bool, Value::Int(x)) => *x == 0 || *x == 1,
                        (Kind::Choice(c), Value::Str(s)) => c.contains(&s.as_str()),
                        (Kind::Triple { min, max }, Value::Triple(t)) => {
                            t.iter().all(|x| (min..=max).contains(x))
                        }
                        _ => false,
                    };
                    assert!(ok, "{} default {:?} outside {:?}", k.name, v, k.kind);
                }
            }
        }
    }

    #[test]
    fn a_misspelt_sysctl_suggests_the_real_one() {
        assert_eq!(
            suggest("net.ipv4.tcp_autocork"),
            Some("net.ipv4.tcp_autocorking")
        );
        assert_eq!(
            suggest("tcp_notsent_lowat"),
            Some("net.ipv4.tcp_notsent_lowat")
        );
        assert_eq!(suggest("TCP_NODELY"), Some("TCP_NODELAY"));
        assert_eq!(suggest("completely.unrelated.thing"), None);
    }

    #[test]
    fn autocorking_is_absent_from_3_13() {
        let k = key("net.ipv4.tcp_autocorking").unwrap();
        assert!(!exists_in(k, Kernel::V3_13));
        assert!(exists_in(k, Kernel::V3_14));
    }

    #[test]
    fn the_documented_key_table_is_the_registry() {
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/scenario-format.md"
        ))
        .unwrap();
        let begin =
            doc.find("<!-- keys:begin -->").expect("begin marker") + "<!-- keys:begin -->".len();
        let end = doc.find("<!-- keys:end -->").expect("end marker");
        assert_eq!(
            doc[begin..end].trim(),
            markdown_table().trim(),
            "docs/scenario-format.md is stale: regenerate with `sendpath keys --markdown`"
        );
    }
}
