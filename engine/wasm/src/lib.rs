//! wasm-bindgen surface of sendpath-core (filled in by the foundation work).
use wasm_bindgen::prelude::*;

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    sendpath_core::VERSION.to_string()
}
