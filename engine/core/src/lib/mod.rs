//! The kernel's `lib/`: Byte Queue Limits (`dynamic_queue_limits.c`).

pub mod dynamic_queue_limits;
