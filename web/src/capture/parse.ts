// The entry point of capture parsing: text in, a ReplayModel (or a clear error) out.
//
//   bytes --CaptureParser.push--> lines --detectFormat--> an importer
//         --Importer.span (bytes, fast path) or Importer.line (decoded text)--> ReplayBuilder
//         --finish--> ReplayModel
//
// CaptureParser streams: it keeps only a partial line between chunks, so a 100 MB file is read
// chunk by chunk in a Worker (worker.ts) with progress. Event lines are parsed from the UTF-8
// bytes in place; only the other lines (a few per capture) are decoded to strings. Bad input never throws: a problem in one
// line is a warning naming the line and what was expected, and the rest is kept; only a file with
// nothing usable (empty, binary, foreign) fails, with the line that gave it away.

import { detectFormat } from './detect';
import { BpftraceJsonImporter } from './importers/bpftraceJson';
import { BpftraceTextImporter } from './importers/bpftraceText';
import type { Importer } from './importers/importer';
import { NstatJsonImporter } from './importers/nstatJson';
import { NstatTextImporter } from './importers/nstatText';
import { SendpathCaptureImporter } from './importers/sendpathCapture';
import type { CaptureFormat, Diagnostic, ParseResult, ReplayModel } from './model';

/** The start of the message of an unexpected exception while reading a line (a bug). */
export const INTERNAL_ERROR = 'internal error while reading this line';

/** Lines kept to decide the format before giving up waiting for a decisive one. */
const HEAD_LINES = 200;

function importerFor(format: CaptureFormat): Importer {
  switch (format) {
    case 'sendpath-capture':
      return new SendpathCaptureImporter();
    case 'nstat-text':
      return new NstatTextImporter();
    case 'nstat-json':
      return new NstatJsonImporter();
    case 'bpftrace-json':
      return new BpftraceJsonImporter();
    case 'bpftrace-text':
      return new BpftraceTextImporter();
  }
}

/**
 * Where the start of a file shows it is not text: the offset of the first control character or
 * undecodable byte (U+FFFD) when one is on the first line, or when more than 5% of the first 4 KB
 * are such characters. A stray NUL further down is left to the line it is on (a warning there).
 */
export function binaryOffset(start: string): number | null {
  const sample = start.slice(0, 4096);
  const firstNewline = sample.indexOf('\n');
  let odd = 0;
  let first = -1;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (
      (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) ||
      c === 0xfffd ||
      (c >= 0x7f && c < 0xa0)
    ) {
      odd++;
      if (first < 0) first = i;
    }
  }
  if (first < 0) return null;
  if (firstNewline < 0 || first < firstNewline) return first;
  return odd > sample.length * 0.05 ? first : null;
}

export class CaptureParser {
  /** The start of a line that continues in the next chunk: its parts, and their total size. */
  private pendingParts: Uint8Array[] = [];
  private pendingSize = 0;
  private lineNo = 0;
  private bytes = 0;
  private started = false;
  private head: Array<[number, string]> = [];
  private importer: Importer | null = null;
  private fatal: Diagnostic | null = null;
  private readonly decoder = new TextDecoder('utf-8');

  /** The next chunk of the input's bytes (UTF-8). */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.fatal) return;
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3); // BOM
      const start = this.decoder.decode(chunk.subarray(0, 4096));
      const at = binaryOffset(start);
      if (at !== null) {
        // UTF-16 text decodes as UTF-8 with a NUL after every ASCII character.
        const utf16 = looksLikeUtf16(start);
        this.fatal = {
          severity: 'error',
          line: lineOf(start, at),
          message: utf16
            ? 'UTF-16 text: expected UTF-8 (convert it, e.g. iconv -f UTF-16 -t UTF-8)'
            : `binary data (character ${at + 1} is 0x${start.charCodeAt(at).toString(16).padStart(2, '0')}): expected a text file (a capture, nstat or bpftrace output)`,
        };
        return;
      }
    }
    let start = 0;
    let nl = chunk.indexOf(10);
    if (this.pendingSize > 0 || this.pendingParts.length > 0) {
      if (nl < 0) {
        this.pendingParts.push(chunk.slice());
        this.pendingSize += chunk.length;
        return;
      }
      const line = this.takePending(chunk.subarray(0, nl));
      this.line(line, 0, line.length);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    while (nl >= 0) {
      this.line(chunk, start, nl);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.pendingParts.push(chunk.slice(start));
      this.pendingSize += chunk.length - start;
    }
  }

  /** A decoded string chunk (tests, and parseCaptureText). */
  pushText(text: string): void {
    this.push(ENCODER.encode(text));
  }

  private takePending(last: Uint8Array): Uint8Array {
    const line = new Uint8Array(this.pendingSize + last.length);
    let at = 0;
    for (const part of this.pendingParts) {
      line.set(part, at);
      at += part.length;
    }
    line.set(last, at);
    this.pendingParts = [];
    this.pendingSize = 0;
    return line;
  }

  /**
   * The line buf[start, end). Importers with a fast path read it in place, with no string made
   * for it: at 100 MB, allocations are most of the cost. Other lines are decoded and go through
   * `take`.
   */
  private line(buf: Uint8Array, start: number, end: number): void {
    if (end > start && buf[end - 1] === 13) end--;
    const importer = this.importer;
    if (importer?.span && !this.fatal) {
      let consumed: boolean;
      try {
        consumed = importer.span(buf, start, end, this.lineNo + 1);
      } catch (err) {
        importer.builder.warn(
          this.lineNo + 1,
          `${INTERNAL_ERROR}: ${err instanceof Error ? err.message : String(err)}; the line is skipped`,
        );
        consumed = true;
      }
      if (consumed) {
        this.lineNo++;
        return;
      }
    }
    this.take(this.decoder.decode(buf.subarray(start, end)));
  }

  private take(text: string): void {
    const lineNo = ++this.lineNo;
    if (this.fatal) return;
    if (this.importer) {
      this.feed(this.importer, text, lineNo);
      return;
    }
    this.head.push([lineNo, text]);
    const detected = detectFormat(this.head, this.head.length >= HEAD_LINES);
    if (detected.ok === 'more') return;
    this.decide(detected);
  }

  private decide(detected: ReturnType<typeof detectFormat>): void {
    if (detected.ok === true) {
      const importer = importerFor(detected.format);
      this.importer = importer;
      for (const [n, t] of this.head) this.feed(importer, t, n);
      this.head = [];
    } else if (detected.ok === false) {
      this.fatal = { severity: 'error', line: detected.line, message: detected.message };
    }
  }

  /**
   * One line into the importer. An importer never throws on bad input by design; should one
   * (a bug), the line is reported and skipped rather than losing the whole file. The fuzz test
   * fails on any such report.
   */
  private feed(importer: Importer, text: string, lineNo: number): void {
    try {
      importer.line(text, lineNo);
    } catch (err) {
      importer.builder.warn(
        lineNo,
        `${INTERNAL_ERROR}: ${err instanceof Error ? err.message : String(err)}; the line is skipped`,
      );
    }
  }

  finish(): ParseResult {
    const unterminated = this.pendingParts.length > 0;
    if (unterminated) {
      const line = this.takePending(new Uint8Array(0));
      this.line(line, 0, line.length);
    }
    if (!this.importer && !this.fatal) this.decide(detectFormat(this.head, true));
    if (this.fatal || !this.importer) {
      const error = this.fatal ?? { severity: 'error' as const, line: null, message: 'no input' };
      return { ok: false, error, diagnostics: [], diagnosticsDropped: 0 };
    }
    const b = this.importer.builder;
    b.lines = this.lineNo;
    b.bytes = this.bytes;
    const fatal = this.importer.end(unterminated, this.lineNo);
    if (fatal) {
      // Name the first line that went wrong: that is usually where a foreign file gives itself away.
      const first = b.diagnostics.find((d) => d.severity !== 'info' && d.line !== null);
      const where = first ? ` (first problem, line ${first.line}: ${first.message})` : '';
      return {
        ok: false,
        error: { severity: 'error', line: first?.line ?? null, message: `${fatal}${where}` },
        diagnostics: b.diagnostics,
        diagnosticsDropped: b.diagnosticsDropped,
      };
    }
    const model = b.finish();
    return {
      ok: true,
      model,
      diagnostics: b.diagnostics,
      diagnosticsDropped: b.diagnosticsDropped,
    };
  }
}

/** Printable ASCII, NUL, printable ASCII, NUL: UTF-16LE text read as UTF-8 (after its BOM). */
function looksLikeUtf16(text: string): boolean {
  const start = text.startsWith('\ufffd\ufffd') ? 2 : 0;
  for (let i = start; i < start + 4; i++) {
    const c = text.charCodeAt(i);
    const even = (i - start) % 2 === 0;
    if (even ? c < 0x20 || c > 0x7e : c !== 0) return false;
  }
  return text.length >= start + 4;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const ENCODER = new TextEncoder();

/** Parse a whole input held as one string. */
export function parseCaptureText(text: string): ParseResult {
  const parser = new CaptureParser();
  parser.pushText(text);
  return parser.finish();
}

/** Parse a byte stream (a File's stream(), a fetch body), reporting progress after each chunk. */
export async function parseCaptureStream(
  stream: ReadableStream<Uint8Array>,
  totalBytes: number | null,
  onProgress?: (bytesRead: number, totalBytes: number | null) => void,
): Promise<ParseResult> {
  const parser = new CaptureParser();
  const reader = stream.getReader();
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    parser.push(value);
    onProgress?.(read, totalBytes);
  }
  return parser.finish();
}

/** The ArrayBuffers of a model, to transfer rather than copy it out of a Worker. */
export function modelTransferables(model: ReplayModel): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [
    model.events.timelineKind.buffer as ArrayBuffer,
    model.events.timelineRow.buffer as ArrayBuffer,
  ];
  for (const table of Object.values(model.events.tables)) {
    buffers.push(table.t_ns.buffer as ArrayBuffer);
    for (const column of Object.values(table.columns)) buffers.push(column.buffer as ArrayBuffer);
  }
  return buffers;
}
