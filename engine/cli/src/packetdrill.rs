//! `sendpath packetdrill FILE.pkt... [--json]`: run packetdrill scripts against the engine
//! (`sendpath_core::packetdrill`), and the packetdrill section of `sendpath conform`: every
//! script under `scenarios/packetdrill/` beside its expected outcome (`expected.toml`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sendpath_core::packetdrill::{self, expect};

/// The expectations' file, in the scripts' folder.
pub const EXPECTED: &str = "expected.toml";

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
        eprintln!("sendpath packetdrill: name a script (FILE.pkt)\n{}", crate::USAGE);
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

/// The nearest `scenarios/packetdrill` at or above the working directory.
pub fn default_dir() -> Option<PathBuf> {
    let mut d = std::env::current_dir().ok()?;
    loop {
        let c = d.join("scenarios").join("packetdrill");
        if c.is_dir() {
            return Some(c);
        }
        if !d.pop() {
            return None;
        }
    }
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
pub fn verdicts(dir: &Path) -> Result<Vec<expect::Verdict>, String> {
    let exp_path = dir.join(EXPECTED);
    let exp = match std::fs::read_to_string(&exp_path) {
        Ok(t) => expect::parse(&t, &exp_path.display().to_string())?,
        Err(_) => Default::default(),
    };
    let scripts = scripts(dir)?;
    if let Some(s) = exp.keys().find(|s| !scripts.contains(s)) {
        return Err(format!("{}: [\"{s}\"]: no such script", exp_path.display()));
    }
    let mut out = Vec::new();
    for s in scripts {
        let src = crate::read(&dir.join(&s).display().to_string())?;
        let r = packetdrill::run(&src, &s);
        out.push(expect::judge(&s, &r, &exp));
    }
    Ok(out)
}
