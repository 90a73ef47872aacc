//! `sendpath conform [DIR] [--json] [--only ID]...`: every recorded experiment in DIR (default:
//! the nearest `scenarios/conformance/` above the working directory) run in the model and
//! compared with what the real kernel gave. Exit status 1 when a value misses without a known
//! failure, or a known failure is no longer needed (its value is in band).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sendpath_core::conform::{compare, parse_experiment, parse_known_failures, Row};

/// The known failures' file, in the experiments' folder.
pub const KNOWN_FAILURES: &str = "known-failures.toml";

/// The nearest `scenarios/conformance` at or above the working directory.
pub fn default_dir() -> Result<PathBuf, String> {
    let mut d = std::env::current_dir().map_err(|e| e.to_string())?;
    loop {
        let c = d.join("scenarios").join("conformance");
        if c.is_dir() {
            return Ok(c);
        }
        if !d.pop() {
            return Err(
                "no scenarios/conformance/ here or above: name the folder (sendpath conform DIR)"
                    .into(),
            );
        }
    }
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// Compare every experiment of `dir` (or only those named in `only`).
pub fn rows(dir: &Path, only: &[String]) -> Result<Vec<Row>, String> {
    let kf_path = dir.join(KNOWN_FAILURES);
    let known = if kf_path.exists() {
        parse_known_failures(&read(&kf_path)?, &kf_path.display().to_string())?
    } else {
        Default::default()
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| p.file_name().is_some_and(|n| n != KNOWN_FAILURES))
        .collect();
    files.sort();
    let scenarios = dir.parent().unwrap_or(dir);
    let mut out = Vec::new();
    let mut ids = Vec::new();
    let stem = |f: &PathBuf| f.file_stem().unwrap().to_string_lossy().to_string();
    files.retain(|f| only.is_empty() || only.contains(&stem(f)));
    let mut progress = crate::progress::Progress::new(files.len());
    for f in files {
        let id = stem(&f);
        let exp = parse_experiment(&read(&f)?, &f.display().to_string(), &id)?;
        let sc_path = scenarios.join(&exp.scenario);
        let src = read(&sc_path)?;
        out.extend(compare(&exp, &src, &sc_path.display().to_string(), &known)?);
        progress.inc(&id);
        ids.push(id);
    }
    progress.finish();
    // A known failure must name a recorded value of an experiment that exists.
    for (exp, values) in &known {
        if !only.is_empty() && !only.contains(exp) {
            continue;
        }
        for v in values.keys() {
            if !out.iter().any(|r| &r.experiment == exp && &r.value == v) {
                return Err(format!(
                    "{}: [{exp}] \"{v}\": no such experiment or recorded value",
                    kf_path.display()
                ));
            }
        }
    }
    if let Some(o) = only.iter().find(|o| !ids.contains(o)) {
        return Err(format!("no experiment {o} in {}", dir.display()));
    }
    Ok(out)
}

fn num(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() >= 1000.0 || x.fract() == 0.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.4}")
    }
}

/// The table a terminal prints, and whether the run passes.
pub fn table(rows: &[Row]) -> (String, bool) {
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{:<30} {:<28} {:>12} {:>12} {:>22} {:>7}  verdict",
        "experiment", "value", "model", "real", "real min..max", "ratio"
    );
    for r in rows {
        let verdict = if r.stale_known_failure() {
            "IN BAND, but marked known_failure: remove the marker".to_string()
        } else if r.in_band {
            "in band".to_string()
        } else if let Some(k) = &r.known_failure {
            format!("miss (known_failure: {k})")
        } else {
            "MISS".to_string()
        };
        let _ = writeln!(
            o,
            "{:<30} {:<28} {:>12} {:>12} {:>22} {:>7}  {}",
            r.experiment,
            r.value,
            r.model.map(num).unwrap_or_else(|| "-".into()),
            num(r.real),
            format!("{}..{}", num(r.real_min), num(r.real_max)),
            r.ratio
                .map(|x| format!("{x:.2}"))
                .unwrap_or_else(|| "-".into()),
            verdict
        );
    }
    o.push('\n');
    let mut per: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for r in rows {
        let e = per.entry(&r.experiment).or_default();
        e.1 += 1;
        if r.in_band {
            e.0 += 1;
        }
    }
    for (e, (ok, n)) in &per {
        let _ = writeln!(o, "{e:<30} {ok:>3} of {n:<3} in band");
    }
    let ok = rows.iter().filter(|r| r.in_band).count();
    let unexplained = rows.iter().filter(|r| r.unexplained_miss()).count();
    let stale = rows.iter().filter(|r| r.stale_known_failure()).count();
    let _ = writeln!(
        o,
        "\n{} experiments, {} values: {} in band ({:.0} %), {} misses with a known_failure, {} unexplained misses, {} stale known_failures",
        per.len(),
        rows.len(),
        ok,
        100.0 * ok as f64 / rows.len().max(1) as f64,
        rows.len() - ok - unexplained,
        unexplained,
        stale
    );
    (o, unexplained == 0 && stale == 0)
}

/// Whether the rows pass (for `--json`, which prints no verdict).
pub fn passes(rows: &[Row]) -> bool {
    !rows
        .iter()
        .any(|r| r.unexplained_miss() || r.stale_known_failure())
}
