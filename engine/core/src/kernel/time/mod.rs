//! `kernel/time/`.

pub mod timer;
