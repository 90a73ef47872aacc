//! The kernel's networking code, at the kernel's own paths: `net/core/` (sockets, skbs, the
//! device layer), `net/ipv4/` (TCP and the IPv4 MIBs), `net/sched/` (the qdiscs). Each file is
//! the twin of the kernel file of the same name.

pub mod core;
pub mod host;
pub mod ipv4;
pub mod sched;
