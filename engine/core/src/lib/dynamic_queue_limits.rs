//! Byte Queue Limits: the dynamic queue limit (`struct dql`) of one TX queue.
//!
//! Follows: `lib/dynamic_queue_limits.c` and `include/linux/dynamic_queue_limits.h` (Linux 6.18;
//! the algorithm is Tom Herbert's from 3.3, with `AFTER_EQ` for `all_prev_completed`), and the
//! callers in `include/linux/netdevice.h` (`netdev_tx_sent_queue`, `netdev_tx_completed_queue`,
//! which live in `dev.rs`).
//!
//! The driver reports bytes it posted to the ring (`dql_queued`) and bytes the NIC completed
//! (`dql_completed`, once per NAPI poll). BQL lets the stack put at most `limit` bytes in flight
//! in the ring; it grows `limit` when the queue ran dry while limited (starvation) and shrinks it
//! by the smallest slack seen over `slack_hold_time` when the queue stayed busy.
//!
//! Counters are `unsigned int` in the kernel and wrap: the arithmetic below uses `u32` with
//! wrapping operations, `POSDIFF` and `AFTER_EQ` exactly as the C macros do.
//!
//! Simplified:
//! - time is passed in as `jiffies` rather than read from a global, because the model is
//!   sans-IO; visible effect: none.
//! - the 6.9+ stall detector (`dql_check_stall`, `stall_thrs`, `stall_cnt`) is not modelled,
//!   because it only reports (a tracepoint and sysfs counters) and never changes the limit;
//!   visible effect: no `stall_cnt` in the NIC statistics.

/// `DQL_MAX_OBJECT`: the largest count one `dql_queued` may record.
pub const DQL_MAX_OBJECT: u32 = u32::MAX / 16;
/// `DQL_MAX_LIMIT`: default `max_limit` (sysfs `limit_max`).
pub const DQL_MAX_LIMIT: u32 = (u32::MAX / 2) - DQL_MAX_OBJECT;

/// `POSDIFF(A, B)`: `A - B` if positive as a signed 32-bit difference, else 0.
#[inline]
fn posdiff(a: u32, b: u32) -> u32 {
    let d = a.wrapping_sub(b);
    if (d as i32) > 0 {
        d
    } else {
        0
    }
}

/// `AFTER_EQ(A, B)`: `A` is at or after `B` in wrapping 32-bit order.
#[inline]
fn after_eq(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) >= 0
}

/// `time_after(a, b)` on jiffies.
#[inline]
fn time_after(a: u64, b: u64) -> bool {
    (b.wrapping_sub(a) as i64) < 0
}

/// `struct dql`, field for field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dql {
    /// Total bytes ever queued.
    pub num_queued: u32,
    /// `limit + num_completed`: `dql_avail` is `adj_limit - num_queued`.
    pub adj_limit: u32,
    /// Count of the last `dql_queued`.
    pub last_obj_cnt: u32,
    /// The current limit (sysfs `byte_queue_limits/limit`).
    pub limit: u32,
    /// Total bytes ever completed.
    pub num_completed: u32,
    pub prev_ovlimit: u32,
    pub prev_num_queued: u32,
    pub prev_last_obj_cnt: u32,
    pub lowest_slack: u32,
    /// Jiffies when the slack measurement window started.
    pub slack_start_time: u64,
    /// sysfs `limit_max`.
    pub max_limit: u32,
    /// sysfs `limit_min`.
    pub min_limit: u32,
    /// sysfs `hold_time`, in jiffies (`dql_init(&txq->dql, HZ)`: one second).
    pub slack_hold_time: u64,
}

impl Dql {
    /// `dql_init(dql, hold_time)`: `max_limit = DQL_MAX_LIMIT`, `min_limit = 0`, then
    /// `dql_reset`. `netdev_init_one_queue` passes `HZ`, so the hold time is one second.
    pub fn dql_init(hold_time_jiffies: u64, now_jiffies: u64) -> Dql {
        let mut d = Dql {
            num_queued: 0,
            adj_limit: 0,
            last_obj_cnt: 0,
            limit: 0,
            num_completed: 0,
            prev_ovlimit: 0,
            prev_num_queued: 0,
            prev_last_obj_cnt: 0,
            lowest_slack: u32::MAX,
            slack_start_time: now_jiffies,
            max_limit: DQL_MAX_LIMIT,
            min_limit: 0,
            slack_hold_time: hold_time_jiffies,
        };
        d.dql_reset(now_jiffies);
        d
    }

    /// `dql_reset`: zero every dynamic value; the limit starts at 0, so the first packet
    /// already puts the queue over its limit and the first completion grows it.
    pub fn dql_reset(&mut self, now_jiffies: u64) {
        self.limit = 0;
        self.num_queued = 0;
        self.num_completed = 0;
        self.last_obj_cnt = 0;
        self.prev_num_queued = 0;
        self.prev_last_obj_cnt = 0;
        self.prev_ovlimit = 0;
        self.lowest_slack = u32::MAX;
        self.slack_start_time = now_jiffies;
        // dql_reset leaves adj_limit alone in the kernel; after init it is 0 (kzalloc).
        self.adj_limit = self.limit.wrapping_add(self.num_completed);
    }

    /// `dql_queued`: the driver posted `count` bytes. Callers check `dql_avail` afterwards
    /// (`netdev_tx_sent_queue`).
    #[inline]
    pub fn dql_queued(&mut self, count: u32) {
        // BUG_ON(count > DQL_MAX_OBJECT)
        assert!(
            count <= DQL_MAX_OBJECT,
            "dql_queued: {count} > DQL_MAX_OBJECT"
        );
        self.last_obj_cnt = count;
        self.num_queued = self.num_queued.wrapping_add(count);
    }

    /// `dql_avail`: bytes that may still be queued; negative means over the limit.
    #[inline]
    pub fn dql_avail(&self) -> i32 {
        self.adj_limit.wrapping_sub(self.num_queued) as i32
    }

    /// Bytes posted and not yet completed (sysfs `byte_queue_limits/inflight`).
    #[inline]
    pub fn inflight(&self) -> u32 {
        self.num_queued.wrapping_sub(self.num_completed)
    }

    /// `dql_completed`: `count` bytes completed in this completion round; recompute `limit`.
    ///
    /// Decides: grow the limit (starved: the queue was over its limit and ran empty, or was
    /// over the limit last round and everything queued then has completed), or record the
    /// slack of a busy round and, once `slack_hold_time` has passed since the window started,
    /// shrink the limit by the lowest slack seen. Returns nothing; `limit` and `adj_limit`
    /// change. Follows lib/dynamic_queue_limits.c (6.18) line by line.
    pub fn dql_completed(&mut self, count: u32, now_jiffies: u64) {
        let num_queued = self.num_queued;
        // BUG_ON(count > num_queued - dql->num_completed): can't complete more than queued.
        assert!(
            count <= num_queued.wrapping_sub(self.num_completed),
            "dql_completed: {count} B completed but only {} B in flight",
            num_queued.wrapping_sub(self.num_completed)
        );
        let completed = self.num_completed.wrapping_add(count);
        let mut limit = self.limit;
        let mut ovlimit = posdiff(num_queued.wrapping_sub(self.num_completed), limit);
        let inprogress = num_queued.wrapping_sub(completed);
        let prev_inprogress = self.prev_num_queued.wrapping_sub(self.num_completed);
        let all_prev_completed = after_eq(completed, self.prev_num_queued);

        if (ovlimit != 0 && inprogress == 0) || (self.prev_ovlimit != 0 && all_prev_completed) {
            // Starved: grow by what was both sent and completed in the last interval, plus
            // any previous over-limit.
            limit = limit
                .wrapping_add(posdiff(completed, self.prev_num_queued))
                .wrapping_add(self.prev_ovlimit);
            self.slack_start_time = now_jiffies;
            self.lowest_slack = u32::MAX;
        } else if inprogress != 0 && prev_inprogress != 0 && !all_prev_completed {
            // Busy the whole interval: the slack is what was queued beyond what was needed.
            let slack = posdiff(
                limit.wrapping_add(self.prev_ovlimit),
                completed.wrapping_sub(self.num_completed).wrapping_mul(2),
            );
            let slack_last_objs = if self.prev_ovlimit != 0 {
                posdiff(self.prev_last_obj_cnt, self.prev_ovlimit)
            } else {
                0
            };
            let slack = slack.max(slack_last_objs);
            if slack < self.lowest_slack {
                self.lowest_slack = slack;
            }
            if time_after(
                now_jiffies,
                self.slack_start_time.wrapping_add(self.slack_hold_time),
            ) {
                limit = posdiff(limit, self.lowest_slack);
                self.slack_start_time = now_jiffies;
                self.lowest_slack = u32::MAX;
            }
        }

        // Enforce bounds on limit (clamp(limit, min_limit, max_limit)).
        limit = limit.max(self.min_limit).min(self.max_limit);
        if limit != self.limit {
            self.limit = limit;
            ovlimit = 0;
        }
        self.adj_limit = limit.wrapping_add(completed);
        self.prev_ovlimit = ovlimit;
        self.prev_last_obj_cnt = self.last_obj_cnt;
        self.num_completed = completed;
        self.prev_num_queued = num_queued;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HZ: u64 = 250;

    #[test]
    fn a_fresh_dql_has_no_room_so_the_first_packet_goes_over_the_limit() {
        let mut d = Dql::dql_init(HZ, 0);
        assert_eq!(d.dql_avail(), 0);
        d.dql_queued(1514);
        assert_eq!(d.dql_avail(), -1514);
        assert_eq!(d.inflight(), 1514);
    }

    #[test]
    fn bql_limit_grows_under_starvation() {
        // Over the limit, then everything completes: the queue ran dry while limited.
        let mut d = Dql::dql_init(HZ, 0);
        d.dql_queued(3000);
        d.dql_completed(3000, 1);
        assert_eq!(d.limit, 3000, "grows by what was sent and completed");
        assert_eq!(d.dql_avail(), 3000);
        // Again starved with a bigger burst: grows by the newly completed bytes.
        d.dql_queued(3000);
        d.dql_queued(2000);
        d.dql_completed(5000, 2);
        assert_eq!(d.limit, 8000);
    }

    #[test]
    fn bql_limit_shrinks_when_over_provisioned_only_after_the_hold_time() {
        let mut d = Dql::dql_init(HZ, 0);
        d.limit = 100_000;
        d.adj_limit = d.limit;
        // Keep the queue busy (never empty, never over the limit) and complete little per
        // round: slack = limit - 2 * completed stays large.
        d.dql_queued(20_000);
        let mut t = 1;
        for _ in 0..10 {
            d.dql_queued(5_000);
            d.dql_completed(5_000, t);
            t += 10;
        }
        assert_eq!(
            d.limit, 100_000,
            "no shrink before slack_hold_time (HZ jiffies)"
        );
        assert!(d.lowest_slack <= 100_000 - 2 * 5_000);
        // Past the hold time, the next busy round shrinks by the lowest slack seen.
        d.dql_queued(5_000);
        d.dql_completed(5_000, HZ + 50);
        assert_eq!(d.limit, 100_000 - (100_000 - 2 * 5_000));
        assert_eq!(d.lowest_slack, u32::MAX, "a new window starts");
    }

    #[test]
    fn bql_limit_is_clamped_to_limit_min_and_limit_max() {
        let mut d = Dql::dql_init(HZ, 0);
        d.min_limit = 10_000;
        d.max_limit = 20_000;
        d.dql_queued(1000);
        d.dql_completed(1000, 1);
        assert_eq!(d.limit, 10_000);
        d.dql_queued(40_000);
        d.dql_completed(40_000, 2);
        assert_eq!(d.limit, 20_000);
    }

    #[test]
    fn counters_wrap_like_unsigned_int() {
        let mut d = Dql::dql_init(HZ, 0);
        d.num_queued = u32::MAX - 100;
        d.num_completed = u32::MAX - 100;
        d.prev_num_queued = u32::MAX - 100;
        d.adj_limit = d.num_completed.wrapping_add(5000);
        d.limit = 5000;
        d.dql_queued(1000);
        assert_eq!(d.inflight(), 1000);
        assert_eq!(d.dql_avail(), 4000);
        d.dql_completed(1000, 1);
        assert_eq!(d.inflight(), 0);
        assert_eq!(d.num_completed, 899);
    }

    #[test]
    #[should_panic(expected = "in flight")]
    fn completing_more_than_was_queued_is_a_broken_invariant() {
        let mut d = Dql::dql_init(HZ, 0);
        d.dql_queued(100);
        d.dql_completed(200, 1);
    }
}
