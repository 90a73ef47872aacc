// Reading a ReplayModel: rows as objects, counter totals and series, and a short summary. Used by
// the replay views and by the importers' snapshot tests.

import {
  EVENT_FIELDS,
  EVENT_KINDS,
  FIELD_TYPES,
  type CounterSample,
  type EventKind,
  type ReplayModel,
} from './model';

export type EventRow = { kind: EventKind; t_ns: number } & Record<string, number | string | null>;

/** Row `row` of the `kind` table as an object; string fields resolved, unknown values null. */
export function eventRow(model: ReplayModel, kind: EventKind, row: number): EventRow {
  const table = model.events.tables[kind];
  const out: EventRow = { kind, t_ns: table.t_ns[row]! };
  for (const field of EVENT_FIELDS[kind]) {
    const v = table.columns[field]![row]!;
    if (Number.isNaN(v)) out[field] = null;
    else if (FIELD_TYPES[field] === 'string') out[field] = model.events.strings[v] ?? null;
    else out[field] = v;
  }
  return out;
}

/** The i-th event of the timeline (all kinds in time order). */
export function timelineEvent(model: ReplayModel, i: number): EventRow {
  const kind = EVENT_KINDS[model.events.timelineKind[i]!]!;
  return eventRow(model, kind, model.events.timelineRow[i]!);
}

/**
 * Counter increments over the whole recording, per counter, for one network namespace: the sum
 * of delta samples (absolute and unknown samples are not increments and are left out).
 */
export function counterIncrements(model: ReplayModel, netns = ''): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const s of model.counters) {
    if (s.netns !== netns || s.kind !== 'delta') continue;
    for (const [name, v] of Object.entries(s.values)) totals[name] = (totals[name] ?? 0) + v;
  }
  return totals;
}

/**
 * One counter over time for one namespace: [t_ns, value] with value relative to the first
 * absolute sample (0 at the start), from absolute and delta samples.
 */
export function counterSeries(
  model: ReplayModel,
  name: string,
  netns = '',
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let value: number | null = null;
  let base: number | null = null;
  for (const s of model.counters as CounterSample[]) {
    if (s.netns !== netns || s.t_ns === null) continue;
    const v = s.values[name] ?? 0;
    if (s.kind === 'absolute') {
      if (base === null) base = v;
      value = v - base;
    } else if (s.kind === 'delta') {
      value = (value ?? 0) + v;
    } else continue;
    out.push([s.t_ns, value]);
  }
  return out;
}

/** A compact, deterministic description of a model: what the snapshot tests compare. */
export function summarize(model: ReplayModel, rowsPerKind = 3) {
  const events: Record<string, { count: number; first: EventRow[] }> = {};
  for (const kind of EVENT_KINDS) {
    const count = model.events.tables[kind].count;
    if (count === 0) continue;
    const first: EventRow[] = [];
    for (let i = 0; i < Math.min(rowsPerKind, count); i++) first.push(eventRow(model, kind, i));
    events[kind] = { count, first };
  }
  const namespaces = [...new Set(model.counters.map((c) => c.netns))];
  return {
    format: model.format,
    lines: model.lines,
    bytes: model.bytes,
    truncated: model.truncated,
    durationNs: model.durationNs,
    config: {
      ...model.config,
      sysctls: Object.fromEntries(
        Object.entries(model.config.sysctls).map(([ns, v]) => [
          ns,
          `${Object.keys(v).length} sysctls`,
        ]),
      ),
      devices: model.config.devices.map((d) => ({
        dev: d.dev,
        driver: d.driver?.['driver'] ?? null,
        tso: d.features?.['tcp-segmentation-offload'] ?? null,
      })),
      tracepoints: model.config.tracepoints ? Object.keys(model.config.tracepoints).length : null,
      symbols: model.config.symbols ? Object.keys(model.config.symbols) : null,
      note: model.config.note ? `${model.config.note.slice(0, 80)}...` : null,
    },
    counterSamples: model.counters.length,
    counterKinds: [...new Set(model.counters.map((c) => c.kind))],
    counterSources: [...new Set(model.counters.map((c) => c.source))],
    increments: Object.fromEntries(namespaces.map((ns) => [ns, counterIncrements(model, ns)])),
    firstSample: model.counters[0] ?? null,
    socketSamples: model.sockets.length,
    qdiscSamples: model.qdiscs.length,
    workload: model.workload
      ? { command: model.workload.command, exit_status: model.workload.exit_status }
      : null,
    eventWindow: model.eventWindow,
    timeline: model.events.timelineKind.length,
    addresses: model.events.addressCount,
    strings: model.events.strings,
    events,
    coverage: Object.fromEntries(model.coverage.map((c) => [c.stage, c.recorded])),
  };
}
