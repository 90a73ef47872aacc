// The landing page's answer to "what does autocorking change?" (issue 17), on the first screen
// without a click: the landing scenario run whole with tcp_autocorking on and off, each in a
// worker of its own, once the picture's first run is on screen; the figures that differ between
// the two, as numbers and bars, with one sentence that says what they mean. Every number is the
// engine's (the runs' counters and `sendpath compare`'s metrics), as `sendpath run` prints them.

import { useEffect, useState } from 'react';

import { useSite } from '../app/context';
import { perf } from '../app/perf';
import type { Side } from '../engine/protocol';
import {
  differingFigures,
  EFFECT_METRICS,
  EFFECT_SOURCES,
  effectSummary,
  effectValues,
  type EffectFigure,
  type EffectValues,
} from '../model/effect';
import { formatBitRate, formatCount, formatNs, trim3 } from '../model/format';
import { DEFAULT_SCENARIO_NAME, loadScenario, entryOf } from '../model/scenarioIndex';
import { useText } from '../shared/useLang';
import { runExperimentPair } from './experimentPair';

/** The landing scenario's two variants: A with autocorking, B without. */
const VARIANTS: Record<Side, string> = { a: 'on', b: 'off' };

interface Runs {
  progress: Record<Side, number>;
  values: Partial<Record<Side, EffectValues>>;
  /** Simulated seconds of run A (the runs' length). */
  elapsedS: number | null;
  error: string | null;
}

function formatFigure(f: EffectFigure, v: number | null): string {
  if (v === null) return '–';
  switch (f) {
    case 'bytesPerPacket':
      return `${formatCount(Math.round(v))} B`;
    case 'cpuPerMB':
      return `${trim3(v)} ms`;
    case 'throughput':
      return formatBitRate(v * 1e6);
    default:
      return formatCount(v);
  }
}

function formatTimes(x: number): string {
  return x >= 10 ? formatCount(Math.round(x)) : x.toFixed(1);
}

export function LandingEffect() {
  const t = useText();
  const e = t.landing.effect;
  const site = useSite();
  // Start once the picture's first run is on screen and answers (the mark sp:interactive): it
  // must not wait for these, nor their engines' wasm be part of the first load.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => {
    let live = true;
    void perf.interactive.then(() => {
      if (live) setInteractive(true);
    });
    return () => {
      live = false;
    };
  }, []);
  const armed = site.a.model !== null && interactive;
  const [runs, setRuns] = useState<Runs>({
    progress: { a: 0, b: 0 },
    values: {},
    elapsedS: null,
    error: null,
  });

  useEffect(() => {
    if (!armed) return;
    return runExperimentPair(
      async () => ({
        source: await loadScenario(DEFAULT_SCENARIO_NAME),
        file: entryOf(DEFAULT_SCENARIO_NAME).path,
        variants: VARIANTS,
        sets: [],
        metrics: [...EFFECT_METRICS],
      }),
      {
        progress: (side, done) =>
          setRuns((r) => ({ ...r, progress: { ...r.progress, [side]: done } })),
        result: (side, result) => {
          const r = result.summary.result;
          setRuns((cur) => ({
            ...cur,
            progress: { ...cur.progress, [side]: 1 },
            values: { ...cur.values, [side]: effectValues(r, result.metrics) },
            elapsedS: side === 'a' ? r.elapsed_s : cur.elapsedS,
          }));
        },
        error: (error) => setRuns((r) => ({ ...r, error })),
      },
    );
  }, [armed]);

  // The panel speaks of the landing scenario: gone once the reader opens another one.
  if (site.state.a.scenario !== DEFAULT_SCENARIO_NAME || site.capture) return null;

  const label = (side: Side) =>
    site.a.info?.variants.find((v) => v.name === VARIANTS[side])?.label ?? VARIANTS[side];
  const a = runs.values.a;
  const b = runs.values.b;
  const done = a !== undefined && b !== undefined;
  const shown = done ? differingFigures(a, b) : [];
  let caption = '';
  if (done) {
    const s = effectSummary(a, b);
    const parts: string[] = [];
    if (s.packets)
      parts.push((s.packets.fewer ? e.packetsFewer : e.packetsMore)(formatTimes(s.packets.times)));
    if (s.cpuPerMB) parts.push((s.cpuPerMB.less ? e.cpuLess : e.cpuMore)(s.cpuPerMB.pct));
    if (s.throughput)
      parts.push((s.throughput.more ? e.throughputMore : e.throughputLess)(s.throughput.pct));
    const list =
      parts.length > 1
        ? `${parts.slice(0, -1).join(e.listSeparator)}${e.listLast}${parts.at(-1)}`
        : parts[0];
    caption = list ? e.caption(list) : e.none;
  }
  const pct = ((runs.progress.a + runs.progress.b) / 2) * 100;

  return (
    <section
      className="landing-effect"
      aria-labelledby="effect-h"
      data-testid="landing-effect"
      data-phase={runs.error ? 'failed' : done ? 'done' : 'running'}
    >
      <div className="effect-head">
        <h2 id="effect-h">{e.region}</h2>
        <p className="muted">
          {e.runs(
            `${label('a')} (${e.sideA})`,
            `${label('b')} (${e.sideB})`,
            runs.elapsedS === null ? '…' : formatNs(runs.elapsedS * 1e9),
          )}
        </p>
      </div>
      {runs.error ? (
        <p role="alert" className="note">
          {e.failed(runs.error)}
        </p>
      ) : !done ? (
        <p role="status">
          {e.running(pct)} <progress max={100} value={pct} aria-hidden="true" />
        </p>
      ) : (
        <>
          <p className="effect-caption" data-testid="effect-caption">
            {caption}
          </p>
          <ul className="effect-figures">
            {shown.map((f) => {
              const va = a[f] ?? 0;
              const vb = b[f] ?? 0;
              const max = Math.max(Math.abs(va), Math.abs(vb)) || 1;
              return (
                <li key={f} className="effect-figure" data-figure={f}>
                  <span className="effect-name">
                    {e.figures[f]} <code>{EFFECT_SOURCES[f]}</code>
                  </span>
                  {(['a', 'b'] as const).map((side) => {
                    const v = side === 'a' ? a[f] : b[f];
                    return (
                      <span key={side} className="effect-line" data-side={side}>
                        <span className="effect-side">{side === 'a' ? e.sideA : e.sideB}</span>
                        <span className="effect-track" aria-hidden="true">
                          <span
                            className={`effect-bar effect-bar-${side}`}
                            style={{ width: `${(100 * Math.abs(v ?? 0)) / max}%` }}
                          />
                        </span>
                        <span className="effect-value" data-value={v ?? ''}>
                          {formatFigure(f, v)}
                        </span>
                      </span>
                    );
                  })}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
