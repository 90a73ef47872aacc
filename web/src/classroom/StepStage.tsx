// The right half of a lesson step: the step's run, played in the simulator's own components.
// A step with a time range records that window of its configuration and plays it (the
// pipeline with the step's highlights, the time controls, the step's chart and the counters
// it names); an A/B step runs both variants to their end and compares them (ABTable.tsx).
//
// The run has its own store, which never touches the page's URL (the lesson owns it).

import { useCallback, useEffect, useState } from 'react';

import { ClockContext, StoreContext, useClock, useSite } from '../app/context';
import { Clock } from '../app/clock';
import { OneChart } from '../app/Charts';
import { msg } from '../i18n/messages';
import { Pipeline } from '../app/pipeline/Pipeline';
import { changeSpeed, goToRow, Player, stepKind, type TimeMark } from '../app/Player';
import { schemaOf, stepKinds, stepMatcher } from '../model/log';
import { formatCount } from '../model/format';
import { momentFormula, type Formula } from '../model/formula';
import { nextRow } from '../model/trace';
import { SiteStore } from '../app/store';
import { formatNs } from '../model/format';
import type { Lesson, LessonStep, PipelineElement } from '../model/lesson';
import { defaultState, serializeState } from '../model/urlstate';
import { ABTable } from './ABTable';
import { KeyCounters } from '../app/KeyCounters';
import { Legend } from '../app/Legend';
import { prefersReducedMotion } from '../shared/motion';
import { useText } from '../shared/useLang';

/** What presenter mode can ask of the step's run (its keys, LessonView.tsx). */
export interface StageControl {
  /** Play or pause. */
  toggle(): void;
  /** Play faster (dir 1) or slower (-1), a notch of the speed slider. */
  speed(dir: 1 | -1): void;
  /** Back to how the step opened: its focus decision, playing unless motion is reduced. */
  reset(): void;
  /** To the step's moment (its first focus decision), paused. */
  moment(): void;
}

/**
 * The other side of a run step: the variant the lesson's own A/B steps compare the step's
 * variant with (the first such step), or null when no A/B step names it.
 */
export function otherSide(lesson: Lesson, step: LessonStep): string | null {
  if (step.compare || step.variant === null) return null;
  for (const s of lesson.steps) {
    if (s.compare?.a === step.variant) return s.compare.b;
    if (s.compare?.b === step.variant) return s.compare.a;
  }
  return null;
}

/** Lesson elements -> the pipeline's stage ids. */
const STAGE_OF: Record<PipelineElement, string> = {
  app: 'app',
  write_queue: 'wq',
  qdisc: 'qdisc',
  tx_ring: 'ring',
  wire: 'wire',
  receiver: 'rx',
  acks: 'acks',
  completion: 'ring',
};

/** The simulator's URL state for a step: its configuration, window and speed. */
export function stepSearch(lesson: Lesson, step: LessonStep): string {
  const s = defaultState(lesson.scenario, step.variant);
  s.a.sets = [...step.sets];
  if (step.fromUs !== null && step.toUs !== null) {
    s.fromNs = step.fromUs * 1000;
    s.toNs = step.toUs * 1000;
    s.speed = ((step.toUs - step.fromUs) * 1000) / step.playSeconds;
  }
  if (step.focus) s.step = step.focus;
  // The other side, drawn as B in the step's chart (the pipeline shows A).
  if (step.beside) s.b = { scenario: lesson.scenario, variant: step.beside, sets: [...step.sets] };
  return serializeState(s);
}

/**
 * `sideB`: run the other side of the step's comparison (`otherSide`) instead of the step's
 * own variant. `numbers`: show every key figure, not only those the step names.
 */
export function StepStage({
  lesson,
  step,
  control,
  sideB = false,
  numbers = false,
}: {
  lesson: Lesson;
  step: LessonStep;
  control: (c: StageControl | null) => void;
  sideB?: boolean;
  numbers?: boolean;
}) {
  if (step.compare) return <ABTable lesson={lesson} step={step} />;
  const other = sideB ? otherSide(lesson, step) : null;
  // B shows the other side; a side drawn beside it becomes the step's own variant.
  const shown =
    other !== null
      ? { ...step, variant: other, beside: step.beside === other ? step.variant : step.beside }
      : step;
  return (
    <StepRun
      key={shown.variant ?? ''}
      lesson={lesson}
      step={shown}
      side={other !== null ? 'B' : otherSide(lesson, step) !== null ? 'A' : null}
      control={control}
      numbers={numbers}
    />
  );
}

function StepRun({
  lesson,
  step,
  side,
  control,
  numbers,
}: {
  lesson: Lesson;
  step: LessonStep;
  side: 'A' | 'B' | null;
  control: (c: StageControl | null) => void;
  numbers: boolean;
}) {
  const [store] = useState(() => new SiteStore(stepSearch(lesson, step), { history: false }));
  const [clock] = useState(() => new Clock());
  useEffect(() => {
    void store.start();
    return () => store.stop();
  }, [store]);
  const reset = useCallback(() => {
    const m = store.getSnapshot().a.model;
    if (!m) return;
    clock.pause();
    clock.seek(m.summary.fromNs);
    if (step.focus) stepKind(store.getSnapshot(), clock, 1);
    if (!prefersReducedMotion()) clock.play();
  }, [clock, store, step.focus]);
  const moment = useCallback(() => {
    const snap = store.getSnapshot();
    const row = momentRow(snap.a.model, snap.catalog?.trace, step.focus);
    if (row >= 0) goToRow(snap, clock, row);
  }, [clock, store, step.focus]);
  useEffect(() => {
    control({
      toggle: () => clock.toggle(),
      speed: (dir) => changeSpeed(store, store.getSnapshot(), 4 * dir),
      reset,
      moment,
    });
    return () => {
      clock.pause();
      control(null);
    };
  }, [clock, control, store, reset, moment]);
  return (
    <StoreContext.Provider value={store}>
      <ClockContext.Provider value={clock}>
        <StepRunView step={step} side={side} numbers={numbers} reset={reset} moment={moment} />
      </ClockContext.Provider>
    </StoreContext.Provider>
  );
}

function StepRunView({
  step,
  side,
  numbers,
  reset,
  moment,
}: {
  step: LessonStep;
  side: 'A' | 'B' | null;
  numbers: boolean;
  reset: () => void;
  moment: () => void;
}) {
  const t = useText();
  const site = useSite();
  const clock = useClock();
  const a = site.a.model;

  // A new run: the clock spans its window, starts on the step's focus decision (if any) and
  // plays, unless the reader asked for reduced motion.
  useEffect(() => {
    if (!a) return;
    clock.setRange(a.summary.fromNs, a.summary.toNs);
    reset();
  }, [a, clock, reset]);

  const running = site.a.running || site.b?.running === true;
  const status =
    site.engine === 'failed'
      ? msg.engine.failed(site.engineError ?? '')
      : site.engine === 'starting' || running || !a
        ? t.lesson.loading
        : msg.run.updated(a.cols.t.length, formatNs(a.summary.toNs - a.summary.fromNs));
  const runState =
    site.engine === 'failed'
      ? 'failed'
      : running || !a || (site.b && !site.b.model)
        ? 'running'
        : 'ready';
  const highlight = step.highlights.flatMap((h) =>
    h.kind === 'element' ? [STAGE_OF[h.element]] : [],
  );
  const counters = step.highlights.flatMap((h) => (h.kind === 'counter' ? [h.name] : []));
  // The moment the step is about, marked on the time line.
  const schema = schemaOf(a, site.catalog?.trace);
  const row = momentRow(a, site.catalog?.trace, step.focus);
  const kind =
    schema && step.focus
      ? stepKinds(schema, msg.player.holdAt).find((k) => k.value === step.focus)
      : undefined;
  const marks: TimeMark[] =
    a && row >= 0
      ? [{ t: a.cols.t[row]!, label: t.lesson.momentMark(kind?.label ?? step.focus ?? '') }]
      : [];

  return (
    <section
      className={`step-stage ${numbers ? 'numbers-on' : ''}`}
      aria-label={t.lesson.run}
      data-testid="step-stage"
      data-side={side ?? undefined}
    >
      {site.a.error && (
        <p className="note" role="alert">
          {t.lesson.failed(site.a.error.message)}
        </p>
      )}
      <Pipeline side="a" highlight={highlight} fill />
      {schema && a && row >= 0 && (
        <MomentFormula formula={momentFormula(a, schema, row, site.a.info)} />
      )}
      {(side || marks.length > 0) && (
        <div className="stage-line">
          {side && (
            <p className="side-badge" data-testid="side-badge">
              {t.lesson.sideShown(side, step.variant ?? '')}
            </p>
          )}
          {marks.length > 0 && (
            <button type="button" aria-keyshortcuts="M" onClick={moment}>
              {t.lesson.toMoment}
            </button>
          )}
        </div>
      )}
      <Player status={status} runState={runState} marks={marks} />
      <Legend />
      {step.chart && a && (
        <div
          className="lesson-highlight step-chart"
          data-testid="step-chart"
          data-chart={step.chart}
        >
          {step.beside && (
            <p className="chart-sides" data-testid="chart-sides">
              <span className="side-key side-key-a" aria-hidden="true" />
              {t.lesson.chartSide('A', step.variant ?? '')}{' '}
              <span className="side-key side-key-b" aria-hidden="true" />
              {t.lesson.chartSide('B', step.beside)}
            </p>
          )}
          <OneChart name={step.chart} />
        </div>
      )}
      {a && <KeyCounters names={counters} all={numbers} />}
    </section>
  );
}

/** The first decision of kind `focus` in the run's window (-1: none, or no focus). */
function momentRow(
  m: Parameters<typeof schemaOf>[0],
  trace: Parameters<typeof schemaOf>[1],
  focus: string | null,
): number {
  const schema = schemaOf(m, trace);
  if (!m || !schema || !focus) return -1;
  const match = stepMatcher(m, schema, focus);
  return match ? nextRow(m.cols, -1, match, 1) : -1;
}

/**
 * The test the step's moment made, as the kernel writes it, with the numbers it compared then
 * (from the trace row itself) and the rule's inputs as the socket had them (model/formula.ts):
 * the mechanism's formula with today's values.
 */
function MomentFormula({ formula }: { formula: Formula | null }) {
  const t = useText();
  if (!formula) return null;
  const n = formatCount;
  const rate = (r: number | null) => (r === null ? t.lesson.formula.unlimited : `${n(r)} B/s`);
  const f = formula;
  let text: string;
  switch (f.kind) {
    case 'autocork':
      text = t.lesson.formula.autocork(n(f.len), n(f.goal), n(f.wmem), n(f.truesize));
      break;
    case 'nagle':
      text = t.lesson.formula.nagle(n(f.sml), n(f.una));
      break;
    case 'notsent':
      text = t.lesson.formula.notsent(n(f.notsent), n(f.lowat));
      break;
    case 'tsq':
      text =
        f.rule === 'max'
          ? t.lesson.formula.tsqMax(
              n(f.wmem),
              n(f.limit),
              n(f.sysctl),
              rate(f.rate),
              f.perMs === null ? '∞' : n(f.perMs),
            )
          : t.lesson.formula.tsq(
              n(f.wmem),
              n(f.limit),
              n(f.sysctl),
              rate(f.rate),
              f.perMs === null ? '∞' : n(f.perMs),
            );
      break;
    case 'sizeGoal':
      text = t.lesson.formula.sizeGoal(
        rate(f.rate),
        f.perHalfMs === null ? '∞' : n(f.perHalfMs),
        n(f.minSegs),
        n(f.mss),
        n(f.minSegs * f.mss),
        n(f.goal),
        n(f.goal / f.mss),
      );
      break;
    case 'autosize':
      text = t.lesson.formula.autosize(
        rate(f.rate),
        f.perMs === null ? '∞' : n(f.perMs),
        n(f.mss),
        n(f.minSegs),
        n(f.segs),
        n(f.segs * f.mss),
        n(f.len),
        n(f.rest),
      );
      break;
  }
  return (
    <p className="moment-formula" data-testid="moment-formula" data-formula={f.kind}>
      <code>{text}</code>
    </p>
  );
}
