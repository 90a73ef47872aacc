// The worker side of the engine protocol: answers requests by calling the wasm engine.
// worker.ts wires it to the Worker's global scope; the unit tests wire it to a MessagePort.
// See bridge.ts for the whole call chain.

import type { Catalog } from '../model/catalog';
import type { FirstRun, FirstRunRequest } from './firstRun';
import { deriveRun } from '../model/derive';
import { transferables, type TraceColumns } from '../model/trace';
import type { ConformExperiment } from './generated/ConformExperiment';
import type { Described } from './generated/Described';
import type { KernelDiff } from './generated/KernelDiff';
import type { PacketdrillReport } from './generated/PacketdrillReport';
import type { Row } from './generated/Row';
import type { RunSummary } from './generated/RunSummary';
import type { ScenarioInfo } from './generated/ScenarioInfo';
import type { SessionRequest } from './generated/SessionRequest';
import type { SessionSummary } from './generated/SessionSummary';
import type { SweepGrid } from './generated/SweepGrid';
import type * as Conform from './pkg/sendpath_conform';
import type * as Jobs from './pkg/sendpath_jobs';
import type * as Wasm from './pkg/sendpath_wasm';
import type { Request, Side, SideRequest, Verb, Verbs, WorkerMessage } from './protocol';

/** The exports of the module every page loads, `sendpath_wasm` (engine/wasm/src/site.rs). */
export type SiteModule = Pick<
  typeof Wasm,
  'version' | 'engine_catalog' | 'scenario_info' | 'WasmSession'
>;

/**
 * The exports only the jobs module has, `sendpath_jobs` (engine/wasm/src/site_jobs.rs), which
 * the workers of sweeps and pcap downloads load (jobsWorker.ts).
 */
export type JobsModule = Pick<
  typeof Jobs,
  'sweep_grid' | 'pcap_file' | 'WasmSummaryRun' | 'at_text' | 'kernel_diff'
>;

/**
 * The exports of "Model vs Linux"'s own module, `sendpath_conform`
 * (engine/wasm/src/site_conform.rs), which only that view's worker loads (conformWorker.ts).
 */
export type ConformModule = Pick<
  typeof Conform,
  'version' | 'conform_experiment' | 'conform_rows' | 'packetdrill_run'
>;

/**
 * The wasm module a worker serves: `version`, and the exports of the site's module or of the
 * conform module (or both, in tests). A verb whose exports the module lacks is rejected.
 */
export type EngineModule = Pick<SiteModule, 'version'> &
  Partial<SiteModule> &
  Partial<JobsModule> &
  Partial<ConformModule>;

/** `engine`'s export `name`, or an error saying which worker has it. */
function exportOf<K extends keyof EngineModule>(
  engine: Pick<EngineModule, K>,
  name: K,
): NonNullable<EngineModule[K]> {
  const f = engine[name];
  if (f === undefined)
    throw new Error(
      `this worker's wasm module has no ${name}: the simulator's verbs are served by ` +
        "engine/worker.ts, those of 'Model vs Linux' by engine/conformWorker.ts",
    );
  return f as NonNullable<EngineModule[K]>;
}

/** Where requests arrive and answers go: the worker's global scope, or a MessagePort. */
export interface Endpoint {
  postMessage(message: WorkerMessage, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** What a handler may do besides returning its result. */
interface CallContext {
  /** Report how far a long job has got. */
  progress(done: number, total: number): void;
}

/** The handlers of the verbs `V`, one each. */
export type Handlers<V extends Verb = Verb> = {
  [K in V]: (
    engine: EngineModule,
    ctx: CallContext,
    ...args: Verbs[K]['args']
  ) => Verbs[K]['result'] | Promise<Verbs[K]['result']>;
};

/** "Model vs Linux"'s verbs: served by its own worker, from its own wasm module. */
type ConformVerb = 'conformExperiment' | 'conformRows' | 'packetdrill';

/** A wasm session for `r` (the request's fields, one argument each). */
export function openSession(
  engine: Pick<EngineModule, 'WasmSession'>,
  r: SessionRequest,
): Wasm.WasmSession {
  const WasmSession = exportOf(engine, 'WasmSession');
  return new WasmSession(
    r.source,
    r.file,
    r.variant ?? undefined,
    r.sets,
    r.trace,
    r.fromNs,
    r.toNs ?? undefined,
    r.calibrateEvents ?? undefined,
    r.traceLimit,
    r.sampleEveryEvents,
    r.sampleEveryNs,
  );
}

/** A run of `r` to its end, without trace or samples (a full experiment, a sweep's point). */
function fullRun(r: SideRequest): SessionRequest {
  return {
    source: r.source,
    file: r.file,
    variant: r.variant,
    sets: r.sets,
    trace: false,
    fromNs: 0,
    toNs: null,
    calibrateEvents: null,
    traceLimit: 0,
    sampleEveryEvents: 0,
    sampleEveryNs: 0,
  };
}

/**
 * Resolves after the messages already queued for this worker have been handled: a long job
 * awaits it between slices. A MessageChannel's message, not setTimeout(0): nested timers are
 * clamped to 4 ms each, which cost a long run (some 50 slices) a fifth of a second.
 */
function nextMessages(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Events per slice of a long run: between slices the job reports progress. */
const EVENTS_PER_SLICE = 200_000;

/** The interactive run of each side, kept for `describe` until the next `simulate`. */
const sessions = new Map<Side, Wasm.WasmSession>();

let catalogCache: Catalog | null = null;
function catalogOf(engine: EngineModule): Catalog {
  catalogCache ??= JSON.parse(exportOf(engine, 'engine_catalog')()) as Catalog;
  return catalogCache;
}

/** The trace columns of a session's run, as `simulate` derives them. */
function columnsOf(session: Wasm.WasmSession, catalog: Catalog): TraceColumns {
  return {
    t: session.col_t_ns(),
    host: session.col_host(),
    sk: session.col_sk(),
    kind: session.col_kind(),
    values: session.col_values(),
    stride: catalog.trace.maxFields,
  };
}

// ---- warming up ----
//
// A worker's first runs are slow: the engine's wasm runs in its baseline code until V8 has
// compiled its hot functions again with TurboFan, and derive.ts's JavaScript in the interpreter
// and Maglev until TurboFan has compiled it (some ten runs of a window on this machine, 5 to 20
// times as long as warm ones, with the compilers' threads taking the cores besides). The
// reader's first changes of a control would wait for all that (and a change's own run is too
// short to get the wasm compiled soon). So when the page asks (`warmUp`, the simulator's page
// once its first run is in), at idle times (no request for WARM_IDLE_MS), the worker runs that configuration on without a trace for WARM_EVENTS events, a
// slice at a time, then runs and derives the window again, for nothing but the compiled code,
// until a run is no longer faster than the best so far (or WARM_MAX times). A request that
// arrives meanwhile waits for at most one slice or one such run.

/** Events of the warming's run without a trace, and of each of its slices. */
const WARM_EVENTS = 3_000_000;
const WARM_SLICE = 100_000;
/** Rows of each run of the window the warming describes. */
const WARM_DESCRIBED = 200;
/** Runs of the window in the warming, at most. */
const WARM_MAX = 12;
/** How long the worker must have been idle before each one, ms. */
const WARM_IDLE_MS = 200;
/** performance.now() of the last request's arrival or answer, and the requests being answered. */
const activity = { last: 0, inFlight: 0 };
let warming: 'cold' | 'warming' | 'done' = 'cold';

/** Runs and derives the window `r` again at idle times, to warm the code up (once a worker). */
function warmUpLater(engine: EngineModule, r: FirstRunRequest): void {
  if (warming !== 'cold') return;
  warming = 'warming';
  let left = WARM_MAX;
  let best = Infinity;
  let notFaster = 0;
  let long: Wasm.WasmSession | null = null;
  let events = 0;
  const tick = () => {
    if (left <= 0 || notFaster >= 3) {
      warming = 'done';
      return;
    }
    const wait = WARM_IDLE_MS - (performance.now() - activity.last);
    if (activity.inFlight > 0 || wait > 0) {
      setTimeout(tick, Math.max(wait, 20));
      return;
    }
    if (events < WARM_EVENTS) {
      try {
        long ??= openSession(engine, fullRun(r));
        events += WARM_SLICE;
        if (long.advance(WARM_SLICE)) events = WARM_EVENTS;
      } catch {
        events = WARM_EVENTS;
      }
      if (events >= WARM_EVENTS) long?.free();
      setTimeout(tick, 0);
      return;
    }
    left--;
    const t0 = performance.now();
    try {
      // What a change asks of the worker: the configuration's check, the run, its derivation
      // and the words of some of its rows (the decision log's).
      siteHandlers.scenarioInfo(engine, { progress: () => {} }, r);
      const run = runWindow(engine, r);
      try {
        const rows = Math.min(run.cols.t.length, WARM_DESCRIBED);
        run.session.describe(Uint32Array.from({ length: rows }, (_, i) => i));
      } finally {
        run.session.free();
      }
      deriveRun(run.cols, run.summary, run.samples, catalogOf(engine).trace);
    } catch {
      left = 0;
    }
    const ms = performance.now() - t0;
    notFaster = ms < 0.9 * best ? 0 : notFaster + 1;
    best = Math.min(best, ms);
    setTimeout(tick, 0);
  };
  setTimeout(tick, WARM_IDLE_MS);
}

/** An interactive run's window run through: its session (kept for `describe`) and its output. */
interface WindowRun {
  session: Wasm.WasmSession;
  summary: SessionSummary;
  cols: TraceColumns;
  samples: Float64Array;
  runMs: number;
  columnsMs: number;
  /** Milliseconds since the columns were read (the derivation's time, called after it). */
  deriveMs(): number;
}

/** Runs the window `r` asks for (`simulate`'s run, before the derivation). */
function runWindow(engine: EngineModule, r: FirstRunRequest): WindowRun {
  const catalog = catalogOf(engine);
  const request: SessionRequest = {
    source: r.source,
    file: r.file,
    variant: r.variant,
    sets: r.sets,
    trace: true,
    fromNs: r.fromNs,
    toNs: r.toNs,
    calibrateEvents: r.toNs === null ? r.calibrateEvents : null,
    // A knob that multiplies the event rate must not exhaust memory: 4x the calibration.
    traceLimit: Math.max(4 * r.calibrateEvents, 100_000),
    sampleEveryEvents: 100,
    sampleEveryNs: 0,
  };
  const session = openSession(engine, request);
  try {
    const t0 = performance.now();
    while (!session.advance(EVENTS_PER_SLICE)) {
      /* the interactive window is short: run it through */
    }
    const t1 = performance.now();
    const summary = JSON.parse(session.summary()) as SessionSummary;
    const cols = columnsOf(session, catalog);
    const t2 = performance.now();
    const samples = session.samples();
    return {
      session,
      summary,
      cols,
      samples,
      runMs: t1 - t0,
      columnsMs: t2 - t1,
      deriveMs: () => performance.now() - t2,
    };
  } catch (err) {
    session.free();
    throw err;
  }
}

/**
 * What the engine gives for `request` before the derivation, as the landing page's prerendered
 * first run holds it (firstRun.ts; scripts/vite-plugin-first-run.ts makes it at build time).
 */
export function firstRunOf(engine: EngineModule, request: FirstRunRequest): FirstRun {
  const run = runWindow(engine, request);
  run.session.free();
  return {
    request,
    version: engine.version(),
    catalog: catalogOf(engine),
    info: siteHandlers.scenarioInfo(engine, { progress: () => {} }, request) as ScenarioInfo,
    summary: run.summary,
    cols: run.cols,
    samples: run.samples,
  };
}

/**
 * The simulator's verbs, served by engine/worker.ts from `sendpath_wasm`. Two objects, not one,
 * so that conformWorker.ts's bundle leaves these (and model/derive.ts) out.
 */
export const siteHandlers: Handlers<Exclude<Verb, ConformVerb>> = {
  version: (engine) => engine.version(),
  catalog: (engine) => catalogOf(engine),
  scenarioInfo: (engine, _ctx, r) =>
    JSON.parse(
      exportOf(engine, 'scenario_info')(r.source, r.file, r.variant ?? undefined, r.sets),
    ) as ScenarioInfo,
  simulate: (engine, _ctx, r) => {
    const catalog = catalogOf(engine);
    const run = runWindow(engine, r);
    try {
      const model = deriveRun(run.cols, run.summary, run.samples, catalog.trace);
      model.timing = { runMs: run.runMs, columnsMs: run.columnsMs, deriveMs: run.deriveMs() };
      sessions.get(r.side)?.free();
      sessions.set(r.side, run.session);
      return model;
    } catch (err) {
      run.session.free();
      throw err;
    }
  },
  keepRun: (engine, _ctx, r) => {
    const run = runWindow(engine, r);
    sessions.get(r.side)?.free();
    sessions.set(r.side, run.session);
    return null;
  },
  warmUp: (engine, _ctx, r) => {
    warmUpLater(engine, r);
    return null;
  },
  describe: (_engine, _ctx, side, rows) => {
    const session = sessions.get(side);
    if (!session) throw new Error(`no run of side ${side} to describe`);
    return JSON.parse(session.describe(Uint32Array.from(rows))) as Described;
  },
  experiment: async (engine, ctx, r, names = []) => {
    const request = fullRun(r);
    // Sample 200 times over the scenario's duration (known once the session resolved it).
    const probe = openSession(engine, request);
    const end = probe.end_ns();
    probe.free();
    request.sampleEveryNs = Math.max(1, Math.floor(end / 200));
    const session = openSession(engine, request);
    try {
      while (!session.advance(EVENTS_PER_SLICE)) {
        ctx.progress(session.now_ns(), end);
        // Let other messages in between slices.
        await nextMessages();
      }
      ctx.progress(end, end);
      const metrics: Record<string, number | null> = {};
      for (const n of names) metrics[n] = session.metric(n) ?? null;
      return {
        summary: JSON.parse(session.summary()) as SessionSummary,
        samples: session.samples(),
        metrics,
      };
    } finally {
      session.free();
    }
  },
  sweepGrid: (engine, _ctx, r) =>
    JSON.parse(
      exportOf(engine, 'sweep_grid')(
        r.source,
        r.file,
        r.variant ?? undefined,
        r.sets,
        r.vary,
        r.metrics,
      ),
    ) as SweepGrid,
  sweepPoint: (engine, _ctx, r, names) => {
    const session = openSession(engine, fullRun(r));
    try {
      // A point is one short job among many: run it through (the pool reports progress).
      while (!session.advance(1_000_000)) {
        /* on to the end */
      }
      const summary = JSON.parse(session.summary()) as SessionSummary;
      return {
        metrics: names.map((n) => session.metric(n) ?? null),
        warnings: summary.result.warnings,
      };
    } finally {
      session.free();
    }
  },
  pcap: (engine, _ctx, r) =>
    exportOf(engine, 'pcap_file')(
      r.source,
      r.file,
      r.variant ?? undefined,
      r.sets,
      r.toNs ?? undefined,
      r.frames,
      r.snaplen,
    ),
  runSummary: async (engine, ctx, r, intervalNs) => {
    const WasmSummaryRun = exportOf(engine, 'WasmSummaryRun');
    const run = new WasmSummaryRun(r.source, r.file, r.variant ?? undefined, r.sets, intervalNs);
    try {
      const end = run.end_ns();
      while (!run.advance(EVENTS_PER_SLICE)) {
        ctx.progress(run.now_ns(), end);
        // Let other messages in between slices.
        await nextMessages();
      }
      ctx.progress(end, end);
      return JSON.parse(run.finish()) as RunSummary;
    } finally {
      run.free();
    }
  },
  atText: (engine, _ctx, r, atNs) =>
    exportOf(engine, 'at_text')(r.source, r.file, r.variant ?? undefined, r.sets, atNs),
  kernelDiff: (engine, _ctx, a, b) =>
    JSON.parse(
      exportOf(engine, 'kernel_diff')(
        a.source,
        a.file,
        a.variant ?? undefined,
        a.sets,
        b.source,
        b.file,
        b.variant ?? undefined,
        b.sets,
      ),
    ) as KernelDiff,
};

/** "Model vs Linux"'s verbs, served by engine/conformWorker.ts from `sendpath_conform`. */
export const conformHandlers: Handlers<'version' | ConformVerb> = {
  version: (engine) => engine.version(),
  conformExperiment: (engine, _ctx, f) =>
    JSON.parse(exportOf(engine, 'conform_experiment')(f.source, f.file, f.id)) as ConformExperiment,
  conformRows: (engine, _ctx, r) =>
    JSON.parse(
      exportOf(engine, 'conform_rows')(
        r.source,
        r.file,
        r.id,
        r.scenarioSource,
        r.scenarioFile,
        r.knownFailures,
        'scenarios/conformance/known-failures.toml',
      ),
    ) as Row[],
  packetdrill: (engine, _ctx, s) =>
    JSON.parse(exportOf(engine, 'packetdrill_run')(s.text, s.name)) as PacketdrillReport,
};

function isRequest(data: unknown): data is Request {
  if (typeof data !== 'object' || data === null) return false;
  const r = data as Record<string, unknown>;
  return typeof r.id === 'number' && typeof r.verb === 'string' && Array.isArray(r.args);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Loads the engine with `load` and answers every request arriving at `endpoint` with
 * `handlers` (`siteHandlers` or `conformHandlers`), in order. Posts `ready` (or `failed`) once
 * the engine is loaded.
 */
export function serveEngine(
  endpoint: Endpoint,
  load: () => Promise<EngineModule>,
  handlers: Partial<Handlers>,
): void {
  const engine = load();
  engine.then(
    (e) => endpoint.postMessage({ kind: 'ready', version: e.version() }),
    (err: unknown) => endpoint.postMessage({ kind: 'failed', error: describe(err) }),
  );

  endpoint.addEventListener('message', (event) => {
    const data: unknown = event.data;
    if (!isRequest(data)) {
      console.error('engine worker: ignoring a message that is not a request', data);
      return;
    }
    activity.last = performance.now();
    activity.inFlight++;
    void answer(data).finally(() => {
      activity.last = performance.now();
      activity.inFlight--;
    });
  });

  async function answer(req: Request): Promise<void> {
    const { id, verb } = req;
    try {
      if (!Object.hasOwn(handlers, verb))
        throw new Error(
          `unknown verb '${verb}' in this worker (the simulator's verbs are served by ` +
            "engine/worker.ts, those of 'Model vs Linux' by engine/conformWorker.ts)",
        );
      const e = await engine;
      const handler = handlers[verb] as (
        e: EngineModule,
        ctx: CallContext,
        ...args: unknown[]
      ) => unknown;
      const ctx: CallContext = {
        progress: (done, total) => endpoint.postMessage({ kind: 'progress', id, done, total }),
      };
      const result = await handler(e, ctx, ...req.args);
      endpoint.postMessage({ kind: 'answer', id, ok: true, result }, transferables(result));
    } catch (err) {
      endpoint.postMessage({ kind: 'answer', id, ok: false, error: describe(err) });
    }
  }
}
