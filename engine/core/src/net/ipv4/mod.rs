//! `net/ipv4/`: IP's way in and out (`ip_input.c`, `ip_output.c`) and TCP (`tcp.c`, `tcp_output.c`, `tcp_input.c`, `tcp_timer.c`, `tcp_cong.c`, `tcp_cubic.c`, `tcp_bbr.c`, `tcp_rate.c`, `tcp_recovery.c`).

pub mod ip_input;
pub mod ip_output;
pub mod tcp;
pub mod tcp_bbr;
pub mod tcp_cong;
pub mod tcp_cubic;
pub mod tcp_input;
pub mod tcp_output;
pub mod tcp_rate;
pub mod tcp_recovery;
pub mod tcp_timer;
