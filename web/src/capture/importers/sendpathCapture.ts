// Importer: our own capture file, written by capture/sendpath-record (docs/capture-format.md):
// a header line, then the recorder's records (sysctl, device, tc, nstat, ss, workload, note,
// end) and bpftrace's JSON lines, passed through.

import { ReplayBuilder } from '../builder';
import type { DeviceRecord } from '../model';
import { jsonKind, nstatFromJson } from '../nstat';
import {
  bpftraceRecord,
  fastPrintfPayload,
  readPrintfSpan,
  BPFTRACE_JSON_TYPES,
} from './bpftraceRecords';
import { excerpt, tryJson, type Importer } from './importer';

/** Module-local: called once per line. */
const printfPayload = fastPrintfPayload;

export const CAPTURE_FORMAT_VERSION = 1;

/** Record types the recorder writes (besides bpftrace's). */
export const CAPTURE_RECORD_TYPES = new Set([
  'header',
  'sysctl',
  'device',
  'tc',
  'nstat',
  'ss',
  'workload',
  'note',
  'end',
]);

type Obj = Record<string, unknown>;

/** Typed reads of a record's members; a wrong type is reported once and read as absent. */
class Reader {
  constructor(
    private readonly b: ReplayBuilder,
    private readonly record: Obj,
    private readonly what: string,
    private readonly line: number,
  ) {}

  private bad(key: string, expected: string): void {
    this.b.warn(
      this.line,
      `${this.what}: expected "${key}" to be ${expected}, got ${jsonKind(this.record[key])}`,
    );
  }

  has(key: string): boolean {
    return key in this.record;
  }

  str(key: string, optional = true): string | null {
    const v = this.record[key];
    if (typeof v === 'string') return v;
    if (!(v === null && optional) && v !== undefined) this.bad(key, 'a string');
    if (v === undefined && !optional) this.bad(key, 'a string');
    return null;
  }

  num(key: string, optional = true): number | null {
    const v = this.record[key];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (v === undefined ? !optional : !(v === null && optional)) this.bad(key, 'a number');
    return null;
  }

  /** t_ns and friends: a non-negative-or-not integer count of nanoseconds. */
  time(key: string): number | null {
    const v = this.record[key];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    this.bad(key, 'a number of nanoseconds since t0');
    return null;
  }

  strings(key: string): string[] | null {
    const v = this.record[key];
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
    if (v !== null && v !== undefined) this.bad(key, 'an array of strings');
    return null;
  }

  stringMap(key: string): Record<string, string> | null {
    const v = this.record[key];
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const out: Record<string, string> = {};
      for (const [k, x] of Object.entries(v as Obj)) {
        if (typeof x === 'string') out[k] = x;
        else
          this.b.warn(
            this.line,
            `${this.what}: "${key}.${k}" should be a string, got ${jsonKind(x)}`,
          );
      }
      return out;
    }
    if (v !== null && v !== undefined) this.bad(key, 'an object of strings');
    return null;
  }

  obj(key: string): Obj | null {
    const v = this.record[key];
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Obj;
    if (v !== null && v !== undefined) this.bad(key, 'an object');
    return null;
  }
}

export class SendpathCaptureImporter implements Importer {
  readonly builder = new ReplayBuilder('sendpath-capture');
  private sawHeader = false;
  private sawEnd = false;
  private records = 0;

  span(buf: Uint8Array, start: number, end: number, lineNo: number): boolean {
    if (!this.sawHeader) return false;
    const read = readPrintfSpan(this.builder, buf, start, end, lineNo);
    if (read === null) return false;
    if (read) this.records++;
    return true;
  }

  line(text: string, lineNo: number): void {
    const b = this.builder;
    if (this.sawHeader) {
      const payload = printfPayload(text);
      if (payload !== null) {
        if (b.eventPayload(payload, lineNo)) this.records++;
        return;
      }
    }
    const trimmed = text.trim();
    if (trimmed === '') return;
    const parsed = tryJson(trimmed);
    if (!parsed.ok) {
      b.warn(
        lineNo,
        `not valid JSON (${parsed.error}): expected one capture record per line, got "${excerpt(trimmed)}"`,
      );
      return;
    }
    const v = parsed.value;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      b.warn(lineNo, `expected a capture record (a JSON object with "type"), got ${jsonKind(v)}`);
      return;
    }
    const record = v as Obj;
    const type = record['type'];
    if (!this.sawHeader) {
      if (type !== 'header') {
        b.warn(
          lineNo,
          `expected the header record first ({"type":"header","format":"sendpath-capture",...}), got type ${JSON.stringify(type)}`,
        );
        return;
      }
      this.header(record, lineNo);
      return;
    }
    if (typeof type !== 'string') {
      b.warn(lineNo, `expected a record with a string "type", got ${jsonKind(type)}`);
      return;
    }
    if (this.sawEnd) b.warn(lineNo, `${type} record after the end record`);
    if (BPFTRACE_JSON_TYPES.has(type)) {
      if (bpftraceRecord(b, record, lineNo)) this.records++;
      return;
    }
    if (this.ownRecord(type, record, lineNo)) this.records++;
  }

  /** The header: format, version, t0, host and what was traced. */
  private header(record: Obj, line: number): void {
    const b = this.builder;
    const r = new Reader(b, record, 'header', line);
    this.sawHeader = true;
    const cfg = b.config;
    if (record['format'] !== 'sendpath-capture')
      b.warn(
        line,
        `header: expected "format":"sendpath-capture", got ${JSON.stringify(record['format'])?.slice(0, 40)}`,
      );
    cfg.formatVersion = r.num('version', false);
    if (cfg.formatVersion !== null && cfg.formatVersion > CAPTURE_FORMAT_VERSION)
      b.warn(
        line,
        `capture format version ${cfg.formatVersion} is newer than this reader (${CAPTURE_FORMAT_VERSION}): reading what it knows`,
      );
    cfg.recorder = r.str('recorder');
    const mode = r.str('mode');
    cfg.mode = mode === 'full' || mode === 'counters' ? mode : null;
    if (mode !== null && cfg.mode === null)
      b.warn(line, `header: unknown mode "${excerpt(mode)}" (expected full or counters)`);
    cfg.modeReason = r.str('mode_reason');
    cfg.created = r.str('created');
    cfg.t0RealtimeUs = r.num('t0_realtime_us');
    const mono = r.str('t0_mono_ns');
    if (mono !== null && !b.setMonoT0(mono))
      b.warn(line, `header: t0_mono_ns "${excerpt(mono)}" is not a decimal number of nanoseconds`);
    if (cfg.mode === 'full' && mono === null)
      b.warn(line, 'header: full mode without t0_mono_ns: event times start at the first event');
    const host = r.obj('host');
    if (host) {
      const h = new Reader(b, host, 'header.host', line);
      cfg.host = {
        hostname: h.str('hostname'),
        kernelRelease: h.str('kernel_release'),
        kernelVersion: h.str('kernel_version'),
        machine: h.str('machine'),
        configHz: h.num('config_hz'),
        cpus: h.num('cpus'),
      };
    }
    const bpf = r.obj('bpftrace');
    if (bpf) {
      const br = new Reader(b, bpf, 'header.bpftrace', line);
      cfg.bpftraceVersion = br.str('version');
      cfg.eventGroups = br.strings('sections') ?? [];
      cfg.droppedGroups = br.strings('dropped') ?? [];
    }
    const tps = r.obj('tracepoints');
    if (tps) {
      cfg.tracepoints = {};
      for (const [name, fields] of Object.entries(tps)) {
        if (fields === null) cfg.tracepoints[name] = null;
        else if (Array.isArray(fields) && fields.every((f) => typeof f === 'string'))
          cfg.tracepoints[name] = fields as string[];
        else
          b.warn(
            line,
            `header: tracepoints."${name}" should be a list of field declarations or null`,
          );
      }
    }
    const symbols = r.obj('symbols');
    if (symbols) {
      cfg.symbols = {};
      for (const [name, table] of Object.entries(symbols)) {
        const m = new Reader(b, symbols, 'header.symbols', line).stringMap(name);
        if (m) cfg.symbols[name] = m;
        else if (table !== null)
          b.warn(line, `header: symbols."${name}" should be an object of names`);
      }
    }
    const filters = r.obj('filters');
    if (filters) {
      const f = new Reader(b, filters, 'header.filters', line);
      cfg.filters = {
        port: f.num('port'),
        dev: f.str('dev'),
        comm: f.str('comm'),
        netns: f.strings('netns') ?? [],
        netnsInode: f.num('netns_inode'),
      };
    }
    cfg.intervalMs = r.num('interval_ms');
    cfg.command = r.strings('command');
    cfg.note = r.str('note');
  }

  private ownRecord(type: string, record: Obj, line: number): boolean {
    const b = this.builder;
    const r = new Reader(b, record, `${type} record`, line);
    switch (type) {
      case 'header':
        b.warn(line, 'a second header record: ignored (two captures joined into one file?)');
        return false;
      case 'sysctl': {
        const t = r.time('t_ns');
        const values = r.stringMap('values');
        if (t === null || values === null) return false;
        b.config.sysctls[r.str('netns') ?? ''] = values;
        b.seeTime(t);
        return true;
      }
      case 'device': {
        const t = r.time('t_ns');
        const dev = r.str('dev', false);
        if (t === null || dev === null) return false;
        const device: DeviceRecord = {
          netns: r.str('netns') ?? '',
          dev,
          link: r.str('link') ?? '',
          driver: r.stringMap('driver'),
          features: r.stringMap('features'),
          ring: r.stringMap('ring'),
          coalesce: r.stringMap('coalesce'),
          bql: r.stringMap('bql'),
        };
        b.config.devices.push(device);
        b.seeTime(t);
        return true;
      }
      case 'tc':
      case 'ss': {
        const t = r.time('t_ns');
        const text = r.str('text', false);
        if (t === null || text === null) return false;
        const sample = {
          t_ns: t,
          netns: r.str('netns') ?? '',
          dev: type === 'tc' ? r.str('dev') : null,
          text,
        };
        (type === 'tc' ? b.qdiscs : b.sockets).push(sample);
        b.seeTime(t);
        return true;
      }
      case 'nstat': {
        const t = r.time('t_ns');
        const kind = record['kind'];
        if (kind !== 'absolute' && kind !== 'delta') {
          b.warn(
            line,
            `nstat record: expected "kind" to be "absolute" or "delta", got ${jsonKind(kind)}`,
          );
          return false;
        }
        if (t === null) return false;
        if (record['data'] === null) {
          b.warn(line, 'nstat record without data: nstat printed nothing usable for this sample');
          return false;
        }
        const values = nstatFromJson(record['data'], (m) => b.warn(line, `nstat record: ${m}`));
        if (!values) return false;
        b.counterSample({
          t_ns: t,
          netns: r.str('netns') ?? '',
          kind,
          source: values.source,
          values: values.values,
          line,
        });
        return true;
      }
      case 'workload': {
        const t = r.time('t_ns');
        const command = r.strings('command');
        if (t === null || command === null) return false;
        b.workload = {
          t_ns: t,
          end_t_ns: r.num('end_t_ns') ?? t,
          command,
          exit_status: r.num('exit_status'),
          stdout: r.str('stdout') ?? '',
          stderr: r.str('stderr') ?? '',
        };
        b.seeTime(b.workload.end_t_ns);
        return true;
      }
      case 'note': {
        const text = r.str('text', false);
        if (text === null) return false;
        const level = record['level'] === 'warning' ? 'warning' : 'info';
        if (/bpftrace stopped early/.test(text)) b.bpftraceStoppedEarly = true;
        b.diag(level, line, `recorder note: ${text}`);
        return true;
      }
      case 'end': {
        const t = r.time('t_ns');
        if (t !== null) b.seeTime(t);
        this.sawEnd = true;
        return true;
      }
      default:
        b.diag(
          'info',
          line,
          `unknown record type "${excerpt(type)}": ignored (written by a newer recorder?)`,
        );
        return false;
    }
  }

  end(unterminated: boolean, lastLine: number): string | null {
    const b = this.builder;
    if (!this.sawHeader)
      return 'no header record: expected {"type":"header","format":"sendpath-capture",...} on the first line';
    if (!this.sawEnd) {
      b.truncated = true;
      const cut =
        unterminated && b.diagnostics.some((d) => d.line === lastLine && d.severity === 'warning');
      b.warn(
        cut ? lastLine : null,
        cut
          ? 'the last line is cut short and there is no end record: the capture was truncated; what precedes is kept'
          : 'no end record: the recording was cut short (recorder killed, or file truncated); what is there is kept',
      );
    }
    return null;
  }
}
