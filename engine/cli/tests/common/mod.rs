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

/// The standard output of a run that must have succeeded (its exit code and standard error in
/// the failure message otherwise).
pub fn stdout_ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}
