// Importer: `nstat -j` output: one JSON object, pretty-printed (`-p`) or not, or a series of them
// (one per line, or concatenated). Each object is {"<info source>": {counters}}; a wrapper
// {"t_ns"|"t"|"time"|"timestamp": <number>, "nstat": {...}} dates a sample (nanoseconds, or
// seconds when the number is below 1e12).

import { ReplayBuilder } from '../builder';
import { jsonKind, nstatFromJson } from '../nstat';
import { tryJson, type Importer } from './importer';

const TIME_KEYS = ['t_ns', 't', 'time', 'timestamp'];

export class NstatJsonImporter implements Importer {
  readonly builder = new ReplayBuilder('nstat-json');
  /** The JSON value being accumulated over lines, its first line and brace depth. */
  private text = '';
  private startLine = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The first sample's time as [seconds, nanoseconds], so that differences stay exact. */
  private firstTime: [number, number] | null = null;

  line(text: string, lineNo: number): void {
    if (this.depth === 0 && text.trim() === '') return;
    if (this.depth === 0) {
      this.text = '';
      this.startLine = lineNo;
    }
    this.text += this.text ? `\n${text}` : text;
    // Track depth outside strings, so that a value spanning several lines (-p) is read once.
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === 0) {
          const rest = text.slice(i + 1).trim();
          this.value(this.text.slice(0, this.text.length - (text.length - i - 1)), this.startLine);
          this.text = '';
          if (rest) {
            this.startLine = lineNo;
            this.line(rest, lineNo);
          }
          return;
        }
        if (this.depth < 0) {
          this.builder.warn(
            lineNo,
            'unbalanced "}": expected nstat -j output, a JSON object per sample',
          );
          this.depth = 0;
          this.text = '';
          return;
        }
      }
    }
    if (this.depth === 0 && this.text.trim() !== '') {
      this.builder.warn(
        lineNo,
        'expected a JSON object (nstat -j output), got text outside any object',
      );
      this.text = '';
    }
  }

  private value(text: string, lineNo: number): void {
    const b = this.builder;
    const parsed = tryJson(text);
    if (!parsed.ok) {
      b.warn(lineNo, `not valid JSON (${parsed.error}): expected nstat -j output`);
      return;
    }
    let v = parsed.value;
    let t: number | null = null;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && 'nstat' in v) {
      const wrapper = v as Record<string, unknown>;
      const key = TIME_KEYS.find((k) => k in wrapper);
      const time = key === undefined ? undefined : wrapper[key];
      // Read the digits from the text: nanoseconds since the epoch do not fit a double exactly.
      const digits =
        key === undefined ? null : new RegExp(`"${key}"\\s*:\\s*(\\d+)(?:\\.(\\d+))?`).exec(text);
      if (typeof time === 'number' && Number.isFinite(time) && time >= 0 && digits) {
        const whole = digits[1]!;
        const at: [number, number] =
          time < 1e12
            ? [Number(whole), Number((digits[2] ?? '').slice(0, 9).padEnd(9, '0'))]
            : [Number(whole.slice(0, -9) || '0'), Number(whole.slice(-9))];
        if (this.firstTime === null) this.firstTime = at;
        t = (at[0] - this.firstTime[0]) * 1e9 + (at[1] - this.firstTime[1]);
      } else if (key !== undefined) {
        b.warn(
          lineNo,
          `"${key}" should be a time (ns, or s since the epoch), got ${jsonKind(time)}`,
        );
      }
      v = wrapper['nstat'];
    }
    const values = nstatFromJson(v, (m) => b.warn(lineNo, m));
    if (!values) return;
    b.counterSample({
      t_ns: t,
      netns: '',
      kind: 'unknown',
      source: values.source,
      values: values.values,
      line: lineNo,
    });
  }

  end(_unterminated: boolean, lastLine: number): string | null {
    const b = this.builder;
    if (this.depth > 0) {
      b.truncated = true;
      b.warn(
        this.startLine,
        `the JSON object starting here is not closed by the end of the file (line ${lastLine}): the file is cut short`,
      );
    }
    if (b.counters.length === 0)
      return 'no nstat -j object could be read: expected {"kernel": {"<counter>": <value>, ...}}';
    const problems = b.diagnostics.some((d) => d.severity === 'warning');
    if (problems && b.counters.every((c) => Object.keys(c.values).length === 0))
      return 'no nstat counter could be read';
    return null;
  }
}
