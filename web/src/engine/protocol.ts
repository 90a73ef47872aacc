// The message protocol between the engine bridge (main thread) and the engine worker.
// Types only: both sides import it, neither imports the other. See bridge.ts for the call chain.

import type { Catalog } from '../model/catalog';
import type { ConformFile } from '../model/conformFiles';
import type { RunModel } from '../model/derive';
import type { SweepPointResult } from '../model/sweep';
import type { ConformExperiment } from './generated/ConformExperiment';
import type { Described } from './generated/Described';
import type { KernelDiff } from './generated/KernelDiff';
import type { PacketdrillReport } from './generated/PacketdrillReport';
import type { Row } from './generated/Row';
import type { RunSummary } from './generated/RunSummary';
import type { ScenarioInfo } from './generated/ScenarioInfo';
import type { SessionSummary } from './generated/SessionSummary';
import type { SweepGrid } from './generated/SweepGrid';

/** One configuration of a scenario: the file, a variant, `KEY=VALUE` overrides. */
export interface SideRequest {
  /** The scenario file's text (TOML). */
  source: string;
  /** Its path, as errors name it (`scenarios/autocorking.toml`). */
  file: string;
  variant: string | null;
  sets: string[];
}

/** The two runs of an A/B comparison; a page without comparison has only `a`. */
export type Side = 'a' | 'b';

/** An interactive run: the scenario recorded in the window [fromNs, toNs). */
export interface SimulateRequest extends SideRequest {
  side: Side;
  fromNs: number;
  /** End of the window; null = stop at a round instant once `calibrateEvents` are recorded. */
  toNs: number | null;
  calibrateEvents: number;
}

/** A full run, without trace: the counters at the end and samples along the way. */
export interface ExperimentResult {
  summary: SessionSummary;
  /** Counter samples, `summary.samples.stride` numbers each. */
  samples: Float64Array;
  /** The metrics the request named: null for a name the engine does not know. */
  metrics: Record<string, number | null>;
}

/** A sweep of one configuration: the varied keys (`KEY=A..B[:STEP|xFACTOR]`) and metrics. */
export interface SweepRequest extends SideRequest {
  vary: string[];
  metrics: string[];
}

/** The packets of a configuration's run, from its start to `toNs` (null: to its end). */
export interface PcapRequest extends SideRequest {
  toNs: number | null;
  /** `tso`: a TSO skb is one frame, as the sender's tap sees it; `wire`: the MSS frames. */
  frames: 'tso' | 'wire';
  /** Bytes kept of each frame; 0 keeps whole frames. */
  snaplen: number;
}

/** An experiment to run beside its recording: the file, its scenario and the known failures. */
export interface ConformRequest extends ConformFile {
  /** The text of the engine scenario the experiment names. */
  scenarioSource: string;
  /** Its path (`scenarios/nagle-delayed-ack.toml`). */
  scenarioFile: string;
  /** The text of scenarios/conformance/known-failures.toml; '' when there is none. */
  knownFailures: string;
}

/**
 * Every verb the engine answers: its arguments and its result. Results are plain data
 * (structured-clone safe); types of engine values come from Rust (./generated/).
 */
export interface Verbs {
  /** The engine's version, the Cargo workspace version of engine/. */
  version: { args: []; result: string };
  /** The trace schema, the key registry and the counter names. */
  catalog: { args: []; result: Catalog };
  /** What a scenario says with a variant and overrides applied; rejects as a run would. */
  scenarioInfo: { args: [request: SideRequest]; result: ScenarioInfo };
  /**
   * Runs the window of an interactive view and derives everything the page shows of it (in
   * the worker, model/derive.ts). The worker keeps the run of each side for `describe`.
   */
  simulate: { args: [request: SimulateRequest]; result: RunModel };
  /**
   * Runs the window as `simulate` does and keeps it for `describe`, without deriving or
   * returning it: the landing page's first run, which the page showed prerendered (firstRun.ts).
   */
  keepRun: { args: [request: SimulateRequest]; result: null };
  /**
   * Warms the worker's code up on this window at idle times (serve.ts, `warmUpLater`): the
   * simulator's page asks once its first run is in, so that the reader's first changes of a
   * control do not run in the engine's and the derivation's baseline code. Once a worker.
   */
  warmUp: { args: [request: SimulateRequest]; result: null };
  /**
   * Rows of the last `simulate` of `side` in words ("<kernel function>: <decision>"), with the
   * running `TcpExtTCPAutoCorking` count of each counted autocork.
   */
  describe: { args: [side: Side, rows: number[]]; result: Described };
  /**
   * Runs a scenario to its end without trace; posts progress on the way. `metrics` names the
   * values to read at the end (`sendpath compare`'s metrics: `elapsed_s`, `HOST:<counter>`…).
   */
  experiment: { args: [request: SideRequest, metrics?: string[]]; result: ExperimentResult };
  /** A sweep's checked grid; rejects with the engine's error naming a bad key or metric. */
  sweepGrid: { args: [request: SweepRequest]; result: SweepGrid };
  /** Runs one point of a sweep (a configuration, to its end) and reads `metrics` by name. */
  sweepPoint: {
    args: [request: SideRequest, metrics: string[]];
    result: SweepPointResult;
  };
  /** The packets of a run as a pcapng file (`sendpath run --pcap`). */
  pcap: { args: [request: PcapRequest]; result: Uint8Array };
  /**
   * Runs a configuration to its end with `sendpath run`'s summary (per flow, per device, holds
   * per gate) and its `--csv` tables at `intervalNs`; posts progress on the way.
   */
  runSummary: { args: [request: SideRequest, intervalNs: number]; result: RunSummary };
  /** `sendpath run --at TIME`'s text: the sockets as `ss -tin`, the qdiscs as `tc -s qdisc`. */
  atText: { args: [request: SideRequest, atNs: number]; result: string };
  /** The keys and kernel switches that differ between two configurations (`sendpath diff`). */
  kernelDiff: { args: [a: SideRequest, b: SideRequest]; result: KernelDiff };
  /** A conformance experiment file as the "Model vs Linux" view shows it; rejects a bad file. */
  conformExperiment: { args: [file: ConformFile]; result: ConformExperiment };
  /**
   * Runs a conformance experiment's scenario (its variant and overrides) and puts each recorded
   * value beside the model's: the rows of `sendpath conform --json`.
   */
  conformRows: { args: [request: ConformRequest]; result: Row[] };
  /**
   * Runs a packetdrill script against the engine (the `.pkt` player): the report of
   * `sendpath packetdrill --json`, a script that does not parse included (outcome `error`).
   */
  packetdrill: { args: [script: PacketdrillScript]; result: PacketdrillReport };
}

/** A packetdrill script: its text and its name, as the report names it. */
export interface PacketdrillScript {
  text: string;
  name: string;
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
  | { kind: 'answer'; id: number; ok: false; error: string }
  /** How far the request with this id has got (long jobs: `experiment`). */
  | { kind: 'progress'; id: number; done: number; total: number };
