//! The kernel's `drivers/`: network device drivers below the device layer
//! (`drivers/net/`). A driver is a device's `ndo_start_xmit`; `net/core/dev.rs` calls it from
//! `dev_hard_start_xmit`.

pub mod net;
