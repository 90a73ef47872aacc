//! `drivers/net/`: the virtual Ethernet pair (`veth.c`). (The Ethernet NIC's driver, a
//! generic mlx5e/ixgbe shape, and `loopback.c` sit in `net/core/dev.rs`.)

pub mod veth;
