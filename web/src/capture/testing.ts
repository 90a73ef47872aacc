// Helpers for the capture tests (not part of the site): read a fixture or a sample as a browser
// would (bytes -> UTF-8 -> CaptureParser), and assert the invariants every model must hold.

import { readFileSync } from 'node:fs';

import { EVENT_KINDS, type ParseResult, type ReplayModel } from './model';
import { CaptureParser, INTERNAL_ERROR } from './parse';
import { SAMPLE_FILES } from './samples';

export const FIXTURES = new URL('./fixtures/', import.meta.url);
export const SAMPLES = new URL('../../../public/samples/', import.meta.url);
/** The samples' names (`autocork-on`), from the site's own list of them. */
export const SAMPLE_NAMES = SAMPLE_FILES.map((f) => f.replace(/\.jsonl$/, ''));

/** Parse bytes in chunks of `chunkSize`, as a File's stream delivers them. */
export function parseBytes(bytes: Uint8Array, chunkSize = 64 * 1024): ParseResult {
  const parser = new CaptureParser();
  for (let i = 0; i < bytes.length; i += chunkSize) parser.push(bytes.subarray(i, i + chunkSize));
  return parser.finish();
}

export function parseFile(url: URL, chunkSize?: number): ParseResult {
  return parseBytes(new Uint8Array(readFileSync(url)), chunkSize);
}

/** The model of a file that must parse; throws with the error otherwise. */
export function modelOf(url: URL): ReplayModel {
  const result = parseFile(url);
  if (!result.ok) throw new Error(`${url.pathname}: ${result.error.message}`);
  return result.model;
}

/** Invariants of every model: the timeline covers each event once, in time order. */
export function checkModel(model: ReplayModel): string[] {
  const problems: string[] = [];
  const { tables, timelineKind, timelineRow } = model.events;
  let total = 0;
  for (const kind of EVENT_KINDS) {
    const t = tables[kind];
    total += t.count;
    for (let i = 1; i < t.count; i++)
      if (t.t_ns[i]! < t.t_ns[i - 1]!) problems.push(`${kind} table not sorted at row ${i}`);
  }
  if (timelineKind.length !== total)
    problems.push(`timeline has ${timelineKind.length} of ${total} events`);
  let prev = -Infinity;
  const seen = EVENT_KINDS.map((k) => new Uint8Array(tables[k].count));
  for (let i = 0; i < timelineKind.length; i++) {
    const k = timelineKind[i]!;
    const row = timelineRow[i]!;
    const t = tables[EVENT_KINDS[k]!].t_ns[row]!;
    if (t < prev) problems.push(`timeline goes back in time at ${i}`);
    prev = t;
    if (seen[k]![row]) problems.push(`timeline repeats ${EVENT_KINDS[k]} row ${row}`);
    seen[k]![row] = 1;
  }
  return problems;
}

/** Diagnostics that report a bug in the importers rather than in the input. */
export function internalErrors(result: ParseResult): string[] {
  const all = result.ok ? result.diagnostics : [result.error, ...result.diagnostics];
  return all.filter((d) => d.message.includes(INTERNAL_ERROR)).map((d) => d.message);
}
