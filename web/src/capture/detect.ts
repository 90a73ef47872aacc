// Format detection by content: the first meaningful lines decide which importer reads a file.
// File names and extensions are never trusted.

import { BPFTRACE_JSON_TYPES } from './importers/bpftraceRecords';
import { PAYLOAD_LINE } from './importers/bpftraceText';
import { excerpt, tryJson } from './importers/importer';
import { CAPTURE_RECORD_TYPES } from './importers/sendpathCapture';
import type { CaptureFormat } from './model';
import { nstatTextLine, timestampLine } from './nstat';

export const EXPECTED_FORMATS =
  'a sendpath capture (first line {"type":"header","format":"sendpath-capture",...}), nstat text output ("#kernel" then counter lines), nstat -j JSON ({"kernel":{...}}), or the output of bpftrace capture/sendpath.bt (JSON with -f json, or text)';

export type Detection =
  | { ok: true; format: CaptureFormat }
  | { ok: false; line: number | null; message: string }
  | { ok: 'more' };

/** Lines bpftrace writes on stderr or before the events, skipped when detecting. */
function isPreamble(text: string): boolean {
  return /^(ERROR|WARNING): /.test(text) || /^Attach(ing|ed) \d+ probes?/.test(text);
}

/**
 * Decide the format from the first lines of a file ([line number, text] pairs, blank lines
 * included). Returns an error naming the line that does not fit any format, or `more` when the
 * lines so far cannot decide (only bpftrace's banner yet, or a time line) and `final` is false.
 */
export function detectFormat(head: Array<[number, string]>, final = true): Detection {
  const meaningful = head.filter(([, t]) => t.trim() !== '');
  if (meaningful.length === 0 && !final) return { ok: 'more' };
  if (meaningful.length === 0)
    return { ok: false, line: null, message: 'the file is empty: expected ' + EXPECTED_FORMATS };
  let sawPreamble = false;
  for (let i = 0; i < meaningful.length; i++) {
    const [line, raw] = meaningful[i]!;
    const text = raw.trim();
    if (isPreamble(text)) {
      sawPreamble = true;
      continue;
    }
    if (text.startsWith('{')) {
      // Several JSON values on one line (nstat -j outputs concatenated): judge by the first.
      const parsed = tryJson(firstJsonValue(text));
      if (
        parsed.ok &&
        typeof parsed.value === 'object' &&
        parsed.value !== null &&
        !Array.isArray(parsed.value)
      ) {
        const v = parsed.value as Record<string, unknown>;
        const type = v['type'];
        if (type === 'header' && v['format'] === 'sendpath-capture')
          return { ok: true, format: 'sendpath-capture' };
        if (type === 'header')
          return {
            ok: false,
            line,
            message: `line ${line}: a header whose "format" is ${JSON.stringify(v['format'])?.slice(0, 40)}: expected "sendpath-capture"`,
          };
        if (typeof type === 'string' && BPFTRACE_JSON_TYPES.has(type))
          return { ok: true, format: 'bpftrace-json' };
        if (typeof type === 'string' && CAPTURE_RECORD_TYPES.has(type))
          return {
            ok: false,
            line,
            message: `line ${line}: a sendpath capture "${type}" record, but the header line is missing: expected {"type":"header",...} first (is the beginning of the file cut off?)`,
          };
        const keys = Object.keys(v);
        if ('nstat' in v || (keys.length === 1 && typeof v[keys[0]!] === 'object'))
          return { ok: true, format: 'nstat-json' };
        return {
          ok: false,
          line,
          message: `line ${line}: a JSON object with keys ${
            keys
              .slice(0, 4)
              .map((k) => JSON.stringify(k))
              .join(', ') || '(none)'
          }: expected ${EXPECTED_FORMATS}`,
        };
      }
      // Not one JSON value on this line: the start of a pretty-printed nstat -j object?
      if (/^\{\s*("[^"]*"\s*:\s*\{?\s*)?$/.test(text)) return { ok: true, format: 'nstat-json' };
      if (!parsed.ok)
        return {
          ok: false,
          line,
          message: `line ${line}: starts like JSON but is not valid JSON (${parsed.error}): expected ${EXPECTED_FORMATS}`,
        };
      return {
        ok: false,
        line,
        message: `line ${line}: JSON that is not an object: expected ${EXPECTED_FORMATS}`,
      };
    }
    // nstat prints "#<info source>" with no space ("#kernel"); "# Title" is something else.
    if (/^#\S/.test(text)) return { ok: true, format: 'nstat-text' };
    if (PAYLOAD_LINE.test(text)) return { ok: true, format: 'bpftrace-text' };
    if (timestampLine(text)) {
      const next = meaningful[i + 1];
      if (!next && !final) return { ok: 'more' };
      if (next && next[1].trim().startsWith('#')) return { ok: true, format: 'nstat-text' };
    }
    if (nstatTextLine(text).kind === 'counter' && !sawPreamble)
      return { ok: true, format: 'nstat-text' };
    return {
      ok: false,
      line,
      message: `line ${line}: "${excerpt(text)}" is not the start of any format this site reads: expected ${EXPECTED_FORMATS}`,
    };
  }
  if (!final) return { ok: 'more' };
  return {
    ok: false,
    line: null,
    message: 'only bpftrace messages and no events: expected the output of capture/sendpath.bt',
  };
}

/** The first balanced {...} of a line (string-aware), or the whole line if it never closes. */
export function firstJsonValue(text: string): string {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return text.slice(0, i + 1);
  }
  return text;
}
