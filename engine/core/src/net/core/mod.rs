//! `net/core/`: socket memory accounting (`sock.c`), skbs (`skbuff.c`) and the device layer
//! (`dev.c`: `dev_queue_xmit`, the NIC's TX ring, BQL, TX completions).

pub mod dev;
pub mod skbuff;
pub mod sock;
