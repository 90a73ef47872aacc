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
// `source` is a Blob (a File from the picker or a drop) or a URL (`?capture=<url>`: same-origin,
// or a server that sends CORS headers). Nothing leaves the browser.

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

export type CaptureSource = { blob: Blob; name: string } | { url: string };

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

export function serveCaptureParsing(endpoint: CaptureEndpoint): void {
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
      const opened = await openSource(req.source);
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
      const opened = await openSource(req.source);
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
