// Importer: `bpftrace -f json capture/sendpath.bt ...` (NDJSON, one record per line), possibly
// with bpftrace's stderr mixed in when both streams were saved to one file.

import { ReplayBuilder } from '../builder';
import {
  bpftraceRecord,
  bpftraceStderr,
  fastPrintfPayload,
  readPrintfSpan,
} from './bpftraceRecords';
import { excerpt, tryJson, type Importer } from './importer';

/** Module-local: called once per line. */
const printfPayload = fastPrintfPayload;

export class BpftraceJsonImporter implements Importer {
  readonly builder = new ReplayBuilder('bpftrace-json');
  /** sendpath.bt lines read (events and its clock/config/cap/end lines). */
  private records = 0;

  span(buf: Uint8Array, start: number, end: number, lineNo: number): boolean {
    const read = readPrintfSpan(this.builder, buf, start, end, lineNo);
    if (read === null) return false;
    if (read) this.records++;
    return true;
  }

  line(text: string, lineNo: number): void {
    const b = this.builder;
    const payload = printfPayload(text);
    if (payload !== null) {
      if (b.eventPayload(payload, lineNo)) this.records++;
      return;
    }
    const trimmed = text.trim();
    if (trimmed === '') return;
    if (trimmed.startsWith('{')) {
      const parsed = tryJson(trimmed);
      if (!parsed.ok) {
        b.warn(lineNo, `not valid JSON (${parsed.error}): expected one bpftrace record per line`);
        return;
      }
      const v = parsed.value;
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        b.warn(lineNo, 'expected a bpftrace record, a JSON object with "type"');
        return;
      }
      const record = v as Record<string, unknown>;
      if (bpftraceRecord(b, record, lineNo) && record['type'] === 'printf') this.records++;
      return;
    }
    if (bpftraceStderr(b, trimmed, lineNo)) return;
    b.warn(lineNo, `expected a bpftrace JSON record, got "${excerpt(trimmed)}"`);
  }

  end(unterminated: boolean, lastLine: number): string | null {
    if (
      unterminated &&
      this.builder.diagnostics.some((d) => d.line === lastLine && d.severity !== 'info')
    ) {
      this.builder.truncated = true;
      this.builder.warn(
        lastLine,
        'the last line is cut short: the file ends in the middle of a record',
      );
    }
    if (this.records === 0)
      return 'no line of sendpath.bt could be read: expected printf records "KIND t=... key=value"';
    return null;
  }
}
