//! Kernel profiles: the defaults and the behaviours that changed between Linux versions.
//!
//! A scenario names a kernel (`kernel = "3.18"`); the profile sets every sysctl's default for
//! that version, says which sysctls exist, and switches the code paths that changed. Each switch
//! names the commit that changed it. The version list is the one the source documents measured
//! on, plus today's kernel.

use std::fmt;

/// A modelled kernel version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kernel {
    /// 3.13: TSQ with a dynamic limit, TSO autosizing at sendmsg time, no autocorking.
    V3_13,
    /// 3.14 .. 3.18: autocorking (f54b3111); autosizing still at sendmsg time.
    V3_14,
    V3_18,
    /// 3.19: TSO autosizing moved to xmit time (605ad7f1).
    V3_19,
    /// 4.4: the kernel of the Nagle/delayed-ACK article (Ubuntu 16.04).
    V4_4,
    /// 6.18: today's defaults (the development machines run it).
    V6_18,
}

impl Kernel {
    pub const ALL: [Kernel; 6] = [
        Kernel::V3_13,
        Kernel::V3_14,
        Kernel::V3_18,
        Kernel::V3_19,
        Kernel::V4_4,
        Kernel::V6_18,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kernel::V3_13 => "3.13",
            Kernel::V3_14 => "3.14",
            Kernel::V3_18 => "3.18",
            Kernel::V3_19 => "3.19",
            Kernel::V4_4 => "4.4",
            Kernel::V6_18 => "6.18",
        }
    }

    pub fn parse(s: &str) -> Option<Kernel> {
        Kernel::ALL.iter().copied().find(|k| k.name() == s)
    }

    /// (major, minor), for "since" comparisons.
    pub fn version(self) -> (u32, u32) {
        match self {
            Kernel::V3_13 => (3, 13),
            Kernel::V3_14 => (3, 14),
            Kernel::V3_18 => (3, 18),
            Kernel::V3_19 => (3, 19),
            Kernel::V4_4 => (4, 4),
            Kernel::V6_18 => (6, 18),
        }
    }

    pub fn at_least(self, major: u32, minor: u32) -> bool {
        self.version() >= (major, minor)
    }

    pub fn profile(self) -> Profile {
        Profile::of(self)
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where TSO packet sizes are decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsoSizing {
    /// 3.12 .. 3.18 (95bd09eb27): `tcp_xmit_size_goal` sizes skbs at sendmsg time from
    /// `sk_pacing_rate / 2000` (about 1 ms at twice the rate), at least `tcp_min_tso_segs`.
    AtSendmsg,
    /// 3.19 .. 5.17 (605ad7f1): skbs are filled to ~64 KB; `tcp_tso_autosize` splits them at
    /// xmit time from `sk_pacing_rate >> sk_pacing_shift`.
    AtXmit,
    /// 5.18+ (65466904b015): as `AtXmit`, plus an allowance of `sk_gso_max_size >>
    /// (min_rtt_us >> tcp_tso_rtt_log)`.
    AtXmitRtt,
}

/// How `tcp_small_queue_check` limits bytes below TCP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsqRule {
    /// 3.13 .. 4.19: `min(max(2 * truesize, pacing_rate >> 10), tcp_limit_output_bytes)`,
    /// checked before the split in 3.13 .. 3.18 and after it from 3.19 (605ad7f1).
    Classic,
    /// 4.20 .. 6.15 (c73e5807e4f6): paced flows (fq or internal pacing) are exempt from the
    /// sysctl; never throttle when the rtx queue is empty or holds one skb (4.10 75eefc6c59fd,
    /// restored in 6.6 f921a4a5bffa).
    PacedExempt,
    /// 6.16+ (c4221a8cc3a7): the sysctl applies to every flow again.
    AlwaysLimit,
}

/// Pingpong (interactive) detection on the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PingpongRule {
    /// ≤ 5.0: a boolean set when data is sent within `ato` of the last receive
    /// (`tcp_event_data_sent`).
    Boolean,
    /// 6.6+: a counter, incremented on every send within `ato` of the last receive;
    /// interactive when it reaches `net.ipv4.tcp_pingpong_thresh` (default 1).
    Counter,
}

/// Everything a kernel version decides that is not a sysctl value.
#[derive(Clone, Debug)]
pub struct Profile {
    pub kernel: Kernel,
    /// Default `CONFIG_HZ` of the machines the source documents measured on (the engine lets a
    /// scenario change it with `sim.hz`).
    pub default_hz: u32,
    pub tso_sizing: TsoSizing,
    pub tsq: TsqRule,
    /// 3.19+: TSQ is checked after `tcp_mss_split_point`/`tso_fragment` (605ad7f1: "TCP Small
    /// Queue decision now has to take place after the eventual split"); before, on the unsplit
    /// skb ahead of the cwnd test.
    pub tsq_after_split: bool,
    /// 4.10+ (75eefc6c59fd; lost in 4.15, restored in 6.6 f921a4a5bffa): never throttle when the
    /// rtx queue is empty or holds a single skb.
    pub tsq_single_skb_shortcut: bool,
    /// 3.14+: `tcp_push` may autocork.
    pub autocorking: bool,
    /// 4.1+ (43e122b014c9): pacing rate uses `tcp_pacing_ss_ratio` / `tcp_pacing_ca_ratio`;
    /// before, it was always 200% of cwnd*mss/srtt.
    pub pacing_ratios: bool,
    /// 4.20+ EDT model: TCP stamps each skb with its departure time (`tcp_wstamp_ns`).
    pub edt: bool,
    /// 4.13+ internal TCP pacing when the qdisc does not pace (`SK_PACING_NEEDED`). Only used
    /// when the socket asks for pacing (BBR or SO_MAX_PACING_RATE), which the modelled CCs
    /// (CUBIC, Reno) do not.
    pub internal_pacing: bool,
    pub pingpong: PingpongRule,
    /// 6.6+ (059217c18be6): quick-ACK credits are consumed by ACKs actually sent, not by the
    /// number of data packets in the outgoing skb.
    pub quickack_counts_acks: bool,
    /// 6.6+: a full-sized segment with PSH sets `ICSK_ACK_PUSHED` (end of a write).
    pub psh_full_segment_pushed: bool,
    /// 4.7+ (051ba67447de): `__tcp_transmit_skb` sets PSH on every TSO packet to flush GRO.
    pub psh_every_tso_packet: bool,
    /// 6.10+ (8ee602c63520, "tcp: try to send bigger TSO packets"): `tcp_write_xmit` grows a
    /// head skb smaller than the packet it may send with payload from the next one
    /// (`tcp_grow_skb`).
    pub grow_skb: bool,
    /// 6.3+ (bf9f1baa279f): header-only skbs (`alloc_skb_fclone(MAX_TCP_HEADER)`) take their
    /// head from `skb_small_head_cache`; before, from kmalloc's power-of-two slabs. See
    /// [`Profile::skb_alloc_truesize`].
    pub small_head_cache: bool,
    /// Payload bytes that fit in the head before page frags are used (they do not grow
    /// truesize): 3.x/4.4 `SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)` = 2048 - 304 - 320 = 1424;
    /// 6.x: 0 (payload always in page frags).
    pub skb_linear_payload: u32,
    /// `MAX_HEADER` of the kernel build (`include/linux/netdevice.h`): `LL_MAX_HEADER` (32; 96
    /// with CONFIG_WLAN; 128 with CONFIG_HYPERV_NET or CONFIG_MAC80211_MESH), plus 48 when an IP
    /// tunnel is built (CONFIG_NET_IPIP, CONFIG_NET_IPGRE, CONFIG_IPV6_SIT,
    /// CONFIG_IPV6_TUNNEL). Distribution kernels: 176. Key `kernel.max_header`.
    pub max_header: u32,
    /// `MAX_TCP_HEADER` = `128 + MAX_HEADER`, `L1_CACHE_ALIGN`ed on the 6.x profile: 304 on the
    /// 3.x/4.4 profiles and 320 on 6.18 with a distribution kernel's `MAX_HEADER`, 192 with a
    /// minimal build's (32). Set through [`Profile::set_max_header`].
    pub max_tcp_header: u32,
    /// `tcp_limit_output_bytes` default.
    pub tcp_limit_output_bytes: u64,
    /// `tcp_rmem` default.
    pub tcp_rmem: [u64; 3],
    /// IpOutRequests is counted per skb in `__ip_local_out` (6.3+) or in `ip_output` together
    /// with the octets (before): same number for TCP, kept for the record.
    pub ip_out_requests_in_local_out: bool,
}

/// `MAX_HEADER` of a distribution kernel (`LL_MAX_HEADER` 128 for CONFIG_HYPERV_NET or mesh
/// Wi-Fi, + 48 for IP tunnels): the default of `kernel.max_header`.
pub const DISTRO_MAX_HEADER: u32 = 176;

/// `MAX_TCP_HEADER` (`include/net/tcp.h`): `L1_CACHE_ALIGN(128 + MAX_HEADER)` on the 6.x
/// profile (64-byte lines), `128 + MAX_HEADER` on the older ones.
fn max_tcp_header(aligned: bool, max_header: u32) -> u32 {
    let raw = 128 + max_header;
    if aligned {
        raw.div_ceil(64) * 64
    } else {
        raw
    }
}

impl Profile {
    /// `kernel.max_header`: the build's `MAX_HEADER`, and `MAX_TCP_HEADER` from it.
    pub fn set_max_header(&mut self, max_header: u32) {
        self.max_header = max_header;
        self.max_tcp_header = max_tcp_header(self.kernel >= Kernel::V6_18, max_header);
    }

    pub fn of(kernel: Kernel) -> Profile {
        use Kernel::*;
        let modern = kernel >= V6_18;
        Profile {
            kernel,
            // Google's test machines (lpq83/lpq84, 2013) ran HZ=1000; Ubuntu 16.04's 4.4 and
            // Debian's 6.x use HZ=250.
            default_hz: if kernel >= V4_4 { 250 } else { 1000 },
            tso_sizing: match kernel {
                V3_13 | V3_14 | V3_18 => TsoSizing::AtSendmsg,
                V3_19 | V4_4 => TsoSizing::AtXmit,
                V6_18 => TsoSizing::AtXmitRtt,
            },
            tsq: match kernel {
                V6_18 => TsqRule::AlwaysLimit,
                _ => TsqRule::Classic,
            },
            tsq_after_split: kernel >= V3_19,
            tsq_single_skb_shortcut: modern,
            autocorking: kernel >= V3_14,
            pacing_ratios: kernel >= V4_4,
            edt: modern,
            internal_pacing: modern,
            pingpong: if modern {
                PingpongRule::Counter
            } else {
                PingpongRule::Boolean
            },
            quickack_counts_acks: modern,
            psh_full_segment_pushed: modern,
            psh_every_tso_packet: modern,
            small_head_cache: modern,
            grow_skb: modern,
            skb_linear_payload: if modern { 0 } else { 1424 },
            max_header: DISTRO_MAX_HEADER,
            max_tcp_header: max_tcp_header(modern, DISTRO_MAX_HEADER),
            tcp_limit_output_bytes: match kernel {
                V3_13 | V3_14 | V3_18 | V3_19 => 131_072,
                V4_4 => 262_144,
                V6_18 => 4_194_304,
            },
            tcp_rmem: if modern {
                [4096, 131_072, 33_554_432]
            } else {
                [4096, 87_380, 6_291_456]
            },
            ip_out_requests_in_local_out: modern,
        }
    }

    /// `SKB_TRUESIZE(X)` overhead: `sizeof(struct sk_buff)` and `skb_shared_info` aligned.
    pub fn skb_truesize_overhead(&self) -> u32 {
        256 + 320
    }
}

/// A code path that changed between kernel versions: the [`Profile`] field that switches it,
/// the commit that changed it, what it decides, its value under a profile, and the event kind
/// or counter a run shows when the path was taken (`sendpath diff` reports whether it fired).
pub struct Switch {
    pub name: &'static str,
    pub commit: &'static str,
    pub what: &'static str,
    pub value: fn(&Profile) -> String,
    /// What shows the path was taken: `kind:NAME` (events of that kind), `hold:GATE` (skbs
    /// held at that gate), `counter:NAME` (an nstat counter), or "" when no event shows it.
    pub evidence: &'static str,
}

/// Every switch of [`Profile`], in the order `sendpath diff` lists them.
pub static SWITCHES: &[Switch] = &[
    Switch {
        name: "autocorking",
        commit: "f54b311142a9 (3.14)",
        what: "tcp_push may autocork a small tail skb while packets are below TCP",
        value: |p| p.autocorking.to_string(),
        evidence: "counter:TcpExtTCPAutoCorking",
    },
    Switch {
        name: "tso_sizing",
        commit: "605ad7f184b6 (3.19), 65466904b015 (5.18)",
        what: "where TSO packet sizes are decided: at sendmsg, or by tcp_tso_autosize at xmit (and its RTT allowance)",
        value: |p| format!("{:?}", p.tso_sizing),
        evidence: "kind:fragment",
    },
    Switch {
        name: "tsq",
        commit: "c73e5807e4f6 (4.20), c4221a8cc3a7 (6.16)",
        what: "tcp_small_queue_check's limit: classic, paced flows exempt from the sysctl, or always the sysctl",
        value: |p| format!("{:?}", p.tsq),
        evidence: "hold:tsq",
    },
    Switch {
        name: "tsq_after_split",
        commit: "605ad7f184b6 (3.19)",
        what: "TSQ is checked after tso_fragment (before: on the unsplit skb ahead of the cwnd test)",
        value: |p| p.tsq_after_split.to_string(),
        evidence: "hold:tsq",
    },
    Switch {
        name: "tsq_single_skb_shortcut",
        commit: "75eefc6c59fd (4.10), f921a4a5bffa (6.6)",
        what: "never throttle when the retransmit queue is empty or holds one skb",
        value: |p| p.tsq_single_skb_shortcut.to_string(),
        evidence: "",
    },
    Switch {
        name: "pacing_ratios",
        commit: "43e122b014c9 (4.1)",
        what: "pacing rate from tcp_pacing_ss_ratio / tcp_pacing_ca_ratio (before: always 200 %)",
        value: |p| p.pacing_ratios.to_string(),
        evidence: "",
    },
    Switch {
        name: "edt",
        commit: "ab408b6dc744 (4.20)",
        what: "earliest departure time: TCP stamps each skb with tcp_wstamp_ns",
        value: |p| p.edt.to_string(),
        evidence: "hold:pacing",
    },
    Switch {
        name: "internal_pacing",
        commit: "218af599fa63 (4.13)",
        what: "TCP paces itself when the qdisc does not (SK_PACING_NEEDED)",
        value: |p| p.internal_pacing.to_string(),
        evidence: "hold:pacing",
    },
    Switch {
        name: "pingpong",
        commit: "4a41f453bedf (5.1, a counter to 3; reverted to 1 by 4d8f24eeedc5 in 5.19); tcp_pingpong_thresh (6.6)",
        what: "interactive (pingpong) detection on the receiver: a boolean, or a counter against tcp_pingpong_thresh",
        value: |p| format!("{:?}", p.pingpong),
        evidence: "pingpong_delacks",
    },
    Switch {
        name: "quickack_counts_acks",
        commit: "059217c18be6 (6.6)",
        what: "quick-ACK credits are spent per ACK sent, not per data packet in the outgoing skb",
        value: |p| p.quickack_counts_acks.to_string(),
        evidence: "ack:quickack mode",
    },
    Switch {
        name: "psh_every_tso_packet",
        commit: "051ba67447de (4.7)",
        what: "__tcp_transmit_skb sets PSH on every TSO packet to flush GRO",
        value: |p| p.psh_every_tso_packet.to_string(),
        evidence: "kind:gro",
    },
    Switch {
        name: "grow_skb",
        commit: "8ee602c63520 (6.10)",
        what: "tcp_write_xmit moves payload from the next skb into a head skb smaller than the packet it may send (tcp_grow_skb), so a split's leftover does not leave as a small packet of its own",
        value: |p| p.grow_skb.to_string(),
        evidence: "kind:fragment",
    },
    Switch {
        name: "skb_head_truesize",
        commit: "bf9f1baa279f (6.3, small skb->head cache)",
        what: "truesize of a fresh data skb's head: 2304 B (3.x/4.4) or, from the small head cache, 960 B (6.18 with a distribution kernel's MAX_HEADER; 832 B with a minimal build's)",
        value: |p| p.skb_alloc_truesize(p.skb_linear_payload).to_string(),
        evidence: "kind:sendmsg_copy",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_names_round_trip() {
        for k in Kernel::ALL {
            assert_eq!(Kernel::parse(k.name()), Some(k));
        }
        assert_eq!(Kernel::parse("5.10"), None);
    }

    #[test]
    fn autosizing_moves_to_xmit_time_in_3_19() {
        assert_eq!(Kernel::V3_18.profile().tso_sizing, TsoSizing::AtSendmsg);
        assert_eq!(Kernel::V3_19.profile().tso_sizing, TsoSizing::AtXmit);
    }

    #[test]
    fn autocorking_exists_from_3_14() {
        assert!(!Kernel::V3_13.profile().autocorking);
        assert!(Kernel::V3_14.profile().autocorking);
    }
}
