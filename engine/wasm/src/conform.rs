//! The site's "Model vs Linux" view: an experiment of `scenarios/conformance/` as the page shows
//! it ([`experiment_json`]), and its recorded values beside the model's ([`rows_json`]). Both
//! call `sendpath_core::conform`, the code `sendpath conform` runs, so the page and the CLI
//! give the same rows.

use sendpath_core::conform::{compare, parse_experiment, parse_known_failures, KnownFailures};

/// The experiment file `text` (named `file` in errors, `id` its name without `.toml`), as JSON.
pub fn experiment_json(text: &str, file: &str, id: &str) -> Result<String, String> {
    let e = parse_experiment(text, file, id)?;
    Ok(serde_json::to_string(&e).expect("strings and numbers encode as JSON"))
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
