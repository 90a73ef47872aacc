// Shared by the model's unit tests: run a scenario window in the real wasm engine (the module
// is passed in by the test, which alone may import the wasm package) and derive its model,
// exactly as the worker's `simulate` does.

import type { SessionRequest } from '../engine/generated/SessionRequest';
import type { SessionSummary } from '../engine/generated/SessionSummary';
import type { Catalog } from './catalog';
import { deriveRun, type RunModel } from './derive';
import { scenarioFiles } from './scenarios';

/** The part of a wasm session the tests drive (engine/wasm/src/site.rs). */
interface SessionLike {
  advance(maxEvents: number): boolean;
  summary(): string;
  samples(): Float64Array;
  col_t_ns(): Float64Array;
  col_host(): Uint16Array;
  col_sk(): Uint32Array;
  col_kind(): Uint16Array;
  col_values(): Float64Array;
  free(): void;
}

export interface WasmLike {
  engine_catalog(): string;
  WasmSession: new (
    source: string,
    file: string,
    variant: string | undefined,
    sets: string[],
    trace: boolean,
    fromNs: number,
    toNs: number | undefined,
    calibrateEvents: number | undefined,
    traceLimit: number,
    sampleEveryEvents: number,
    sampleEveryNs: number,
  ) => SessionLike;
}

export interface WindowOptions {
  variant?: string | null;
  sets?: string[];
  fromNs?: number;
  toNs?: number | null;
  calibrateEvents?: number;
}

/** The text of scenarios/<name>. */
export function scenarioSource(name: string): { source: string; path: string } {
  const f = scenarioFiles.find((s) => s.name === name);
  if (!f) throw new Error(`no scenario ${name}`);
  return { source: f.source, path: f.path };
}

export function runWindow(wasm: WasmLike, name: string, o: WindowOptions = {}): RunModel {
  const catalog = JSON.parse(wasm.engine_catalog()) as Catalog;
  const { source, path } = scenarioSource(name);
  const req: SessionRequest = {
    source,
    file: path,
    variant: o.variant ?? null,
    sets: o.sets ?? [],
    trace: true,
    fromNs: o.fromNs ?? 0,
    toNs: o.toNs ?? null,
    calibrateEvents: (o.toNs ?? null) === null ? (o.calibrateEvents ?? 20_000) : null,
    traceLimit: 400_000,
    sampleEveryEvents: 100,
    sampleEveryNs: 0,
  };
  const s = new wasm.WasmSession(
    req.source,
    req.file,
    req.variant ?? undefined,
    req.sets,
    req.trace,
    req.fromNs,
    req.toNs ?? undefined,
    req.calibrateEvents ?? undefined,
    req.traceLimit,
    req.sampleEveryEvents,
    req.sampleEveryNs,
  );
  while (!s.advance(100_000)) {
    /* run through */
  }
  const summary = JSON.parse(s.summary()) as SessionSummary;
  const cols = {
    t: s.col_t_ns(),
    host: s.col_host(),
    sk: s.col_sk(),
    kind: s.col_kind(),
    values: s.col_values(),
    stride: catalog.trace.maxFields,
  };
  const model = deriveRun(cols, summary, s.samples(), catalog.trace);
  s.free();
  return model;
}

export function catalogOf(wasm: WasmLike): Catalog {
  return JSON.parse(wasm.engine_catalog()) as Catalog;
}
