//! Delivery-rate sampling (`net/ipv4/tcp_rate.c`): on every ACK, how fast the network
//! delivered this flow's packets, measured from the send time of the packet just acked to the
//! ACK. BBR's bandwidth model is built from these samples (`net/ipv4/tcp_bbr.rs`).
//!
//! ```text
//!    send_rate = #pkts_delivered/(last_snd_time - first_snd_time)
//!    ack_rate  = #pkts_delivered/(last_ack_time - first_ack_time)
//!    bw = min(send_rate, ack_rate)
//! ```
//!
//! A sample is application-limited when, at some moment of its window, the write queue had
//! nothing to send (`tcp_rate_check_app_limited`).
//!
//! Follows Linux 6.18.
//!
//! Simplified:
//! - no SACK: an skb is delivered when it is cumulatively acked, never before, because the
//!   engine's receiver sends no SACK blocks; visible effect: none without drops.
//! - `tcp_min_rtt` is the engine's `min_rtt_us` (the smallest RTT of the connection), not the
//!   kernel's 5-minute windowed minimum; visible effect: none in runs shorter than 5 minutes.
//! - no ECN: `delivered_ce` is not counted.

use crate::net::core::sock::{TcpSkbTx, TcpSock};

/// `struct rate_sample` (include/net/tcp.h): one delivery-rate sample, built by
/// `tcp_rate_skb_delivered` for each skb an ACK covers and finished by `tcp_rate_gen`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RateSample {
    /// Starting timestamp of the sampling interval, µs (0 = none).
    pub prior_mstamp: u64,
    /// `tp->delivered` at `prior_mstamp`.
    pub prior_delivered: u32,
    /// Packets delivered over `interval_us` (-1 = invalid).
    pub delivered: i32,
    /// Time for `delivered` to be delivered, µs (-1 = invalid).
    pub interval_us: i64,
    /// The send and the ACK phase of the interval, µs.
    pub snd_interval_us: u32,
    pub rcv_interval_us: u32,
    /// RTT of the last (S)ACKed packet, µs (-1 = none).
    pub rtt_us: i64,
    /// Packets newly marked lost.
    pub losses: i32,
    /// Packets newly (S)ACKed.
    pub acked_sacked: u32,
    /// Packets in flight before this ACK.
    pub prior_in_flight: u32,
    /// `end_seq` of the most recently sent skb of the sample.
    pub last_end_seq: u64,
    /// The sample is application-limited.
    pub is_app_limited: bool,
    /// The sample is from a retransmitted packet.
    pub is_retrans: bool,
    /// The ACK is (likely) a delayed ACK.
    pub is_ack_delayed: bool,
}

impl RateSample {
    /// The sample `tcp_ack` starts with (`struct rate_sample rs = { .prior_delivered = 0 }`,
    /// `rtt_us` -1 until `tcp_ack_update_rtt` sets it).
    pub fn new(prior_in_flight: u32) -> RateSample {
        RateSample {
            rtt_us: -1,
            prior_in_flight,
            ..RateSample::default()
        }
    }
}

/// `tcp_stamp_us_delta`: `t1 - t0` in µs, never negative.
pub fn tcp_stamp_us_delta(t1_us: u64, t0_us: u64) -> i64 {
    t1_us.saturating_sub(t0_us) as i64
}

/// `after(seq1, seq2)` on 32-bit counters.
fn after(seq1: u32, seq2: u32) -> bool {
    (seq2.wrapping_sub(seq1) as i32) < 0
}

/// `tcp_skb_sent_after`: was the skb sent at `t1` (ending at `seq1`) after the one sent at
/// `t2` (ending at `seq2`)? Ties on the timestamp are broken by sequence.
fn tcp_skb_sent_after(t1_us: u64, t2_us: u64, seq1: u64, seq2: u64) -> bool {
    t1_us > t2_us || (t1_us == t2_us && seq1 > seq2)
}

/// `tcp_rate_skb_sent`: snapshot the connection's delivery state in the skb about to leave
/// (write-queue skb `idx`, sent at `tstamp_us`), to compute a rate sample when it is acked.
/// A flight that starts with nothing in flight starts its sampling interval now.
pub fn tcp_rate_skb_sent(tp: &mut TcpSock, idx: usize, tstamp_us: u64) {
    // "In general we need to start delivery rate samples from the time we received the most
    // recent ACK ... If there are no packets in flight yet, then we know that any ACKs after
    // now indicate that the network was able to deliver those packets completely in the
    // sampling interval between now and the next ACK." (packets_out, not in flight: RTO and
    // loss marking must not shorten the interval.)
    if tp.packets_out == 0 {
        tp.first_tx_mstamp = tstamp_us;
        tp.delivered_mstamp = tstamp_us;
    }
    tp.write_queue[idx].tx = TcpSkbTx {
        first_tx_mstamp: tp.first_tx_mstamp,
        delivered_mstamp: tp.delivered_mstamp,
        delivered: tp.delivered,
        is_app_limited: tp.app_limited != 0,
    };
}

/// `tcp_rate_skb_delivered`: an ACK covers this skb (sent at `tstamp_us`): if it is the most
/// recently sent of the ACK's skbs, its send-time snapshot becomes the sample's start. An
/// ACK that covers several skbs (a stretch ACK, a TSO skb) is called once per skb.
pub fn tcp_rate_skb_delivered(
    tp: &mut TcpSock,
    tx: &TcpSkbTx,
    tstamp_us: u64,
    end_seq: u64,
    retrans: bool,
    rs: &mut RateSample,
) {
    if tx.delivered_mstamp == 0 {
        return;
    }
    if rs.prior_delivered == 0
        || tcp_skb_sent_after(tstamp_us, tp.first_tx_mstamp, end_seq, rs.last_end_seq)
    {
        rs.prior_delivered = tx.delivered;
        rs.prior_mstamp = tx.delivered_mstamp;
        rs.is_app_limited = tx.is_app_limited;
        rs.is_retrans = retrans;
        rs.last_end_seq = end_seq;
        // "Record send time of most recently ACKed packet:"
        tp.first_tx_mstamp = tstamp_us;
        // "Find the duration of the "send phase" of this window:"
        rs.interval_us = tcp_stamp_us_delta(tp.first_tx_mstamp, tx.first_tx_mstamp);
    }
}

/// `tcp_rate_gen`: after an ACK delivered `delivered` packets (and marked `lost` lost) at
/// `now_us`, finish the sample: packets delivered since the snapshot over the longer of the
/// send phase and the ACK phase. A sample shorter than min_rtt is invalid (`interval_us` -1).
pub fn tcp_rate_gen(
    tp: &mut TcpSock,
    delivered: u32,
    lost: u32,
    is_sack_reneg: bool,
    rs: &mut RateSample,
    now_us: u64,
) {
    // "Clear app limited if bubble is acked and gone."
    if tp.app_limited != 0 && after(tp.delivered, tp.app_limited) {
        tp.app_limited = 0;
    }
    if delivered != 0 {
        tp.delivered_mstamp = now_us;
    }
    rs.acked_sacked = delivered; // freshly ACKed or SACKed
    rs.losses = lost as i32; // freshly marked lost
                             // "Return an invalid sample if no timing information is available or in recovery from
                             // loss with SACK reneging."
    if rs.prior_mstamp == 0 || is_sack_reneg {
        rs.delivered = -1;
        rs.interval_us = -1;
        return;
    }
    rs.delivered = tp.delivered.wrapping_sub(rs.prior_delivered) as i32;
    // "Model sending data and receiving ACKs as separate pipeline phases for a window.
    // Usually the ACK phase is longer, but with ACK compression the send phase can be longer.
    // To be safe we use the longer phase."
    let snd_us = rs.interval_us;
    let ack_us = tcp_stamp_us_delta(now_us, rs.prior_mstamp);
    rs.interval_us = snd_us.max(ack_us);
    rs.snd_interval_us = snd_us.max(0) as u32;
    rs.rcv_interval_us = ack_us as u32;
    // "Normally we expect interval_us >= min-rtt."
    if rs.interval_us < tp.min_rtt_us as i64 {
        rs.interval_us = -1;
        return;
    }
    // "Record the last non-app-limited or the highest app-limited bw"
    if !rs.is_app_limited
        || rs.delivered as u64 * tp.rate_interval_us as u64
            >= tp.rate_delivered as u64 * rs.interval_us as u64
    {
        tp.rate_delivered = rs.delivered as u32;
        tp.rate_interval_us = rs.interval_us as u32;
        tp.rate_app_limited = rs.is_app_limited;
    }
}

/// `tcp_rate_check_app_limited` (called by `tcp_sendmsg_locked`): if there is a gap in what
/// the application supplies (less than a segment unsent, nothing in the qdisc or NIC, cwnd
/// not full, no loss to repair), mark the flow application-limited until what is in flight
/// now has been delivered.
pub fn tcp_rate_check_app_limited(tp: &mut TcpSock) {
    // SKB_TRUESIZE(1): SKB_DATA_ALIGN(1) + sizeof(struct sk_buff) + sizeof(skb_shared_info).
    const SKB_TRUESIZE_1: u64 = 64 + 256 + 320;
    let in_flight = tp.packets_in_flight();
    if tp.write_seq - tp.snd_nxt < tp.mss_cache as u64 // less than one packet to send
        && tp.sk_wmem_alloc - 1 < SKB_TRUESIZE_1 // nothing in the qdisc or NIC queues
        && in_flight < tp.snd_cwnd // not cwnd-limited
        && tp.lost_out <= tp.retrans_out
    // all lost packets retransmitted
    {
        tp.app_limited = tp.delivered.wrapping_add(in_flight).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testkit::{established, mark_sent, queue_skb};

    const MSS: u32 = 1448;

    #[test]
    fn rate_sample_delivery_rate_is_delivered_over_the_longer_interval() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.min_rtt_us = 10_000;
        tp.delivered = 100;
        tp.app_limited = 0;
        // An skb sent at 1.000 s when the last ACK came at 0.995 s, the flight began 0.999 s.
        tp.delivered_mstamp = 995_000;
        tp.first_tx_mstamp = 999_000;
        let tx = TcpSkbTx {
            first_tx_mstamp: 999_000,
            delivered_mstamp: 995_000,
            delivered: 100,
            is_app_limited: false,
        };
        // Acked at 1.040 s with 20 packets delivered since.
        tp.delivered = 120;
        let mut rs = RateSample::new(20);
        tcp_rate_skb_delivered(tp, &tx, 1_000_000, 5000, false, &mut rs);
        assert_eq!(rs.interval_us, 1000, "send phase: 0.999 s .. 1.000 s");
        tcp_rate_gen(tp, 20, 0, false, &mut rs, 1_040_000);
        // The ACK phase (0.995 s .. 1.040 s) is longer than the send phase.
        assert_eq!(rs.delivered, 20);
        assert_eq!(rs.interval_us, 45_000);
        assert_eq!((rs.snd_interval_us, rs.rcv_interval_us), (1000, 45_000));
        assert_eq!((tp.rate_delivered, tp.rate_interval_us), (20, 45_000));
        assert_eq!(tp.delivered_mstamp, 1_040_000);
    }

    #[test]
    fn rate_sample_shorter_than_min_rtt_is_invalid() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.min_rtt_us = 40_000;
        let tx = TcpSkbTx {
            first_tx_mstamp: 1000,
            delivered_mstamp: 1000,
            delivered: 5,
            is_app_limited: false,
        };
        tp.delivered = 15;
        let mut rs = RateSample::new(10);
        tcp_rate_skb_delivered(tp, &tx, 2000, 100, false, &mut rs);
        tcp_rate_gen(tp, 10, 0, false, &mut rs, 30_000);
        assert_eq!(rs.delivered, 10);
        assert_eq!(rs.interval_us, -1);
    }

    #[test]
    fn a_stretch_ack_takes_its_sample_from_the_most_recently_sent_skb() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        let old = TcpSkbTx {
            first_tx_mstamp: 100,
            delivered_mstamp: 100,
            delivered: 3,
            is_app_limited: true,
        };
        let new = TcpSkbTx {
            delivered: 7,
            is_app_limited: false,
            ..old
        };
        let mut rs = RateSample::new(0);
        tcp_rate_skb_delivered(tp, &old, 500, 1000, false, &mut rs);
        tcp_rate_skb_delivered(tp, &new, 900, 2000, false, &mut rs);
        assert_eq!(rs.prior_delivered, 7);
        assert!(!rs.is_app_limited);
        assert_eq!(rs.interval_us, 800);
        assert_eq!(tp.first_tx_mstamp, 900);
    }

    #[test]
    fn the_first_skb_of_a_flight_starts_the_sampling_interval_at_its_send_time() {
        let mut w = established("6.18", "");
        queue_skb(&mut w, 0, MSS);
        let tp = &mut w.socks[0];
        assert_eq!(tp.packets_out, 0);
        tp.delivered = 4;
        tp.app_limited = 0;
        tcp_rate_skb_sent(tp, 0, 7_000);
        assert_eq!((tp.first_tx_mstamp, tp.delivered_mstamp), (7_000, 7_000));
        let tx = tp.write_queue[0].tx;
        assert_eq!(
            (tx.first_tx_mstamp, tx.delivered, tx.is_app_limited),
            (7_000, 4, false)
        );
        mark_sent(&mut w, 0, 7_000_000, false);
        // A second skb while the first is in flight keeps the flight's start.
        queue_skb(&mut w, 0, MSS);
        let tp = &mut w.socks[0];
        tcp_rate_skb_sent(tp, 0, 8_000);
        assert_eq!(tp.write_queue[0].tx.first_tx_mstamp, 7_000);
    }

    #[test]
    fn a_sender_with_nothing_queued_is_app_limited_until_its_flight_is_delivered() {
        let mut w = established("6.18", "");
        let tp = &mut w.socks[0];
        tp.delivered = 50;
        tp.app_limited = 0;
        tcp_rate_check_app_limited(tp);
        assert_eq!(tp.app_limited, 50, "delivered + in flight (0)");
        let mut rs = RateSample::new(0);
        tp.delivered = 50;
        tcp_rate_gen(tp, 0, 0, false, &mut rs, 1);
        assert_eq!(tp.app_limited, 50, "not yet past the bubble");
        tp.delivered = 51;
        tcp_rate_gen(tp, 1, 0, false, &mut rs, 2);
        assert_eq!(tp.app_limited, 0);
    }
}
