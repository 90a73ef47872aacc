//! sendpath-core: a deterministic discrete-event model of the Linux TCP send path.
//!
//! Every decision the kernel makes on the send path is made here by a function named after the
//! kernel function that makes it. Modules are named after kernel files (`tcp_output`,
//! `sch_fq`, `dynamic_queue_limits`, ...). Pure Rust: no wasm or JavaScript dependency; the
//! `sendpath-wasm` crate exposes it to the site and `sendpath-cli` to the shell.
//!
//! Entry point: [`run_source`] parses a scenario (TOML, see `docs/scenario-format.md`), applies
//! a variant and `--set` overrides, runs it and returns the [`RunResult`] and the event stream.

pub mod dev;
pub mod dynamic_queue_limits;
pub mod qdisc;
pub mod result;
pub mod sch_fq;
pub mod sch_fq_codel;
pub mod sch_generic;
pub mod skb;
pub mod trace;

pub use result::{AppResult, HostResult, RunResult};

/// The engine's version, shown by the site and `sendpath --version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
