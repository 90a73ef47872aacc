// The worker side of capture parsing. worker.ts wires it to the Worker's global scope; the unit
// tests wire it to a MessagePort.
//
//   page (client.ts)                        worker (this file)
//   { kind: 'parse', id, source } ------->  read source as a stream (Blob.stream() or fetch)
//                                  <------  { kind: 'progress', id, bytesRead, totalBytes } ...
//                                  <------  { kind: 'done', id, result }   (typed arrays transferred)
//
// `source` is a Blob (a File from the picker or a drop) or a URL (`?capture=<url>`: same-origin,
// or a server that sends CORS headers). Nothing leaves the browser.

import type { ParseResult } from './model';
import { modelTransferables, parseCaptureStream } from './parse';

export type CaptureSource = { blob: Blob; name: string } | { url: string };

export type CaptureRequest = { kind: 'parse'; id: number; source: CaptureSource };

export type CaptureMessage =
  | { kind: 'progress'; id: number; bytesRead: number; totalBytes: number | null }
  | { kind: 'done'; id: number; result: ParseResult; name: string };

export interface CaptureEndpoint {
  postMessage(message: CaptureMessage, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** Progress is posted at most this often (every 1% or 4 MB, whichever comes first). */
function progressStep(total: number | null): number {
  return total ? Math.min(total / 100, 4 << 20) : 4 << 20;
}

async function open(
  source: CaptureSource,
): Promise<{ stream: ReadableStream<Uint8Array>; total: number | null; name: string }> {
  if ('blob' in source)
    return { stream: source.blob.stream(), total: source.blob.size, name: source.name };
  let response: Response;
  try {
    response = await fetch(source.url);
  } catch (err) {
    throw new Error(
      `cannot fetch ${source.url}: ${err instanceof Error ? err.message : String(err)} (a capture URL must be on this site, or its server must allow it with CORS headers)`,
      { cause: err },
    );
  }
  if (!response.ok || !response.body)
    throw new Error(`cannot fetch ${source.url}: HTTP ${response.status} ${response.statusText}`);
  const length = Number(response.headers.get('content-length'));
  const name = decodeURIComponent(
    new URL(source.url, 'http://x/').pathname.split('/').pop() || source.url,
  );
  return {
    stream: response.body,
    total: Number.isFinite(length) && length > 0 ? length : null,
    name,
  };
}

export function serveCaptureParsing(endpoint: CaptureEndpoint): void {
  endpoint.addEventListener('message', (event) => {
    const req = event.data as CaptureRequest;
    if (typeof req !== 'object' || req === null || req.kind !== 'parse') return;
    void handle(req);
  });

  async function handle(req: CaptureRequest): Promise<void> {
    let name = 'capture';
    try {
      const opened = await open(req.source);
      name = opened.name;
      const step = progressStep(opened.total);
      let next = step;
      const result = await parseCaptureStream(
        opened.stream,
        opened.total,
        (bytesRead, totalBytes) => {
          if (bytesRead >= next || bytesRead === totalBytes) {
            next = bytesRead + step;
            endpoint.postMessage({ kind: 'progress', id: req.id, bytesRead, totalBytes });
          }
        },
      );
      endpoint.postMessage(
        { kind: 'done', id: req.id, result, name },
        result.ok ? modelTransferables(result.model) : [],
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      endpoint.postMessage({
        kind: 'done',
        id: req.id,
        name,
        result: {
          ok: false,
          error: { severity: 'error', line: null, message },
          diagnostics: [],
          diagnosticsDropped: 0,
        },
      });
    }
  }
}
