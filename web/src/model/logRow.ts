// A simulated row of the decision log with its fields named by the trace schema: what a
// language's log template reads (i18n/log.ts, i18n/log.zh-CN.ts). A module of its own so that it
// loads with the decision log, not with the page.

import type { TraceSchema } from './catalog';
import type { TraceColumns } from './trace';

/** One simulated row with its fields named: what a language's log template reads (i18n/log.ts). */
export interface SimRow {
  /** The kind's name (`autocork`) and kernel function (`tcp_push`). */
  kind: string;
  func: string;
  /** The row's fields by the schema's names; u64::MAX ("unlimited") is Infinity. */
  f: Record<string, number>;
  /** The schema's gate and ACK-reason names, by code. */
  gates: readonly string[];
  ackReasons: readonly string[];
  dropSites: readonly string[];
  /**
   * For an autocork that incremented `TcpExtTCPAutoCorking`: the counter's value after it (the
   * engine's `Described.autocorking`); null for any other row, or while unknown.
   */
  autocorking: number | null;
}

/**
 * Row `row` of `cols` with its fields named by `schema`; `active` says whether the row's socket
 * is the connecting side (the passive side establishes in `tcp_rcv_state_process`).
 */
export function simRow(
  schema: TraceSchema,
  cols: TraceColumns,
  row: number,
  autocorking: number | null,
  active = true,
): SimRow | null {
  const info = schema.kinds[cols.kind[row]!];
  if (!info) return null;
  const f: Record<string, number> = {};
  info.fields.forEach((name, i) => (f[name] = cols.values[row * cols.stride + i]!));
  return {
    kind: info.name,
    func: active ? info.func : (info.passiveFunc ?? info.func),
    f,
    gates: schema.gates,
    ackReasons: schema.ackReasons,
    dropSites: schema.dropSites,
    autocorking,
  };
}
