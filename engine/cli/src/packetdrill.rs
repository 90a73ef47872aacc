//! `sendpath packetdrill FILE.pkt... [--json]`: run packetdrill scripts against the engine
//! (`sendpath_core::packetdrill`), and the packetdrill section of `sendpath conform`: every
//! script under `scenarios/packetdrill/` beside its expected outcome (`expected.toml`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sendpath_core::packetdrill::{self, expect};

/// `sendpath packetdrill FILE.pkt... [--json]`: exit 0 when every script passes, 1 when one
/// fails or is unsupported, 2 on bad input.
pub fn main(args: Vec<String>) -> ExitCode {
    let mut json = false;
    let mut files = Vec::new();
    for a in args {
        match a.as_str() {
            "--json" => json = true,
            s if s.starts_with("--") => {
                eprintln!("sendpath packetdrill: unknown option {s}\n{}", crate::USAGE);
                return ExitCode::from(2);
            }
            s => files.push(s.to_string()),
        }
    }
    if files.is_empty() {
        eprintln!(
            "sendpath packetdrill: name a script (FILE.pkt)\n{}",
            crate::USAGE
        );
        return ExitCode::from(2);
    }
    let mut reports = Vec::new();
    for f in &files {
        match crate::read(f) {
            Ok(src) => reports.push(packetdrill::run(&src, f)),
            Err(e) => {
                eprintln!("sendpath packetdrill: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let text = if json {
        let mut t = serde_json::to_string_pretty(&reports).expect("reports serialize");
        t.push('\n');
        t
    } else {
        let mut t = String::new();
        for r in &reports {
            for n in &r.notes {
                t.push_str(&format!("{}: note: {n}\n", r.name));
            }
            t.push_str(&r.text());
            t.push('\n');
        }
        t
    };
    let mut o = io::stdout().lock();
    if let Err(e) = o.write_all(text.as_bytes()).and_then(|_| o.flush()) {
        return crate::write_failed(&e);
    }
    if reports
        .iter()
        .all(|r| r.outcome == packetdrill::Outcome::Pass)
    {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The packetdrill scripts beside a conformance folder (`scenarios/packetdrill` next to
/// `scenarios/conformance`), if there are any.
pub fn dir_beside(conformance: &Path) -> Option<PathBuf> {
    let d = conformance.parent()?.join("packetdrill");
    d.is_dir().then_some(d)
}

/// `sendpath conform`'s packetdrill section: every script beside its expected outcome, and
/// whether each ended as expected.
pub fn conform_section(dir: &Path) -> Result<(String, bool), String> {
    let v = expect::verdicts(dir)?;
    let ok = v.iter().all(|x| x.as_expected);
    Ok((
        format!(
            "\npacketdrill scripts ({}, expected outcomes in {}):\n{}",
            dir.display(),
            expect::EXPECTED,
            expect::table(&v)
        ),
        ok,
    ))
}
