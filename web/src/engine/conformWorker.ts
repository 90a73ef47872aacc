// "Model vs Linux"'s Web Worker: instantiates the engine's conform module, `sendpath_conform`
// (engine/wasm/src/site_conform.rs: the same engine, built with that view's exports only), and
// serves the verbs `conformExperiment`, `conformRows` and `packetdrill` (the `.pkt` player,
// classroom/PacketdrillView.tsx) of protocol.ts. Started by bridge.ts
// (`startConformEngine()`) when the view opens, so neither this worker nor its wasm is part of
// any other page's load.

import init, {
  conform_experiment,
  conform_rows,
  packetdrill_run,
  version,
} from './pkg/sendpath_conform';
import { conformHandlers, serveEngine, type Endpoint } from './serve';

serveEngine(
  self as unknown as Endpoint,
  async () => {
    // wasm-bindgen's init fetches `new URL('sendpath_conform_bg.wasm', import.meta.url)`, which
    // Vite serves in development and emits as an asset in the build.
    await init();
    return { version, conform_experiment, conform_rows, packetdrill_run };
  },
  conformHandlers,
);
