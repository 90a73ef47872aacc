//! SNMP counters under the names `nstat` prints (`/proc/net/snmp`, `/proc/net/netstat`).
//!
//! Follows: `include/uapi/linux/snmp.h` and `net/ipv4/proc.c` (Linux 6.18). Only counters the
//! modelled paths increment are listed; each is incremented where the kernel increments it
//! (the call site is named at each `add`).

/// The counters, in the order `nstat` prints them (`/proc/net/snmp` then `netstat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(usize)]
pub enum Mib {
    IpInReceives,
    IpInDelivers,
    IpOutRequests,
    /// 6.3+ (b4a11b2033b7): packets leaving `ip_finish_output2`.
    IpOutTransmits,
    TcpActiveOpens,
    TcpPassiveOpens,
    TcpInSegs,
    TcpOutSegs,
    TcpRetransSegs,
    TcpExtDelayedACKs,
    TcpExtDelayedACKLocked,
    TcpExtDelayedACKLost,
    TcpExtTCPHPHits,
    TcpExtTCPPureAcks,
    TcpExtTCPHPAcks,
    TcpExtTCPTimeouts,
    TcpExtTCPLossProbes,
    TcpExtTCPLossProbeRecovery,
    TcpExtTCPLostRetransmit,
    /// A retransmission the local transmit refused (`tcp_retransmit_skb`: a qdisc drop).
    TcpExtTCPRetransFail,
    TcpExtTCPRenoRecovery,
    TcpExtTCPSackRecovery,
    TcpExtTCPSACKReorder,
    TcpExtTCPRenoReorder,
    TcpExtTCPRenoFailures,
    TcpExtTCPSackFailures,
    TcpExtTCPLossFailures,
    TcpExtTCPFastRetrans,
    TcpExtTCPSlowStartRetrans,
    TcpExtTCPDSACKRecv,
    TcpExtTCPDSACKOldSent,
    TcpExtTCPDSACKOfoSent,
    TcpExtTCPDSACKUndo,
    TcpExtTCPLossUndo,
    TcpExtTCPFullUndo,
    TcpExtTCPSACKReneging,
    TcpExtTCPOFOQueue,
    TcpExtTCPRenoRecoveryFail,
    TcpExtTCPSackRecoveryFail,
    /// F-RTO found an RTO spurious (`tcp_try_undo_loss(sk, true)`).
    TcpExtTCPSpuriousRTOs,
    TcpExtTCPSpuriousRtxHostQueues,
    TcpExtTCPAutoCorking,
    TcpExtTCPWantZeroWindowAdv,
    TcpExtTCPToZeroWindowAdv,
    TcpExtTCPFromZeroWindowAdv,
    TcpExtTCPOrigDataSent,
    TcpExtTCPHystartTrainDetect,
    TcpExtTCPHystartTrainCwnd,
    TcpExtTCPHystartDelayDetect,
    TcpExtTCPHystartDelayCwnd,
    TcpExtTCPWinProbe,
    TcpExtTCPDelivered,
    IpExtInOctets,
    IpExtOutOctets,
}

pub const MIB_COUNT: usize = Mib::IpExtOutOctets as usize + 1;

impl Mib {
    pub const ALL: [Mib; MIB_COUNT] = [
        Mib::IpInReceives,
        Mib::IpInDelivers,
        Mib::IpOutRequests,
        Mib::IpOutTransmits,
        Mib::TcpActiveOpens,
        Mib::TcpPassiveOpens,
        Mib::TcpInSegs,
        Mib::TcpOutSegs,
        Mib::TcpRetransSegs,
        Mib::TcpExtDelayedACKs,
        Mib::TcpExtDelayedACKLocked,
        Mib::TcpExtDelayedACKLost,
        Mib::TcpExtTCPHPHits,
        Mib::TcpExtTCPPureAcks,
        Mib::TcpExtTCPHPAcks,
        Mib::TcpExtTCPTimeouts,
        Mib::TcpExtTCPLossProbes,
        Mib::TcpExtTCPLossProbeRecovery,
        Mib::TcpExtTCPLostRetransmit,
        Mib::TcpExtTCPRetransFail,
        Mib::TcpExtTCPRenoRecovery,
        Mib::TcpExtTCPSackRecovery,
        Mib::TcpExtTCPSACKReorder,
        Mib::TcpExtTCPRenoReorder,
        Mib::TcpExtTCPRenoFailures,
        Mib::TcpExtTCPSackFailures,
        Mib::TcpExtTCPLossFailures,
        Mib::TcpExtTCPFastRetrans,
        Mib::TcpExtTCPSlowStartRetrans,
        Mib::TcpExtTCPDSACKRecv,
        Mib::TcpExtTCPDSACKOldSent,
        Mib::TcpExtTCPDSACKOfoSent,
        Mib::TcpExtTCPDSACKUndo,
        Mib::TcpExtTCPLossUndo,
        Mib::TcpExtTCPFullUndo,
        Mib::TcpExtTCPSACKReneging,
        Mib::TcpExtTCPOFOQueue,
        Mib::TcpExtTCPRenoRecoveryFail,
        Mib::TcpExtTCPSackRecoveryFail,
        Mib::TcpExtTCPSpuriousRTOs,
        Mib::TcpExtTCPSpuriousRtxHostQueues,
        Mib::TcpExtTCPAutoCorking,
        Mib::TcpExtTCPWantZeroWindowAdv,
        Mib::TcpExtTCPToZeroWindowAdv,
        Mib::TcpExtTCPFromZeroWindowAdv,
        Mib::TcpExtTCPOrigDataSent,
        Mib::TcpExtTCPHystartTrainDetect,
        Mib::TcpExtTCPHystartTrainCwnd,
        Mib::TcpExtTCPHystartDelayDetect,
        Mib::TcpExtTCPHystartDelayCwnd,
        Mib::TcpExtTCPWinProbe,
        Mib::TcpExtTCPDelivered,
        Mib::IpExtInOctets,
        Mib::IpExtOutOctets,
    ];

    /// The name `nstat` prints.
    pub fn name(self) -> &'static str {
        match self {
            Mib::IpInReceives => "IpInReceives",
            Mib::IpInDelivers => "IpInDelivers",
            Mib::IpOutRequests => "IpOutRequests",
            Mib::IpOutTransmits => "IpOutTransmits",
            Mib::TcpActiveOpens => "TcpActiveOpens",
            Mib::TcpPassiveOpens => "TcpPassiveOpens",
            Mib::TcpInSegs => "TcpInSegs",
            Mib::TcpOutSegs => "TcpOutSegs",
            Mib::TcpRetransSegs => "TcpRetransSegs",
            Mib::TcpExtDelayedACKs => "TcpExtDelayedACKs",
            Mib::TcpExtDelayedACKLocked => "TcpExtDelayedACKLocked",
            Mib::TcpExtDelayedACKLost => "TcpExtDelayedACKLost",
            Mib::TcpExtTCPHPHits => "TcpExtTCPHPHits",
            Mib::TcpExtTCPPureAcks => "TcpExtTCPPureAcks",
            Mib::TcpExtTCPHPAcks => "TcpExtTCPHPAcks",
            Mib::TcpExtTCPTimeouts => "TcpExtTCPTimeouts",
            Mib::TcpExtTCPLossProbes => "TcpExtTCPLossProbes",
            Mib::TcpExtTCPLossProbeRecovery => "TcpExtTCPLossProbeRecovery",
            Mib::TcpExtTCPLostRetransmit => "TcpExtTCPLostRetransmit",
            Mib::TcpExtTCPRetransFail => "TcpExtTCPRetransFail",
            Mib::TcpExtTCPRenoRecovery => "TcpExtTCPRenoRecovery",
            Mib::TcpExtTCPSackRecovery => "TcpExtTCPSackRecovery",
            Mib::TcpExtTCPSACKReorder => "TcpExtTCPSACKReorder",
            Mib::TcpExtTCPRenoReorder => "TcpExtTCPRenoReorder",
            Mib::TcpExtTCPRenoFailures => "TcpExtTCPRenoFailures",
            Mib::TcpExtTCPSackFailures => "TcpExtTCPSackFailures",
            Mib::TcpExtTCPLossFailures => "TcpExtTCPLossFailures",
            Mib::TcpExtTCPFastRetrans => "TcpExtTCPFastRetrans",
            Mib::TcpExtTCPSlowStartRetrans => "TcpExtTCPSlowStartRetrans",
            Mib::TcpExtTCPDSACKRecv => "TcpExtTCPDSACKRecv",
            Mib::TcpExtTCPDSACKOldSent => "TcpExtTCPDSACKOldSent",
            Mib::TcpExtTCPDSACKOfoSent => "TcpExtTCPDSACKOfoSent",
            Mib::TcpExtTCPDSACKUndo => "TcpExtTCPDSACKUndo",
            Mib::TcpExtTCPLossUndo => "TcpExtTCPLossUndo",
            Mib::TcpExtTCPFullUndo => "TcpExtTCPFullUndo",
            Mib::TcpExtTCPSACKReneging => "TcpExtTCPSACKReneging",
            Mib::TcpExtTCPOFOQueue => "TcpExtTCPOFOQueue",
            Mib::TcpExtTCPRenoRecoveryFail => "TcpExtTCPRenoRecoveryFail",
            Mib::TcpExtTCPSackRecoveryFail => "TcpExtTCPSackRecoveryFail",
            Mib::TcpExtTCPSpuriousRTOs => "TcpExtTCPSpuriousRTOs",
            Mib::TcpExtTCPSpuriousRtxHostQueues => "TcpExtTCPSpuriousRtxHostQueues",
            Mib::TcpExtTCPAutoCorking => "TcpExtTCPAutoCorking",
            Mib::TcpExtTCPWantZeroWindowAdv => "TcpExtTCPWantZeroWindowAdv",
            Mib::TcpExtTCPToZeroWindowAdv => "TcpExtTCPToZeroWindowAdv",
            Mib::TcpExtTCPFromZeroWindowAdv => "TcpExtTCPFromZeroWindowAdv",
            Mib::TcpExtTCPOrigDataSent => "TcpExtTCPOrigDataSent",
            Mib::TcpExtTCPHystartTrainDetect => "TcpExtTCPHystartTrainDetect",
            Mib::TcpExtTCPHystartTrainCwnd => "TcpExtTCPHystartTrainCwnd",
            Mib::TcpExtTCPHystartDelayDetect => "TcpExtTCPHystartDelayDetect",
            Mib::TcpExtTCPHystartDelayCwnd => "TcpExtTCPHystartDelayCwnd",
            Mib::TcpExtTCPWinProbe => "TcpExtTCPWinProbe",
            Mib::TcpExtTCPDelivered => "TcpExtTCPDelivered",
            Mib::IpExtInOctets => "IpExtInOctets",
            Mib::IpExtOutOctets => "IpExtOutOctets",
        }
    }
}

/// One host's counters.
#[derive(Clone, Debug)]
pub struct Mibs([u64; MIB_COUNT]);

impl Default for Mibs {
    fn default() -> Self {
        Mibs([0; MIB_COUNT])
    }
}

impl Mibs {
    #[inline]
    pub fn add(&mut self, m: Mib, n: u64) {
        self.0[m as usize] += n;
    }

    #[inline]
    pub fn inc(&mut self, m: Mib) {
        self.0[m as usize] += 1;
    }

    pub fn get(&self, m: Mib) -> u64 {
        self.0[m as usize]
    }

    /// Non-zero counters in `nstat` order, as `(name, value)`.
    pub fn nonzero(&self) -> Vec<(&'static str, u64)> {
        Mib::ALL
            .iter()
            .filter(|m| self.get(**m) != 0)
            .map(|m| (m.name(), self.get(*m)))
            .collect()
    }

    /// The `nstat -a` text layout: `#kernel` then `%-32s%-16llu%6.1f` lines.
    pub fn nstat_text(&self) -> String {
        let mut s = String::from("#kernel\n");
        for (name, v) in self.nonzero() {
            s.push_str(&format!("{name:<32}{v:<16}{:6.1}\n", 0.0));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_all_table_lists_every_counter_in_order() {
        for (i, m) in Mib::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i);
        }
    }

    #[test]
    fn nstat_text_uses_nstats_column_layout() {
        let mut m = Mibs::default();
        m.add(Mib::TcpExtTCPAutoCorking, 77);
        assert_eq!(
            m.nstat_text(),
            "#kernel\nTcpExtTCPAutoCorking            77                 0.0\n"
        );
    }
}
