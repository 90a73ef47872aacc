//! `include/uapi/`.

pub mod linux;
