// The worker side of capture parsing. worker.ts wires it to the Worker's global scope; the unit
// tests wire it to a MessagePort.
//
//   page (client.ts)                        worker (this file)
//   { kind: 'parse', id, source } ------->  read source as a stream (Blob.stream() or fetch)
//                                  <------  { kind: 'progress', id, bytesRead, totalBytes } ...
//                                  <------  { kind: 'done', id, result }   (typed arrays transferred)
//
// A replay session (the site's native mode) keeps the model in the worker and sends the page
// what it shows: the capture's head, the run model of a window, the scenario keys, the words of
// rows. The model never crosses to the page whole.
//
//   { kind: 'open', id, source, schema, registry } ->  parse as above (progress), then
//                                  <------  { kind: 'opened', id, name, result: OpenResult }
//   { kind: 'replay', id, window } ------>  <------  { kind: 'replayed', id, model } | error
//   { kind: 'describe', id, rows } ------>  <------  { kind: 'described', id, texts, facts }
//
// `source` is a Blob (a File from the picker or a drop) or a URL (`?capture=<url>`). A URL is
// fetched from the page's own origin, or from another one (whose server must send CORS headers)
// only when the reader confirmed it (`otherOrigin`, asked by app/store.ts). Limits (issue 15): a
// capture holds at most CAPTURE_LIMITS.maxBytes (a file, or a URL by its Content-Length and by
// what arrives), and a URL that sends nothing for CAPTURE_LIMITS.idleMs is given up. Nothing
// leaves the browser.

import type { TraceSchema } from '../model/catalog';
import type { RunModel } from '../model/derive';
import { transferables } from '../model/trace';
import {
  EVENT_KINDS,
  type CaptureFormat,
  type Diagnostic,
  type EventKind,
  type EventWindow,
  type ParseResult,
  type RecordedConfig,
  type ReplayModel,
  type StageCoverage,
  type WorkloadRecord,
} from './model';
import { CAPTURE_LIMITS, sizeText, type CaptureLimits } from './limits';
import { modelTransferables, parseCaptureStream } from './parse';
import {
  describeRecorded,
  replayRowFacts,
  replayRun,
  type RecordedFacts,
  type ReplayRows,
  type ReplayWindow,
} from './replay';
import { scenarioFromRecording, type KeyRegistry, type ScenarioMapping } from './scenario';

export type CaptureSource =
  | { blob: Blob; name: string }
  | {
      url: string;
      /** The reader confirmed reading this URL from another origin than the page's. */
      otherOrigin?: boolean;
    };

/** Where the worker runs, and its limits (the unit tests set both). */
export interface CaptureServeOptions {
  /** The page's origin; a URL elsewhere needs `otherOrigin`. Default: the worker's own. */
  origin?: string;
  limits?: CaptureLimits;
}

/** What the page keeps of an opened capture: everything but its events. */
export interface ReplayHead {
  format: CaptureFormat;
  config: RecordedConfig;
  coverage: StageCoverage[];
  eventWindow: EventWindow | null;
  eventCounts: Record<EventKind, number>;
  counterSamples: number;
  workload: WorkloadRecord | null;
  durationNs: number;
  truncated: boolean;
  lines: number;
  bytes: number;
}

export type OpenResult =
  | {
      ok: true;
      head: ReplayHead;
      diagnostics: Diagnostic[];
      diagnosticsDropped: number;
      model: RunModel;
      scenario: ScenarioMapping;
      /** Milliseconds the worker spent: reading and parsing, then the run model. */
      timing: { parseMs: number; replayMs: number };
    }
  | { ok: false; error: Diagnostic; diagnostics: Diagnostic[]; diagnosticsDropped: number };

export type CaptureRequest =
  | { kind: 'parse'; id: number; source: CaptureSource }
  | {
      kind: 'open';
      id: number;
      source: CaptureSource;
      schema: TraceSchema;
      registry: KeyRegistry;
    }
  | { kind: 'replay'; id: number; window: ReplayWindow }
  | { kind: 'describe'; id: number; rows: number[] };

export type CaptureMessage =
  | { kind: 'progress'; id: number; bytesRead: number; totalBytes: number | null }
  | { kind: 'done'; id: number; result: ParseResult; name: string }
  | { kind: 'opened'; id: number; result: OpenResult; name: string }
  | { kind: 'replayed'; id: number; model: RunModel | null; error: string | null }
  | {
      kind: 'described';
      id: number;
      /** Each row in English words. */
      texts: string[];
      /** What each row recorded, for its words in another language (i18n/log.ts). */
      facts: (RecordedFacts | null)[];
    };

export interface CaptureEndpoint {
  postMessage(message: CaptureMessage, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** Progress is posted at most this often (every 1% or 4 MB, whichever comes first). */
function progressStep(total: number | null): number {
  return total ? Math.min(total / 100, 4 << 20) : 4 << 20;
}

async function openSource(
  source: CaptureSource,
  origin: string | undefined,
  limits: CaptureLimits,
): Promise<{ stream: ReadableStream<Uint8Array>; total: number | null; name: string }> {
  if ('blob' in source) {
    if (source.blob.size > limits.maxBytes)
      throw new Error(
        `${source.name} is ${sizeText(source.blob.size)}; a capture may be at most ${sizeText(limits.maxBytes)} (the capture size limit). Record a shorter run (sendpath-record -d SECONDS) or fewer events (--max-events N); the page keeps what it showed`,
      );
    return { stream: source.blob.stream(), total: source.blob.size, name: source.name };
  }
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw new Error(`cannot read ${source.url}: not a URL`);
  }
  if (origin !== undefined && url.origin !== origin && !source.otherOrigin)
    throw new Error(
      `cannot read ${source.url}: it is on another site (${url.origin}) than this page (${origin}), and reading it was not confirmed`,
    );
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.origin !== origin)
    throw new Error(`cannot read ${source.url}: a capture link must be http: or https:`);
  const abort = new AbortController();
  const idle = `sent nothing for ${limits.idleMs / 1000} s (the capture link time limit)`;
  let timer = setTimeout(() => abort.abort(), limits.idleMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => abort.abort(), limits.idleMs);
  };
  let response: Response;
  try {
    response = await fetch(url.href, { signal: abort.signal });
  } catch (err) {
    clearTimeout(timer);
    if (abort.signal.aborted)
      throw new Error(`cannot fetch ${source.url}: the server ${idle}`, { cause: err });
    throw new Error(
      `cannot fetch ${source.url}: ${err instanceof Error ? err.message : String(err)} (a capture URL must be on this site, or its server must allow it with CORS headers)`,
      { cause: err },
    );
  }
  if (!response.ok || !response.body) {
    clearTimeout(timer);
    throw new Error(`cannot fetch ${source.url}: HTTP ${response.status} ${response.statusText}`);
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (total !== null && total > limits.maxBytes) {
    clearTimeout(timer);
    abort.abort();
    throw new Error(
      `${source.url} is ${sizeText(total)} (its Content-Length); a capture may be at most ${sizeText(limits.maxBytes)} (the capture size limit); the page keeps what it showed`,
    );
  }
  const name = decodeURIComponent(url.pathname.split('/').pop() || source.url);
  // Counts what arrives (a server may send more than it announced, or announce nothing) and
  // gives up on a server that stalls.
  const reader = response.body.getReader();
  let read = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      rearm();
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
        clearTimeout(timer);
      } catch (err) {
        clearTimeout(timer);
        controller.error(
          new Error(
            abort.signal.aborted
              ? `cannot read ${source.url}: the server ${idle} after ${sizeText(read)}`
              : `cannot read ${source.url}: ${err instanceof Error ? err.message : String(err)}`,
          ),
        );
        return;
      }
      if (chunk.done) {
        clearTimeout(timer);
        controller.close();
        return;
      }
      read += chunk.value.byteLength;
      if (read > limits.maxBytes) {
        clearTimeout(timer);
        abort.abort();
        controller.error(
          new Error(
            `${source.url} sent more than ${sizeText(limits.maxBytes)}; a capture may be at most ${sizeText(limits.maxBytes)} (the capture size limit); the page keeps what it showed`,
          ),
        );
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
  return { stream, total, name };
}

function headOf(m: ReplayModel): ReplayHead {
  const eventCounts = {} as Record<EventKind, number>;
  for (const k of EVENT_KINDS) eventCounts[k] = m.events.tables[k].count;
  return {
    format: m.format,
    config: m.config,
    coverage: m.coverage,
    eventWindow: m.eventWindow,
    eventCounts,
    counterSamples: m.counters.length,
    workload: m.workload,
    durationNs: m.durationNs,
    truncated: m.truncated,
    lines: m.lines,
    bytes: m.bytes,
  };
}

export function serveCaptureParsing(
  endpoint: CaptureEndpoint,
  options: CaptureServeOptions = {},
): void {
  const origin =
    'origin' in options
      ? options.origin
      : (globalThis as { location?: { origin: string } }).location?.origin;
  const limits = options.limits ?? CAPTURE_LIMITS;
  /** The open replay session of this worker: its model, schema and the rows of its window. */
  let session: { model: ReplayModel; schema: TraceSchema; name: string; rows: ReplayRows } | null =
    null;

  endpoint.addEventListener('message', (event) => {
    const req = event.data as CaptureRequest;
    if (typeof req !== 'object' || req === null) return;
    if (req.kind === 'parse') void handle(req);
    else if (req.kind === 'open') void open(req);
    else if (req.kind === 'replay') replay(req);
    else if (req.kind === 'describe') {
      const s = session;
      const facts = s ? req.rows.map((r) => replayRowFacts(s.model, s.rows, r)) : [];
      const texts = facts.map((f) => (f ? describeRecorded(f) : ''));
      endpoint.postMessage({ kind: 'described', id: req.id, texts, facts });
    }
  });

  function replay(req: Extract<CaptureRequest, { kind: 'replay' }>): void {
    if (!session) {
      endpoint.postMessage({ kind: 'replayed', id: req.id, model: null, error: 'no capture open' });
      return;
    }
    try {
      const r = replayRun(session.model, session.schema, session.name, req.window);
      session.rows = r.rows;
      endpoint.postMessage(
        { kind: 'replayed', id: req.id, model: r.model, error: null },
        transferables(r.model),
      );
    } catch (err) {
      endpoint.postMessage({
        kind: 'replayed',
        id: req.id,
        model: null,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  async function open(req: Extract<CaptureRequest, { kind: 'open' }>): Promise<void> {
    let name = 'capture';
    try {
      const t0 = performance.now();
      const opened = await openSource(req.source, origin, limits);
      name = opened.name;
      const result = await parseCaptureStream(
        opened.stream,
        opened.total,
        progressPoster(req.id, opened.total),
      );
      const t1 = performance.now();
      if (!result.ok) {
        endpoint.postMessage({ kind: 'opened', id: req.id, name, result });
        return;
      }
      const r = replayRun(result.model, req.schema, name, null);
      const scenario = scenarioFromRecording(result.model, req.registry);
      session = { model: result.model, schema: req.schema, name, rows: r.rows };
      const out: OpenResult = {
        ok: true,
        head: headOf(result.model),
        diagnostics: result.diagnostics,
        diagnosticsDropped: result.diagnosticsDropped,
        model: r.model,
        scenario,
        timing: { parseMs: t1 - t0, replayMs: performance.now() - t1 },
      };
      endpoint.postMessage(
        { kind: 'opened', id: req.id, name, result: out },
        transferables(r.model),
      );
    } catch (err) {
      endpoint.postMessage({ kind: 'opened', id: req.id, name, result: failure(err) });
    }
  }

  function progressPoster(id: number, total: number | null) {
    const step = progressStep(total);
    let next = step;
    return (bytesRead: number, totalBytes: number | null) => {
      if (bytesRead >= next || bytesRead === totalBytes) {
        next = bytesRead + step;
        endpoint.postMessage({ kind: 'progress', id, bytesRead, totalBytes });
      }
    };
  }

  async function handle(req: Extract<CaptureRequest, { kind: 'parse' }>): Promise<void> {
    let name = 'capture';
    try {
      const opened = await openSource(req.source, origin, limits);
      name = opened.name;
      const result = await parseCaptureStream(
        opened.stream,
        opened.total,
        progressPoster(req.id, opened.total),
      );
      endpoint.postMessage(
        { kind: 'done', id: req.id, result, name },
        result.ok ? modelTransferables(result.model) : [],
      );
    } catch (err) {
      endpoint.postMessage({ kind: 'done', id: req.id, name, result: failure(err) });
    }
  }
}

/** The result of a file that could not be opened or read: the error, no model. */
function failure(err: unknown) {
  const message = err instanceof Error ? err.message : String(err);
  return {
    ok: false as const,
    error: { severity: 'error' as const, line: null, message },
    diagnostics: [],
    diagnosticsDropped: 0,
  };
}
