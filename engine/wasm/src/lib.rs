//! wasm-bindgen surface of sendpath-core: the engine as the site's Web Worker sees it.
//!
//! This crate is the whole wasm boundary, and it stays thin: each export converts arguments,
//! calls one `sendpath_core` function and converts the answer. No simulation logic lives here.
//! The only caller is `web/src/engine/worker.ts` (through `web/src/engine/serve.ts`); the
//! call chain is documented at the top of `web/src/engine/bridge.ts`.
//!
//! Values that cross the boundary as JSON have TypeScript types generated from their Rust
//! types by ts-rs (feature `ts`, see `export_typescript_types`), committed in
//! `web/src/engine/generated/`.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

pub mod catalog;
pub mod session;
pub mod site;

/// The engine's version (the Cargo workspace version).
#[wasm_bindgen]
pub fn version() -> String {
    sendpath_core::VERSION.to_string()
}

/// What the site's `run` verb asks for: one scenario file, as [`sendpath_core::run_source`]
/// takes it.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The scenario file's text (TOML, `docs/scenario-format.md`).
    pub source: String,
    /// The file's name as errors should show it (`scenarios/autocorking.toml`).
    pub file: String,
    /// The variant to apply (`[variants.NAME]`), if any.
    #[serde(default)]
    pub variant: Option<String>,
    /// `KEY=VALUE` / `HOST:KEY=VALUE` overrides, applied in order after the variant.
    #[serde(default)]
    pub sets: Vec<String>,
}

/// Runs one scenario: `request_json` is a [`RunRequest`]; the answer is the
/// [`sendpath_core::RunResult`] as JSON, or the scenario's error (naming the file and the key)
/// as a JS `Error`.
#[wasm_bindgen]
pub fn run(request_json: &str) -> Result<String, JsError> {
    run_json(request_json).map_err(|message| JsError::new(&message))
}

/// [`run`] without JS types, so that native tests exercise the same path.
pub fn run_json(request_json: &str) -> Result<String, String> {
    let request: RunRequest =
        serde_json::from_str(request_json).map_err(|e| format!("bad run request: {e}"))?;
    let opts = sendpath_core::RunOptions {
        variant: request.variant,
        sets: request.sets,
        ..Default::default()
    };
    let output = sendpath_core::run_source(&request.source, &request.file, &opts)
        .map_err(|e| e.to_string())?;
    serde_json::to_string(&output.result).map_err(|e| format!("cannot encode the result: {e}"))
}

/// Writes the TypeScript types of every value that crosses the wasm boundary, with the types
/// they depend on, into `cfg`'s export directory (`TS_RS_EXPORT_DIR`, set in
/// `engine/.cargo/config.toml` to `web/src/engine/generated/`).
///
/// A type joins this list when a wasm export starts returning it.
#[cfg(feature = "ts")]
pub fn export_typescript_types(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    RunRequest::export_all(cfg)?;
    sendpath_core::RunResult::export_all(cfg)?;
    session::SessionRequest::export_all(cfg)?;
    session::SessionSummary::export_all(cfg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAGLE: &str = include_str!("../../../scenarios/nagle-delayed-ack.toml");

    fn request(source: &str, variant: Option<&str>) -> String {
        serde_json::json!({
            "source": source,
            "file": "scenarios/nagle-delayed-ack.toml",
            "variant": variant,
        })
        .to_string()
    }

    #[test]
    fn version_is_the_workspace_version() {
        assert_eq!(version(), env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn run_answers_exactly_what_run_source_computes() {
        for variant in [None, Some("no_delay")] {
            let via_boundary = run_json(&request(NAGLE, variant)).unwrap();
            let opts = sendpath_core::RunOptions {
                variant: variant.map(str::to_string),
                ..Default::default()
            };
            let direct = sendpath_core::run_source(NAGLE, "nagle", &opts)
                .unwrap()
                .result;
            assert_eq!(via_boundary, serde_json::to_string(&direct).unwrap());
        }
    }

    #[test]
    fn run_reports_a_bad_key_with_the_file_and_the_key() {
        let bad = NAGLE.replace("TCP_NODELAY = 0", "TCP_NODELAYY = 0");
        let err = run_json(&request(&bad, None)).unwrap_err();
        assert!(
            err.starts_with("scenarios/nagle-delayed-ack.toml: ") && err.contains("TCP_NODELAYY"),
            "{err}"
        );
    }

    #[test]
    fn run_rejects_a_request_with_an_unknown_field() {
        let err = run_json(r#"{"source": "", "file": "x", "seed": 1}"#).unwrap_err();
        assert!(
            err.starts_with("bad run request: unknown field `seed`"),
            "{err}"
        );
    }
}
