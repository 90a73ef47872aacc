//! packetdrill scripts as conformance tests: `google/packetdrill`'s scripts
//! (`gtests/net/tcp/<mechanism>/<behaviour>.pkt`) run against the engine.
//!
//! A script is a list of timed events: system calls on the socket under test, packets the
//! remote end sends (`<`) and packets the kernel must send (`>`). [`run`] parses a script
//! ([`parser`], after packetdrill's `lexer.l` and `parser.y`), and drives the engine with it
//! ([`run`](mod@run), after `run.c` and `run_packet.c`): the system calls call the engine's
//! socket functions at the script's times, the inbound packets arrive at the socket from the
//! wire, and every packet the socket sends is compared with the script's. The [`Report`] says
//! `pass`, the first mismatch (expected vs actual, as packetdrill prints it), or `unsupported`
//! with the line that uses something the runner or the model does not have — never a pass.
//!
//! This is the simulator's machinery, not kernel code.

pub mod expect;
pub mod lexer;
pub mod parser;
pub mod run;
pub mod sysctl;

use serde::Serialize;

/// How a script ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PacketdrillOutcome"))]
pub enum Outcome {
    /// Every event happened as the script says.
    Pass,
    /// The first event that did not.
    Fail(Failure),
    /// The script uses something the runner or the model does not have (at `line`).
    Unsupported { line: u32, what: String },
    /// The script does not parse.
    Error { line: u32, message: String },
}

impl Outcome {
    /// `pass`, `fail`, `unsupported` or `error`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::Unsupported { .. } => "unsupported",
            Outcome::Error { .. } => "error",
        }
    }

    /// The line the script stopped at (none for a pass).
    pub fn line(&self) -> Option<u32> {
        match self {
            Outcome::Pass => None,
            Outcome::Fail(f) => Some(f.line),
            Outcome::Unsupported { line, .. } | Outcome::Error { line, .. } => Some(*line),
        }
    }
}

/// A mismatch: the line, packetdrill's message, and the expected and actual values alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PacketdrillFailure"))]
pub struct Failure {
    pub line: u32,
    pub message: String,
    pub expected: Option<String>,
    pub actual: Option<String>,
}

/// One event that ran: its lines, when it happened (µs from the start), what it was
/// (`command`, `syscall`, `inbound`, `outbound`, `code`) and, for an outbound packet or a
/// system call, what the engine did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PacketdrillLine"))]
pub struct LineRun {
    pub line: u32,
    pub last_line: u32,
    pub t_us: i64,
    pub kind: String,
    pub detail: String,
}

/// The result of running a script.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PacketdrillReport"))]
pub struct Report {
    pub name: String,
    pub outcome: Outcome,
    /// The events that ran, in order.
    pub lines: Vec<LineRun>,
    /// Set-up values the model does not follow (from `defaults.sh`), for a reader of a
    /// failure.
    pub notes: Vec<String>,
}

impl Report {
    /// packetdrill-like text: `NAME: pass`, or the line and the message.
    pub fn text(&self) -> String {
        match &self.outcome {
            Outcome::Pass => format!("{}: pass", self.name),
            Outcome::Fail(f) => format!("{}: script line {}: {}", self.name, f.line, f.message),
            Outcome::Unsupported { line, what } => {
                format!("{}: unsupported: script line {line}: {what}", self.name)
            }
            Outcome::Error { line, message } => {
                format!("{}: error: script line {line}: {message}", self.name)
            }
        }
    }
}

/// Parse and run a script named `name`.
pub fn run(src: &str, name: &str) -> Report {
    match parser::parse(src) {
        Ok(script) => run::Runner::new(&script).run(name),
        Err(e) => Report {
            name: name.to_string(),
            outcome: Outcome::Error {
                line: e.line,
                message: e.message,
            },
            lines: Vec::new(),
            notes: Vec::new(),
        },
    }
}
