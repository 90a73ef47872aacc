//! `net/ipv4/`: TCP (`tcp.c`, `tcp_output.c`, `tcp_input.c`, `tcp_timer.c`, `tcp_cong.c`) and
//! the SNMP counters `nstat` prints (`proc.c`).

pub mod proc;
pub mod tcp;
pub mod tcp_cong;
pub mod tcp_input;
pub mod tcp_output;
pub mod tcp_timer;
