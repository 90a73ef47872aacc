// The last step of a lesson: the A/B comparison its source document measured. Both variants
// run to their end in the engine: in a build, at build time (scripts/vite-plugin-lesson-ab.ts,
// model/lessonAb.ts), so the table is on screen at once; in the dev server, on the page, each in
// a worker of its own, at once, without a trace. The table puts the model's value of each metric (the engine's `sendpath compare` metrics) beside
// the source's own number from the scenario's [source], and the ratio A/B of both.

import { useEffect, useMemo, useState } from 'react';
import prerendered from 'virtual:sendpath-lesson-ab';

import type { Side } from '../engine/protocol';
import type { Lesson, LessonStep } from '../model/lesson';
import { abSideKey } from '../model/lessonAb';
import { formatMetric, ratioOf as ratio } from '../model/metric';
import { scenarioMetas } from '../model/lessons';
import { loadScenario } from '../model/scenarioIndex';
import { useText } from '../shared/useLang';
import { runExperimentPair } from './experimentPair';

type Values = Record<string, number | null>;

interface Runs {
  phase: 'running' | 'done' | 'failed';
  progress: Record<Side, number>;
  values: Partial<Record<Side, Values>>;
  error: string | null;
}

export function ABTable({ lesson, step }: { lesson: Lesson; step: LessonStep }) {
  const t = useText();
  const compare = step.compare!;
  const source = useMemo(() => scenarioMetas().get(lesson.scenario)?.source ?? null, [lesson]);
  // Both sides' metrics as this build's engine computed them, when the build ran this step.
  const built = useMemo(() => {
    const of = (side: Side) =>
      prerendered?.[abSideKey(lesson.scenario, compare[side], step.sets, step.metrics)];
    const a = of('a');
    const b = of('b');
    return a && b ? { a, b } : null;
  }, [lesson, step, compare]);
  const [runs, setRuns] = useState<Runs>(() =>
    built
      ? { phase: 'done', progress: { a: 1, b: 1 }, values: built, error: null }
      : { phase: 'running', progress: { a: 0, b: 0 }, values: {}, error: null },
  );

  useEffect(() => {
    if (built) return;
    return (
      // A and B each in a worker of their own, at once.
      runExperimentPair(
        async () => ({
          source: await loadScenario(lesson.scenario),
          file: `scenarios/${lesson.scenario}.toml`,
          variants: compare,
          sets: step.sets,
          metrics: step.metrics,
        }),
        {
          progress: (side, done) =>
            setRuns((r) => ({ ...r, progress: { ...r.progress, [side]: done } })),
          result: (side, result) =>
            setRuns((r) => ({
              ...r,
              progress: { ...r.progress, [side]: 1 },
              values: { ...r.values, [side]: result.metrics },
            })),
          error: (error) => setRuns((r) => ({ ...r, phase: 'failed', error })),
          done: () => setRuns((r) => ({ ...r, phase: 'done' })),
        },
      )
    );
  }, [lesson, step, compare, built]);

  const src = (v: string, m: string) => source?.values.get(v)?.get(m) ?? null;
  const anySource = step.metrics.some(
    (m) => src(compare.a, m) !== null || src(compare.b, m) !== null,
  );
  const label = (m: string) => {
    const l = t.ab.metrics;
    if (
      m === 'elapsed_s' ||
      m === 'throughput_mbit' ||
      m === 'ctxt_switches' ||
      m === 'cpu_per_byte_ns'
    )
      return l[m];
    const [host, name] = m.split(':') as [string, string];
    if (name === 'tcp_mem_pages') return l.tcp_mem_pages(host);
    if (name === 'qdisc_backlog_bytes') return l.qdisc_backlog_bytes(host);
    return l.counter(host, name);
  };

  return (
    <section
      className="ab-table"
      aria-labelledby="ab-h"
      data-testid="ab-table"
      data-phase={runs.phase}
    >
      <h2 id="ab-h">{t.ab.region}</h2>
      {runs.phase === 'running' && (
        <p role="status">
          {(['a', 'b'] as const)
            .map((s) => t.ab.running(compare[s], runs.progress[s] * 100))
            .join(' · ')}
        </p>
      )}
      {runs.error && (
        <p role="alert" className="note">
          {t.ab.failed(runs.error)}
        </p>
      )}
      <table>
        <caption>{t.ab.caption(compare.a, compare.b)}</caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              {t.ab.metric}
            </th>
            <th scope="colgroup" colSpan={3}>
              {t.ab.model}
            </th>
            <th scope="colgroup" colSpan={3}>
              {t.ab.source}
            </th>
          </tr>
          <tr>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">{t.ab.ratio}</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">{t.ab.ratio}</th>
          </tr>
        </thead>
        <tbody>
          {step.metrics.map((m) => {
            const ma = runs.values.a?.[m];
            const mb = runs.values.b?.[m];
            const sa = src(compare.a, m);
            const sb = src(compare.b, m);
            return (
              <tr key={m} data-metric={m}>
                <th scope="row">
                  {label(m)} <code className="muted">{m}</code>
                </th>
                <td data-col="model-a">{formatMetric(ma)}</td>
                <td data-col="model-b">{formatMetric(mb)}</td>
                <td data-col="model-ratio">{formatMetric(ratio(ma, mb))}</td>
                <td data-col="source-a">{formatMetric(sa)}</td>
                <td data-col="source-b">{formatMetric(sb)}</td>
                <td data-col="source-ratio">{formatMetric(ratio(sa, sb))}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted">
        {source && anySource ? t.ab.sourceName(source.name) : t.ab.noSourceNote}
      </p>
      {runs.phase === 'done' && (
        // Both sides drawn: per row, the model's A and B as bars on one scale (A solid, B
        // hatched, so the sides differ in shape as well as colour). The table above has the
        // numbers, so the drawing is hidden from screen readers.
        <div className="ab-bars" data-testid="ab-bars" aria-hidden="true">
          {step.metrics.map((m) => {
            const va = runs.values.a?.[m];
            const vb = runs.values.b?.[m];
            if (va === undefined || vb === undefined || va === null || vb === null) return null;
            const max = Math.max(Math.abs(va), Math.abs(vb)) || 1;
            return (
              <div key={m} className="ab-bar-row" data-metric={m}>
                <span className="ab-bar-name">{label(m)}</span>
                {(
                  [
                    ['a', 'A', va],
                    ['b', 'B', vb],
                  ] as const
                ).map(([side, name, v]) => (
                  <span key={side} className="ab-bar-line">
                    <span className="ab-bar-side">{name}</span>
                    <span className="ab-bar-track">
                      <span
                        className={`ab-bar ab-bar-${side}`}
                        data-side={side}
                        style={{ width: `${(100 * Math.abs(v)) / max}%` }}
                      />
                    </span>
                    <span className="ab-bar-value">{formatMetric(v)}</span>
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
