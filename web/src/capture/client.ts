// The page side of capture parsing: hand a File or a URL to a Worker (worker.ts) and get the
// ReplayModel back, with progress. The main thread never parses a capture.

import type { TraceSchema } from '../model/catalog';
import type { RunModel } from '../model/derive';
import type { ParseResult } from './model';
import type { DescribedRows, ReplayWindow } from './replay';
import type { KeyRegistry } from './scenario';
import type {
  CaptureEndpoint,
  CaptureMessage,
  CaptureRequest,
  CaptureSource,
  OpenResult,
} from './serve';

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
      else if (msg.kind === 'done') {
        worker.terminate?.();
        resolve({ result: msg.result, name: msg.name });
      }
    });
  });
  worker.postMessage({ kind: 'parse', id, source });
  return { result, cancel: () => worker.terminate?.() };
}

/** A capture opened in its own worker, which keeps it for further windows and descriptions. */
export interface ReplaySession {
  /** Settles with the result (a failed parse is a result with ok: false, never a rejection). */
  opened: Promise<{ result: OpenResult; name: string }>;
  /** The run model of another window of the capture. */
  replay(window: ReplayWindow): Promise<RunModel>;
  /** Rows of the last window in English words, and what each recorded (for other languages). */
  describe(rows: number[]): Promise<DescribedRows>;
  /** Stops the worker; pending answers never settle. */
  close(): void;
}

/**
 * Opens `source` for replay in a worker: parsed there with progress (bytes read, total when
 * known), then kept, and read as a run model with the engine's `schema`; `registry` maps its
 * configuration to scenario keys.
 */
export function openReplay(
  source: CaptureSource,
  schema: TraceSchema,
  registry: KeyRegistry,
  onProgress?: (bytesRead: number, totalBytes: number | null) => void,
  worker: CaptureWorkerLike = startWorker(),
): ReplaySession {
  const pending = new Map<number, (msg: CaptureMessage) => void>();
  worker.addEventListener('message', (event: MessageEvent) => {
    const msg = event.data as CaptureMessage;
    if (msg.kind === 'progress') {
      if (pending.has(msg.id)) onProgress?.(msg.bytesRead, msg.totalBytes);
      return;
    }
    const answer = pending.get(msg.id);
    if (!answer) return;
    pending.delete(msg.id);
    answer(msg);
  });
  const call = (req: CaptureRequest) =>
    new Promise<CaptureMessage>((resolve) => {
      pending.set(req.id, resolve);
      worker.postMessage(req);
    });
  const opened = call({ kind: 'open', id: nextId++, source, schema, registry }).then((msg) => {
    if (msg.kind !== 'opened') throw new Error(`capture worker: unexpected ${msg.kind}`);
    return { result: msg.result, name: msg.name };
  });
  return {
    opened,
    replay: async (window) => {
      const msg = await call({ kind: 'replay', id: nextId++, window });
      if (msg.kind !== 'replayed') throw new Error(`capture worker: unexpected ${msg.kind}`);
      if (!msg.model) throw new Error(msg.error ?? 'no model');
      return msg.model;
    },
    describe: async (rows) => {
      const msg = await call({ kind: 'describe', id: nextId++, rows });
      return msg.kind === 'described'
        ? { texts: msg.texts, facts: msg.facts }
        : { texts: [], facts: [] };
    },
    close: () => worker.terminate?.(),
  };
}
