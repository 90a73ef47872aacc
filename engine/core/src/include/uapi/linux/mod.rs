//! `include/uapi/linux/`.

pub mod snmp;
