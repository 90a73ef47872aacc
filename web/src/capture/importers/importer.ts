// The contract between the line reader (parse.ts) and the importers: one importer per format,
// fed one line at a time, so that a 100 MB file never has to be in memory as one string.

import type { ReplayBuilder } from '../builder';

export interface Importer {
  readonly builder: ReplayBuilder;
  /** One line of input, without its line end; `lineNo` is 1-based. */
  line(text: string, lineNo: number): void;
  /**
   * Optional fast path: the line is the UTF-8 bytes `buf[start, end)`. Returns true if it read
   * the line (it then does not come through `line`), false to have it decoded and passed to
   * `line`.
   */
  span?(buf: Uint8Array, start: number, end: number, lineNo: number): boolean;
  /**
   * The input ended. `unterminated` is true when its last line had no newline (a file cut
   * short usually ends that way). Returns a fatal error message when nothing usable was read.
   */
  end(unterminated: boolean, lastLine: number): string | null;
}

/** JSON.parse that reports failure instead of throwing. */
export function tryJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The start of a line for a message: printable, at most 60 characters. */
export function excerpt(text: string): string {
  let clean = '';
  for (const ch of text.slice(0, 61)) {
    const c = ch.charCodeAt(0);
    clean += c < 32 || (c >= 0x7f && c < 0xa0) || c === 0xfffd ? '?' : ch;
  }
  return clean.length > 60 ? `${clean.slice(0, 60)}...` : clean;
}
