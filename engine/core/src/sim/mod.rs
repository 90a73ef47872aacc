//! The simulator, not kernel code: the world and its event loop (`world`), the applications
//! that make the system calls (`app`), the CPU model (`cpu`), the result of a run (`result`),
//! its `--csv` tables (`csv`) and the system at one instant (`snapshot`).

pub mod app;
pub mod cpu;
pub mod csv;
pub mod result;
pub mod snapshot;
#[cfg(test)]
pub(crate) mod testkit;
pub mod world;
