//! The `#[wasm_bindgen]` exports of the "Model vs Linux" view: thin wrappers over
//! [`crate::conform`], which holds the logic and its tests.
//!
//! They are built into a module of their own, `sendpath_conform` (feature `conform`, without
//! the default `site`: `scripts/build-wasm.mjs`), that only the view's worker loads
//! (`web/src/engine/conformWorker.ts`), so the module every page loads does not carry them.

use wasm_bindgen::prelude::*;

use crate::{conform, packetdrill};

/// A conformance experiment file as the "Model vs Linux" view shows it (JSON, see
/// `conform::experiment_json`); the error names the file.
#[wasm_bindgen]
pub fn conform_experiment(text: &str, file: &str, id: &str) -> Result<String, JsError> {
    conform::experiment_json(text, file, id).map_err(|e| JsError::new(&e))
}

/// A conformance experiment run in the model beside its recording: `sendpath conform`'s rows
/// (JSON, see `conform::rows_json`). `known` is known-failures.toml's text, or empty.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn conform_rows(
    text: &str,
    file: &str,
    id: &str,
    scenario_src: &str,
    scenario_file: &str,
    known: &str,
    known_file: &str,
) -> Result<String, JsError> {
    conform::rows_json(
        text,
        file,
        id,
        scenario_src,
        scenario_file,
        known,
        known_file,
    )
    .map_err(|e| JsError::new(&e))
}

/// A packetdrill script run against the engine (the site's `.pkt` player): the report of
/// `sendpath packetdrill --json` for one script (JSON, see `packetdrill::report_json`).
#[wasm_bindgen]
pub fn packetdrill_run(text: &str, name: &str) -> String {
    packetdrill::report_json(text, name)
}
