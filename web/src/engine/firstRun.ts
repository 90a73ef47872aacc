// The landing page's first run, prerendered (issue 16, "first load"): the build runs the engine
// once on the run a bare link opens (`firstRunRequest`) and ships what the engine's worker
// would have computed from it, in a compact binary asset (`encodeFirstRun`), so that the first
// view is interactive before the wasm engine (700 kB) has loaded. The page decodes it in a
// worker of its own (firstRunWorker.ts), which derives the run model exactly as `simulate`
// does; the engine loads right after. scripts/vite-plugin-first-run.ts makes the asset;
// firstRun.test.ts checks that it gives the same model as a live run, array for array.
//
// The asset, before gzip: a u32 (little-endian) byte length, a JSON header (`FirstRunHeader`),
// then the arrays one after the other. An array of integers (every value of this run so far) is
// stored as zigzag varints of the difference to a value before it (`t`: the row before;
// `samples`: the same column of the sample before; `values`: see ValueLayout), which gzip then
// packs to a sixth of the raw numbers; any other array is stored as its raw little-endian bytes.

import type { Catalog } from '../model/catalog';
import { deriveRun, type RunModel } from '../model/derive';
import type { TraceColumns } from '../model/trace';
import type { ScenarioInfo } from './generated/ScenarioInfo';
import type { SessionSummary } from './generated/SessionSummary';

/** Events the interactive window aims for when the link chooses none (the calibration). */
export const CALIBRATE_EVENTS = 25_000;

/** The scenario a bare link opens (model/scenarioIndex.ts DEFAULT_SCENARIO_NAME). */
export const FIRST_RUN_SCENARIO = 'autocorking';

/** A run of the interactive view, as the store asks the worker for it (`simulate`). */
export interface FirstRunRequest {
  source: string;
  file: string;
  variant: string | null;
  sets: string[];
  fromNs: number;
  toNs: number | null;
  calibrateEvents: number;
}

/** The run a bare link opens: the first variant of FIRST_RUN_SCENARIO, the calibrated window. */
export function firstRunRequest(source: string): FirstRunRequest {
  return {
    source,
    file: `scenarios/${FIRST_RUN_SCENARIO}.toml`,
    variant: /^\[variants\.([A-Za-z0-9_-]+)\]/m.exec(source)?.[1] ?? null,
    sets: [],
    fromNs: 0,
    toNs: null,
    calibrateEvents: CALIBRATE_EVENTS,
  };
}

/** Whether the store's request is the one the first run was made from. */
export function sameRequest(x: FirstRunRequest, y: FirstRunRequest): boolean {
  return (
    x.source === y.source &&
    x.file === y.file &&
    x.variant === y.variant &&
    x.fromNs === y.fromNs &&
    x.toNs === y.toNs &&
    x.calibrateEvents === y.calibrateEvents &&
    x.sets.length === y.sets.length &&
    x.sets.every((s, i) => s === y.sets[i])
  );
}

/** What the engine gives for the first run: what the page shows before the engine loads. */
export interface FirstRun {
  request: FirstRunRequest;
  version: string;
  catalog: Catalog;
  info: ScenarioInfo;
  summary: SessionSummary;
  cols: TraceColumns;
  samples: Float64Array;
}

/** The landing page's first run as the page shows it: what the engine's worker would give. */
export interface PrerenderedRun {
  /** The run it is: the store uses it only for this request. */
  request: FirstRunRequest;
  version: string;
  catalog: Catalog;
  info: ScenarioInfo;
  model: RunModel;
}

/** firstRunWorker.ts -> main thread, once. */
export type FirstRunMessage = { ok: true; run: PrerenderedRun } | { ok: false; error: string };

/**
 * How `values` is stored, per kind of row that occurs (the rows of a kind keep their order):
 * the kind's first `fields` fields (the others are 0 in every row of it), each as a stream of
 * `bytes[f]` bytes holding, per row, the value less its predictor's (`predictors[f]`: -1 none,
 * 0 <= p < stride the field p of the kind's previous row, stride + g the field g < f of the same
 * row). The build picks the predictor that compresses best (`encodeFirstRun`'s `size`): a
 * segment's sequence number is best told from the previous segment's end, its end from its start.
 */
interface ValueLayout {
  kind: number;
  fields: number;
  predictors: number[];
  bytes: number[];
}

/** The asset's JSON part; the arrays follow it in this order: t, host, sk, kind, values, samples. */
interface FirstRunHeader {
  request: FirstRunRequest;
  version: string;
  catalog: Catalog;
  info: ScenarioInfo;
  summary: SessionSummary;
  rows: number;
  stride: number;
  samples: number;
  /** The samples' stride (`summary.samples.stride`), for their differences. */
  sampleStride: number;
  /** Per array: stored as varints of differences (true) or as raw bytes (false). */
  varint: boolean[];
  /** How `values` is stored, when as varints. */
  values: ValueLayout[];
}

/** Integers up to this size have exact differences and zigzag codes in a double. */
const MAX_VARINT = 2 ** 50;

function fitsVarints(xs: ArrayLike<number>): boolean {
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (!Number.isInteger(x) || Math.abs(x) > MAX_VARINT || Object.is(x, -0)) return false;
  }
  return true;
}

class Writer {
  private buf = new Uint8Array(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** A zigzag varint: 7 bits a byte, low bits first; the sign in the lowest bit. */
  varint(x: number): void {
    let z = x < 0 ? -2 * x - 1 : 2 * x;
    this.room(8);
    while (z >= 128) {
      this.buf[this.length++] = (z % 128) | 128;
      z = Math.floor(z / 128);
    }
    this.buf[this.length++] = z;
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

class Reader {
  constructor(
    private readonly buf: Uint8Array,
    public at: number,
  ) {}

  varint(): number {
    let z = 0;
    let scale = 1;
    for (;;) {
      const b = this.buf[this.at++]!;
      z += (b & 127) * scale;
      if (b < 128) break;
      scale *= 128;
    }
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  }
}

type NumberArray = Float64Array | Uint16Array | Uint32Array;

/** Each value of `xs` less the previous one with the same `key(i)` (the first, less 0). */
function writeDiffs(w: Writer, xs: NumberArray, key: (i: number) => number): void {
  const last = new Map<number, number>();
  for (let i = 0; i < xs.length; i++) {
    const k = key(i);
    w.varint(xs[i]! - (last.get(k) ?? 0));
    last.set(k, xs[i]!);
  }
}

function readDiffs(r: Reader, xs: NumberArray, key: (i: number) => number): void {
  const last = new Map<number, number>();
  for (let i = 0; i < xs.length; i++) {
    const k = key(i);
    xs[i] = r.varint() + (last.get(k) ?? 0);
    last.set(k, xs[i]!);
  }
}

/** The rows of each kind, in order. */
function rowsByKind(kind: Uint16Array): Map<number, number[]> {
  const rows = new Map<number, number[]>();
  for (let i = 0; i < kind.length; i++) {
    let list = rows.get(kind[i]!);
    if (!list) rows.set(kind[i]!, (list = []));
    list.push(i);
  }
  return new Map([...rows].sort((a, b) => a[0] - b[0]));
}

/** The predicted value of field `f` of the `j`th row of `rows` (ValueLayout's `predictors`). */
function predicted(cols: TraceColumns, rows: number[], j: number, p: number): number {
  const { values, stride } = cols;
  if (p < 0) return 0;
  if (p < stride) return j === 0 ? 0 : values[rows[j - 1]! * stride + p]!;
  return values[rows[j]! * stride + p - stride]!;
}

/** `values` as ValueLayout says, each field's stream the one of least `size`. */
function writeValues(
  w: Writer,
  cols: TraceColumns,
  size: (bytes: Uint8Array) => number,
): ValueLayout[] {
  const { values, stride } = cols;
  const layouts: ValueLayout[] = [];
  for (const [kind, rows] of rowsByKind(cols.kind)) {
    let fields = 0;
    for (const i of rows)
      for (let f = fields; f < stride; f++) if (values[i * stride + f] !== 0) fields = f + 1;
    const layout: ValueLayout = { kind, fields, predictors: [], bytes: [] };
    for (let f = 0; f < fields; f++) {
      const candidates = [-1];
      for (let g = 0; g < fields; g++) candidates.push(g);
      for (let g = 0; g < f; g++) candidates.push(stride + g);
      let best: { p: number; bytes: Uint8Array; size: number } | null = null;
      for (const p of candidates) {
        const stream = new Writer();
        for (let j = 0; j < rows.length; j++)
          stream.varint(values[rows[j]! * stride + f]! - predicted(cols, rows, j, p));
        const bytes = stream.done();
        const n = size(bytes);
        if (!best || n < best.size) best = { p, bytes, size: n };
      }
      layout.predictors.push(best!.p);
      layout.bytes.push(best!.bytes.length);
      w.bytes(best!.bytes);
    }
    layouts.push(layout);
  }
  return layouts;
}

function readValues(bytes: Uint8Array, at: number, cols: TraceColumns, layouts: ValueLayout[]) {
  const { values, stride } = cols;
  const byKind = rowsByKind(cols.kind);
  for (const { kind, fields, predictors, bytes: lengths } of layouts) {
    const rows = byKind.get(kind) ?? [];
    // One reader per field, each at the start of its stream; the rows are read in order, so
    // that a predictor's field of this row or the row before is known.
    const readers: Reader[] = [];
    for (let f = 0; f < fields; f++) {
      readers.push(new Reader(bytes, at));
      at += lengths[f]!;
    }
    for (let j = 0; j < rows.length; j++)
      for (let f = 0; f < fields; f++)
        values[rows[j]! * stride + f] =
          readers[f]!.varint() + predicted(cols, rows, j, predictors[f]!);
  }
  return at;
}

/**
 * The asset's bytes (before gzip) for `run`. `size` rates a stream of `values` (the build: its
 * gzipped size); the predictor of least size is kept.
 */
export function encodeFirstRun(
  run: FirstRun,
  size: (bytes: Uint8Array) => number = (b) => b.length,
): Uint8Array {
  const { cols, samples } = run;
  const sampleStride = Math.max(1, run.summary.samples.stride);
  const arrays = [cols.t, cols.host, cols.sk, cols.kind, cols.values, samples];
  const varint = arrays.map(fitsVarints);
  const body = new Writer();
  let layouts: ValueLayout[] = [];
  arrays.forEach((array, k) => {
    if (!varint[k]) {
      // Raw little-endian bytes (every platform the site runs on is little-endian).
      body.bytes(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    } else if (array === cols.values) {
      layouts = writeValues(body, cols, size);
    } else {
      // The samples' columns each follow their own previous value; a column of the trace, the
      // row before.
      writeDiffs(body, array, array === samples ? (i) => i % sampleStride : () => 0);
    }
  });
  const header: FirstRunHeader = {
    request: run.request,
    version: run.version,
    catalog: run.catalog,
    info: run.info,
    summary: run.summary,
    rows: cols.t.length,
    stride: cols.stride,
    samples: samples.length,
    sampleStride,
    varint,
    values: layouts,
  };
  const w = new Writer();
  const json = new TextEncoder().encode(JSON.stringify(header));
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, json.length, true);
  w.bytes(len);
  w.bytes(json);
  w.bytes(body.done());
  return w.done();
}

/** The run `bytes` (the asset, unzipped) holds. */
export function decodeFirstRun(bytes: Uint8Array): FirstRun {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(0, true);
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(4, 4 + jsonLength)),
  ) as FirstRunHeader;
  const { rows, stride } = header;
  const cols: TraceColumns = {
    t: new Float64Array(rows),
    host: new Uint16Array(rows),
    sk: new Uint32Array(rows),
    kind: new Uint16Array(rows),
    values: new Float64Array(rows * stride),
    stride,
  };
  const samples = new Float64Array(header.samples);
  const arrays = [cols.t, cols.host, cols.sk, cols.kind, cols.values, samples];
  const r = new Reader(bytes, 4 + jsonLength);
  arrays.forEach((array, k) => {
    if (!header.varint[k]) {
      const raw = bytes.slice(r.at, r.at + array.byteLength);
      r.at += array.byteLength;
      array.set(new (array.constructor as new (b: ArrayBuffer) => NumberArray)(raw.buffer));
    } else if (array === cols.values) {
      // After `kind`, which says whose rows are whose.
      r.at = readValues(bytes, r.at, cols, header.values);
    } else {
      readDiffs(r, array, array === samples ? (i) => i % header.sampleStride : () => 0);
    }
  });
  if (r.at !== bytes.length) throw new Error(`first run: ${bytes.length - r.at} bytes left over`);
  return {
    request: header.request,
    version: header.version,
    catalog: header.catalog,
    info: header.info,
    summary: header.summary,
    cols,
    samples,
  };
}

/**
 * The asset as the page shows it: unzipped, decoded, and derived as the engine's worker derives
 * a run after `simulate` (model/derive.ts). Runs in firstRunWorker.ts.
 */
export async function readFirstRun(
  gzipped: ReadableStream<Uint8Array<ArrayBuffer>>,
): Promise<PrerenderedRun> {
  const t0 = performance.now();
  const unzipped = gzipped.pipeThrough(new DecompressionStream('gzip'));
  const run = decodeFirstRun(new Uint8Array(await new Response(unzipped).arrayBuffer()));
  const t1 = performance.now();
  const model = deriveRun(run.cols, run.summary, run.samples, run.catalog.trace);
  model.timing = { runMs: 0, columnsMs: t1 - t0, deriveMs: performance.now() - t1 };
  const { request, version, catalog, info } = run;
  return { request, version, catalog, info, model };
}
