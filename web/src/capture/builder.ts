// ReplayBuilder: what every importer feeds, and what turns their input into a ReplayModel.
//
// Importers read lines; the builder owns the parts they share: the event tables (columns that
// grow as events arrive), the event-payload reader (`KIND t=... key=value ...`, the output
// contract of capture/sendpath.bt), the time base, counter samples, the recorded configuration
// and the diagnostics. `finish()` sorts, merges and says what the recording cannot show.

import {
  EVENT_FIELDS,
  EVENT_KINDS,
  FIELD_TYPES,
  type CaptureFormat,
  type CounterSample,
  type Diagnostic,
  type EventKind,
  type EventTable,
  type EventTables,
  type EventWindow,
  type RecordedConfig,
  type ReplayModel,
  type StageCoverage,
  type TextSample,
  type WorkloadRecord,
} from './model';

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder('utf-8');

/** The event kinds as UTF-8, in EVENT_KINDS order, to compare with the input's bytes. */
const KIND_BYTES: readonly Uint8Array[] = EVENT_KINDS.map((k) => ENCODER.encode(k));
const NIL = ENCODER.encode('(nil)');

/** Whether buf holds `bytes` at position `at`. */
function sameBytes(buf: Uint8Array, at: number, bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (buf[at + i] !== bytes[i]) return false;
  return true;
}

/** buf[a, b) as text, for messages and rare keys. */
function text(buf: Uint8Array, a: number, b: number): string {
  return DECODER.decode(buf.subarray(a, b));
}

/** Decimal digits of buf[a, b) (optional leading '-'); NaN unless all of it is a number. */
function decimalBytes(buf: Uint8Array, a: number, b: number): number {
  if (a >= b) return NaN;
  let neg = false;
  if (buf[a] === 45 /* - */) {
    neg = true;
    a++;
    if (a >= b) return NaN;
  }
  let v = 0;
  for (let i = a; i < b; i++) {
    const c = buf[i]! - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  // Beyond 15 digits the loop's rounding could differ from Number(); ask Number().
  if (b - a > 15) v = Number(DECODER.decode(buf.subarray(a, b)));
  return neg ? -v : v;
}

/** "0x..." hexadecimal buf[a, b); NaN unless it is exactly that. */
function hexBytes(buf: Uint8Array, a: number, b: number): number {
  if (b - a < 3 || buf[a] !== 48 || (buf[a + 1]! | 32) !== 120) return NaN;
  let v = 0;
  for (let i = a + 2; i < b; i++) {
    const c = buf[i]! | 32;
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 102) d = c - 87;
    else return NaN;
    v = v * 16 + d;
  }
  return v;
}

/** The index in EVENT_KINDS of the kind named by buf[a, b), or -1. */
function kindAt(buf: Uint8Array, a: number, b: number): number {
  for (let i = 0; i < KIND_BYTES.length; i++) {
    const name = KIND_BYTES[i]!;
    if (name.length === b - a && sameBytes(buf, a, name)) return i;
  }
  return -1;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Most characters of a number exactEvent reads: 15 decimal digits, or 0x and 13 hexadecimal
 * digits, are below 2^53, which a double holds exactly.
 */
const EXACT_DIGITS = 15;

/**
 * For exactEvent: the value of type `type` starting at buf[a], up to the next space or `to`.
 * Numbers go to column[row] (addresses and names are only checked: they are interned once the
 * whole line is known good). Returns where the value ends, or -1 if it is not plain.
 */
function plainValue(
  type: FieldType,
  buf: Uint8Array,
  a: number,
  to: number,
  column: Float64Array,
  row: number,
): number {
  let b = a;
  switch (type) {
    case FieldType.Decimal: {
      const neg = buf[a] === 45; /* - */
      const digits = neg ? a + 1 : a;
      let v = 0;
      for (b = digits; b < to; b++) {
        const d = buf[b]! - 48;
        if (d < 0 || d > 9) break;
        v = v * 10 + d;
      }
      if (b === digits || b - digits > EXACT_DIGITS) return -1;
      column[row] = neg ? -v : v;
      return b;
    }
    case FieldType.Hex:
    case FieldType.Address: {
      if (type === FieldType.Address && to - a >= 5 && sameBytes(buf, a, NIL)) return a + 5;
      if (buf[a] !== 48 || (buf[a + 1]! | 32) !== 120) return -1;
      let v = 0;
      for (b = a + 2; b < to; b++) {
        const c = buf[b]! | 32;
        let d: number;
        if (c >= 48 && c <= 57) d = c - 48;
        else if (c >= 97 && c <= 102) d = c - 87;
        else break;
        v = v * 16 + d;
      }
      if (b === a + 2) return -1;
      // 13 hexadecimal digits fit a double exactly; addresses of any length are interned.
      if (type === FieldType.Address) return b;
      if (b - a > EXACT_DIGITS) return -1;
      column[row] = v;
      return b;
    }
    case FieldType.String:
      for (; b < to; b++) {
        const c = buf[b];
        if (c === 32) break;
        if (c === 34 || c === 92) return -1; // " and \: JSON escapes
      }
      return b;
  }
}

/** Diagnostics kept per parse; the rest are counted. */
export const MAX_DIAGNOSTICS = 100;

/** How a field's text is read (see FIELD_TYPES in model.ts). */
const FieldType = { Decimal: 0, Hex: 1, Address: 2, String: 3 } as const;
type FieldType = (typeof FieldType)[keyof typeof FieldType];

/**
 * Rows of the first block of a table's columns; each next block is twice as large, up to
 * MAX_BLOCK_ROWS. A table grows by adding a block, never by copying what it holds: its rows are
 * copied once, into the model's columns, when it is built (a 100 MB capture makes tens of MB
 * of columns: copying them at each doubling, then trimming them, was 7 % of its parse).
 */
const FIRST_BLOCK_ROWS = 256;
const MAX_BLOCK_ROWS = 1 << 16;

/** A growable set of Float64 columns for one event kind. */
class TableBuilder {
  readonly kind: EventKind;
  readonly fields: readonly string[];
  readonly types: FieldType[];
  readonly index = new Map<string, number>();
  /** The field names as UTF-8, to compare with the input's bytes. */
  readonly fieldBytes: Uint8Array[];
  /** A bit per field, all set. */
  readonly allFields: number;
  count = 0;
  sorted = true;
  private lastT = -Infinity;
  /** The blocks filled so far, of the times and of each column (the last one being filled). */
  private readonly tBlocks: Float64Array[] = [];
  private readonly colBlocks: Float64Array[][];
  /** The block being filled, of the times and of each column, and the next row in it. */
  private t: Float64Array = new Float64Array(0);
  cols: Float64Array[];
  private row = 0;

  constructor(kind: EventKind) {
    this.kind = kind;
    this.fields = EVENT_FIELDS[kind];
    this.types = this.fields.map((f) => {
      const type = FIELD_TYPES[f];
      if (type === 'address') return FieldType.Address;
      if (type === 'string') return FieldType.String;
      if (type === 'hex') return FieldType.Hex;
      return FieldType.Decimal;
    });
    this.fields.forEach((f, i) => this.index.set(f, i));
    this.fieldBytes = this.fields.map((f) => ENCODER.encode(f));
    this.allFields = (1 << this.fields.length) - 1;
    this.colBlocks = this.fields.map(() => []);
    this.cols = this.fields.map(() => new Float64Array(0));
  }

  push(t: number, values: Float64Array): void {
    const row = this.nextRow();
    for (let i = 0; i < this.cols.length; i++) this.cols[i]![row] = values[i]!;
    this.keepRow(t);
  }

  /**
   * The row the next event goes to, in the blocks `cols`: exactEvent writes its values there
   * in place, then keeps the row (or leaves it to be overwritten).
   */
  nextRow(): number {
    if (this.row === this.t.length) this.addBlock();
    return this.row;
  }

  /** Keeps the row nextRow gave, at time t. */
  keepRow(t: number): void {
    const row = this.row++;
    this.count++;
    if (t < this.lastT) this.sorted = false;
    this.lastT = t;
    this.t[row] = t;
  }

  private addBlock(): void {
    const rows = Math.min(MAX_BLOCK_ROWS, Math.max(FIRST_BLOCK_ROWS, this.t.length * 2));
    this.t = new Float64Array(rows);
    this.tBlocks.push(this.t);
    this.cols = this.colBlocks.map((blocks) => {
      const block = new Float64Array(rows);
      blocks.push(block);
      return block;
    });
    this.row = 0;
  }

  /** The finished table: its blocks joined, sorted by time (stable). */
  build(): EventTable {
    const n = this.count;
    const join = (blocks: Float64Array[]) => {
      const out = new Float64Array(n);
      let at = 0;
      for (const block of blocks) {
        const rows = Math.min(block.length, n - at);
        out.set(rows === block.length ? block : block.subarray(0, rows), at);
        at += rows;
      }
      return out;
    };
    let t = join(this.tBlocks);
    let cols = this.colBlocks.map(join);
    if (!this.sorted) {
      const order = new Uint32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      const times = t;
      order.sort((a, b) => times[a]! - times[b]! || a - b);
      const permute = (c: Float64Array) => {
        const out = new Float64Array(n);
        for (let i = 0; i < n; i++) out[i] = c[order[i]!]!;
        return out;
      };
      t = permute(t);
      cols = cols.map(permute);
    }
    const columns: Record<string, Float64Array> = {};
    this.fields.forEach((f, i) => (columns[f] = cols[i]!));
    return { kind: this.kind, count: n, t_ns: t, columns };
  }
}

/** Parse decimal digits of s[a, b) (optional leading '-'); NaN unless all of it is a number. */
export function parseDecimal(s: string, a: number, b: number): number {
  if (a >= b) return NaN;
  let neg = false;
  if (s.charCodeAt(a) === 45 /* - */) {
    neg = true;
    a++;
    if (a >= b) return NaN;
  }
  if (b - a > 15) {
    for (let i = a; i < b; i++) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) return NaN;
    }
    const v = Number(s.slice(a, b));
    return neg ? -v : v;
  }
  let v = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return neg ? -v : v;
}

/** Parse "0x..." hexadecimal s[a, b); NaN unless it is exactly that. */
export function parseHex(s: string, a: number, b: number): number {
  if (b - a < 3 || s.charCodeAt(a) !== 48 || (s.charCodeAt(a + 1) | 32) !== 120) return NaN;
  let v = 0;
  for (let i = a + 2; i < b; i++) {
    const c = s.charCodeAt(i) | 32;
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 102) d = c - 87;
    else return NaN;
    v = v * 16 + d;
  }
  return v;
}

/** Monotonic nanoseconds as (seconds, nanoseconds), so that differences stay exact. */
interface SplitNs {
  hi: number;
  lo: number;
}

function splitNs(s: string, a: number, b: number): SplitNs | null {
  if (b - a > 9) {
    const hi = parseDecimal(s, a, b - 9);
    const lo = parseDecimal(s, b - 9, b);
    if (Number.isNaN(hi) || Number.isNaN(lo) || hi < 0) return null;
    return { hi, lo };
  }
  const lo = parseDecimal(s, a, b);
  if (Number.isNaN(lo) || lo < 0) return null;
  return { hi: 0, lo };
}

export function emptyConfig(): RecordedConfig {
  return {
    recorder: null,
    formatVersion: null,
    mode: null,
    modeReason: null,
    created: null,
    t0RealtimeUs: null,
    host: null,
    bpftraceVersion: null,
    eventGroups: [],
    droppedGroups: [],
    tracepoints: null,
    symbols: null,
    filters: null,
    intervalMs: null,
    command: null,
    note: null,
    sysctls: {},
    devices: [],
  };
}

export class ReplayBuilder {
  readonly format: CaptureFormat;
  readonly config: RecordedConfig = emptyConfig();
  readonly counters: CounterSample[] = [];
  readonly sockets: TextSample[] = [];
  readonly qdiscs: TextSample[] = [];
  workload: WorkloadRecord | null = null;
  readonly diagnostics: Diagnostic[] = [];
  diagnosticsDropped = 0;

  /** Events: one table per kind, in EVENT_KINDS order. */
  private readonly tables: TableBuilder[] = EVENT_KINDS.map((k) => new TableBuilder(k));
  private readonly scratch = new Float64Array(16);
  /** Where each value of the line exactEvent reads starts and ends. */
  private readonly spans = new Int32Array(32);
  private readonly addresses = new Map<number | string, number>();
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  private lastString: Uint8Array | null = null;
  private lastStringId = 0;
  private readonly warnedKinds = new Set<string>();

  /** t0 on the monotonic clock of the events (from the header or bpftrace's clock line). */
  private t0: SplitNs | null = null;
  /** Events seen: printed, and the counts bpftrace reported. */
  private eventsRead = 0;
  private capEvents: number | null = null;
  private capT: number | null = null;
  private endEvents: number | null = null;
  lostEvents = 0;
  bpftraceStoppedEarly = false;
  /** Largest time of any record, for the duration. */
  private lastNs = 0;
  /** Set by importers when the input ends early. */
  truncated = false;
  lines = 0;
  bytes = 0;

  constructor(format: CaptureFormat) {
    this.format = format;
  }

  diag(severity: Diagnostic['severity'], line: number | null, message: string): void {
    if (this.diagnostics.length < MAX_DIAGNOSTICS)
      this.diagnostics.push({ severity, line, message });
    else this.diagnosticsDropped++;
  }

  warn(line: number | null, message: string): void {
    this.diag('warning', line, message);
  }

  /** Set t0 from a decimal monotonic-ns string (the capture header's t0_mono_ns). */
  setMonoT0(text: string): boolean {
    const split = splitNs(text, 0, text.length);
    if (!split) return false;
    this.t0 = split;
    return true;
  }

  hasT0(): boolean {
    return this.t0 !== null;
  }

  seeTime(tNs: number): void {
    if (tNs > this.lastNs) this.lastNs = tNs;
  }

  /**
   * One event payload, `KIND t=NS key=value ...` (a printf line of sendpath.bt, without its
   * trailing newline). Returns false, after a diagnostic, if it is not one.
   */
  eventPayload(p: string, line: number): boolean {
    const bytes = ENCODER.encode(p);
    return this.eventBytes(bytes, 0, bytes.length, line);
  }

  /**
   * The hot path: an event exactly as sendpath.bt prints it, `KIND t=NS` then every field of
   * KIND in EVENT_FIELDS order, one space apart, each value plain (a number of at most 15
   * decimal or 13 hexadecimal digits, which a double holds exactly; an address or `(nil)`; a
   * name without a quote or a backslash). Reads it in one pass over its bytes, where eventBytes
   * looks at each byte twice or more. Returns false, having changed nothing, for anything else,
   * which eventBytes then reads with its diagnostics. It never reads a quote or a backslash, so
   * a JSON line holding one is left to JSON.parse (bpftraceRecords.ts relies on it).
   */
  exactEvent(buf: Uint8Array, from: number, to: number, line: number): boolean {
    let pos = from;
    while (pos < to && buf[pos] !== 32) pos++;
    const k = kindAt(buf, from, pos);
    if (k < 0 || buf[pos + 1] !== 116 /* t */ || buf[pos + 2] !== 61 /* = */) return false;
    const tA = pos + 3;
    pos = tA;
    while (pos < to && isDigit(buf[pos]!)) pos++;
    const tB = pos;
    if (tB === tA || (pos < to && buf[pos] !== 32)) return false;
    const table = this.tables[k]!;
    const names = table.fieldBytes;
    const types = table.types;
    const row = table.nextRow();
    const cols = table.cols;
    const spans = this.spans;
    for (let f = 0; f < names.length; f++) {
      // pos is on the space before the field.
      const name = names[f]!;
      const a = pos + name.length + 2;
      if (a > to || buf[a - 1] !== 61 /* = */ || !sameBytes(buf, pos + 1, name)) return false;
      const b = plainValue(types[f]!, buf, a, to, cols[f]!, row);
      if (b < 0 || (b < to && buf[b] !== 32)) return false;
      spans[2 * f] = a;
      spans[2 * f + 1] = b;
      pos = b;
    }
    if (pos !== to) return false;
    // The line is good: now intern its addresses and names (nothing is interned for a line
    // that is then read by eventBytes, or as JSON).
    for (let f = 0; f < names.length; f++) {
      const type = types[f]!;
      if (type === FieldType.Address || type === FieldType.String)
        cols[f]![row] = this.fieldValue(type, buf, spans[2 * f]!, spans[2 * f + 1]!);
    }
    const t = this.relTime(buf, tA, tB, line)!;
    table.keepRow(t);
    this.eventsRead++;
    this.seeTime(t);
    return true;
  }

  /**
   * eventPayload on the UTF-8 bytes buf[from, to), which makes no string for an event (device
   * names and long addresses aside, which repeat and are interned). What exactEvent does not
   * read is read token by token, and a diagnostic names what is wrong with it.
   */
  eventBytes(buf: Uint8Array, from: number, to: number, line: number): boolean {
    if (this.exactEvent(buf, from, to, line)) return true;
    const n = to;
    let sp = from;
    while (sp < n && buf[sp] !== 32) sp++;
    const k = kindAt(buf, from, sp);
    if (k < 0) {
      const text = DECODER.decode(buf.subarray(from, to));
      return this.metaPayload(text.slice(0, sp - from), text, sp - from, line);
    }
    const table = this.tables[k]!;
    const kind = table.kind;
    const values = this.scratch;
    let seen = 0; // bit i: field i was given
    let tA = -1;
    let tB = -1;
    let pos = sp + 1;
    let expect = 0; // fields usually come in EVENT_FIELDS order: try that before a lookup
    while (pos < n) {
      if (buf[pos] === 32) {
        pos++;
        continue;
      }
      // One pass over the token: the '=' and the space that ends it.
      let eq = -1;
      let end = pos;
      for (; end < n; end++) {
        const c = buf[end];
        if (c === 32) break;
        if (c === 61 && eq < 0) eq = end;
      }
      if (eq < 0) {
        this.warn(line, `${kind} event: expected key=value, got "${text(buf, pos, end)}"`);
        return false;
      }
      if (eq - pos === 1 && buf[pos] === 116 /* t */) {
        tA = eq + 1;
        tB = end;
      } else {
        let fi = -1;
        const names = table.fieldBytes;
        if (expect < names.length) {
          const f = names[expect]!;
          if (eq - pos === f.length && sameBytes(buf, pos, f)) fi = expect;
        }
        if (fi < 0) fi = table.index.get(text(buf, pos, eq)) ?? -1;
        if (fi >= 0) {
          expect = fi + 1;
          const v = this.fieldValue(table.types[fi]!, buf, eq + 1, end);
          if (Number.isNaN(v)) {
            this.warn(
              line,
              `${kind} event: ${table.fields[fi]}=${text(buf, eq + 1, end)} is not ${describeType(table.types[fi]!)}`,
            );
            return false;
          }
          if (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER)
            this.warn(
              line,
              `${kind} event: ${table.fields[fi]}=${text(buf, eq + 1, end)} exceeds 2^53 and is kept approximately`,
            );
          values[fi] = v;
          seen |= 1 << fi;
        }
        // Unknown keys are skipped: a newer sendpath.bt may add fields.
      }
      pos = end + 1;
    }
    if (tA < 0) {
      this.warn(line, `${kind} event: expected t=<monotonic ns>, found none`);
      return false;
    }
    const t = this.relTime(buf, tA, tB, line);
    if (t === null) {
      this.warn(line, `${kind} event: t=${text(buf, tA, tB)} is not a time in nanoseconds`);
      return false;
    }
    if (seen !== table.allFields) {
      for (let i = 0; i < table.fields.length; i++) {
        if (seen & (1 << i)) continue;
        values[i] = NaN;
        if (!this.warnedKinds.has(`${kind}.${table.fields[i]}`)) {
          this.warnedKinds.add(`${kind}.${table.fields[i]}`);
          this.diag('info', line, `${kind} events have no ${table.fields[i]} (kept as unknown)`);
        }
      }
    }
    table.push(t, values);
    this.eventsRead++;
    this.seeTime(t);
    return true;
  }

  private fieldValue(type: FieldType, buf: Uint8Array, a: number, b: number): number {
    switch (type) {
      case FieldType.Decimal:
        return decimalBytes(buf, a, b);
      case FieldType.Hex:
        return hexBytes(buf, a, b);
      case FieldType.Address: {
        // Up to 13 hex digits (the recorder's identifiers) fit a double exactly: intern the
        // number. Longer ones (raw kernel pointers) are interned by their text.
        if (b - a <= 15) {
          const v = hexBytes(buf, a, b);
          if (v === 0) return 0;
          if (!Number.isNaN(v)) return this.internAddress(v);
          if (b - a === 5 && sameBytes(buf, a, NIL)) return 0;
          return NaN;
        }
        if (Number.isNaN(hexBytes(buf, a, b))) return NaN;
        return this.internAddress(text(buf, a, b));
      }
      case FieldType.String: {
        // Events of one device repeat its name: compare with the last one before decoding.
        const last = this.lastString;
        if (last !== null && b - a === last.length && sameBytes(buf, a, last))
          return this.lastStringId;
        const name = DECODER.decode(buf.subarray(a, b));
        this.lastString = buf.slice(a, b);
        let id = this.stringIndex.get(name);
        if (id === undefined) {
          id = this.strings.length;
          this.strings.push(name);
          this.stringIndex.set(name, id);
        }
        this.lastStringId = id;
        return id;
      }
    }
  }

  private internAddress(key: number | string): number {
    let id = this.addresses.get(key);
    if (id === undefined) {
      id = this.addresses.size + 1;
      this.addresses.set(key, id);
    }
    return id;
  }

  /** Time buf[a, b) (monotonic ns) relative to t0; null if it is not a number. */
  private relTime(buf: Uint8Array, a: number, b: number, line: number): number | null {
    // Seconds and nanoseconds apart, so that the difference is exact whatever the uptime.
    const cut = b - a > 9 ? b - 9 : a;
    const hi = cut > a ? decimalBytes(buf, a, cut) : 0;
    const lo = decimalBytes(buf, cut, b);
    if (Number.isNaN(hi) || Number.isNaN(lo) || hi < 0 || lo < 0) return null;
    if (!this.t0) {
      this.t0 = { hi, lo };
      this.diag('info', line, 'no clock line before the first event: time 0 is the first event');
    }
    return (hi - this.t0.hi) * 1e9 + (lo - this.t0.lo);
  }

  /** The payloads that are not events: clock, config, cap, end. */
  private metaPayload(kind: string, p: string, sp: number, line: number): boolean {
    const fields = new Map<string, string>();
    for (const token of p.slice(sp + 1).split(' ')) {
      if (!token) continue;
      const eq = token.indexOf('=');
      if (eq > 0) fields.set(token.slice(0, eq), token.slice(eq + 1));
    }
    const num = (key: string) => {
      const v = fields.get(key);
      return v === undefined ? NaN : parseDecimal(v, 0, v.length);
    };
    switch (kind) {
      case 'clock': {
        const mono = fields.get('mono_ns');
        if (mono === undefined || !/^\d+$/.test(mono)) {
          this.warn(line, 'clock line: expected mono_ns=<nanoseconds>');
          return false;
        }
        // The capture header already set t0 from the same line; a bare bpftrace output has only this.
        if (!this.t0) this.setMonoT0(mono);
        const real = fields.get('real');
        if (real && /^\d+\.\d{6}$/.test(real) && this.config.t0RealtimeUs === null)
          this.config.t0RealtimeUs = Number(real.replace('.', ''));
        return true;
      }
      case 'config': {
        if (!this.config.filters) {
          const port = num('port');
          const netns = num('netns');
          this.config.filters = {
            port: port > 0 ? port : null,
            dev: fields.get('dev') || null,
            comm: fields.get('comm') || null,
            netns: [],
            netnsInode: netns > 0 ? netns : null,
          };
        }
        return true;
      }
      case 'cap': {
        this.capEvents = num('events');
        const t = fields.get('t');
        if (t !== undefined && this.t0) {
          const bytes = ENCODER.encode(t);
          this.capT = this.relTime(bytes, 0, bytes.length, line);
        }
        return true;
      }
      case 'end': {
        this.endEvents = num('events');
        return true;
      }
      default:
        if (!this.warnedKinds.has(`kind:${kind}`)) {
          this.warnedKinds.add(`kind:${kind}`);
          this.warn(
            line,
            `unknown event "${kind.slice(0, 40)}": expected one of ${EVENT_KINDS.join(', ')} (or clock, config, cap, end)`,
          );
        }
        return false;
    }
  }

  counterSample(sample: CounterSample): void {
    this.counters.push(sample);
    if (sample.t_ns !== null) this.seeTime(sample.t_ns);
  }

  eventCount(): number {
    return this.eventsRead;
  }

  finish(): ReplayModel {
    const built = this.tables.map((t) => t.build());
    const tables = {} as Record<EventKind, EventTable>;
    built.forEach((t) => (tables[t.kind] = t));
    const { timelineKind, timelineRow } = mergeTimeline(built);
    const events: EventTables = {
      tables,
      timelineKind,
      timelineRow,
      strings: this.strings.slice(),
      addressCount: this.addresses.size,
    };
    let eventWindow: EventWindow | null = null;
    if (timelineKind.length > 0) {
      const first = built[timelineKind[0]!]!.t_ns[timelineRow[0]!]!;
      const last = timelineKind.length - 1;
      const lastT = built[timelineKind[last]!]!.t_ns[timelineRow[last]!]!;
      // bpftrace's END line counts every event it traced; what is not in the file was lost in
      // its buffers (lost_events) or still unread when it stopped at the cap.
      const lost =
        this.endEvents !== null
          ? Math.max(this.lostEvents, this.endEvents - this.eventsRead)
          : this.lostEvents;
      eventWindow = {
        startNs: first,
        endNs: this.capT !== null ? Math.max(lastT, this.capT) : lastT,
        lostEvents: lost,
        truncatedBy:
          this.capEvents !== null ? 'cap' : this.bpftraceStoppedEarly ? 'bpftrace-stopped' : null,
      };
      if (lost > 0)
        this.warn(
          null,
          `${lost} traced events are not in the file (${this.lostEvents} reported lost by bpftrace): the event stream has gaps`,
        );
    }
    const model: ReplayModel = {
      format: this.format,
      config: this.config,
      events,
      eventWindow,
      counters: this.counters,
      sockets: this.sockets,
      qdiscs: this.qdiscs,
      workload: this.workload,
      coverage: [],
      durationNs: this.lastNs,
      truncated: this.truncated,
      lines: this.lines,
      bytes: this.bytes,
    };
    model.coverage = coverage(model);
    return model;
  }
}

function describeType(type: FieldType): string {
  switch (type) {
    case FieldType.Decimal:
      return 'a decimal integer';
    case FieldType.Hex:
      return 'a 0x hexadecimal number';
    case FieldType.Address:
      return 'an address (0x... or (nil))';
    case FieldType.String:
      return 'a name';
  }
}

/** All events in time order, ties broken by kind then row: a k-way merge of sorted tables. */
function mergeTimeline(tables: EventTable[]): {
  timelineKind: Uint8Array;
  timelineRow: Uint32Array;
} {
  let total = 0;
  for (const t of tables) total += t.count;
  const timelineKind = new Uint8Array(total);
  const timelineRow = new Uint32Array(total);
  // The tables with events, in kind order, and the time of each one's next event (Infinity
  // once it has none): the inner loop, once per event, reads one small array.
  const live = tables.filter((t) => t.count > 0);
  const kinds = Uint8Array.from(live, (t) => tables.indexOf(t));
  const times = live.map((t) => t.t_ns);
  const counts = live.map((t) => t.count);
  const next = Float64Array.from(live, (t) => t.t_ns[0]!);
  const heads = new Uint32Array(live.length);
  for (let out = 0; out < total; out++) {
    let best = 0;
    let bestT = next[0]!;
    for (let j = 1; j < next.length; j++) {
      if (next[j]! < bestT) {
        bestT = next[j]!;
        best = j;
      }
    }
    const row = heads[best]!;
    timelineKind[out] = kinds[best]!;
    timelineRow[out] = row;
    heads[best] = row + 1;
    next[best] = row + 1 < counts[best]! ? times[best]![row + 1]! : Infinity;
  }
  return { timelineKind, timelineRow };
}

/** Which stages of the send path this recording shows, and why not where it does not. */
function coverage(m: ReplayModel): StageCoverage[] {
  const n = (k: EventKind) => m.events.tables[k].count;
  const cfg = m.config;
  const groups = new Set(cfg.eventGroups);
  const hasEventsFormat = m.format !== 'nstat-text' && m.format !== 'nstat-json';
  const countersMode = cfg.mode === 'counters';
  const tp = (name: string) => (cfg.tracepoints ? cfg.tracepoints[name] : undefined);
  const why = (kind: EventKind, tracepoint: string, group: string, what: string): string => {
    if (n(kind) > 0) return `recorded: ${what} (${tracepoint})`;
    if (!hasEventsFormat) return `not in this format: ${m.format} holds counters only`;
    if (countersMode) return `not recorded: counters mode (${cfg.modeReason ?? 'no bpftrace'})`;
    if (tp(tracepoint) === null) return `not recorded: this kernel has no ${tracepoint}`;
    if (groups.size > 0 && !groups.has(group))
      return `not recorded: event group "${group}" was not traced`;
    return `no ${kind} events in the recording (${tracepoint})`;
  };
  const driver =
    cfg.devices[0]?.driver?.['driver'] ?? (cfg.filters?.dev === 'lo' ? 'loopback' : null);
  const virtualDev = driver === 'veth' || driver === 'loopback';
  const list: StageCoverage[] = [
    {
      stage: 'app_writes',
      recorded: n('sendmsg') > 0,
      reason: why(
        'sendmsg',
        'tcp:tcp_sendmsg_locked',
        'sendmsg',
        "the application's writes and the skb they fill (Linux 6.16+)",
      ),
    },
    {
      stage: 'push_decisions',
      recorded: false,
      reason:
        'never recorded: tracepoints do not show tcp_push, autocorking, Nagle, cork or TSQ decisions; waits are inferred from the gaps between sendmsg, queue and xmit (TcpExtTCPAutoCorking counts autocorks)',
    },
    {
      stage: 'qdisc',
      recorded: n('enqueue') + n('dequeue') > 0,
      reason: why(
        'dequeue',
        'qdisc:qdisc_dequeue',
        'qdisc',
        'qdisc enqueue and dequeue of each skb',
      ),
    },
    {
      stage: 'device_xmit',
      recorded: n('xmit') > 0,
      reason: why(
        'xmit',
        'net:net_dev_start_xmit',
        'dev',
        'each skb handed to the driver, with its GSO segments',
      ),
    },
    {
      stage: 'tx_completion',
      recorded: n('free') + n('drop') > 0 && !virtualDev,
      reason: virtualDev
        ? `no TX completion on ${driver}: it hands the skb to its peer at xmit (skb_orphan), so the socket's memory is freed at xmit; any free/drop events show the peer's end of the skb`
        : why(
            'free',
            'skb:consume_skb',
            'free',
            'TX completion (consume_skb paired with xmit by skb address)',
          ),
    },
    {
      stage: 'acks_in',
      recorded: n('probe') > 0,
      reason: why(
        'probe',
        'tcp:tcp_probe',
        'tcp',
        'every segment received by the flow: cwnd, srtt, snd_una/snd_nxt',
      ),
    },
    {
      stage: 'delayed_ack_timer',
      recorded: n('delack_start') + n('delack_fire') > 0,
      reason: why(
        'delack_start',
        'timer:timer_start',
        'delack',
        'the delayed-ACK timer armed and firing',
      ),
    },
    {
      stage: 'connection_state',
      recorded: n('state') > 0,
      reason: why('state', 'sock:inet_sock_set_state', 'tcp', 'TCP state changes'),
    },
    {
      stage: 'counters',
      recorded: m.counters.length > 0,
      reason: m.counters.length > 0 ? 'recorded: nstat samples' : 'no nstat samples in this input',
    },
    {
      stage: 'socket_state',
      recorded: m.sockets.length > 0,
      reason:
        m.sockets.length > 0
          ? 'recorded: ss -tinm samples'
          : 'no ss samples (recorded only with -p PORT)',
    },
    {
      stage: 'qdisc_stats',
      recorded: m.qdiscs.length > 0,
      reason: m.qdiscs.length > 0 ? 'recorded: tc -s qdisc samples' : 'no tc samples in this input',
    },
  ];
  return list;
}
