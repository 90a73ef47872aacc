//! wasm-bindgen surface of sendpath-core: the engine as the site's Web Worker sees it.
//!
//! This crate is the whole wasm boundary, and it stays thin: each export converts arguments,
//! calls one `sendpath_core` function and converts the answer. No simulation logic lives here.
//! The callers are the site's Web Workers (`web/src/engine/worker.ts`, and for "Model vs Linux"
//! `web/src/engine/conformWorker.ts`, both through `web/src/engine/serve.ts`); the call chain is
//! documented at the top of `web/src/engine/bridge.ts`.
//!
//! Values that cross the boundary as JSON have TypeScript types generated from their Rust
//! types by ts-rs (feature `ts`, see `export_typescript_types`), committed in
//! `web/src/engine/generated/`.

use wasm_bindgen::prelude::*;

pub mod catalog;
pub mod conform;
pub mod jobs;
pub mod packetdrill;
pub mod session;
// The exports, split in two modules (engine/wasm/Cargo.toml's features): the logic above is
// plain Rust, compiled and tested in every build; only what a module exports reaches it.
#[cfg(feature = "site")]
pub mod site;
#[cfg(feature = "conform")]
pub mod site_conform;
#[cfg(feature = "jobs")]
pub mod site_jobs;

/// The allocator of the wasm module: Talc instead of Rust's default dlmalloc, for the site's
/// first load (the module is a few kB smaller) and for its re-runs (Talc is faster at the
/// simulation's many small allocations). Native builds keep the system allocator.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The engine's version (the Cargo workspace version).
#[wasm_bindgen]
pub fn version() -> String {
    sendpath_core::VERSION.to_string()
}

/// Writes the TypeScript types of every value that crosses the wasm boundary, with the types
/// they depend on, into `cfg`'s export directory (`TS_RS_EXPORT_DIR`, set in
/// `engine/.cargo/config.toml` to `web/src/engine/generated/`).
///
/// A type joins this list when a wasm export starts returning it.
#[cfg(feature = "ts")]
pub fn export_typescript_types(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    sendpath_core::RunResult::export_all(cfg)?;
    session::SessionRequest::export_all(cfg)?;
    session::SessionSummary::export_all(cfg)?;
    session::Described::export_all(cfg)?;
    catalog::ScenarioInfo::export_all(cfg)?;
    jobs::SweepGrid::export_all(cfg)?;
    jobs::RunSummary::export_all(cfg)?;
    sendpath_core::diff::KernelDiff::export_all(cfg)?;
    sendpath_core::conform::Experiment::export_all(cfg)?;
    sendpath_core::conform::Row::export_all(cfg)?;
    sendpath_core::packetdrill::Report::export_all(cfg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_the_workspace_version() {
        assert_eq!(version(), env!("CARGO_PKG_VERSION"));
    }
}
