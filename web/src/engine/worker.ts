// The engine's Web Worker: instantiates the wasm engine and serves the protocol of protocol.ts.
// Started by bridge.ts (`new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`).
// Every simulation runs here, never on the main thread.

import init, {
  conform_experiment,
  conform_rows,
  engine_catalog,
  scenario_info,
  version,
  WasmSession,
} from './pkg/sendpath_wasm';
import { serveEngine, type Endpoint } from './serve';

// `self` is a DedicatedWorkerGlobalScope (postMessage(message, transfer)); the site is typed
// against the DOM library, which knows it only as Window.
serveEngine(self as unknown as Endpoint, async () => {
  // With no argument, wasm-bindgen's init fetches `new URL('sendpath_wasm_bg.wasm',
  // import.meta.url)`, which Vite serves in development and emits as an asset in the build.
  await init();
  return { version, engine_catalog, scenario_info, WasmSession, conform_experiment, conform_rows };
});
