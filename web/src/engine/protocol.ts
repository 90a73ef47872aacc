// The message protocol between the engine bridge (main thread) and the engine worker.
// Types only: both sides import it, neither imports the other. See bridge.ts for the call chain.

import type { RunRequest } from './generated/RunRequest';
import type { RunResult } from './generated/RunResult';

/**
 * Every verb the engine answers: its arguments and its result. Results are plain data
 * (structured-clone safe); types of engine values come from Rust (./generated/).
 */
export interface Verbs {
  /** The engine's version, the Cargo workspace version of engine/. */
  version: { args: []; result: string };
  /**
   * Runs one scenario file to its end (sendpath_core::run_source). Rejects with the engine's
   * message, which names the file and the key, when the scenario is invalid.
   */
  run: { args: [request: RunRequest]; result: RunResult };
}

export type Verb = keyof Verbs;

/** Main thread -> worker: call `verb` with `args`; `id` pairs the answer with the call. */
export type Request = { [V in Verb]: { id: number; verb: V; args: Verbs[V]['args'] } }[Verb];

/** Worker -> main thread. */
export type WorkerMessage =
  /** Sent once, when the wasm module is instantiated: the explicit "engine ready" signal. */
  | { kind: 'ready'; version: string }
  /** Sent once instead of `ready` when the wasm module cannot be loaded. */
  | { kind: 'failed'; error: string }
  /** The answer to the request with the same id: a result, or the engine's error message. */
  | { kind: 'answer'; id: number; ok: true; result: unknown }
  | { kind: 'answer'; id: number; ok: false; error: string };
