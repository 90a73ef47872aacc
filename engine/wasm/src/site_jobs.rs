//! The `#[wasm_bindgen]` exports of the site's sweeps and pcap downloads (feature `jobs`, module
//! `sendpath_jobs`): thin wrappers over [`crate::jobs`]. The module has the site's exports too
//! (`site.rs`: a sweep's points run as sessions); only the workers of those jobs load it
//! (`web/src/engine/jobsWorker.ts`), so the module every page loads does not carry them.

use wasm_bindgen::prelude::*;

use crate::site::whole;

/// The checked grid of a sweep (JSON `SweepGrid`, see `jobs::sweep_grid`); the error names the
/// key, the value or the metric.
#[wasm_bindgen]
pub fn sweep_grid(
    source: &str,
    file: &str,
    variant: Option<String>,
    sets: Vec<String>,
    vary: Vec<String>,
    metrics: Vec<String>,
) -> Result<String, JsError> {
    crate::jobs::sweep_grid(source, file, variant.as_deref(), &sets, &vary, &metrics)
        .map(|g| serde_json::to_string(&g).expect("a grid encodes as JSON"))
        .map_err(|e| JsError::new(&e))
}

/// The packets of a run from its start to `to_ns` as pcapng (see `jobs::pcap_file`).
#[wasm_bindgen]
pub fn pcap_file(
    source: &str,
    file: &str,
    variant: Option<String>,
    sets: Vec<String>,
    to_ns: Option<f64>,
    frames: &str,
    snaplen: u32,
) -> Result<Vec<u8>, JsError> {
    let to_ns = to_ns.map(whole).transpose()?;
    crate::jobs::pcap_file(
        source,
        file,
        variant.as_deref(),
        &sets,
        to_ns,
        frames,
        snaplen,
    )
    .map_err(|e| JsError::new(&e))
}
