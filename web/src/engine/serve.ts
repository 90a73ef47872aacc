// The worker side of the engine protocol: answers requests by calling the wasm engine.
// worker.ts wires it to the Worker's global scope; the unit tests wire it to a MessagePort.
// See bridge.ts for the whole call chain.

import type { RunResult } from './generated/RunResult';
import type * as Wasm from './pkg/sendpath_wasm';
import type { Request, Verb, Verbs, WorkerMessage } from './protocol';

/** The wasm exports the protocol uses (the functions of engine/wasm/src/lib.rs). */
export type EngineModule = Pick<typeof Wasm, 'version' | 'run'>;

/** Where requests arrive and answers go: the worker's global scope, or a MessagePort. */
export interface Endpoint {
  postMessage(message: WorkerMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

type Handlers = {
  [V in Verb]: (engine: EngineModule, ...args: Verbs[V]['args']) => Verbs[V]['result'];
};

const handlers: Handlers = {
  version: (engine) => engine.version(),
  // JSON both ways: the request and the result are serde types with generated TS types.
  run: (engine, request) => JSON.parse(engine.run(JSON.stringify(request))) as RunResult,
};

function isRequest(data: unknown): data is Request {
  if (typeof data !== 'object' || data === null) return false;
  const r = data as Record<string, unknown>;
  return typeof r.id === 'number' && typeof r.verb === 'string' && Array.isArray(r.args);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Loads the engine with `load` and answers every request arriving at `endpoint`, in order.
 * Posts `ready` (or `failed`) once the engine is loaded.
 */
export function serveEngine(endpoint: Endpoint, load: () => Promise<EngineModule>): void {
  const engine = load();
  engine.then(
    (e) => endpoint.postMessage({ kind: 'ready', version: e.version() }),
    (err: unknown) => endpoint.postMessage({ kind: 'failed', error: describe(err) }),
  );

  endpoint.addEventListener('message', (event) => {
    const data: unknown = event.data;
    if (!isRequest(data)) {
      console.error('engine worker: ignoring a message that is not a request', data);
      return;
    }
    void answer(data);
  });

  async function answer(req: Request): Promise<void> {
    const { id, verb } = req;
    try {
      if (!Object.hasOwn(handlers, verb)) throw new Error(`unknown verb '${verb}'`);
      const e = await engine;
      const handler = handlers[verb] as (e: EngineModule, ...args: unknown[]) => unknown;
      endpoint.postMessage({ kind: 'answer', id, ok: true, result: handler(e, ...req.args) });
    } catch (err) {
      endpoint.postMessage({ kind: 'answer', id, ok: false, error: describe(err) });
    }
  }
}
