//! The site's "Model vs Linux" view: an experiment of `scenarios/conformance/` as the page shows
//! it ([`experiment_json`]), and its recorded values beside the model's ([`rows_json`]). Both
//! call `sendpath_core::conform`, the code `sendpath conform` runs, so the page and the CLI
//! give the same rows.

use serde::Serialize;

use sendpath_core::conform::{compare, parse_experiment, parse_known_failures, KnownFailures};

/// One recorded value: the median of the kernel's repetitions and their range.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RecordedValue {
    pub name: String,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

/// An experiment file as the page shows it (`sendpath_core::conform::Experiment`).
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConformExperiment {
    /// The file's name without `.toml`.
    pub id: String,
    pub title: String,
    pub mechanism: String,
    /// The claim: the file's first comment line.
    pub claim: String,
    /// The engine scenario, relative to `scenarios/` (`nagle-delayed-ack.toml`).
    pub scenario: String,
    pub variant: Option<String>,
    /// The `--set KEY=VALUE` overrides that make the scenario mirror the real setup.
    pub sets: Vec<String>,
    /// What the engine lacks to mirror the real setup, one line each.
    pub missing_keys: Vec<String>,
    /// The real setup (`[real]`), key by key, in file order.
    pub real: Vec<(String, String)>,
    /// Kernel, HZ, date, machine, repetitions (`[recorded]`), in file order.
    pub recorded: Vec<(String, String)>,
    pub values: Vec<RecordedValue>,
}

/// The experiment file `text` (named `file` in errors, `id` its name without `.toml`), as JSON.
pub fn experiment_json(text: &str, file: &str, id: &str) -> Result<String, String> {
    let e = parse_experiment(text, file, id)?;
    let out = ConformExperiment {
        id: e.id,
        title: e.title,
        mechanism: e.mechanism,
        claim: e.claim,
        scenario: e.scenario,
        variant: e.variant,
        sets: e.sets,
        missing_keys: e.missing_keys,
        real: e.real,
        recorded: e.recorded,
        values: e
            .values
            .into_iter()
            .map(|v| RecordedValue {
                name: v.name,
                median: v.median,
                min: v.min,
                max: v.max,
            })
            .collect(),
    };
    Ok(serde_json::to_string(&out).expect("strings and numbers encode as JSON"))
}

/// The experiment run in the model beside its recording: `sendpath conform`'s rows
/// (`sendpath_core::conform::Row`) as a JSON array. `known` is the text of
/// `known-failures.toml` (named `known_file`), empty when there is none.
pub fn rows_json(
    text: &str,
    file: &str,
    id: &str,
    scenario_src: &str,
    scenario_file: &str,
    known: &str,
    known_file: &str,
) -> Result<String, String> {
    let exp = parse_experiment(text, file, id)?;
    let known = if known.trim().is_empty() {
        KnownFailures::new()
    } else {
        parse_known_failures(known, known_file)?
    };
    let rows = compare(&exp, scenario_src, scenario_file, &known)?;
    Ok(serde_json::to_string(&rows).expect("strings and numbers encode as JSON"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = include_str!("../../../scenarios/nagle-delayed-ack.toml");

    const EXP: &str = r#"# Nagle and delayed ACKs make each round wait.
[experiment]
title = "Ping-pong"
mechanism = "nagle"
scenario = "nagle-delayed-ack.toml"
variant = "default"
set = ["kernel=6.18"]
missing_keys = ["no veth"]
[real]
topology = "lo"
[recorded]
kernel = "6.18"
hz = 250
[values]
elapsed_s = { median = 8.8, min = 8.7, max = 9.0 }
no_such_value = { median = 10, min = 10, max = 10 }
"#;

    #[test]
    fn an_experiment_reaches_the_page_with_its_claim_setup_and_recorded_values() {
        let j: serde_json::Value =
            serde_json::from_str(&experiment_json(EXP, "x.toml", "x").unwrap()).unwrap();
        assert_eq!(j["claim"], "Nagle and delayed ACKs make each round wait.");
        assert_eq!(j["variant"], "default");
        assert_eq!(j["missing_keys"][0], "no veth");
        assert_eq!(j["real"][0], serde_json::json!(["topology", "lo"]));
        assert_eq!(j["recorded"][1], serde_json::json!(["hz", "250"]));
        assert_eq!(j["values"][0]["name"], "elapsed_s");
        assert_eq!(j["values"][0]["max"], 9.0);
    }

    #[test]
    fn rows_are_the_cli_rows_with_known_failures_applied() {
        let known = "[x]\nno_such_value = \"the model has no such value\"\n";
        let j: serde_json::Value = serde_json::from_str(
            &rows_json(
                EXP,
                "x.toml",
                "x",
                SCENARIO,
                "scenarios/nagle-delayed-ack.toml",
                known,
                "known-failures.toml",
            )
            .unwrap(),
        )
        .unwrap();
        let rows = j.as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["value"], "elapsed_s");
        assert!(rows[0]["model"].as_f64().unwrap() > 0.0);
        assert_eq!(rows[1]["model"], serde_json::Value::Null);
        assert_eq!(rows[1]["known_failure"], "the model has no such value");
    }

    #[test]
    fn a_bad_file_is_an_error_naming_it() {
        let e = experiment_json("[experiment]\n", "bad.toml", "bad").unwrap_err();
        assert!(e.contains("bad.toml"), "{e}");
    }
}
