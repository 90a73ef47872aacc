//! The timer wheel (`kernel/time/timer.c`, Linux 4.8 and later): when a timer armed for
//! `expires` really runs.
//!
//! Since the non-cascading wheel of 4.8 (500462a9de65, "timers: Switch to a non-cascading
//! wheel"), `calc_index()` rounds every timer *up* to the next bucket of its level:
//! `expires = (expires >> LVL_SHIFT(lvl)) + 1`, so a timer never fires early, and at level 0
//! (less than 63 jiffies ahead) it fires on the tick *after* `expires`. A delayed ACK armed for
//! 40 ms at HZ 250 (10 jiffies) therefore runs 11 ticks later: 44 ms, minus the phase of the
//! tick at which it was armed. Kernels before 4.8 (the cascading wheel) ran a timer on the tick
//! that reaches `expires`.
//!
//! Simplified:
//! - `base->clk` is taken to be `jiffies` (a NOHZ CPU whose clock lags behind is not
//!   modelled); visible effect: none on a busy CPU, which the flows modelled keep busy.
//! - no timer slack and no migration between CPUs; visible effect: none.

/// `LVL_CLK_SHIFT`: each level is 8 times coarser than the one below.
pub const LVL_CLK_SHIFT: u32 = 3;
/// `LVL_BITS`: 64 buckets per level.
pub const LVL_BITS: u32 = 6;
/// `LVL_DEPTH` for HZ > 100.
pub const LVL_DEPTH: u32 = 9;

/// `LVL_SHIFT(n)`.
const fn lvl_shift(n: u32) -> u32 {
    n * LVL_CLK_SHIFT
}

/// `LVL_START(n)`: the first delta (in jiffies) that goes to level `n` (n ≥ 1).
const fn lvl_start(n: u32) -> u64 {
    ((1u64 << LVL_BITS) - 1) << ((n - 1) * LVL_CLK_SHIFT)
}

/// `calc_wheel_index` → `calc_index`: the jiffy at which a timer armed at `clk` for `expires`
/// runs (its bucket's expiry).
pub fn bucket_expiry(expires: u64, clk: u64) -> u64 {
    let delta = expires.saturating_sub(clk);
    let mut lvl = 0;
    while lvl + 1 < LVL_DEPTH && delta >= lvl_start(lvl + 1) {
        lvl += 1;
    }
    let shift = lvl_shift(lvl);
    ((expires >> shift) + 1) << shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timer_less_than_63_jiffies_ahead_runs_one_tick_after_it_expires() {
        assert_eq!(bucket_expiry(1010, 1000), 1011);
        assert_eq!(bucket_expiry(1062, 1000), 1063);
    }

    #[test]
    fn a_timer_further_ahead_is_rounded_up_to_its_levels_granularity() {
        // 63..503 jiffies ahead: level 1, 8-jiffy buckets.
        assert_eq!(bucket_expiry(1000 + 63, 1000), 1064);
        assert_eq!(bucket_expiry(1000 + 100, 1000), 1104);
        // 504.. ahead: level 2, 64-jiffy buckets.
        // 1600 is a multiple of 64: the next bucket starts at 1664.
        assert_eq!(bucket_expiry(1000 + 600, 1000), 1664);
    }
}
