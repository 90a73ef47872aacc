//! The kernel's `lib/`: Byte Queue Limits (`dynamic_queue_limits.c`) and the windowed min/max
//! filter (`win_minmax.c`).

pub mod dynamic_queue_limits;
pub mod win_minmax;
