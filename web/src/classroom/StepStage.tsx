// The right half of a lesson step: the step's run, played in the simulator's own components.
// A step with a time range records that window of its configuration and plays it (the
// pipeline with the step's highlights, the time controls, the step's chart and the counters
// it names); an A/B step runs both variants to their end and compares them (ABTable.tsx).
//
// The run has its own store, which never touches the page's URL (the lesson owns it).

import { useEffect, useState } from 'react';

import { ClockContext, StoreContext, useClock, useSite, useStore } from '../app/context';
import { Clock } from '../app/clock';
import { OneChart } from '../app/Charts';
import { msg } from '../i18n/messages';
import { Pipeline } from '../app/pipeline/Pipeline';
import { Player, stepKind } from '../app/Player';
import { SiteStore } from '../app/store';
import { formatNs } from '../model/format';
import type { Lesson, LessonStep, PipelineElement } from '../model/lesson';
import { defaultState, serializeState } from '../model/urlstate';
import { ABTable } from './ABTable';
import { KeyCounters } from '../app/KeyCounters';
import { prefersReducedMotion } from '../shared/motion';
import { useText } from '../shared/useLang';

/** What presenter mode can ask of the step's run. */
export interface StageControl {
  /** Play or pause. */
  toggle(): void;
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
  return serializeState(s);
}

export function StepStage({
  lesson,
  step,
  control,
}: {
  lesson: Lesson;
  step: LessonStep;
  control: (c: StageControl | null) => void;
}) {
  if (step.compare) return <ABTable lesson={lesson} step={step} />;
  return <StepRun lesson={lesson} step={step} control={control} />;
}

function StepRun({
  lesson,
  step,
  control,
}: {
  lesson: Lesson;
  step: LessonStep;
  control: (c: StageControl | null) => void;
}) {
  const [store] = useState(() => new SiteStore(stepSearch(lesson, step), { history: false }));
  const [clock] = useState(() => new Clock());
  useEffect(() => {
    void store.start();
    return () => store.stop();
  }, [store]);
  useEffect(() => {
    control({ toggle: () => clock.toggle() });
    return () => {
      clock.pause();
      control(null);
    };
  }, [clock, control]);
  return (
    <StoreContext.Provider value={store}>
      <ClockContext.Provider value={clock}>
        <StepRunView step={step} />
      </ClockContext.Provider>
    </StoreContext.Provider>
  );
}

function StepRunView({ step }: { step: LessonStep }) {
  const t = useText();
  const site = useSite();
  const store = useStore();
  const clock = useClock();
  const a = site.a.model;

  // A new run: the clock spans its window, starts on the step's focus decision (if any) and
  // plays, unless the reader asked for reduced motion.
  useEffect(() => {
    if (!a) return;
    clock.setRange(a.summary.fromNs, a.summary.toNs);
    if (step.focus) stepKind(store.getSnapshot(), clock, 1);
    if (!prefersReducedMotion()) clock.play();
  }, [a, clock, store, step.focus]);

  const running = site.a.running;
  const status =
    site.engine === 'failed'
      ? msg.engine.failed(site.engineError ?? '')
      : site.engine === 'starting' || running || !a
        ? t.lesson.loading
        : msg.run.updated(a.cols.t.length, formatNs(a.summary.toNs - a.summary.fromNs));
  const runState = site.engine === 'failed' ? 'failed' : running || !a ? 'running' : 'ready';
  const highlight = step.highlights.flatMap((h) =>
    h.kind === 'element' ? [STAGE_OF[h.element]] : [],
  );
  const counters = step.highlights.flatMap((h) => (h.kind === 'counter' ? [h.name] : []));

  return (
    <section className="step-stage" aria-label={t.lesson.run} data-testid="step-stage">
      {site.a.error && (
        <p className="note" role="alert">
          {t.lesson.failed(site.a.error.message)}
        </p>
      )}
      <Pipeline side="a" highlight={highlight} fill />
      <Player status={status} runState={runState} />
      {step.chart && a && <OneChart name={step.chart} />}
      {a && <KeyCounters names={counters} />}
    </section>
  );
}
