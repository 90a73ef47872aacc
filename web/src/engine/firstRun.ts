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
// stored as zigzag varints of the difference to the value before it (`t`: the row before; a
// value of `values`: the same field of the row of the same kind before; `samples`: the same
// column of the sample before), which gzip then packs to a fifth of the raw numbers; any other
// array is stored as its raw little-endian bytes.

import type { Catalog } from '../model/catalog';
import { deriveRun } from '../model/derive';
import type { TraceColumns } from '../model/trace';
import type { ScenarioInfo } from './generated/ScenarioInfo';
import type { SessionSummary } from './generated/SessionSummary';
import type { PrerenderedRun } from './protocol';

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

/**
 * For each index `i` of an array, the index of the value its difference is taken from (-1: from
 * 0). `key(i)` names what values are compared: the previous value with the same key.
 */
function previousIndex(n: number, key: (i: number) => number): Int32Array {
  const prev = new Int32Array(n);
  const last = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = key(i);
    prev[i] = last.get(k) ?? -1;
    last.set(k, i);
  }
  return prev;
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

type NumberArray = Float64Array | Uint16Array | Uint32Array;

/** The arrays of a run in the asset's order, with how each value's difference is taken. */
function arraysOf(run: {
  cols: TraceColumns;
  samples: Float64Array;
  sampleStride: number;
}): { array: NumberArray; prev: (n: number) => Int32Array }[] {
  const { cols, samples, sampleStride } = run;
  const stride = cols.stride;
  const plain = (n: number) => previousIndex(n, () => 0);
  return [
    { array: cols.t, prev: plain },
    { array: cols.host, prev: plain },
    { array: cols.sk, prev: plain },
    { array: cols.kind, prev: plain },
    {
      array: cols.values,
      prev: (n) =>
        previousIndex(n, (i) => cols.kind[Math.floor(i / stride)]! * stride + (i % stride)),
    },
    { array: samples, prev: (n) => previousIndex(n, (i) => i % Math.max(1, sampleStride)) },
  ];
}

/** The asset's bytes (before gzip) for `run`. */
export function encodeFirstRun(run: FirstRun): Uint8Array {
  const sampleStride = run.summary.samples.stride;
  const arrays = arraysOf({ cols: run.cols, samples: run.samples, sampleStride });
  const header: FirstRunHeader = {
    request: run.request,
    version: run.version,
    catalog: run.catalog,
    info: run.info,
    summary: run.summary,
    rows: run.cols.t.length,
    stride: run.cols.stride,
    samples: run.samples.length,
    sampleStride,
    varint: arrays.map((a) => fitsVarints(a.array)),
  };
  const w = new Writer();
  const json = new TextEncoder().encode(JSON.stringify(header));
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, json.length, true);
  w.bytes(len);
  w.bytes(json);
  arrays.forEach(({ array, prev }, k) => {
    if (!header.varint[k]) {
      // Raw little-endian bytes (every platform the site runs on is little-endian).
      w.bytes(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      return;
    }
    const p = prev(array.length);
    for (let i = 0; i < array.length; i++) w.varint(array[i]! - (p[i]! < 0 ? 0 : array[p[i]!]!));
  });
  return w.done();
}

/** The run `bytes` (the asset, unzipped) holds. */
export function decodeFirstRun(bytes: Uint8Array): FirstRun {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(0, true);
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(4, 4 + jsonLength)),
  ) as FirstRunHeader;
  let at = 4 + jsonLength;
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
  const arrays = arraysOf({ cols, samples, sampleStride: header.sampleStride });
  arrays.forEach(({ array, prev }, k) => {
    if (!header.varint[k]) {
      const raw = bytes.slice(at, at + array.byteLength);
      at += array.byteLength;
      array.set(new (array.constructor as new (b: ArrayBuffer) => NumberArray)(raw.buffer));
      return;
    }
    // `values` is decoded after `kind`, which its differences follow.
    const p = prev(array.length);
    for (let i = 0; i < array.length; i++) {
      let z = 0;
      let scale = 1;
      for (;;) {
        const b = bytes[at++]!;
        z += (b & 127) * scale;
        if (b < 128) break;
        scale *= 128;
      }
      const d = z % 2 === 1 ? -(z + 1) / 2 : z / 2;
      array[i] = d + (p[i]! < 0 ? 0 : array[p[i]!]!);
    }
  });
  if (at !== bytes.length) throw new Error(`first run: ${bytes.length - at} bytes left over`);
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
