// Importer: nstat's text output (`nstat`, `nstat -a`), one output or a series of them. A series
// is several `#<info source>` blocks in one file; a line with a time just before a block (ISO
// 8601, date(1)'s default form, or epoch seconds) dates it. Without such lines the samples keep
// their order but have no time.

import { ReplayBuilder } from '../builder';
import type { CounterSample } from '../model';
import { nstatTextLine, timestampLine } from '../nstat';
import { excerpt, type Importer } from './importer';

export class NstatTextImporter implements Importer {
  readonly builder = new ReplayBuilder('nstat-text');
  private current: CounterSample | null = null;
  /** Epoch time of the pending timestamp line, and of the first one (t0). */
  private pendingTime: [number, number] | null = null;
  private firstTime: [number, number] | null = null;

  line(text: string, lineNo: number): void {
    const b = this.builder;
    if (text.trim() === '') return;
    const time = timestampLine(text);
    if (time) {
      this.pendingTime = time;
      if (!this.firstTime) {
        this.firstTime = time;
        b.config.t0RealtimeUs = time[0] * 1e6 + Math.floor(time[1] / 1000);
      }
      return;
    }
    const parsed = nstatTextLine(text);
    switch (parsed.kind) {
      case 'header': {
        let t: number | null = null;
        if (this.pendingTime && this.firstTime)
          t =
            (this.pendingTime[0] - this.firstTime[0]) * 1e9 +
            (this.pendingTime[1] - this.firstTime[1]);
        this.pendingTime = null;
        this.current = {
          t_ns: t,
          netns: '',
          kind: 'unknown',
          source: parsed.source,
          values: {},
          line: lineNo,
        };
        b.counterSample(this.current);
        return;
      }
      case 'counter': {
        if (!this.current) {
          b.warn(
            lineNo,
            'counter line before any "#<info source>" header: nstat output starts with "#kernel"',
          );
          this.current = {
            t_ns: null,
            netns: '',
            kind: 'unknown',
            source: 'kernel',
            values: {},
            line: lineNo,
          };
          b.counterSample(this.current);
        }
        if (parsed.name in this.current.values)
          b.warn(
            lineNo,
            `${parsed.name} appears twice in one nstat output: the later value is kept`,
          );
        if (parsed.overflow) b.diag('info', lineNo, `${parsed.name}: nstat marks it (overflow)`);
        if (parsed.unsafe)
          b.warn(lineNo, `${parsed.name}: ${parsed.value} exceeds 2^53 and is kept approximately`);
        this.current.values[parsed.name] = parsed.value;
        return;
      }
      case 'invalid':
        b.warn(lineNo, `expected ${parsed.expected}, got "${excerpt(parsed.got)}"`);
        return;
    }
  }

  end(unterminated: boolean, lastLine: number): string | null {
    const b = this.builder;
    if (
      unterminated &&
      b.diagnostics.some((d) => d.line === lastLine && d.severity === 'warning')
    ) {
      b.truncated = true;
      b.warn(lastLine, 'the last line is cut short');
    }
    if (b.counters.length === 0)
      return 'no nstat output could be read: expected a "#kernel" header and counter lines';
    const invalid = b.diagnostics.some((d) => d.severity === 'warning' && d.line !== null);
    if (invalid && b.counters.every((c) => Object.keys(c.values).length === 0))
      return 'no nstat counter line could be read';
    if (b.counters.every((c) => Object.keys(c.values).length === 0))
      b.warn(
        null,
        'the nstat output lists no counter (all zero, or nstat printed only its header)',
      );
    return null;
  }
}
