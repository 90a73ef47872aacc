// bpftrace's `-f json` records (bpftrace src/output/json.cpp), shared by the bpftrace-json
// importer and by our capture, which passes bpftrace's lines through.
//
// Shapes seen in the wild (both are accepted):
//   {"type": "attached_probes", "data": {"probes": 14}}                 bpftrace <= 0.23
//   {"type": "attached_probes", "count": 14, "data": {"probes": 14}}    bpftrace >= 0.24
//   {"type": "lost_events", "data": {"events": 12}}                     <= 0.23 (>= 0.24 adds count)
//   {"type": "printf", "data": "xmit t=... \n"}                         one sendpath.bt event
// Maps, histograms and the like (`map`, `hist`, `stats`, ...) are ignored: sendpath.bt clears its
// maps at exit. Errors and warnings bpftrace reports become diagnostics.

import type { ReplayBuilder } from '../builder';
import { excerpt } from './importer';

const IGNORED = new Set([
  'time',
  'cat',
  'join',
  'syscall',
  'value',
  'map',
  'hist',
  'stats',
  'tseries',
  'benchmark_result',
]);
const REPORTED = new Set(['helper_error', 'runtime_error', 'errorf', 'warnf']);

/** Every `type` bpftrace's JSON output uses (for format detection). */
export const BPFTRACE_JSON_TYPES = new Set([
  'attached_probes',
  'printf',
  'lost_events',
  ...IGNORED,
  ...REPORTED,
]);

/** The two spellings of a printf record's start, with bpftrace's spacing and without. */
const PRINTF_PREFIXES = ['{"type": "printf", "data": "', '{"type":"printf","data":"'];

/**
 * A printf line of sendpath.bt without JSON.parse: the payload of our events never holds a quote
 * or a backslash other than the final "\n", so slicing it out is exact. Returns the payload, or
 * null if the line needs the general path.
 */
export function fastPrintfPayload(line: string): string | null {
  if (line.charCodeAt(0) !== 123 /* { */ || line.charCodeAt(9) === 0) return null;
  for (const prefix of PRINTF_PREFIXES) {
    if (line.startsWith(prefix)) {
      const close = line.endsWith('\\n"}')
        ? line.length - 4
        : line.endsWith('"}')
          ? line.length - 2
          : -1;
      if (close < prefix.length) return null;
      const payload = line.slice(prefix.length, close);
      if (payload.indexOf('"') >= 0 || payload.indexOf('\\') >= 0) return null;
      return payload;
    }
  }
  return null;
}

const PREFIX_BYTES = PRINTF_PREFIXES.map((p) => new TextEncoder().encode(p));

/**
 * Where the payload of the printf line buf[start, end) starts, by its start and its end
 * (`\n"}`) alone, or -1. Its end is `end - 4`.
 */
function printfPayloadStart(buf: Uint8Array, start: number, end: number): number {
  if (buf[start] !== 123 /* { */ || end - start < 33) return -1;
  let a = -1;
  for (const prefix of PREFIX_BYTES) {
    let i = 0;
    while (i < prefix.length && buf[start + i] === prefix[i]) i++;
    if (i === prefix.length) {
      a = start + i;
      break;
    }
  }
  if (a < 0) return -1;
  const b = end - 4;
  if (b < a || buf[b] !== 92 || buf[b + 1] !== 110 || buf[b + 2] !== 34 || buf[b + 3] !== 125)
    return -1;
  return a;
}

/**
 * fastPrintfPayload on bytes, without making strings: reads the printf line buf[start, end) of
 * sendpath.bt in place. Returns null when the line needs the general path (not such a line, or
 * a payload with a quote or a backslash, which only JSON.parse reads right), else whether its
 * payload was read (false after a diagnostic).
 */
export function readPrintfSpan(
  b: ReplayBuilder,
  buf: Uint8Array,
  start: number,
  end: number,
  lineNo: number,
): boolean | null {
  const a = printfPayloadStart(buf, start, end);
  if (a < 0) return null;
  const z = end - 4;
  // Nearly every line is an event exactly as sendpath.bt prints it, which holds no quote or
  // backslash: read it before looking for them.
  if (b.exactEvent(buf, a, z, lineNo)) return true;
  for (let i = a; i < z; i++) {
    const c = buf[i];
    if (c === 34 || c === 92) return null;
  }
  return b.eventBytes(buf, a, z, lineNo);
}

/** A parsed bpftrace JSON record; returns false (after a diagnostic) if it is not one. */
export function bpftraceRecord(
  b: ReplayBuilder,
  record: Record<string, unknown>,
  line: number,
): boolean {
  const type = record['type'];
  const data = record['data'];
  switch (type) {
    case 'printf': {
      if (typeof data !== 'string') {
        b.warn(line, `printf record: expected "data" to be a string, got ${typeof data}`);
        return false;
      }
      // One printf may hold several lines (embedded \n); each is one payload.
      let ok = true;
      for (const payload of data.split('\n')) {
        if (payload.trim() === '') continue;
        ok = b.eventPayload(payload.trim(), line) && ok;
      }
      return ok;
    }
    case 'attached_probes': {
      const probes = (data as Record<string, unknown> | null)?.['probes'] ?? record['count'];
      if (typeof probes !== 'number') {
        b.warn(line, 'attached_probes record: expected data.probes (or count) to be a number');
        return false;
      }
      b.diag('info', line, `bpftrace attached ${probes} probes`);
      return true;
    }
    case 'lost_events': {
      const events = (data as Record<string, unknown> | null)?.['events'] ?? record['count'];
      if (typeof events !== 'number' || !Number.isFinite(events) || events < 0) {
        b.warn(line, 'lost_events record: expected data.events (or count) to be a count');
        return false;
      }
      b.lostEvents += events;
      return true;
    }
    default:
      if (typeof type === 'string' && IGNORED.has(type)) return true;
      if (typeof type === 'string' && REPORTED.has(type)) {
        const msg = record['msg'] ?? data;
        b.warn(
          line,
          `bpftrace ${type}: ${excerpt(typeof msg === 'string' ? msg : JSON.stringify(msg))}`,
        );
        return true;
      }
      b.warn(
        line,
        `unknown record type ${JSON.stringify(type)?.slice(0, 40)}: expected a bpftrace record (printf, attached_probes, lost_events, ...)`,
      );
      return false;
  }
}

/** Lines bpftrace writes on stderr, which end up in a file when both streams are saved. */
export function bpftraceStderr(b: ReplayBuilder, text: string, line: number): boolean {
  if (/^(ERROR|WARNING): .*RLIMIT_MEMLOCK/.test(text)) {
    b.diag('info', line, 'bpftrace stderr: RLIMIT_MEMLOCK notice (harmless)');
    return true;
  }
  const m = /^(ERROR|WARNING|stdin:\d+|[^:\s]+\.bt:\d+)[:\s]/.exec(text);
  if (m) {
    b.warn(line, `bpftrace stderr: ${excerpt(text)}`);
    return true;
  }
  const banner = /^Attach(?:ing|ed) (\d+) probes?(?:\.\.\.)?$/.exec(text);
  if (banner) {
    b.diag('info', line, `bpftrace attached ${banner[1]} probes`);
    return true;
  }
  const lost = /^Lost (\d+) events$/.exec(text);
  if (lost) {
    b.lostEvents += Number(lost[1]);
    return true;
  }
  return false;
}
