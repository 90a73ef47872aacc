// The Web Worker of the site's sweeps and pcap downloads: instantiates the engine's jobs module,
// `sendpath_jobs` (engine/wasm/src/site_jobs.rs: the site's exports and those of these jobs),
// and serves the simulator's verbs of protocol.ts, `sweepGrid`, `sweepPoint`, `pcap`,
// `runSummary`, `atText` and `kernelDiff` among them. Started by bridge.ts (`startJobsEngine()`), one per core for a sweep, so neither this
// worker nor its wasm is part of the page's first load.

import init, {
  at_text,
  engine_catalog,
  kernel_diff,
  pcap_file,
  scenario_info,
  sweep_grid,
  version,
  WasmSession,
  WasmSummaryRun,
} from './pkg/sendpath_jobs';
import { siteHandlers, serveEngine, type Endpoint } from './serve';

serveEngine(
  self as unknown as Endpoint,
  async () => {
    // wasm-bindgen's init fetches `new URL('sendpath_jobs_bg.wasm', import.meta.url)`, which
    // Vite serves in development and emits as an asset in the build.
    await init();
    return {
      version,
      engine_catalog,
      scenario_info,
      WasmSession,
      sweep_grid,
      pcap_file,
      WasmSummaryRun,
      at_text,
      kernel_diff,
    };
  },
  siteHandlers,
);
