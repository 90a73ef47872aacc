// Importer: `bpftrace capture/sendpath.bt ...` in text mode: the printf payloads one per line,
// after an "Attaching N probes..." (bpftrace < 0.24, stdout) or "Attached N probes" (>= 0.24,
// stderr) banner, possibly with stderr lines and map dumps (`@name[...]: value`) mixed in.

import { ReplayBuilder } from '../builder';
import { bpftraceStderr } from './bpftraceRecords';
import { excerpt, type Importer } from './importer';

/** A sendpath.bt payload: a lower-case kind, then key=value pairs. */
export const PAYLOAD_LINE = /^[a-z_]+ [a-z_]+=/;

export class BpftraceTextImporter implements Importer {
  readonly builder = new ReplayBuilder('bpftrace-text');
  private events = 0;
  private inMap = false;

  /** Event lines (a lower-case kind, a space, then key=value) are read from the bytes. */
  span(buf: Uint8Array, start: number, end: number, lineNo: number): boolean {
    let i = start;
    while (i < end && ((buf[i]! >= 97 && buf[i]! <= 122) || buf[i] === 95)) i++;
    if (i === start || i + 3 >= end || buf[i] !== 32) return false;
    let eq = i + 1;
    while (eq < end && ((buf[eq]! >= 97 && buf[eq]! <= 122) || buf[eq] === 95)) eq++;
    if (eq === i + 1 || buf[eq] !== 61) return false;
    this.inMap = false;
    if (this.builder.eventBytes(buf, start, end, lineNo)) this.events++;
    return true;
  }

  line(text: string, lineNo: number): void {
    const b = this.builder;
    const trimmed = text.trim();
    if (trimmed === '') {
      this.inMap = false;
      return;
    }
    if (PAYLOAD_LINE.test(trimmed)) {
      if (b.eventPayload(trimmed, lineNo)) this.events++;
      return;
    }
    if (trimmed.startsWith('@') || (this.inMap && /^[[(]/.test(trimmed))) {
      this.inMap = true; // a map or histogram printed at exit: not events
      return;
    }
    if (trimmed === '^C') return;
    if (bpftraceStderr(b, trimmed, lineNo)) return;
    b.warn(
      lineNo,
      `expected a sendpath.bt event line "KIND t=... key=value", got "${excerpt(trimmed)}"`,
    );
  }

  end(unterminated: boolean, lastLine: number): string | null {
    if (
      unterminated &&
      this.builder.diagnostics.some((d) => d.line === lastLine && d.severity !== 'info')
    ) {
      this.builder.truncated = true;
      this.builder.warn(
        lastLine,
        'the last line is cut short: the file ends in the middle of an event',
      );
    }
    if (this.events === 0) return 'no sendpath.bt event could be read';
    return null;
  }
}
