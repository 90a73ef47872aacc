// The engine's Web Worker: instantiates the wasm engine and serves the protocol of protocol.ts.
// Started by bridge.ts (`new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`).
// Every simulation runs here, never on the main thread.

import init, { run, version } from './pkg/sendpath_wasm';
import { serveEngine } from './serve';

serveEngine(self, async () => {
  // With no argument, wasm-bindgen's init fetches `new URL('sendpath_wasm_bg.wasm',
  // import.meta.url)`, which Vite serves in development and emits as an asset in the build.
  await init();
  return { version, run };
});
