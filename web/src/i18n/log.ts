// The decision log's lines in the page's language. English is the engine's own sentence
// (`Session::describe`) or, for a recording, capture/replay.ts's `describeRecorded`. Another
// language builds its sentence from the row's structured data (the trace columns named by the
// catalog's schema, or what a recorded event holds) with the templates of its lazily loaded
// chunk (log.zh-CN.ts), never by parsing the English. A row without a template stays in English
// and says so (`lang`). No React, and no text of another language here: this module is part of
// the English first load.

import type { RecordedFacts } from '../capture/replay';
import type { TraceSchema } from '../model/catalog';
import type { TraceColumns } from '../model/trace';
import { loadedCatalogues } from './current';
import type { Lang } from './lang';

/** Rows in words: the English text of each, and what each recorded (null: a simulated row). */
export interface DescribedRows {
  texts: string[];
  facts: (RecordedFacts | null)[];
  /** A simulated run's: the running `TcpExtTCPAutoCorking` count of each counted autocork. */
  autocorking?: (number | null)[];
}

/** One simulated row as a template reads it. */
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

/** A line of the log and the language it is written in (the element's `lang`). */
export interface LogLine {
  text: string;
  lang: Lang;
}

/** Row `row` of `cols` with its fields named by `schema`. */
export function simRow(
  schema: TraceSchema,
  cols: TraceColumns,
  row: number,
  autocorking: number | null,
): SimRow | null {
  const info = schema.kinds[cols.kind[row]!];
  if (!info) return null;
  const f: Record<string, number> = {};
  info.fields.forEach((name, i) => (f[name] = cols.values[row * cols.stride + i]!));
  return {
    kind: info.name,
    func: info.func,
    f,
    gates: schema.gates,
    ackReasons: schema.ackReasons,
    dropSites: schema.dropSites,
    autocorking,
  };
}

/**
 * The log line of a row in `lang`: `english` itself in English, else the language's template
 * applied to the recorded event (`facts`) or to the simulated row (`sim`); English when the
 * language has no template for it.
 */
export function logLine(
  lang: Lang,
  english: string,
  facts: RecordedFacts | null,
  sim: () => SimRow | null,
): LogLine {
  const log = lang === 'en' ? undefined : loadedCatalogues(lang)?.log;
  if (!log || !english) return { text: english, lang: 'en' };
  let text: string | null = null;
  if (facts) text = log.recordedLine(facts);
  else {
    const r = sim();
    if (r) text = log.simLine(r);
  }
  return text === null ? { text: english, lang: 'en' } : { text, lang };
}

/** An ACK reason (the engine's English name, `catalog.trace.ackReasons`) in `lang`. */
export function ackReasonText(lang: Lang, reason: string): string {
  const log = lang === 'en' ? undefined : loadedCatalogues(lang)?.log;
  return log?.ackReason(reason) ?? reason;
}
