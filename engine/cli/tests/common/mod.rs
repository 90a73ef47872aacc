//! Helpers shared by the command-line tests.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the built `sendpath` from the repository's root, where `scenarios/` is.
pub fn sendpath(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sendpath"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("sendpath runs")
}
