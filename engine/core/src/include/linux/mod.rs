//! `include/linux/`.

pub mod skbuff;
pub mod socket;
