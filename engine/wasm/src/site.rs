//! The `#[wasm_bindgen]` exports of the site's interactive view and experiment jobs: thin
//! wrappers over [`crate::catalog`] and [`crate::session`], which hold the logic and its tests.
//! In the module every page loads (`sendpath_wasm`, feature `site`); "Model vs Linux" has its
//! own module (`site_conform.rs`).
//! Called only from `web/src/engine/serve.ts` (in the worker); see the call chain at the top of
//! `web/src/engine/bridge.ts`.

use wasm_bindgen::prelude::*;

use sendpath_core::trace::Columns;

use crate::catalog;
use crate::session::{Session, SessionRequest};

/// Trace schema, key registry and counter names (JSON, see `catalog::catalog_json`).
#[wasm_bindgen]
pub fn engine_catalog() -> String {
    catalog::catalog_json()
}

/// What a scenario says with `variant` and `sets` (`KEY=VALUE` strings) applied (JSON, see
/// `catalog::scenario_json`).
#[wasm_bindgen]
pub fn scenario_info(
    source: &str,
    file: &str,
    variant: Option<String>,
    sets: Vec<String>,
) -> Result<String, JsError> {
    catalog::scenario_json(source, file, variant.as_deref(), &sets).map_err(|e| JsError::new(&e))
}

/// A run driven in slices by the worker: see `session::Session`.
#[wasm_bindgen]
pub struct WasmSession {
    inner: Session,
    /// The trace in columns, built on the first `col_*` call; each call moves one column out.
    columns: Option<Columns>,
}

impl WasmSession {
    fn columns(&mut self) -> &mut Columns {
        self.columns.get_or_insert_with(|| self.inner.columns())
    }
}

#[wasm_bindgen]
impl WasmSession {
    /// Resolves the scenario of a `SessionRequest`, given field by field (arguments, not JSON:
    /// the site's wasm then carries no JSON parser); the error names the file and the key.
    /// Instants and counts are whole numbers passed as JS numbers.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        source: String,
        file: String,
        variant: Option<String>,
        sets: Vec<String>,
        trace: bool,
        from_ns: f64,
        to_ns: Option<f64>,
        calibrate_events: Option<f64>,
        trace_limit: f64,
        sample_every_events: f64,
        sample_every_ns: f64,
    ) -> Result<WasmSession, JsError> {
        let request = SessionRequest {
            source,
            file,
            variant,
            sets,
            trace,
            from_ns: whole(from_ns)?,
            to_ns: to_ns.map(whole).transpose()?,
            calibrate_events: calibrate_events.map(whole).transpose()?,
            trace_limit: whole(trace_limit)?,
            sample_every_events: whole(sample_every_events)?,
            sample_every_ns: whole(sample_every_ns)?,
        };
        Session::start(request)
            .map(|inner| WasmSession {
                inner,
                columns: None,
            })
            .map_err(|e| JsError::new(&e))
    }

    /// Runs at most `max_events` more events; true once the run is over.
    pub fn advance(&mut self, max_events: u32) -> bool {
        self.inner.advance(max_events)
    }

    pub fn now_ns(&self) -> f64 {
        self.inner.now_ns() as f64
    }

    pub fn end_ns(&self) -> f64 {
        self.inner.end_ns() as f64
    }

    /// A metric of the finished run (`sendpath compare`'s names); undefined for an unknown name.
    pub fn metric(&self, name: &str) -> Option<f64> {
        self.inner.metric(name)
    }

    /// `SessionSummary` as JSON (the run must be over).
    pub fn summary(&self) -> String {
        serde_json::to_string(&self.inner.summary()).expect("a summary encodes as JSON")
    }

    /// The counter samples (`SampleLayout.stride` numbers each).
    pub fn samples(&self) -> Vec<f64> {
        self.inner.samples().to_vec()
    }

    /// The trace's columns (`sendpath_core::trace::Columns`), each moved out by its call.
    pub fn col_t_ns(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.columns().t_ns)
    }
    pub fn col_host(&mut self) -> Vec<u16> {
        std::mem::take(&mut self.columns().host)
    }
    pub fn col_sk(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.columns().sk)
    }
    pub fn col_kind(&mut self) -> Vec<u16> {
        std::mem::take(&mut self.columns().kind)
    }
    pub fn col_values(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.columns().values)
    }

    /// Rows of the trace in words (a JSON `Described`).
    pub fn describe(&self, rows: Vec<u32>) -> String {
        serde_json::to_string(&self.inner.describe(&rows))
            .expect("strings and numbers encode as JSON")
    }
}

/// A JS number that must be a whole number of ns or events.
pub(crate) fn whole(x: f64) -> Result<u64, JsError> {
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= u64::MAX as f64 {
        Ok(x as u64)
    } else {
        Err(JsError::new(&format!(
            "bad session request: {x} is not a whole number"
        )))
    }
}
