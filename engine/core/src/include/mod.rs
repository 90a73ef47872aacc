//! The kernel's `include/`: the structures every layer shares, defined once below all of them,
//! as Linux defines `struct sk_buff` in `include/linux/skbuff.h` and the SNMP counters in
//! `include/uapi/linux/snmp.h`. Nothing here imports another part of the engine.

pub mod linux;
pub mod uapi;
