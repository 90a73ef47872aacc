// The decision log's filters (by host, flow, kernel function and reason) and the "step to
// the next decision of a kind" search. Filters travel in the URL as `key:value` pairs.

import type { TraceSchema } from './catalog';
import type { RunModel } from './derive';

export interface LogFilter {
  host: number | null;
  flow: number | null;
  /** Kernel function name, e.g. `tcp_push`. */
  func: string | null;
  /** A gate name (`nagle`, `tsq`, ...) or `ack:<reason index>`. */
  reason: string | null;
}

export const NO_FILTER: LogFilter = { host: null, flow: null, func: null, reason: null };

/** Reads `host:0,flow:1,func:tcp_push,reason:nagle`; unknown or malformed parts are dropped. */
export function parseLogFilter(s: string): LogFilter {
  const f: LogFilter = { ...NO_FILTER };
  for (const part of s.split(',')) {
    const i = part.indexOf(':');
    if (i < 0) continue;
    const k = part.slice(0, i);
    const v = part.slice(i + 1);
    if (!v) continue;
    if (k === 'host' || k === 'flow') {
      const n = Number(v);
      if (Number.isInteger(n) && n >= 0) f[k] = n;
    } else if (k === 'func' || k === 'reason') {
      f[k] = v;
    }
  }
  return f;
}

export function serializeLogFilter(f: LogFilter): string {
  const parts: string[] = [];
  if (f.host !== null) parts.push(`host:${f.host}`);
  if (f.flow !== null) parts.push(`flow:${f.flow}`);
  if (f.func !== null) parts.push(`func:${f.func}`);
  if (f.reason !== null) parts.push(`reason:${f.reason}`);
  return parts.join(',');
}

/** The `rowReason` code a reason filter selects, or null if it names no reason. */
export function reasonCode(schema: TraceSchema, reason: string): number | null {
  if (reason.startsWith('ack:')) {
    const i = Number(reason.slice(4));
    return Number.isInteger(i) && i >= 0 && i < schema.ackReasons.length ? 100 + i : null;
  }
  const g = schema.gates.indexOf(reason);
  return g >= 0 ? g : null;
}

/**
 * Every reason a row may carry, for the filter's menu: a gate by its name, an ACK reason in the
 * words `ackText` gives it (the engine's English unless told).
 */
export function reasonOptions(
  schema: TraceSchema,
  ackText: (reason: string) => string = (r) => r,
): { value: string; label: string }[] {
  return [
    ...schema.gates.map((g) => ({ value: g, label: g })),
    ...schema.ackReasons.map((r, i) => ({ value: `ack:${i}`, label: `ACK: ${ackText(r)}` })),
  ];
}

/** The schema of a model's rows: a recording's own (capture/replay.ts), else the engine's. */
export function schemaOf(m: RunModel | null | undefined, engine: TraceSchema): TraceSchema;
export function schemaOf(
  m: RunModel | null | undefined,
  engine: TraceSchema | undefined,
): TraceSchema | undefined;
export function schemaOf(
  m: RunModel | null | undefined,
  engine: TraceSchema | undefined,
): TraceSchema | undefined {
  return m?.recording?.schema ?? engine;
}

/** The kinds a menu offers: a recording's schema offers only the kinds it recorded. */
function offered(schema: TraceSchema): TraceSchema['kinds'] {
  return schema.kinds.some((k) => k.recorded)
    ? schema.kinds.filter((k) => k.recorded)
    : schema.kinds;
}

/** Distinct kernel functions of the schema (a recording's: its tracepoints), in kind order. */
export function functionOptions(schema: TraceSchema): string[] {
  return [...new Set(offered(schema).map((k) => k.func))];
}

/** The rows the filter keeps, in time order. */
export function filterRows(m: RunModel, schema: TraceSchema, f: LogFilter): Uint32Array {
  const c = m.cols;
  const n = c.t.length;
  if (f.host === null && f.flow === null && f.func === null && f.reason === null) {
    const all = new Uint32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    return all;
  }
  const funcKinds =
    f.func === null
      ? null
      : new Set(schema.kinds.flatMap((k, i) => (k.func === f.func ? [i] : [])));
  const reason = f.reason === null ? null : reasonCode(schema, f.reason);
  const out = new Uint32Array(n);
  let k = 0;
  for (let r = 0; r < n; r++) {
    if (f.host !== null && c.host[r] !== f.host) continue;
    if (f.flow !== null && m.rowFlow[r] !== f.flow) continue;
    if (funcKinds !== null && !funcKinds.has(c.kind[r]!)) continue;
    if (f.reason !== null && (reason === null || m.rowReason[r] !== reason)) continue;
    out[k++] = r;
  }
  return out.slice(0, k);
}

/** A decision kind to step to: an event kind, or a hold at one gate (`xmit_hold:tsq`). */
export interface StepKind {
  value: string;
  label: string;
}

/**
 * The kinds to step to, labelled; `holdAt` words a hold at one gate (the site passes its
 * language's wording).
 */
export function stepKinds(
  schema: TraceSchema,
  holdAt: (gate: string) => string = (g) => `xmit_hold at ${g} (tcp_write_xmit)`,
): StepKind[] {
  if (schema.kinds.some((k) => k.recorded))
    // A recording: its own events (a recording has no tcp_write_xmit holds).
    return offered(schema).map((k) => ({ value: k.name, label: `${k.recorded} (${k.func})` }));
  const kinds = schema.kinds.map((k) => ({ value: k.name, label: `${k.name} (${k.func})` }));
  const holds = schema.gates.map((g) => ({
    value: `xmit_hold:${g}`,
    label: holdAt(g),
  }));
  return [...kinds, ...holds];
}

/** A predicate over rows for a step kind; null when the kind is unknown. */
export function stepMatcher(
  m: RunModel,
  schema: TraceSchema,
  step: string,
): ((row: number) => boolean) | null {
  const [name, gate] = step.split(':');
  const kind = schema.kinds.findIndex((k) => k.name === name);
  if (kind < 0) return null;
  if (gate === undefined) return (r) => m.cols.kind[r] === kind;
  const g = schema.gates.indexOf(gate);
  if (g < 0) return null;
  return (r) => m.cols.kind[r] === kind && m.rowReason[r] === g;
}
