// The engine's event stream in columns (`sendpath_core::trace::Columns`), and the searches
// every view does on it. Row i is the event at `t[i]` (ns), on host `host[i]`, socket `sk[i]`
// (`noSock` for device events), of kind `kind[i]` (a code into the schema's kinds), with its
// numeric fields at `values[i * stride ..]` in the order the schema names them.

export interface TraceColumns {
  t: Float64Array;
  host: Uint16Array;
  sk: Uint32Array;
  kind: Uint16Array;
  values: Float64Array;
  /** Numbers per row in `values` (the schema's `maxFields`). */
  stride: number;
}

/** Field `field` (an index from `fieldIndex`) of row `row`. */
export function val(c: TraceColumns, row: number, field: number): number {
  return c.values[row * c.stride + field]!;
}

/** First index i in [lo, hi) with a[i] >= x (a sorted ascending); hi when none. */
export function lowerBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i in [lo, hi) with a[i] > x (a sorted ascending); hi when none. */
export function upperBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last row at or before `time`, or -1 when the trace starts after it. */
export function rowAtOrBefore(t: Float64Array, time: number): number {
  return upperBound(t, time) - 1;
}

/** The next row after `from` that `match` accepts, or -1. */
export function nextRow(
  c: TraceColumns,
  from: number,
  match: (row: number) => boolean,
  step: 1 | -1 = 1,
): number {
  for (let r = from + step; r >= 0 && r < c.t.length; r += step) {
    if (match(r)) return r;
  }
  return -1;
}

/** The ArrayBuffers of every typed array reachable from `value` (to transfer, not copy). */
export function transferables(value: unknown, out: Set<ArrayBuffer> = new Set()): ArrayBuffer[] {
  const seen = new Set<unknown>();
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) out.add(v.buffer);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    for (const x of Object.values(v as Record<string, unknown>)) walk(x);
  };
  walk(value);
  return [...out];
}
