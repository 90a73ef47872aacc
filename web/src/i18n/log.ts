// The decision log's lines in the page's language. English is the engine's own sentence
// (`Session::describe`) or, for a recording, capture/replay.ts's `describeRecorded`. Another
// language builds its sentence from the row's structured data (the trace columns named by the
// catalog's schema, model/logRow.ts `simRow`, or what a recorded event holds) with the templates of its lazily loaded
// chunk (log.zh-CN.ts), never by parsing the English. A row without a template stays in English
// and says so (`lang`). No React, and no text of another language here: this module is part of
// the English first load.

import type { RecordedFacts } from '../capture/replay';
import type { SimRow } from '../model/logRow';
import { loadedCatalogues } from './catalogues';
import type { Lang } from './lang';

/** A line of the log and the language it is written in (the element's `lang`). */
export interface LogLine {
  text: string;
  lang: Lang;
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
  const catalogues = lang === 'en' ? undefined : loadedCatalogues(lang);
  if (!catalogues || !english) return { text: english, lang: 'en' };
  const { log, messages } = catalogues;
  let text: string | null = null;
  if (facts) text = log.recordedLine(facts);
  else {
    const r = sim();
    if (r) text = log.simLine(r, (gate) => messages.why.gates[gate] ?? gate);
  }
  return text === null ? { text: english, lang: 'en' } : { text, lang };
}

/** An ACK reason (the engine's English name, `catalog.trace.ackReasons`) in `lang`. */
export function ackReasonText(lang: Lang, reason: string): string {
  const log = lang === 'en' ? undefined : loadedCatalogues(lang)?.log;
  return log?.ackReason(reason) ?? reason;
}
