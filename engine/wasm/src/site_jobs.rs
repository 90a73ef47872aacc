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

/// A run to its end with `sendpath run`'s summary, driven in slices by the worker (see
/// `jobs::SummaryRun`).
#[wasm_bindgen]
pub struct WasmSummaryRun {
    inner: Option<crate::jobs::SummaryRun>,
}

#[wasm_bindgen]
impl WasmSummaryRun {
    /// The run of a configuration whose time series is sampled every `interval_ns`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        source: &str,
        file: &str,
        variant: Option<String>,
        sets: Vec<String>,
        interval_ns: f64,
    ) -> Result<WasmSummaryRun, JsError> {
        let interval_ns = whole(interval_ns)?;
        crate::jobs::SummaryRun::start(source, file, variant.as_deref(), &sets, interval_ns)
            .map(|r| WasmSummaryRun { inner: Some(r) })
            .map_err(|e| JsError::new(&e))
    }

    fn run(&mut self) -> &mut crate::jobs::SummaryRun {
        self.inner.as_mut().expect("a summary run not yet finished")
    }

    /// Runs at most `max_events` more events; true once the run is over.
    pub fn advance(&mut self, max_events: u32) -> bool {
        self.run().advance(max_events)
    }

    pub fn now_ns(&mut self) -> f64 {
        self.run().now_ns() as f64
    }

    pub fn end_ns(&mut self) -> f64 {
        self.run().end_ns() as f64
    }

    /// The finished run's `RunSummary` as JSON (once only).
    pub fn finish(&mut self) -> String {
        let r = self.inner.take().expect("a summary run finishes once");
        serde_json::to_string(&r.finish()).expect("a summary encodes as JSON")
    }
}

/// `sendpath run FILE --at TIME`'s text (`ss -tin`, `tc -s qdisc show`) at `at_ns`.
#[wasm_bindgen]
pub fn at_text(
    source: &str,
    file: &str,
    variant: Option<String>,
    sets: Vec<String>,
    at_ns: f64,
) -> Result<String, JsError> {
    let at_ns = whole(at_ns)?;
    crate::jobs::at_text(source, file, variant.as_deref(), &sets, at_ns)
        .map_err(|e| JsError::new(&e))
}

/// The keys and kernel switches that differ between configurations A and B (JSON
/// `KernelDiff`, `sendpath diff`'s first two parts).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn kernel_diff(
    source_a: &str,
    file_a: &str,
    variant_a: Option<String>,
    sets_a: Vec<String>,
    source_b: &str,
    file_b: &str,
    variant_b: Option<String>,
    sets_b: Vec<String>,
) -> Result<String, JsError> {
    use crate::jobs::SideConfig;
    crate::jobs::kernel_diff(
        SideConfig {
            source: source_a,
            file: file_a,
            variant: variant_a.as_deref(),
            sets: &sets_a,
        },
        SideConfig {
            source: source_b,
            file: file_b,
            variant: variant_b.as_deref(),
            sets: &sets_b,
        },
    )
    .map(|d| serde_json::to_string(&d).expect("a diff encodes as JSON"))
    .map_err(|e| JsError::new(&e))
}
