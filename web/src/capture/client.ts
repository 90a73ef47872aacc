// The page side of capture parsing: hand a File or a URL to a Worker (worker.ts) and get the
// ReplayModel back, with progress. The main thread never parses a capture.

import type { ParseResult } from './model';
import type { CaptureEndpoint, CaptureMessage, CaptureRequest, CaptureSource } from './serve';

export interface CaptureParsing {
  /** Settles with the result (a failed parse is a result with ok: false, never a rejection). */
  result: Promise<{ result: ParseResult; name: string }>;
  /** Stops the worker; the result then never settles. */
  cancel(): void;
}

/** What client.ts needs of a Worker (a MessagePort in the unit tests). */
export type CaptureWorkerLike = Pick<CaptureEndpoint, 'addEventListener'> & {
  postMessage(message: CaptureRequest): void;
  terminate?(): void;
};

function startWorker(): CaptureWorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
    name: 'sendpath-capture',
  });
}

let nextId = 1;

/**
 * Parse `source` in a worker (a new one per file, ended when done). `onProgress` gets bytes read
 * and the total when known.
 */
export function parseCaptureInWorker(
  source: CaptureSource,
  onProgress?: (bytesRead: number, totalBytes: number | null) => void,
  worker: CaptureWorkerLike = startWorker(),
): CaptureParsing {
  const id = nextId++;
  const result = new Promise<{ result: ParseResult; name: string }>((resolve) => {
    worker.addEventListener('message', (event: MessageEvent) => {
      const msg = event.data as CaptureMessage;
      if (msg.id !== id) return;
      if (msg.kind === 'progress') onProgress?.(msg.bytesRead, msg.totalBytes);
      else {
        worker.terminate?.();
        resolve({ result: msg.result, name: msg.name });
      }
    });
  });
  worker.postMessage({ kind: 'parse', id, source });
  return { result, cancel: () => worker.terminate?.() };
}
