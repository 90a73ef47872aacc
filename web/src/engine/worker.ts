// The engine's Web Worker: instantiates the wasm engine and serves the protocol of protocol.ts.
// Started by bridge.ts (`startEngine()`). Every simulation runs here, never on the main thread.
// "Model vs Linux" has a worker of its own with its own module (conformWorker.ts): the module
// every page loads here does not carry that view's exports.

import init, { engine_catalog, scenario_info, version, WasmSession } from './pkg/sendpath_wasm';
import { siteHandlers, serveEngine, type Endpoint } from './serve';

// `self` is a DedicatedWorkerGlobalScope (postMessage(message, transfer)); the site is typed
// against the DOM library, which knows it only as Window.
serveEngine(
  self as unknown as Endpoint,
  async () => {
    // With no argument, wasm-bindgen's init fetches `new URL('sendpath_wasm_bg.wasm',
    // import.meta.url)`, which Vite serves in development and emits as an asset in the build.
    await init();
    return { version, engine_catalog, scenario_info, WasmSession };
  },
  siteHandlers,
);
