// The page, picture first: header, the pipeline of each run beside the controls (below 1100 px
// the controls are a sheet the reader opens), the time controls, then what the scenario is,
// "Why is it waiting?", the charts, the decision log, the counters, the A/B table and the full
// experiment. Keyboard shortcuts drive the time controls.

import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';

import { currentLang } from '../i18n/current';
import { scenarioText } from '../i18n/content';
import { formatCount, formatNs } from '../model/format';
import { Clock } from './clock';
import { ClockContext, StoreContext, useClock, useSite, useStore } from './context';
import { Controls } from './Controls';
import { Deferred } from './Deferred';
import { Header } from './Header';
import { msg } from '../i18n/messages';
import { CaptureStatus, DropZone } from './Native';
import { ScenarioEditor } from './ScenarioFile';
import { titleWithSets } from '../model/title';
import { KeyList } from './KeyList';
import { Legend } from './Legend';
import { Pipeline } from './pipeline/Pipeline';
import { changeSpeed, goToRow, logSide, Player, stepEvent, stepKind } from './Player';
import { SiteStore } from './store';
import { prefersReducedMotion } from '../shared/motion';

// Below the first screen: loaded when scrolled near (Deferred.tsx).
const Charts = lazy(() => import('./Charts').then((m) => ({ default: m.Charts })));
const Compare = lazy(() => import('./Compare').then((m) => ({ default: m.Compare })));
const Counters = lazy(() => import('./Counters').then((m) => ({ default: m.Counters })));
const DecisionLog = lazy(() => import('./DecisionLog').then((m) => ({ default: m.DecisionLog })));
const RunSummary = lazy(() => import('./RunSummary').then((m) => ({ default: m.RunSummary })));
const AtTime = lazy(() => import('./AtTime').then((m) => ({ default: m.AtTime })));
const Experiment = lazy(() => import('./Experiment').then((m) => ({ default: m.Experiment })));
const Presets = lazy(() => import('./Presets').then((m) => ({ default: m.Presets })));
const Sweep = lazy(() => import('./Sweep').then((m) => ({ default: m.Sweep })));
const CaptureIntro = lazy(() => import('./Recording').then((m) => ({ default: m.CaptureIntro })));
const RecordingSummary = lazy(() =>
  import('./Recording').then((m) => ({ default: m.RecordingSummary })),
);
const NativePanel = lazy(() => import('./NativePanel').then((m) => ({ default: m.NativePanel })));
const WhyPanel = lazy(() => import('./WhyPanel').then((m) => ({ default: m.WhyPanel })));

/**
 * `intro`: shown below the scenario's title (the landing's welcome on a first visit); `effect`:
 * right under the time controls, on the first screen (the landing's A/B figures); `autoplay`:
 * the first run plays as it arrives, unless the reader asks for reduced motion.
 */
export function App({
  intro = null,
  effect = null,
  autoplay = false,
  firstRun = false,
}: {
  intro?: ReactNode;
  effect?: ReactNode;
  autoplay?: boolean;
  /** Show the prerendered first run (the landing page; SiteStore's option `firstRun`). */
  firstRun?: boolean;
}) {
  const [store] = useState(() => new SiteStore(location.search, { firstRun, warmUp: true }));
  const [clock] = useState(() => new Clock());
  useEffect(() => {
    void store.start();
    return () => store.stop();
  }, [store]);
  return (
    <StoreContext.Provider value={store}>
      <ClockContext.Provider value={clock}>
        <Page intro={intro} effect={effect} autoplay={autoplay} />
      </ClockContext.Provider>
    </StoreContext.Provider>
  );
}

function useKeyboard(help: () => void) {
  const store = useStore();
  const clock = useClock();
  const site = useSite();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      const tag = el?.tagName;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || el?.isContentEditable)
        return;
      const snap = store.getSnapshot();
      switch (e.key) {
        case ' ':
          if (tag === 'BUTTON' || tag === 'SUMMARY' || tag === 'A') return;
          clock.toggle();
          break;
        case 'ArrowRight':
          if (e.shiftKey) stepKind(snap, clock, 1);
          else stepEvent(snap, clock, 1);
          break;
        case 'ArrowLeft':
          if (e.shiftKey) stepKind(snap, clock, -1);
          else stepEvent(snap, clock, -1);
          break;
        case ']':
          changeSpeed(store, snap, 4);
          break;
        case '[':
          changeSpeed(store, snap, -4);
          break;
        case 'Home':
          goToRow(snap, clock, 0);
          break;
        case 'End': {
          // The end of the window, where the counters are the run's final ones.
          const m = snap[logSide(snap)]?.model;
          if (m) {
            clock.pause();
            clock.seek(m.summary.toNs);
          }
          break;
        }
        case '?':
          help();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, clock, site.state.step, help]);
}

function Shortcuts({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-h"
        className="dialog"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <h2 id="shortcuts-h">{msg.header.shortcuts}</h2>
        <KeyList keys={msg.shortcuts} />
        <button type="button" onClick={onClose} autoFocus>
          {msg.header.close}
        </button>
      </div>
    </div>
  );
}

function Page({
  intro,
  effect,
  autoplay,
}: {
  intro: ReactNode;
  effect: ReactNode;
  autoplay: boolean;
}) {
  const site = useSite();
  const [sheet, setSheet] = useState(false);
  const store = useStore();
  const clock = useClock();
  const [help, setHelp] = useState(false);
  useKeyboard(() => setHelp(true));
  const a = site.a.model;

  // The clock spans run A's window; the link's cursor is applied to the first run only.
  const seeded = useRef(false);
  // The landing's own playback, until it ends, the reader pauses it, or another run arrives.
  const autoplaying = useRef(false);
  useEffect(() => {
    if (!a) return;
    const first = seeded.current ? null : store.getSnapshot().state;
    seeded.current = true;
    clock.setRange(a.summary.fromNs, a.summary.toNs);
    if (autoplaying.current) {
      // The reader changed the run: it opens paused at its start, as without the autoplay.
      autoplaying.current = false;
      clock.pause();
      clock.seek(a.summary.fromNs);
    }
    // A recording opens where the store chose (its first activity, or the link's cursor).
    const openAt = a.recording ? store.getSnapshot().capture?.openAtNs : undefined;
    if (openAt !== undefined && openAt !== null) clock.seek(openAt);
    else if (first?.t !== null && first?.t !== undefined) clock.seek(first.t, first.row);
    if (first && autoplay && !prefersReducedMotion()) {
      autoplaying.current = true;
      clock.play();
    }
  }, [a, clock, store, autoplay]);
  useEffect(
    () =>
      clock.subscribeSlow(() => {
        if (!clock.playing) autoplaying.current = false;
      }),
    [clock],
  );
  // The cursor goes to the URL when it rests.
  useEffect(
    () =>
      clock.subscribeSlow(() => {
        // Not before the first run set the clock's range (and the link's cursor).
        if (seeded.current && !clock.playing) store.setCursor(clock.t, clock.row);
      }),
    [clock, store],
  );
  useEffect(() => {
    document.documentElement.dataset.theme = site.state.theme;
  }, [site.state.theme]);

  const running = site.a.running || site.b?.running;
  const status =
    site.engine === 'failed'
      ? msg.engine.failed(site.engineError ?? '')
      : site.engine === 'starting'
        ? msg.engine.starting
        : running
          ? msg.run.running
          : a
            ? msg.run.updated(a.cols.t.length, formatNs(a.summary.toNs - a.summary.fromNs))
            : msg.engine.ready;
  // The explicit "ready" signal (data-run-state) the end-to-end tests wait for: the engine is up
  // (the landing shows its prerendered first run before) and every run on screen is done.
  const runState =
    site.engine === 'failed'
      ? 'failed'
      : running || !a || (site.b && !site.b.model) || site.engine === 'starting'
        ? 'running'
        : 'ready';
  const info = site.a.info;
  const warnings = [
    ...(a?.summary.result.warnings ?? []),
    ...(site.b?.model?.summary.result.warnings ?? []),
  ];

  return (
    <>
      <a className="skip" href="#pipeline-h">
        {msg.skipToPipeline}
      </a>
      <Header />
      <main className="sim-main">
        <section className="pipelines" aria-labelledby="pipeline-h">
          <div className="pipelines-head">
            <h2 id="pipeline-h" tabIndex={-1}>
              {msg.pipeline.region}
            </h2>
            <button
              type="button"
              className="sheet-toggle"
              aria-expanded={sheet}
              aria-controls="side-panel"
              onClick={() => setSheet((o) => !o)}
            >
              {msg.controls.region}
            </button>
          </div>
          {(['a', 'b'] as const).map((side) =>
            site[side] ? (
              <div key={side} className="pipeline-side">
                {site.b && site.capture && (
                  <h3 className="side-title">
                    {msg.run.sideLabel(side)}:{' '}
                    {side === 'a' ? msg.native.sideRecording : msg.native.sideSimulation}
                  </h3>
                )}
                {site.b && !site.capture && (
                  <h3 className="side-title">
                    {msg.run.sideLabel(side)}:{' '}
                    {site[side]?.info?.variants.find((v) => v.name === site.state[side]?.variant)
                      ?.label ??
                      site.state[side]?.variant ??
                      ''}
                    {(site.state[side]?.sets.length ?? 0) > 0 && (
                      <span className="muted"> · {site.state[side]?.sets.join(', ')}</span>
                    )}
                  </h3>
                )}
                <Pipeline side={side} />
              </div>
            ) : null,
          )}
        </section>
        <Player status={status} runState={runState} />
        {effect}
        <Legend />
        {/* Beside the picture, as tall as it (scrolling inside); below 1100 px a sheet. */}
        <aside id="side-panel" className={`side-panel ${sheet ? 'open' : ''}`}>
          <div className="side-panel-scroll">
            <button type="button" className="sheet-close" onClick={() => setSheet(false)}>
              {msg.header.close}
            </button>
            {site.capture && site.state.edit !== 'b' ? (
              <Suspense fallback={null}>
                <RecordingSummary />
              </Suspense>
            ) : (
              <Controls />
            )}
          </div>
        </aside>
        <section className="intro" aria-labelledby="scenario-h">
          <CaptureStatus />
          <ScenarioEditor />
          {site.capture ? (
            <Suspense fallback={null}>
              <CaptureIntro />
            </Suspense>
          ) : (
            <>
              <h2 id="scenario-h">
                {info
                  ? titleWithSets(
                      scenarioText(currentLang(), site.state.a.scenario, info).title,
                      site.state.a.sets,
                    )
                  : site.state.a.scenario}
              </h2>
              {site.state.a.sets.length > 0 && (
                <p className="muted" data-testid="changed-keys">
                  {msg.run.changedFromFile(site.state.a.sets.join(', '))}
                </p>
              )}
              {info && (
                <p className="summary">
                  {scenarioText(currentLang(), site.state.a.scenario, info).summary}
                </p>
              )}
            </>
          )}
          <p className="muted engine-line">
            <span>
              {msg.engine.version} <span data-testid="engine-version">{site.version ?? '…'}</span>
            </span>
            {a && !a.recording && (
              <span>
                {' · '}
                {msg.run.runLine(
                  a.summary.result.kernel,
                  formatCount(a.summary.result.events),
                  formatNs(a.summary.toNs - a.summary.fromNs),
                )}
              </span>
            )}
          </p>
          {site.problems.length > 0 && (
            <div className="note" role="alert">
              {msg.run.urlProblems}
              <ul>
                {site.problems.map((p) => (
                  <li key={p.param}>{p.message}</li>
                ))}
              </ul>
            </div>
          )}
          {site.a.baseRun && (
            <p className="note" role="alert">
              {msg.run.shownIsBase(site.a.baseRun)}
            </p>
          )}
          {a?.summary.truncated && <p className="note">{msg.run.truncated}</p>}
          {warnings.length > 0 && (
            <ul className="note" aria-label={msg.run.warnings}>
              {warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </section>
        {intro}
        {site.capture && <Deferred armed={!!a} title={msg.native.region} component={NativePanel} />}
        <Deferred armed={!!a} title={msg.why.region} component={WhyPanel} />
        <Deferred armed={!!a} title={msg.charts.region} component={Charts} />
        <div className="two-col">
          <Deferred armed={!!a} title={msg.log.region} component={DecisionLog} />
          <Deferred armed={!!a} title={msg.counters.region} component={Counters} />
        </div>
        {site.b && !site.capture && (
          <Deferred armed={!!a} title={msg.compare.region} component={Compare} />
        )}
        {!site.capture && <Deferred armed={!!a} title={msg.atTime.region} component={AtTime} />}
        {!site.capture && (
          <Deferred armed={!!a} title={msg.runSummary.region} component={RunSummary} />
        )}
        {!site.capture && (
          <Deferred armed={!!a} title={msg.experiment.region} component={Experiment} />
        )}
        {!site.capture && <Deferred armed={!!a} title={msg.sweep.region} component={Sweep} />}
        <Deferred armed={!!a} title={`${msg.header.preset}s`} component={Presets} />
      </main>
      <Shortcuts open={help} onClose={() => setHelp(false)} />
      <DropZone />
    </>
  );
}
