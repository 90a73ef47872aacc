//! The expected outcome of each vendored script (`scenarios/packetdrill/expected.toml`), and
//! the verdict of a run against it.
//!
//! A script not listed must pass. A listed one names the outcome the engine gives today and
//! why: `known_failure` (the script fails at `line` because the model lacks or gets wrong a
//! mechanism, named in `mechanism`) or `unsupported` (the script uses, at `line`, something
//! the runner or the model does not have). A run that ends otherwise — a listed failure that
//! now passes included — is a regression or a stale entry, and the suite fails.
//!
//! ```toml
//! ["fast_retransmit/fr-4pkt.pkt"]
//! outcome = "known_failure"
//! line = 25
//! mechanism = "no Reno (non-SACK) duplicate-ACK counting: the model recovers with SACK only"
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::{Outcome, Report};
use crate::scenario::tomldoc::{self, Tv};

/// The expectations' file, in the scripts' folder.
pub const EXPECTED: &str = "expected.toml";

/// What a listed script is expected to do.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expected {
    /// `known_failure` or `unsupported`.
    pub outcome: String,
    pub line: u32,
    pub mechanism: String,
}

/// Expectations by script path (relative to the suite's folder, `/`-separated).
pub type Expectations = BTreeMap<String, Expected>;

/// Parse `expected.toml`.
pub fn parse(text: &str, file: &str) -> Result<Expectations, String> {
    let doc = tomldoc::parse(text).map_err(|e| format!("{file}: {e}"))?;
    let mut out = Expectations::new();
    for (script, v) in doc {
        let bad = |m: &str| format!("{file}: [\"{script}\"]: {m}");
        let t = v.as_table().ok_or_else(|| bad("not a table"))?;
        let get = |k: &str| t.iter().find(|(n, _)| n == k).map(|(_, v)| v);
        let outcome = get("outcome")
            .and_then(Tv::as_str)
            .filter(|o| *o == "known_failure" || *o == "unsupported")
            .ok_or_else(|| bad("outcome must be \"known_failure\" or \"unsupported\""))?;
        let line = match get("line") {
            Some(Tv::Integer(n)) if *n > 0 => *n as u32,
            _ => return Err(bad("line must be the script line the run stops at")),
        };
        let mechanism = get("mechanism")
            .and_then(Tv::as_str)
            .filter(|m| !m.trim().is_empty())
            .ok_or_else(|| bad("mechanism must say what the model lacks or gets wrong"))?;
        if let Some((k, _)) = t
            .iter()
            .find(|(k, _)| !["outcome", "line", "mechanism"].contains(&k.as_str()))
        {
            return Err(bad(&format!("unknown key {k}")));
        }
        out.insert(
            script,
            Expected {
                outcome: outcome.to_string(),
                line,
                mechanism: mechanism.to_string(),
            },
        );
    }
    Ok(out)
}

/// A script's run beside its expectation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    pub script: String,
    /// `pass`, `fail`, `unsupported` or `error`.
    pub outcome: String,
    pub line: Option<u32>,
    /// The run's message (empty for a pass).
    pub message: String,
    pub expected: Option<Expected>,
    /// The run ended as expected (a pass, or the listed outcome at the listed line).
    pub as_expected: bool,
}

/// Judge a report against the expectations.
pub fn judge(script: &str, r: &Report, exp: &Expectations) -> Verdict {
    let e = exp.get(script).cloned();
    let line = r.outcome.line();
    let as_expected = match (&r.outcome, &e) {
        (Outcome::Pass, None) => true,
        (Outcome::Fail(f), Some(x)) => x.outcome == "known_failure" && x.line == f.line,
        (Outcome::Unsupported { line, .. }, Some(x)) => {
            x.outcome == "unsupported" && x.line == *line
        }
        _ => false,
    };
    let message = match &r.outcome {
        Outcome::Pass => String::new(),
        Outcome::Fail(f) => f.message.clone(),
        Outcome::Unsupported { what, .. } => what.clone(),
        Outcome::Error { message, .. } => message.clone(),
    };
    Verdict {
        script: script.to_string(),
        outcome: r.outcome.name().to_string(),
        line,
        message,
        expected: e,
        as_expected,
    }
}

/// The verdicts as a table: one line per script, then the counts.
pub fn table(v: &[Verdict]) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    for x in v {
        let status = match (&x.expected, x.outcome.as_str()) {
            (_, "pass") if x.as_expected => "pass".to_string(),
            (Some(e), _) if x.as_expected && e.outcome == "known_failure" => {
                format!("known_failure (line {}): {}", e.line, e.mechanism)
            }
            (Some(e), _) if x.as_expected => {
                format!("unsupported (line {}): {}", e.line, e.mechanism)
            }
            (Some(e), "pass") => format!("PASSES, but listed as {}: remove its entry", e.outcome),
            _ => format!(
                "UNEXPECTED {} at line {}: {}",
                x.outcome,
                x.line.unwrap_or(0),
                x.message.lines().next().unwrap_or("")
            ),
        };
        let _ = writeln!(o, "{:<60} {status}", x.script);
    }
    let count = |f: &dyn Fn(&Verdict) -> bool| v.iter().filter(|x| f(x)).count();
    let _ = writeln!(
        o,
        "\n{} packetdrill scripts: {} pass, {} known_failure, {} unsupported, {} not as expected",
        v.len(),
        count(&|x| x.outcome == "pass" && x.as_expected),
        count(&|x| x.as_expected && x.outcome == "fail"),
        count(&|x| x.as_expected && x.outcome == "unsupported"),
        count(&|x| !x.as_expected)
    );
    o
}

/// Every `.pkt` under `dir`, as `/`-separated paths relative to it, sorted.
pub fn scripts(dir: &Path) -> Result<Vec<String>, String> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<String>) -> Result<(), String> {
        let rd = std::fs::read_dir(d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out)?;
            } else if p.extension().is_some_and(|x| x == "pkt") {
                let rel = p.strip_prefix(root).unwrap_or(&p);
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().to_string())
                    .collect();
                out.push(parts.join("/"));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// Run every script of `dir` and judge it against `expected.toml`.
pub fn verdicts(dir: &Path) -> Result<Vec<Verdict>, String> {
    let exp_path = dir.join(EXPECTED);
    let exp = match std::fs::read_to_string(&exp_path) {
        Ok(t) => parse(&t, &exp_path.display().to_string())?,
        Err(_) => Default::default(),
    };
    let scripts = scripts(dir)?;
    if let Some(s) = exp.keys().find(|s| !scripts.contains(s)) {
        return Err(format!("{}: [\"{s}\"]: no such script", exp_path.display()));
    }
    let mut out = Vec::new();
    for s in scripts {
        let p = dir.join(&s);
        let src = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let r = super::run(&src, &s);
        out.push(judge(&s, &r, &exp));
    }
    Ok(out)
}
