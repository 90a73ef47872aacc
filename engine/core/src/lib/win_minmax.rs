//! The windowed min/max tracker (`lib/win_minmax.c`, `include/linux/win_minmax.h`): Kathleen
//! Nichols' algorithm, which keeps the best, second-best and third-best sample of a window in
//! constant space. BBR's bandwidth filter (`bbr->bw`, a max over 10 rounds) is one.
//!
//! Follows Linux 6.18.
//!
//! Simplified: nothing; time and values are `u32` and wrap as in the kernel.

/// `struct minmax_sample`: a value and the time (or round count) it was measured at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MinmaxSample {
    pub t: u32,
    pub v: u32,
}

/// `struct minmax`: the first, second and third choice, oldest first in time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Minmax {
    pub s: [MinmaxSample; 3],
}

/// `minmax_get`: the windowed best.
pub fn minmax_get(m: &Minmax) -> u32 {
    m.s[0].v
}

/// `minmax_reset`: forget every sample; `meas` at `t` becomes all three choices.
pub fn minmax_reset(m: &mut Minmax, t: u32, meas: u32) -> u32 {
    let val = MinmaxSample { t, v: meas };
    m.s = [val; 3];
    meas
}

/// `minmax_subwin_update`: as time advances, age the choices out of the window and take new
/// second and third choices from its later quarters.
fn minmax_subwin_update(m: &mut Minmax, win: u32, val: MinmaxSample) -> u32 {
    let dt = val.t.wrapping_sub(m.s[0].t);
    if dt > win {
        // "Passed entire window without a new val so make 2nd choice the new val & 3rd
        // choice the new 2nd choice."
        m.s[0] = m.s[1];
        m.s[1] = m.s[2];
        m.s[2] = val;
        if val.t.wrapping_sub(m.s[0].t) > win {
            m.s[0] = m.s[1];
            m.s[1] = m.s[2];
            m.s[2] = val;
        }
    } else if m.s[1].t == m.s[0].t && dt > win / 4 {
        // "We've passed a quarter of the window without a new val so take a 2nd choice from
        // the 2nd quarter of the window."
        m.s[1] = val;
        m.s[2] = val;
    } else if m.s[2].t == m.s[1].t && dt > win / 2 {
        // "We've passed half the window without finding a new val so take a 3rd choice from
        // the last half of the window."
        m.s[2] = val;
    }
    m.s[0].v
}

/// `minmax_running_max`: take `meas` at `t` into a max filter of window `win`; returns the
/// windowed max.
pub fn minmax_running_max(m: &mut Minmax, win: u32, t: u32, meas: u32) -> u32 {
    let val = MinmaxSample { t, v: meas };
    // A new max, or nothing left in the window: forget earlier samples.
    if val.v >= m.s[0].v || val.t.wrapping_sub(m.s[2].t) > win {
        return minmax_reset(m, t, meas);
    }
    if val.v >= m.s[1].v {
        m.s[1] = val;
        m.s[2] = val;
    } else if val.v >= m.s[2].v {
        m.s[2] = val;
    }
    minmax_subwin_update(m, win, val)
}

/// `minmax_running_min`: the same for a min filter.
pub fn minmax_running_min(m: &mut Minmax, win: u32, t: u32, meas: u32) -> u32 {
    let val = MinmaxSample { t, v: meas };
    if val.v <= m.s[0].v || val.t.wrapping_sub(m.s[2].t) > win {
        return minmax_reset(m, t, meas);
    }
    if val.v <= m.s[1].v {
        m.s[1] = val;
        m.s[2] = val;
    } else if val.v <= m.s[2].v {
        m.s[2] = val;
    }
    minmax_subwin_update(m, win, val)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_max_keeps_the_best_sample_until_it_leaves_the_window() {
        let mut m = Minmax::default();
        minmax_reset(&mut m, 0, 0);
        assert_eq!(minmax_running_max(&mut m, 10, 1, 100), 100);
        // Lower samples do not replace the max while it is in the window...
        for t in 2..=11 {
            assert_eq!(minmax_running_max(&mut m, 10, t, 50), 100, "round {t}");
        }
        // ...and the max ages out once more than `win` rounds have passed.
        assert_eq!(minmax_running_max(&mut m, 10, 12, 50), 50);
    }

    #[test]
    fn running_max_takes_a_new_max_at_once() {
        let mut m = Minmax::default();
        minmax_running_max(&mut m, 10, 1, 100);
        assert_eq!(minmax_running_max(&mut m, 10, 2, 150), 150);
        assert_eq!(m.s, [MinmaxSample { t: 2, v: 150 }; 3]);
    }

    #[test]
    fn running_min_keeps_the_lowest_sample_of_the_window() {
        let mut m = Minmax::default();
        minmax_reset(&mut m, 0, u32::MAX);
        assert_eq!(minmax_running_min(&mut m, 100, 0, 40), 40);
        assert_eq!(minmax_running_min(&mut m, 100, 30, 60), 40);
        assert_eq!(minmax_running_min(&mut m, 100, 60, 50), 40);
        // At t = 101 the 40 ms sample is out; the second choice (60 at t = 30, taken in the
        // second quarter) and then the third (50 at t = 60) move up.
        assert_eq!(minmax_running_min(&mut m, 100, 101, 70), 50);
    }
}
