//! `include/linux/`.

pub mod skbuff;
