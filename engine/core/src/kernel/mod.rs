//! The kernel's `kernel/`: the timer wheel (`time/timer.c`).

pub mod time;
