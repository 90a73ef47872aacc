// The page's state outside React: the URL state, the engine, the last good run of each side,
// the errors the engine reported, and the full-experiment jobs. Components read a snapshot
// (useSyncExternalStore) and call the methods below; every configuration change goes through
// `change`, which records it in the URL and re-runs the sides it touched.
//
// Runs are "latest wins": while a side's run is in the engine, further changes only mark it
// stale, and one more run with the newest configuration follows. An invalid configuration
// (the engine's error from `scenarioInfo`) is never run: its error is shown next to the
// control and the last good run stays on screen.

import { openReplay, type ReplaySession } from '../capture/client';
import type { Diagnostic } from '../capture/model';
import type { DescribedRows, ReplayWindow } from '../capture/replay';
import type { ScenarioMapping } from '../capture/scenario';
import type { CaptureSource, ReplayHead } from '../capture/serve';
import { startEngine, startJobsEngine, takeFirstRun, type EngineBridge } from '../engine/bridge';
import {
  CALIBRATE_EVENTS,
  sameRequest,
  type FirstRunRequest,
  type PrerenderedRun,
} from '../engine/firstRun';
import { currentLang } from '../i18n/current';
import type { KernelDiff } from '../engine/generated/KernelDiff';
import type { RunSummary } from '../engine/generated/RunSummary';
import type { ScenarioInfo } from '../engine/generated/ScenarioInfo';
import type { SweepGrid } from '../engine/generated/SweepGrid';
import type { ExperimentResult, PcapRequest, Side, SideRequest } from '../engine/protocol';
import type { SweepResults } from '../model/sweep';
import type { Catalog } from '../model/catalog';
import type { RunModel } from '../model/derive';
import { sceneContext, type SceneContext } from '../model/scene';
import {
  DEFAULT_SCENARIO_NAME,
  entryOf,
  firstVariantInText,
  loadScenario,
  loadedScenario,
  registerUserScenario,
  scenarioEntries,
  userEntries,
  type ScenarioEntry,
} from '../model/scenarioIndex';
import {
  DEFAULT_STEP,
  parseState,
  registerLinkedFiles,
  sameRuns,
  keysThatDiffer,
  parseSet,
  pruneSets,
  serializeState,
  setValue,
  withChange,
  withSet,
  type PageState,
  type ParseProblem,
  type SideConfig,
  type SweepSettings,
} from '../model/urlstate';
import { perf } from './perf';

/** Events the interactive window aims for (the calibration of its length). */
export { CALIBRATE_EVENTS };

export interface EngineErrorView {
  /** The scenario key the engine named, when it named one. */
  key: string | null;
  message: string;
}

export interface SideView {
  /** What the current configuration says (or the last valid one's). */
  info: ScenarioInfo | null;
  /** The last good run. */
  model: RunModel | null;
  ctx: SceneContext | null;
  /** Increments with each new model. */
  runId: number;
  /** The configuration the model was run with. */
  modelConfig: SideConfig | null;
  running: boolean;
  error: EngineErrorView | null;
  /** The shown run is the scenario without the link's overrides, which the engine refused. */
  baseRun: string | null;
}

export interface Preset {
  name: string;
  file: ScenarioEntry;
  title: string;
  summary: string;
  variants: { name: string; label: string }[];
}

export interface ExperimentView {
  running: boolean;
  /** Progress per side, 0..1. */
  progress: Partial<Record<Side, number>>;
  results: Partial<Record<Side, { config: SideConfig; result: ExperimentResult }>>;
  error: string | null;
}

/** The run summary panel: `sendpath run`'s summary of each side's whole configuration. */
export interface RunSummaryView {
  running: boolean;
  /** Progress per side, 0..1. */
  progress: Partial<Record<Side, number>>;
  results: Partial<Record<Side, { config: SideConfig; summary: RunSummary }>>;
  error: string | null;
}

/** A parameter sweep of side A (the sweep panel): its grid, its progress and its results. */
export interface SweepView {
  running: boolean;
  /** The grid of the last sweep started (null: none yet, or the engine refused it: `error`). */
  grid: SweepGrid | null;
  /** Per point of `grid`, in its order; null until the point has run. */
  results: SweepResults;
  done: number;
  /** The engine's error naming a bad key, value or metric, or a point's failure. */
  error: string | null;
  /** Side A's configuration the sweep varied. */
  base: SideConfig | null;
  /** Web Workers it ran on. */
  workers: number;
  /** Wall time of the whole sweep, from the click to the last point, ms. */
  ms: number | null;
}

/** A recording being read (native mode). */
export interface CaptureLoad {
  name: string;
  /**
   * `confirm`: a `?capture=` link to another origin than the page's waits for the reader to
   * open it or not (issue 15); `url` and `origin` say what and where.
   */
  status: 'loading' | 'failed' | 'confirm';
  url?: string;
  origin?: string;
  bytesRead: number;
  totalBytes: number | null;
  /** Why it could not be replayed (failed). */
  error: Diagnostic | null;
}

/** The simulation of a recording ("Simulate this"): its full run, for the counters. */
export interface CaptureSimulation {
  running: boolean;
  progress: number;
  result: ExperimentResult | null;
  error: string | null;
}

/** The recording replayed in place of side A. */
export interface CaptureView {
  name: string;
  /** Its URL (the link reopens it), or null when opened from a file. */
  url: string | null;
  head: ReplayHead;
  diagnostics: Diagnostic[];
  diagnosticsDropped: number;
  scenario: ScenarioMapping;
  simulation: CaptureSimulation | null;
  /** Milliseconds from the file's first byte to its run model on the page. */
  loadMs: number;
  /** Where the time cursor goes when its run model arrives (ns). */
  openAtNs: number | null;
}

export interface Snapshot {
  engine: 'starting' | 'ready' | 'failed';
  engineError: string | null;
  version: string | null;
  catalog: Catalog | null;
  state: PageState;
  problems: ParseProblem[];
  a: SideView;
  b: SideView | null;
  presets: Preset[];
  experiment: ExperimentView;
  runSummary: RunSummaryView;
  sweep: SweepView;
  /** A recording being read, or the last one that could not be. */
  captureLoad: CaptureLoad | null;
  /** The recording on screen (side A), if any. */
  capture: CaptureView | null;
}

const emptySide = (): SideView => ({
  info: null,
  model: null,
  ctx: null,
  runId: 0,
  modelConfig: null,
  running: false,
  error: null,
  baseRun: null,
});

const emptySweep = (): SweepView => ({
  running: false,
  grid: null,
  results: [],
  done: 0,
  error: null,
  base: null,
  workers: 0,
  ms: null,
});

/** Web Workers a sweep runs on: one per core the browser reports (at most 16). */
export function sweepWorkers(points: number): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores, 16, points));
}

export const fileOf = entryOf;

/** A side the link names without a variant opens the scenario's first one. */
const FIRST_VARIANT = '\u0000first';

function readUrl(search: string): { state: PageState; problems: ParseProblem[] } {
  const fileProblems = registerLinkedFiles(search);
  const { state, problems } = parseState(
    search,
    [...scenarioEntries, ...userEntries()].map((e) => e.name),
    DEFAULT_SCENARIO_NAME,
    () => FIRST_VARIANT,
  );
  return { state, problems: [...fileProblems, ...problems] };
}

/** Split the engine's "FILE: KEY: message" into the key it names and the message. */
export function parseEngineError(
  message: string,
  file: string,
  keys: readonly string[],
): EngineErrorView {
  let rest = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
  for (const k of keys) {
    const m = new RegExp(`^(?:[a-z]+:)?${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `).exec(rest);
    if (m) {
      rest = rest.slice(m[0].length);
      return { key: k, message: rest };
    }
  }
  return { key: null, message };
}

export class SiteStore {
  private snap: Snapshot;
  private listeners = new Set<() => void>();
  private engine: EngineBridge | null = null;
  /**
   * Side B's own engine, started with the first run of B: A and B run at once, each in its
   * worker (on a machine with two cores, an A/B change answers in the time of one run).
   */
  private engineB: EngineBridge | null = null;
  /** The full experiment's workers, one per side: A and B run at once. */
  private jobs: EngineBridge | null = null;
  private jobsB: EngineBridge | null = null;
  private inflight: Partial<Record<Side, boolean>> = {};
  private again: Partial<Record<Side, boolean>> = {};
  private urlTimer: ReturnType<typeof setTimeout> | null = null;
  /** Each start() gets a generation; a stopped one's late answers are dropped. */
  private generation = 0;

  /**
   * `search` is the URL state to open with. With `history: false` (a lesson step, the embed)
   * the store never reads or writes the page's URL after that: its state is its own.
   */
  constructor(
    search: string,
    private readonly opts: {
      history?: boolean;
      /**
       * Show the landing page's prerendered first run (engine/firstRun.ts) if main.tsx started
       * reading it and it is this page's run; the engine loads once the page is interactive.
       */
      firstRun?: boolean;
      /**
       * Have each engine warm its code up once its first run is in (the verb `warmUp`): a
       * page with controls, whose reader's first changes would otherwise run cold.
       */
      warmUp?: boolean;
    } = {},
  ) {
    const { state, problems } = readUrl(search);
    this.snap = {
      engine: 'starting',
      engineError: null,
      version: null,
      catalog: null,
      state,
      problems,
      a: emptySide(),
      b: state.b ? emptySide() : null,
      presets: scenarioEntries.map((f) => ({
        name: f.name,
        file: f,
        title: f.name,
        summary: '',
        variants: [],
      })),
      experiment: { running: false, progress: {}, results: {}, error: null },
      runSummary: { running: false, progress: {}, results: {}, error: null },
      sweep: emptySweep(),
      captureLoad: null,
      capture: null,
    };
  }

  // ---- React's view of the store ----

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getSnapshot = (): Snapshot => this.snap;

  private lateListeners = new Set<() => void>();
  private latePending = false;
  /** The store changed while a late notification was on its way (see notifyLate). */
  private lateStale = false;

  /**
   * Hears about changes once the frame that follows them is painted (and the tasks queued by
   * then have run): the panels below the pipeline and the charts (`useSiteDeferred`), which a
   * change thus never delays.
   */
  subscribeLate = (fn: () => void): (() => void) => {
    this.lateListeners.add(fn);
    return () => this.lateListeners.delete(fn);
  };

  private notifyLate(force = false, waitedAgain = false): void {
    if (this.lateListeners.size === 0) return;
    if (this.latePending) {
      this.lateStale = true;
      return;
    }
    this.latePending = true;
    this.lateStale = false;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      // After the tasks the frame queued (the charts' own "painted" mark among them).
      setTimeout(() => {
        this.latePending = false;
        // A change since this wait began (a run that arrived while the frame of its control's
        // change was being painted): the panels wait for the frame that shows it, rather than
        // render before it and hold back its charts. Once: a stream of changes (a job's
        // progress) does not keep them waiting.
        if (this.lateStale && !waitedAgain) {
          this.notifyLate(force, true);
          return;
        }
        // While a run is on its way the panels wait for it (its arrival notifies again): they
        // render once per change, after its charts, and never compete with the run for the CPU.
        // (A run that never comes back: they catch up regardless, a second on.)
        if (!force && (this.snap.a.running || this.snap.b?.running)) {
          setTimeout(() => this.notifyLate(true), 1000);
          return;
        }
        for (const fn of this.lateListeners) fn();
      }, 0);
    };
    // A hidden page paints no frames: a timer stands in.
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => setTimeout(run, 0));
    setTimeout(run, 200);
  }

  private set(patch: Partial<Snapshot>): void {
    this.snap = { ...this.snap, ...patch };
    for (const fn of this.listeners) fn();
    this.notifyLate();
  }

  private setSide(side: Side, patch: Partial<SideView>): void {
    const cur = this.snap[side];
    if (!cur) return;
    this.set({ [side]: { ...cur, ...patch } } as Partial<Snapshot>);
  }

  // ---- start ----

  /** Starts the engine, reads its catalog, runs A (and B), then reads every preset's title. */
  async start(): Promise<void> {
    const gen = ++this.generation;
    const first = this.opts.firstRun ? takeFirstRun() : null;
    if (first && (await this.showFirstRun(first, gen))) return;
    if (gen !== this.generation) return;
    const engine = startEngine();
    this.engine = engine;
    try {
      const version = await engine.ready;
      const catalog = await engine.call('catalog');
      if (gen !== this.generation) return;
      this.set({ engine: 'ready', version, catalog });
    } catch (err) {
      if (gen !== this.generation) return;
      this.set({ engine: 'failed', engineError: err instanceof Error ? err.message : String(err) });
      return;
    } finally {
      for (const w of this.catalogWaiters.splice(0)) w();
    }
    if (this.opts.history !== false) {
      window.addEventListener('popstate', this.onPopState);
      // A reload or a link followed right after a change still has it in the URL.
      window.addEventListener('pagehide', this.onPageHide);
    }
    this.set({ state: await withFirstVariants(this.snap.state) });
    this.writeUrl('replace', this.snap.state);
    const url = this.snap.state.capture;
    // A link to a recording opens it in place of side A (which runs if it cannot be read, or
    // while the reader decides whether to read it from another site).
    if (url && (await this.openLinkedCapture(url))) {
      if (this.snap.state.b) await this.refresh('b');
      return;
    }
    // Both at once (B waits for A itself when A's window is still to be chosen).
    await Promise.all([this.refresh('a'), this.snap.state.b ? this.refresh('b') : undefined]);
  }

  /**
   * Shows the prerendered first run as side A when it is the run this page asks for: then the
   * engine loads once the page is interactive (or at the first change, if that comes first).
   * False when there is none to show (it could not be read, or the page asks for another run):
   * the page then starts as any other.
   */
  private async showFirstRun(first: Promise<PrerenderedRun>, gen: number): Promise<boolean> {
    let run: PrerenderedRun;
    let state: PageState;
    let request: FirstRunRequest;
    try {
      [run, state] = await Promise.all([first, withFirstVariants(this.snap.state)]);
      if (state.b || state.capture) return false;
      request = {
        ...(await this.request(state.a)),
        fromNs: state.fromNs,
        toNs: state.toNs,
        calibrateEvents: CALIBRATE_EVENTS,
      };
    } catch (err) {
      console.warn(`${errorText(err)}; running it in the engine instead`);
      return false;
    }
    if (gen !== this.generation || !sameRequest(run.request, request)) return false;
    const { model, info, catalog } = run;
    this.firstRunShown = true;
    this.firstRunRequest = { ...request, side: 'a' };
    this.set({
      version: run.version,
      catalog,
      state: { ...state, toNs: model.summary.toNs },
      a: {
        ...this.snap.a,
        info,
        model,
        ctx: sceneContext(model, catalog.trace, qdiscOf(info, model)),
        runId: this.snap.a.runId + 1,
        modelConfig: state.a,
        running: false,
        error: null,
      },
    });
    for (const w of this.catalogWaiters.splice(0)) w();
    if (this.opts.history !== false) window.addEventListener('popstate', this.onPopState);
    this.writeUrl('replace', this.snap.state);
    // The engine loads once the page answers (the mark sp:interactive) and the browser is idle.
    void perf.interactive.then(() => {
      const load = () => {
        if (gen === this.generation) this.siteEngine();
      };
      if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 1000 });
      else setTimeout(load, 0);
    });
    return true;
  }

  /**
   * The request of side A's run when it is the prerendered first run: the engine has not run it,
   * and runs it (`keepRun`) before it can describe its rows.
   */
  private firstRunRequest: (FirstRunRequest & { side: Side }) | null = null;
  private firstRunShown = false;
  /** The engine's `keepRun` of the first run, once asked for. */
  private firstRunKept: Promise<null> | null = null;

  /**
   * Side A's engine, started now if the page has not started it yet (it showed the prerendered
   * first run): `engine` is 'starting' until it is ready, and 'failed' with its error if it
   * cannot load.
   */
  private siteEngine(): EngineBridge {
    if (this.engine) return this.engine;
    const gen = this.generation;
    const engine = startEngine();
    this.engine = engine;
    engine.ready.then(
      (version) => {
        if (gen === this.generation) this.set({ engine: 'ready', version });
      },
      (err: unknown) => {
        if (gen === this.generation) this.set({ engine: 'failed', engineError: errorText(err) });
      },
    );
    return engine;
  }

  /** The worker that runs `side` (and keeps its last run for `describe`). */
  private engineOf(side: Side): EngineBridge | null {
    // Before start() has started it, no engine; after the prerendered first run, at first need.
    if (!this.engine && !this.firstRunShown) return null;
    if (side === 'a') return this.siteEngine();
    this.engineB ??= startEngine();
    return this.engineB;
  }

  stop(): void {
    this.generation++;
    window.removeEventListener('popstate', this.onPopState);
    window.removeEventListener('pagehide', this.onPageHide);
    this.engine?.terminate();
    this.engineB?.terminate();
    this.jobs?.terminate();
    this.jobsB?.terminate();
    this.cancelSweep();
    this.pcapJobs?.terminate();
    this.cancelRunSummary();
    this.loading?.close();
    this.replay?.close();
  }

  // ---- native mode: a recording in place of side A ----

  /** The worker of the recording on screen, and of the one being read. */
  private replay: ReplaySession | null = null;
  private loading: ReplaySession | null = null;
  private simJobs: EngineBridge | null = null;

  /**
   * Reads a recording in a worker and, when it can be replayed, shows it as side A. Until then,
   * and when it cannot, the page keeps what it shows (the error is in `captureLoad`). `url` is
   * what the link keeps (null for a file). Resolves true once the recording is on screen.
   */
  async openCapture(source: CaptureSource, url: string | null): Promise<boolean> {
    const gen = this.generation;
    await this.catalogReady();
    const catalog = this.snap.catalog;
    if (!catalog || gen !== this.generation) return false;
    this.loading?.close();
    const name = 'blob' in source ? source.name : captureName(source.url);
    const started = performance.now();
    performance.mark('sp:capture-start');
    this.set({
      captureLoad: { name, status: 'loading', bytesRead: 0, totalBytes: null, error: null },
    });
    // Progress re-renders the page: at most five times a second.
    let shown = 0;
    const session = openReplay(source, catalog.trace, catalog.keys, (bytesRead, totalBytes) => {
      if (this.loading !== session) return;
      const now = performance.now();
      if (now - shown < 200 && bytesRead !== totalBytes) return;
      shown = now;
      const cur = this.snap.captureLoad;
      if (cur) this.set({ captureLoad: { ...cur, bytesRead, totalBytes } });
    });
    this.loading = session;
    const { result, name: readName } = await session.opened;
    if (this.loading !== session || gen !== this.generation) return false;
    this.loading = null;
    if (!result.ok) {
      session.close();
      const cur = this.snap.captureLoad;
      this.set({
        captureLoad: {
          name: readName,
          status: 'failed',
          bytesRead: cur?.bytesRead ?? 0,
          totalBytes: cur?.totalBytes ?? null,
          error: result.error,
        },
      });
      return false;
    }
    this.replay?.close();
    this.replay = session;
    this.simJobs?.terminate();
    this.simJobs = null;
    const model = result.model;
    const loadMs = performance.now() - started;
    // The benchmarks (scripts/bench/site.mjs, scripts/bench-capture-web.mjs) read these: the worker's share in detail.
    performance.mark('sp:capture-loaded', { detail: { ...result.timing, loadMs } });
    const state: PageState = {
      ...this.snap.state,
      capture: url,
      b: null,
      edit: 'a',
      fromNs: model.summary.fromNs,
      toNs: model.summary.toNs,
      // A link's cursor stays; otherwise the replay opens just before the first write or packet.
      t:
        url !== null && url === this.snap.state.capture && this.snap.state.t !== null
          ? this.snap.state.t
          : activityStart(model),
      row: null,
      speed: null,
      sel: '',
      log: '',
      step: firstRecordedStep(model),
    };
    // One snapshot: the page sees the recording and its cursor together.
    this.set({
      state,
      captureLoad: null,
      capture: {
        name: readName,
        url,
        head: result.head,
        diagnostics: result.diagnostics,
        diagnosticsDropped: result.diagnosticsDropped,
        scenario: result.scenario,
        simulation: null,
        loadMs,
        openAtNs: state.t,
      },
      b: null,
      a: {
        ...this.snap.a,
        model,
        ctx: sceneContext(model, model.recording!.schema, recordedQdisc(result.head)),
        runId: this.snap.a.runId + 1,
        running: false,
        error: null,
        baseRun: null,
      },
    });
    this.writeUrl('push', state);
    return true;
  }

  /**
   * Opens the recording a `?capture=` link names: at once from the page's own origin; from
   * another origin only once the reader confirms (confirmCapture), since the link's author
   * chose what the page fetches. Resolves true once the recording is on screen.
   */
  private async openLinkedCapture(link: string): Promise<boolean> {
    let href: string;
    try {
      href = resolveCaptureUrl(link);
    } catch {
      href = link;
    }
    let origin: string;
    try {
      origin = new URL(href).origin;
    } catch {
      origin = 'null';
    }
    if (origin === location.origin) return this.openCapture({ url: href }, link);
    this.loading?.close();
    this.loading = null;
    this.set({
      captureLoad: {
        name: captureName(href),
        status: 'confirm',
        url: href,
        origin,
        bytesRead: 0,
        totalBytes: null,
        error: null,
      },
    });
    return false;
  }

  /** The reader chose to read the linked recording from another origin. */
  confirmCapture(): void {
    const load = this.snap.captureLoad;
    if (load?.status !== 'confirm' || !load.url) return;
    void this.openCapture({ url: load.url, otherOrigin: true }, this.snap.state.capture);
  }

  /** The reader chose not to: the link's recording is dropped from the URL, the page stays. */
  declineCapture(): void {
    if (this.snap.captureLoad?.status !== 'confirm') return;
    const state = { ...this.snap.state, capture: null };
    this.set({ captureLoad: null, state });
    this.writeUrl('replace', state);
  }

  cancelCaptureLoad(): void {
    this.loading?.close();
    this.loading = null;
    this.set({ captureLoad: null });
  }

  dismissCaptureError(): void {
    if (this.snap.captureLoad?.status === 'failed') this.set({ captureLoad: null });
  }

  /** Leaves the recording: side A runs its scenario again. */
  closeCapture(): void {
    if (!this.snap.capture) return;
    this.replay?.close();
    this.replay = null;
    this.simJobs?.terminate();
    this.simJobs = null;
    this.set({ capture: null, a: { ...emptySide(), runId: this.snap.a.runId + 1 } });
    this.change((s) => ({
      ...s,
      capture: null,
      b: null,
      edit: 'a',
      fromNs: 0,
      toNs: null,
      t: null,
      row: null,
      step: DEFAULT_STEP,
      sel: '',
      log: '',
    }));
  }

  /** Replays another window of the recording (and re-runs the simulation over it). */
  async replayWindow(window: ReplayWindow): Promise<void> {
    const session = this.replay;
    if (!session || !this.snap.capture) return;
    const model = await session.replay(window);
    if (this.replay !== session || !this.snap.capture) return;
    this.set({
      capture: { ...this.snap.capture, openAtNs: model.summary.fromNs },
      a: {
        ...this.snap.a,
        model,
        ctx: sceneContext(model, model.recording!.schema, recordedQdisc(this.snap.capture.head)),
        runId: this.snap.a.runId + 1,
      },
    });
    this.change((s) => ({
      ...s,
      fromNs: model.summary.fromNs,
      toNs: model.summary.toNs,
      t: null,
      row: null,
    }));
  }

  /**
   * "Simulate this": side B runs the scenario keys read from the recording over the recording's
   * window, and a full run of the same configuration gives the counters to compare.
   */
  async simulateCapture(): Promise<void> {
    const cap = this.snap.capture;
    if (!cap) return;
    const sets = await this.minimalSets(cap.scenario.base, cap.scenario.sets);
    if (this.snap.capture !== cap) return;
    const b: SideConfig = { scenario: cap.scenario.base, variant: null, sets };
    this.change((s) => ({ ...s, b, edit: 'b' }));
    void this.runCaptureSimulation(b);
  }

  /**
   * `sets` without the overrides `scenario` already has (with their kernel): the same
   * configuration, checked by resolving both, so that a link holds only what differs. Falls back
   * to `sets` whole when the engine cannot tell.
   */
  private async minimalSets(scenario: string, sets: string[]): Promise<string[]> {
    const engine = this.engine;
    if (!engine) return sets;
    const info = async (s: string[]) =>
      engine.call('scenarioInfo', await this.request({ scenario, variant: null, sets: s }));
    try {
      const full = await info(sets);
      const own = await info([]);
      const base = await info(sets.filter((s) => parseSet(s)?.key === 'kernel'));
      let kept = pruneSets(sets, base, own.kernel);
      // A default may depend on another key (the topology): put back what resolves otherwise.
      for (let i = 0; i < 4; i++) {
        const differ = keysThatDiffer(full, await info(kept));
        if (differ.length === 0) return kept;
        const now = kept;
        kept = sets.filter((s) => now.includes(s) || differ.includes(parseSet(s)?.key ?? ''));
      }
      return sets;
    } catch {
      return sets;
    }
  }

  /** The full run of the simulation of the recording (the counters of its whole workload). */
  async runCaptureSimulation(cfg: SideConfig): Promise<void> {
    this.simJobs?.terminate();
    const jobs = startEngine();
    this.simJobs = jobs;
    const update = (patch: Partial<CaptureSimulation>) => {
      const cap = this.snap.capture;
      if (!cap || this.simJobs !== jobs) return;
      const cur = cap.simulation ?? { running: true, progress: 0, result: null, error: null };
      this.set({ capture: { ...cap, simulation: { ...cur, ...patch } } });
    };
    update({ running: true, progress: 0, result: null, error: null });
    try {
      await jobs.ready;
      const result = await jobs.callWithProgress(
        'experiment',
        (done, total) => update({ progress: total > 0 ? done / total : 0 }),
        await this.request(cfg),
      );
      update({ running: false, progress: 1, result });
    } catch (err) {
      update({ running: false, error: errorText(err) });
    }
  }

  /** Stops comparing the recording with its simulation. */
  closeCaptureSimulation(): void {
    this.simJobs?.terminate();
    this.simJobs = null;
    const cap = this.snap.capture;
    if (cap) this.set({ capture: { ...cap, simulation: null } });
    this.change((s) => ({ ...s, b: null, edit: 'a' }));
  }

  private catalogWaiters: (() => void)[] = [];

  private catalogReady(): Promise<void> {
    if (this.snap.catalog || this.snap.engine === 'failed') return Promise.resolve();
    return new Promise((resolve) => this.catalogWaiters.push(resolve));
  }

  private presetsLoading = false;

  /** Reads every scenario's title, summary and variants (when the presets are first shown). */
  async loadPresets(): Promise<void> {
    const engine = this.engine;
    if (!engine || this.presetsLoading || this.snap.engine !== 'ready') return;
    this.presetsLoading = true;
    const presets: Preset[] = [];
    for (const p of this.snap.presets) {
      try {
        const info = await engine.call('scenarioInfo', {
          source: await loadScenario(p.name),
          file: p.file.path,
          variant: null,
          sets: [],
        });
        presets.push({
          ...p,
          title: info.title,
          summary: info.summary,
          variants: info.variants.map((v) => ({ name: v.name, label: v.label })),
        });
      } catch {
        presets.push(p);
      }
    }
    this.set({ presets });
  }

  // ---- configuration changes ----

  /**
   * Applies `next` to the page state: records it in the URL (a new history entry when the
   * runs change) and re-runs every side whose configuration changed.
   */
  change(update: (s: PageState) => PageState): void {
    const prev = this.snap.state;
    const next = update(prev);
    if (next === prev) return;
    const runsChanged = !sameRuns(prev, next);
    const patch: Partial<Snapshot> = { state: next };
    if (next.b && !this.snap.b) patch.b = emptySide();
    if (!next.b && this.snap.b) patch.b = null;
    this.set(patch);
    if (runsChanged) {
      perf.markChange();
      const windowChanged = prev.fromNs !== next.fromNs || prev.toNs !== next.toNs;
      if (!this.snap.capture && (windowChanged || !sameSide(prev.a, next.a)))
        void this.refresh('a');
      if (next.b && (windowChanged || !sameSide(prev.b, next.b))) void this.refresh('b');
      // Its history entry once its runs are painted: a same-document navigation costs the
      // page 5-20 ms, and Chromium then fetches and decodes the favicon again, all on the main
      // thread the new run's charts wait for.
      this.pushUrlLater(next);
    } else {
      this.replaceUrlSoon();
    }
  }

  /** History entries of changes whose runs are on their way, oldest first (pushUrlLater). */
  private pendingPushes: PageState[] = [];
  private pushFallback: ReturnType<typeof setTimeout> | null = null;

  /**
   * A new history entry for `state`, pushed once the runs in flight are painted (or a second
   * on, whichever comes first). Every other write of the URL pushes these first, in order, so
   * that each change keeps its entry; back and forward drop them (the URL is the reader's).
   */
  private pushUrlLater(state: PageState): void {
    if (this.opts.history === false) return;
    this.pendingPushes.push(state);
    // The runs' end schedules the push (refresh); a change that started none has it a second on.
    this.pushFallback ??= setTimeout(() => this.flushUrl(), 1000);
  }

  /**
   * Pushes the pending entries once the next frame is painted and the tasks queued by then have
   * run (the charts' "painted" mark among them), unless a run is still in flight.
   */
  private flushUrlAfterRuns(): void {
    if (this.pendingPushes.length === 0) return;
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() =>
        setTimeout(() => {
          if (!this.inflight.a && !this.inflight.b) this.flushUrl();
        }, 0),
      ),
    );
  }

  /** Writes the history entries of changes not yet in the URL (the page's link is current). */
  flushUrl(): void {
    if (this.pushFallback !== null) clearTimeout(this.pushFallback);
    this.pushFallback = null;
    const pushes = this.pendingPushes.splice(0);
    for (const s of pushes) this.writeUrl('push', s);
  }

  /** Records `state` in the page's URL (with the page's language), unless history is off. */
  private writeUrl(how: 'push' | 'replace', state: PageState): void {
    if (this.opts.history === false) return;
    // Entries of earlier changes come first.
    if (this.pendingPushes.length > 0) this.flushUrl();
    const url = `${serializeState(state)}&lang=${encodeURIComponent(currentLang())}`;
    if (how === 'push') history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  /** Records view-only changes (cursor, speed, filters) without a history entry. */
  replaceUrlSoon(): void {
    if (this.urlTimer) clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      this.writeUrl('replace', this.snap.state);
    }, 250);
  }

  /** The cursor came to rest at `t`: into the URL, without re-rendering anything. */
  setCursor(t: number, row: number | null): void {
    if (this.snap.state.t === t && this.snap.state.row === row) return;
    this.snap = { ...this.snap, state: { ...this.snap.state, t, row } };
    this.replaceUrlSoon();
  }

  /** Updates view state (no re-run). */
  setView(patch: Partial<PageState>): void {
    this.set({ state: { ...this.snap.state, ...patch } });
    this.replaceUrlSoon();
  }

  /**
   * The scenario's own value of each key a control changed, per side and scenario: seen before
   * the key had an override, so that setting it back removes the override (`withChange`).
   */
  private baseValues = new Map<string, string>();

  setKey(side: Side, key: string, value: string | null): void {
    const cfg = this.snap.state[side];
    const kv = this.snap[side]?.info?.keys[key];
    const id = `${side}\u0000${cfg?.scenario}\u0000${cfg?.variant}\u0000${key}`;
    // A key per host takes one value on every host from `KEY=VALUE`: its base is that value
    // when every host has it.
    const same = kv && kv.values.length > 0 && kv.values.every((v) => v === kv.values[0]);
    if (cfg && kv && same && setValue(cfg.sets, key) === undefined)
      this.baseValues.set(id, kv.values[0]!);
    const base = this.baseValues.get(id);
    this.change((s) => {
      const c = s[side];
      if (!c) return s;
      return { ...s, [side]: { ...c, sets: withChange(c.sets, key, value, base) } };
    });
  }

  resetSets(side: Side): void {
    this.change((s) => {
      const cfg = s[side];
      if (!cfg || cfg.sets.length === 0) return s;
      return { ...s, [side]: { ...cfg, sets: [] } };
    });
  }

  /**
   * Opens a scenario file the reader chose, dropped or edited: side A runs it (its first
   * variant), checked by the engine as `sendpath run` checks a file.
   */
  openScenarioFile(fileName: string, text: string): Promise<void> {
    const e = registerUserScenario(fileName, text);
    this.closeCapture();
    return this.setScenario(e.name);
  }

  async setScenario(name: string): Promise<void> {
    // Running from now on: the file may have to load before the change can be made.
    this.setSide('a', { running: true });
    const variant = firstVariantInText(await loadScenario(name));
    this.change((s) => ({
      ...s,
      a: { scenario: name, variant, sets: [] },
      b: null,
      edit: 'a',
      fromNs: 0,
      toNs: null,
      t: null,
      row: null,
      speed: null,
      focus: null,
    }));
  }

  setVariant(side: Side, variant: string | null): void {
    this.change((s) => {
      const cfg = s[side];
      if (!cfg) return s;
      return { ...s, [side]: { ...cfg, variant } };
    });
  }

  /** B becomes a copy of A with `variant` (or A's own variant: a fork to edit). */
  compare(variant?: string | null): void {
    this.change((s) => ({
      ...s,
      b: { ...s.a, sets: [...s.a.sets], variant: variant === undefined ? s.a.variant : variant },
      edit: 'b',
    }));
  }

  /** B becomes A on another kernel: the same file, variant and overrides, `kernel=KERNEL`. */
  compareKernels(kernel: string): void {
    this.change((s) => ({
      ...s,
      b: { ...s.a, sets: withSet(s.a.sets, 'kernel', kernel) },
      edit: 'b',
    }));
  }

  closeCompare(): void {
    this.change((s) => ({ ...s, b: null, edit: 'a' }));
  }

  setWindow(fromNs: number, toNs: number): void {
    this.change((s) => ({ ...s, fromNs, toNs, t: null, row: null }));
  }

  // ---- back and forward ----

  private onPageHide = (): void => this.flushUrl();

  private onPopState = async (): Promise<void> => {
    // The reader went back or forward: changes not yet in the history stay out of it.
    this.pendingPushes = [];
    const read = readUrl(location.search);
    const state = await withFirstVariants(read.state);
    const cap = this.snap.capture;
    if (cap && state.capture !== cap.url) {
      // Back out of a recording (or to another one): the page as the link says.
      this.replay?.close();
      this.replay = null;
      this.set({ capture: null, a: { ...emptySide(), runId: this.snap.a.runId + 1 } });
    }
    if (state.capture && state.capture !== this.snap.capture?.url) {
      this.set({ state, problems: read.problems });
      if (await this.openLinkedCapture(state.capture)) return;
    }
    const problems = read.problems;
    const prev = this.snap.state;
    const patch: Partial<Snapshot> = { state, problems };
    if (state.b && !this.snap.b) patch.b = emptySide();
    if (!state.b) patch.b = null;
    this.set(patch);
    const windowChanged = prev.fromNs !== state.fromNs || prev.toNs !== state.toNs;
    if (!this.snap.capture && (windowChanged || !sameSide(prev.a, state.a) || cap))
      void this.refresh('a');
    if (state.b && (windowChanged || !sameSide(prev.b, state.b))) void this.refresh('b');
  };

  // ---- runs ----

  /** The engine's request for `cfg`: at once when its scenario has loaded, else once it has. */
  private request(cfg: SideConfig): SideRequest | Promise<SideRequest> {
    const f = fileOf(cfg.scenario);
    const make = (source: string): SideRequest => ({
      source,
      file: f.path,
      variant: cfg.variant,
      sets: cfg.sets,
    });
    const source = loadedScenario(f.name);
    return source === undefined ? loadScenario(f.name).then(make) : make(source);
  }

  private keyNames(): string[] {
    // Longest first, so that `tc.fq.quantum` is not read as a shorter key.
    return (this.snap.catalog?.keys.keys.map((k) => k.name) ?? []).sort(
      (x, y) => y.length - x.length,
    );
  }

  /** Runs `side` with its newest configuration (latest wins). */
  async refresh(side: Side): Promise<void> {
    if (this.inflight[side]) {
      this.again[side] = true;
      return;
    }
    this.inflight[side] = true;
    try {
      do {
        this.again[side] = false;
        await this.runSide(side);
      } while (this.again[side]);
    } finally {
      this.inflight[side] = false;
      this.flushUrlAfterRuns();
    }
  }

  private async runSide(side: Side): Promise<void> {
    const gen = this.generation;
    const engine = this.engineOf(side);
    const cfg = this.snap.state[side];
    if (!engine || !cfg || !this.snap[side]) return;
    // A recording on screen is side A: nothing to run.
    if (side === 'a' && this.snap.capture) return;
    if (side === 'a') {
      this.firstRunRequest = null;
      this.firstRunKept = null;
    }
    // B waits for A's window when A has not chosen it yet.
    if (side === 'b' && this.snap.state.toNs === null) await this.refresh('a');
    // No await before the requests leave when the scenario has loaded: they are posted in the
    // task of the change, before React renders it (they left 10-16 ms later).
    const pending = this.request(cfg);
    const req = pending instanceof Promise ? await pending : pending;
    const state = this.snap.state;
    const simulate = (r: SideRequest) =>
      engine.call('simulate', {
        ...r,
        side,
        fromNs: state.fromNs,
        toNs: state.toNs,
        calibrateEvents: CALIBRATE_EVENTS,
      });
    // Both requests leave at once (the worker answers in order): the run does not wait for a
    // round trip of the check. A configuration the check refuses fails its run too.
    const infoCall = engine.call('scenarioInfo', req);
    let simCall = simulate(req);
    simCall.catch(() => {});
    // Running from now: in the task of the change, so React renders it with the change.
    if (!this.snap[side]?.running) this.setSide(side, { running: true });
    let info: ScenarioInfo;
    let shownCfg = cfg;
    let baseRun: string | null = null;
    try {
      info = await infoCall;
    } catch (err) {
      if (gen !== this.generation) return;
      const error = parseEngineError(errorText(err), req.file, this.keyNames());
      const view = this.snap[side];
      if (view?.model || cfg.sets.length === 0) {
        this.setSide(side, { error, running: false });
        perf.changeRejected();
        return;
      }
      // Nothing on screen yet (a hand-edited link): show the scenario as written.
      this.setSide(side, { error });
      shownCfg = { ...cfg, sets: [] };
      baseRun = error.message;
      const base = await this.request(shownCfg);
      try {
        info = await engine.call('scenarioInfo', base);
      } catch (err2) {
        this.setSide(side, {
          error: parseEngineError(errorText(err2), req.file, this.keyNames()),
          running: false,
        });
        return;
      }
      simCall = simulate(base);
    }
    // The check's answer (it comes first: the worker answers in order) is shown with the run's,
    // so the page renders and paints once for both; a control shows the reader's choice at once
    // by itself (Controls.tsx).
    try {
      const model = await simCall;
      perf.modelArrived(model.timing);
      if (gen !== this.generation) return;
      if (this.snap.state.toNs === null) {
        this.set({ state: { ...this.snap.state, toNs: model.summary.toNs } });
        this.writeUrl('replace', this.snap.state);
      }
      if (this.opts.warmUp && !this.warmed.has(engine)) {
        this.warmed.add(engine);
        engine
          .call('warmUp', {
            ...req,
            side,
            fromNs: model.summary.fromNs,
            toNs: model.summary.toNs,
            calibrateEvents: CALIBRATE_EVENTS,
          })
          .catch(() => {});
      }
      const catalog = this.snap.catalog!;
      const view = this.snap[side];
      this.setSide(side, {
        info,
        model,
        ctx: sceneContext(model, catalog.trace, qdiscOf(info, model)),
        runId: (view?.runId ?? 0) + 1,
        modelConfig: shownCfg,
        running: false,
        baseRun,
        ...(baseRun ? {} : { error: null }),
      });
    } catch (err) {
      if (gen !== this.generation) return;
      this.setSide(side, {
        info,
        error: parseEngineError(errorText(err), req.file, this.keyNames()),
        running: false,
      });
      perf.changeRejected();
    }
  }

  // ---- full experiment ----

  async runExperiment(): Promise<void> {
    if (this.snap.experiment.running) return;
    this.jobs ??= startEngine();
    const sides: Side[] = this.snap.state.b ? ['a', 'b'] : ['a'];
    if (this.snap.state.b) this.jobsB ??= startEngine();
    const jobs = { a: this.jobs, b: this.jobsB };
    this.set({ experiment: { running: true, progress: {}, results: {}, error: null } });
    try {
      const run = async (side: Side) => {
        const cfg = this.snap.state[side]!;
        const result = await jobs[side]!.callWithProgress(
          'experiment',
          (done, total) => {
            const e = this.snap.experiment;
            this.set({
              experiment: {
                ...e,
                progress: { ...e.progress, [side]: total > 0 ? done / total : 0 },
              },
            });
          },
          await this.request(cfg),
        );
        const e = this.snap.experiment;
        this.set({
          experiment: {
            ...e,
            progress: { ...e.progress, [side]: 1 },
            results: { ...e.results, [side]: { config: cfg, result } },
          },
        });
      };
      await Promise.all(sides.map(run));
      this.set({ experiment: { ...this.snap.experiment, running: false } });
    } catch (err) {
      this.set({
        experiment: { ...this.snap.experiment, running: false, error: errorText(err) },
      });
    }
  }

  cancelExperiment(): void {
    this.jobs?.terminate();
    this.jobs = null;
    this.jobsB?.terminate();
    this.jobsB = null;
    this.set({ experiment: { ...this.snap.experiment, running: false } });
  }

  // ---- parameter sweep ----

  /** The worker of pcap downloads, `atText` and `kernelDiff`, started with the first. */
  private pcapJobs: EngineBridge | null = null;
  /** The sweep's workers while it runs (cancel terminates them). */
  private sweepPool: EngineBridge[] = [];
  private sweepGen = 0;

  /** The sweep panel's settings, kept in the URL (a link opens the same sweep). */
  setSweep(sweep: SweepSettings | null): void {
    this.setView({ sweep });
  }

  /**
   * Checks the sweep of the URL's settings over side A's configuration (the engine names a bad
   * key, range or metric) and runs its points on one Web Worker per core, each taking the next
   * point not yet taken; results arrive in `sweep` as they come.
   */
  async runSweep(): Promise<void> {
    const settings = this.snap.state.sweep;
    if (!settings || this.snap.sweep.running) return;
    const gen = ++this.sweepGen;
    const t0 = performance.now();
    const base = this.snap.state.a;
    this.set({ sweep: { ...emptySweep(), running: true, base } });
    let grid: SweepGrid;
    const req = await this.request(base);
    // The first worker checks the grid; the others start once it is known to be good.
    this.sweepPool = [startJobsEngine()];
    try {
      grid = await this.sweepPool[0]!.call('sweepGrid', {
        ...req,
        vary: settings.vary,
        metrics: settings.metrics,
      });
    } catch (err) {
      if (gen === this.sweepGen) {
        this.stopSweepPool();
        this.set({ sweep: { ...this.snap.sweep, running: false, error: errorText(err) } });
      }
      return;
    }
    if (gen !== this.sweepGen) return;
    const results: SweepResults = grid.points.map(() => null);
    const n = sweepWorkers(grid.points.length);
    while (this.sweepPool.length < n) this.sweepPool.push(startJobsEngine());
    this.set({ sweep: { ...this.snap.sweep, grid, results, workers: n } });
    let next = 0;
    let done = 0;
    const work = async (bridge: EngineBridge) => {
      for (let i = next++; i < grid.points.length; i = next++) {
        const r = await bridge.call(
          'sweepPoint',
          { ...req, sets: grid.points[i]!.sets },
          grid.metrics,
        );
        if (gen !== this.sweepGen) return;
        results[i] = r;
        done++;
        this.set({ sweep: { ...this.snap.sweep, results: [...results], done } });
      }
    };
    try {
      await Promise.all(this.sweepPool.map(work));
      if (gen !== this.sweepGen) return;
      this.set({ sweep: { ...this.snap.sweep, running: false, ms: performance.now() - t0 } });
    } catch (err) {
      if (gen !== this.sweepGen) return;
      this.set({ sweep: { ...this.snap.sweep, running: false, error: errorText(err) } });
    } finally {
      if (gen === this.sweepGen) this.stopSweepPool();
    }
  }

  private stopSweepPool(): void {
    for (const b of this.sweepPool) b.terminate();
    this.sweepPool = [];
  }

  /** Stops a running sweep at once (its workers are terminated); what it ran stays. */
  cancelSweep(): void {
    if (!this.snap.sweep.running) return;
    this.sweepGen++;
    this.stopSweepPool();
    this.set({ sweep: { ...this.snap.sweep, running: false } });
  }

  /** Side A becomes the run of point `i` of the last sweep (its overrides). */
  openSweepPoint(i: number): void {
    const { grid, base } = this.snap.sweep;
    const p = grid?.points[i];
    if (!p || !base) return;
    this.change((s) => ({
      ...s,
      a: { ...base, sets: [...p.sets] },
      t: null,
      row: null,
    }));
  }

  /**
   * The packets of side A's run from its start to the end of the window on screen, as pcapng
   * (made in a jobs worker, started with the first download, so the page's own runs go on).
   */
  async pcapFile(frames: PcapRequest['frames']): Promise<Uint8Array> {
    this.pcapJobs ??= startJobsEngine();
    const req = await this.request(this.snap.state.a);
    const toNs = this.snap.a.model?.summary.toNs ?? null;
    return this.pcapJobs.call('pcap', { ...req, toNs, frames, snaplen: 128 });
  }

  /** The engines asked to warm up (`opts.warmUp`). */
  private warmed = new WeakSet<EngineBridge>();

  /** The run summary's workers, one per side (started with the first summary). */
  private summaryJobs: Partial<Record<Side, EngineBridge>> = {};
  private summaryGen = 0;

  /**
   * `sendpath run`'s summary of each side's whole configuration with its `--csv` tables at
   * `intervalNs`, each side in a jobs worker of its own (A and B run at once).
   */
  async runSummaries(intervalNs: number): Promise<void> {
    if (this.snap.runSummary.running) return;
    const sides: Side[] = this.snap.state.b ? ['a', 'b'] : ['a'];
    this.set({ runSummary: { running: true, progress: {}, results: {}, error: null } });
    const gen = ++this.summaryGen;
    const update = (f: (v: RunSummaryView) => RunSummaryView) => {
      if (gen === this.summaryGen) this.set({ runSummary: f(this.snap.runSummary) });
    };
    try {
      await Promise.all(
        sides.map(async (side) => {
          const config = this.snap.state[side]!;
          const jobs = (this.summaryJobs[side] ??= startJobsEngine());
          const summary = await jobs.callWithProgress(
            'runSummary',
            (done, total) =>
              update((v) => ({
                ...v,
                progress: { ...v.progress, [side]: total > 0 ? done / total : 0 },
              })),
            await this.request(config),
            intervalNs,
          );
          update((v) => ({
            ...v,
            progress: { ...v.progress, [side]: 1 },
            results: { ...v.results, [side]: { config, summary } },
          }));
        }),
      );
      update((v) => ({ ...v, running: false }));
    } catch (err) {
      update((v) => ({ ...v, running: false, error: errorText(err) }));
    }
  }

  /** Stops the run summaries in progress. */
  cancelRunSummary(): void {
    this.summaryGen++;
    for (const j of Object.values(this.summaryJobs)) j.terminate();
    this.summaryJobs = {};
    if (this.snap.runSummary.running)
      this.set({ runSummary: { ...this.snap.runSummary, running: false } });
  }

  /** `sendpath run --at TIME`'s text for a side's configuration at `atNs` (a jobs worker). */
  async atText(side: Side, atNs: number): Promise<string> {
    const config = this.snap.state[side];
    if (!config) throw new Error(`no side ${side}`);
    this.pcapJobs ??= startJobsEngine();
    return this.pcapJobs.call('atText', await this.request(config), Math.round(atNs));
  }

  /** The keys and kernel switches that differ between sides A and B (`sendpath diff`). */
  async kernelDiff(): Promise<KernelDiff> {
    const { a, b } = this.snap.state;
    if (!b) throw new Error('no side B to compare');
    this.pcapJobs ??= startJobsEngine();
    return this.pcapJobs.call('kernelDiff', await this.request(a), await this.request(b));
  }

  /**
   * The engine's English words for rows of a side's last run (a recording's own words, with
   * what each row recorded for the words of another language: i18n/log.ts).
   */
  async describe(side: Side, rows: number[]): Promise<DescribedRows> {
    if (side === 'a' && this.snap.a.model?.recording && this.replay)
      return this.replay.describe(rows);
    const engine = this.engineOf(side);
    const first = side === 'a' ? this.firstRunRequest : null;
    if (engine && first) {
      // The prerendered first run: the engine runs it first (once), to have its rows.
      this.firstRunKept ??= engine.call('keepRun', first);
      await this.firstRunKept;
    }
    const d = engine
      ? await engine.call('describe', side, rows)
      : { texts: rows.map(() => ''), autocorking: rows.map(() => null) };
    return { ...d, facts: d.texts.map(() => null) };
  }
}

/** Sides the link opened without a variant get their scenario's first variant. */
async function withFirstVariants(s: PageState): Promise<PageState> {
  const fix = async (c: SideConfig | null): Promise<SideConfig | null> =>
    c && c.variant === FIRST_VARIANT
      ? { ...c, variant: firstVariantInText(await loadScenario(c.scenario)) }
      : c;
  return { ...s, a: (await fix(s.a))!, b: await fix(s.b) };
}

function sameSide(x: SideConfig | null, y: SideConfig | null): boolean {
  if (x === y) return true;
  if (!x || !y) return false;
  return (
    x.scenario === y.scenario &&
    x.variant === y.variant &&
    x.sets.length === y.sets.length &&
    x.sets.every((v, i) => v === y.sets[i])
  );
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The qdisc of the host the pipeline shows (`tc.qdisc`, else `net.core.default_qdisc`). */
function qdiscOf(info: ScenarioInfo, model: RunModel): string {
  const sockets = model.summary.result.sockets;
  const sender = sockets.find((_, i) => model.socks.sends[i] === 1);
  const h = sender?.host ?? 0;
  const tc = info.keys['tc.qdisc'];
  const v = tc?.values[Math.min(h, tc.values.length - 1)] ?? 'default';
  if (v !== 'default') return v;
  if (info.hosts.length === 1) return 'noqueue';
  const d = info.keys['net.core.default_qdisc'];
  return d?.values[Math.min(h, d.values.length - 1)] ?? 'pfifo_fast';
}

/** The name a capture URL shows: its last path segment. */
function captureName(url: string): string {
  try {
    const path = new URL(url, location.href).pathname;
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || url;
  } catch {
    return url;
  }
}

/** A capture URL as the worker fetches it: relative ones from the page's own address. */
export function resolveCaptureUrl(url: string): string {
  return new URL(url, location.href).href;
}

/** The root qdisc the recording's device had (for the pipeline's qdisc drawing). */
function recordedQdisc(head: ReplayHead): string {
  const dev = head.config.filters?.dev;
  if (dev === 'lo') return 'noqueue';
  const link = head.config.devices.find((d) => d.dev === dev)?.link ?? '';
  return /\bqdisc (\S+)/.exec(link)?.[1] ?? 'pfifo_fast';
}

/** The step menu's first kind of a recording (its own kinds, in schema order). */
function firstRecordedStep(model: RunModel): string {
  const schema = model.recording?.schema;
  const present = new Set(Array.from(model.cols.kind));
  const k = schema?.kinds.findIndex((x, i) => x.recorded && present.has(i)) ?? -1;
  return k >= 0 ? schema!.kinds[k]!.name : DEFAULT_STEP;
}

/** Where a recording's replay opens: a little before its first write or packet. */
function activityStart(model: RunModel): number {
  const rec = model.recording!;
  const span = model.summary.toNs - model.summary.fromNs;
  return Math.max(model.summary.fromNs, rec.activityNs - span / 200);
}
