//! The network path between the hosts, beyond their own devices: machinery of the simulator,
//! not kernel code. `bottleneck.rs` is the router the conformance lab puts between sender and
//! receiver (`capture/lab/sp-delayfwd.c -R RATE -q PACKETS -S`): a rate, a drop-tail queue
//! limited in packets, then the link's one-way delay.

pub mod bottleneck;
