// The engine bridge: the only main-thread module that talks to the engine.
//
// Call chain, main thread -> worker -> wasm and back:
//
//   React component / hook (app/)
//     -> EngineBridge.call('version')                          bridge.ts, main thread
//          posts { id, verb, args } (protocol.ts `Request`) to the Worker
//     -> serveEngine's message listener                        serve.ts, in the Worker
//          awaits the wasm module instantiated by worker.ts (init() of web/src/engine/pkg/)
//     -> handlers[verb](engine, ...args)                       serve.ts
//     -> version() / run(json) / new WasmSession(json) ...      pkg/sendpath_wasm.js (wasm-bindgen glue)
//     -> #[wasm_bindgen] fn in engine/wasm/src/lib.rs          Rust, compiled to wasm32
//     -> sendpath_core                                         engine/core, the simulation
//   and back: the result is posted as { kind: 'answer', id, ok, result | error }, and the
//   promise returned by call() settles.
//
// "Model vs Linux" calls its verbs (conformExperiment, conformRows) the same way, through a
// bridge of its own: startConformEngine() starts conformWorker.ts, which serves them from the
// wasm module pkg/sendpath_conform.js (engine/wasm/src/site_conform.rs); no other page loads it.
// Sweeps and pcap downloads run in workers of their own too (startJobsEngine(), jobsWorker.ts,
// pkg/sendpath_jobs.js: the site's module with engine/wasm/src/site_jobs.rs's exports added).
//
// The worker posts { kind: 'ready', version } once the engine is instantiated (`ready` below),
// or { kind: 'failed', error }. Requests sent before that wait in the worker and are answered
// in order. One bridge owns one worker; `terminate()` stops it and rejects pending calls.
//
// Long jobs (`experiment`) post { kind: 'progress', id, done, total } before their answer;
// `callWithProgress` hears them. Bulk results (the trace columns and the derived model of
// `simulate`) cross by transfer, not by copy.
//
// Verbs: see `Verbs` in protocol.ts. Values the engine computes have TypeScript types generated
// from Rust (./generated/, by ts-rs), never written by hand.

import firstRunAssetUrl from 'virtual:sendpath-first-run';

import type { FirstRunMessage, PrerenderedRun } from './firstRun';
import type { Request, Verb, Verbs, WorkerMessage } from './protocol';
// The built workers' URLs (Vite bundles each as a worker for these imports): the site's engine,
// and "Model vs Linux"'s, with a wasm module of its own (only the URL is in this module).
import conformWorkerUrl from './conformWorker.ts?worker&url';
import firstRunWorkerUrl from './firstRunWorker.ts?worker&url';
import jobsWorkerUrl from './jobsWorker.ts?worker&url';
import workerUrl from './worker.ts?worker&url';

/** What the bridge needs of a Worker (a MessagePort serves too, in tests). */
export interface WorkerLike {
  postMessage(message: Request): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  terminate?(): void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  progress?: (done: number, total: number) => void;
}

/** An error the engine reported, or a failure to reach it. */
export class EngineError extends Error {
  override name = 'EngineError';
}

export class EngineBridge {
  /** Resolves with the engine's version once the wasm module is instantiated. */
  readonly ready: Promise<string>;

  private readonly worker: WorkerLike;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private broken: EngineError | null = null;

  constructor(worker: WorkerLike) {
    this.worker = worker;
    let settleReady!: { resolve(v: string): void; reject(e: Error): void };
    this.ready = new Promise<string>((resolve, reject) => {
      settleReady = { resolve, reject };
    });
    // Callers that never await `ready` must not see an unhandled rejection.
    this.ready.catch(() => {});

    worker.addEventListener('message', (event) => {
      const msg = event.data as WorkerMessage;
      switch (msg.kind) {
        case 'ready':
          settleReady.resolve(msg.version);
          break;
        case 'failed':
          this.fail(new EngineError(`the engine failed to start: ${msg.error}`));
          settleReady.reject(this.broken ?? new EngineError(msg.error));
          break;
        case 'progress':
          this.pending.get(msg.id)?.progress?.(msg.done, msg.total);
          break;
        case 'answer': {
          const p = this.pending.get(msg.id);
          if (!p) return;
          this.pending.delete(msg.id);
          if (msg.ok) p.resolve(msg.result);
          else p.reject(new EngineError(msg.error));
          break;
        }
      }
    });
    worker.addEventListener('error', (event) => {
      const message = (event as Partial<ErrorEvent>).message;
      const detail = message ? `: ${message}` : '';
      const err = new EngineError(`the engine worker could not run${detail}`);
      this.fail(err);
      settleReady.reject(err);
    });
  }

  /** Calls `verb` in the engine; settles with its result or an EngineError. */
  call<V extends Verb>(verb: V, ...args: Verbs[V]['args']): Promise<Verbs[V]['result']> {
    return this.callWithProgress(verb, undefined, ...args);
  }

  /** As `call`, and `onProgress` hears how far a long job has got. */
  callWithProgress<V extends Verb>(
    verb: V,
    onProgress: ((done: number, total: number) => void) | undefined,
    ...args: Verbs[V]['args']
  ): Promise<Verbs[V]['result']> {
    if (this.broken) return Promise.reject(this.broken);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: resolve as (r: unknown) => void,
        reject,
        progress: onProgress,
      });
      this.worker.postMessage({ id, verb, args } as Request);
    });
  }

  /** Stops the worker; pending and later calls reject. */
  terminate(): void {
    this.worker.terminate?.();
    this.fail(new EngineError('the engine was stopped'));
  }

  private fail(err: EngineError): void {
    this.broken ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/**
 * A classic worker's script that loads the module worker at `href` by dynamic import, holding
 * the messages that arrive meanwhile and handing them on once the module listens. (Chromium
 * refuses module workers from blob URLs in an opaque origin, but a classic one may import.)
 */
export function importingWorkerScript(href: string): string {
  return [
    'const early = [];',
    'const hold = (e) => early.push(e.data);',
    "self.addEventListener('message', hold);",
    `import(${JSON.stringify(href)}).then(() => {`,
    "  self.removeEventListener('message', hold);",
    "  for (const data of early) self.dispatchEvent(new MessageEvent('message', { data }));",
    '}, (err) => {',
    "  postMessage({ kind: 'failed', error: `cannot load the engine worker: ${err}` });",
    '});',
  ].join('\n');
}

/**
 * Starts the engine in a new Web Worker. A page with an opaque origin (the embed in an iframe
 * sandboxed without allow-same-origin) may not start a worker from its server's URL: it starts
 * a classic worker from a blob that imports the worker module instead, which the server must
 * allow by CORS (`Access-Control-Allow-Origin: *`, as GitHub Pages answers).
 */
export function startEngine(): EngineBridge {
  const bridge = early ?? startWorker(workerUrl, 'sendpath-engine');
  early = null;
  return bridge;
}

/** The engine `startEngineEarly` started, until a `startEngine()` takes it. */
let early: EngineBridge | null = null;

/**
 * Starts the engine's worker now, for the next `startEngine()` to take: the page's entry calls
 * it first thing, so that the worker fetches and compiles the wasm module (a streaming compile)
 * while the page's language loads and React renders, instead of after.
 */
export function startEngineEarly(): void {
  early ??= startWorker(workerUrl, 'sendpath-engine');
}

/**
 * Starts "Model vs Linux"'s engine (conformWorker.ts) in a new Web Worker: the verbs
 * `conformExperiment` and `conformRows`, in a wasm module that only this worker loads. Its
 * `ready` resolves with the engine's version, as `startEngine`'s.
 */
export function startConformEngine(): EngineBridge {
  return startWorker(conformWorkerUrl, 'sendpath-conform');
}

/**
 * Starts an engine for sweeps and pcap downloads (jobsWorker.ts) in a new Web Worker: every
 * simulator verb, `sweepGrid`, `sweepPoint` and `pcap` among them, in a wasm module that only
 * these workers load.
 */
export function startJobsEngine(): EngineBridge {
  return startWorker(jobsWorkerUrl, 'sendpath-jobs');
}

function startWorker(url: string, name: string): EngineBridge {
  return new EngineBridge(newWorker(url, name));
}

function newWorker(url: string, name: string): Worker {
  const href = new URL(url, import.meta.url).href;
  try {
    return new Worker(href, { type: 'module', name });
  } catch (err) {
    if (!(err instanceof DOMException && err.name === 'SecurityError')) throw err;
    const blob = new Blob([importingWorkerScript(href)], { type: 'text/javascript' });
    return new Worker(URL.createObjectURL(blob), { name });
  }
}

/** The first run `startFirstRunEarly` started reading, until a `takeFirstRun()` takes it. */
let firstRun: Promise<PrerenderedRun> | null = null;

/**
 * Starts reading the landing page's prerendered first run (engine/firstRun.ts) in a worker of
 * its own, for `takeFirstRun()`: the page's entry calls it on a bare link, in place of
 * `startEngineEarly`, so that the first view needs neither the engine's worker nor its wasm.
 * False when this build has no first run (the dev server): start the engine early instead.
 */
export function startFirstRunEarly(): boolean {
  if (!firstRunAssetUrl) return false;
  firstRun ??= readFirstRun(firstRunAssetUrl);
  return true;
}

/**
 * The prerendered first run `startFirstRunEarly` started reading; null when it did not (the dev
 * server has none). Rejects when it cannot be read: the page then runs it in the engine.
 */
export function takeFirstRun(): Promise<PrerenderedRun> | null {
  const run = firstRun;
  firstRun = null;
  return run;
}

function readFirstRun(assetUrl: string): Promise<PrerenderedRun> {
  const run = new Promise<PrerenderedRun>((resolve, reject) => {
    const worker = newWorker(firstRunWorkerUrl, 'sendpath-first-run');
    worker.addEventListener('message', (event: MessageEvent<FirstRunMessage>) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data.run);
      else reject(new EngineError(`the first run could not be read: ${event.data.error}`));
    });
    worker.addEventListener('error', () => {
      worker.terminate();
      reject(new EngineError('the first run could not be read: its worker failed'));
    });
    worker.postMessage(new URL(assetUrl, location.href).href);
  });
  // Whoever takes it handles a failure; nobody may have by then.
  run.catch(() => {});
  return run;
}
