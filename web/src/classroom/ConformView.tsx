// "Model vs Linux" (`?view=conform`, `&scenario=<name>` to show only the experiments that mirror
// one scenario): every conformance experiment of scenarios/conformance/ (issue 14), Linux's
// recorded values beside the model's, grouped by mechanism, with each value's verdict.
//
// The engine does the work in a worker of its own, on a wasm module that no other page loads
// (startConformEngine, engine/conformWorker.ts): it parses each file (`conformExperiment`) and
// runs each experiment's scenario with its variant and overrides (`conformRows`: the rows of
// `sendpath conform --json`), one experiment after another, so the page fills in as they finish.
// model/conform.ts judges how to show the rows. This module is a chunk of its own, with the
// files and the view's strings (i18n/conform.ts): none of it is on the first load.

import { useEffect, useMemo, useState } from 'react';

import { startConformEngine } from '../engine/bridge';
import type { ConformExperiment } from '../engine/generated/ConformExperiment';
import type { Row } from '../engine/generated/Row';
import { conformText, mechanismName, type ConformMessages } from '../i18n/conform';
import { withLang } from '../i18n/current';
import type { Lang } from '../i18n/lang';
import {
  bandReason,
  byMechanism,
  formatRatio,
  formatValue,
  ofScenario,
  percentInBand,
  ratioPosition,
  recordedFacts,
  scenarioName,
  simulatorSearch,
  tally,
  verdictOf,
  type Tally,
  type Verdict,
} from '../model/conform';
import { conformFiles, knownFailures, setupSource, type ConformFile } from '../model/conformFiles';
import { loadScenario, scenarioEntries } from '../model/scenarioIndex';
import { useLang } from '../shared/useLang';
import { ScrollBox } from '../shared/ScrollBox';
import './conform.css';

/** An experiment file as the engine read it, or the engine's error. */
type Parsed = { file: ConformFile; exp: ConformExperiment } | { file: ConformFile; error: string };

/** An experiment's rows once the engine has run it, or its error. */
type Result = { rows: Row[] } | { error: string };

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether the simulator has the experiment's scenario (a setup beside the experiments it has not). */
function inSimulator(exp: ConformExperiment): boolean {
  return scenarioEntries.some((e) => e.name === scenarioName(exp));
}

/** The text of the experiment's scenario: one of the simulator's, or a setup beside it. */
async function scenarioText(exp: ConformExperiment): Promise<string> {
  if (inSimulator(exp)) return loadScenario(scenarioName(exp));
  const text = setupSource(exp.scenario);
  if (text === undefined) throw new Error(`scenarios/${exp.scenario}: no such scenario`);
  return text;
}

/** The simulator's link for an experiment, in the page's language and theme. */
function simulatorHref(exp: ConformExperiment, lang: Lang, theme: string | null): string {
  const p = new URLSearchParams(simulatorSearch(exp));
  if (theme) p.set('theme', theme);
  p.set('lang', lang);
  return `?${p.toString()}`;
}

/** The theme of the URL (`theme=light|dark`), as the simulator's; null: the system's. */
function urlTheme(params: URLSearchParams): 'light' | 'dark' | null {
  const t = params.get('theme');
  return t === 'light' || t === 'dark' ? t : null;
}

export function ConformView() {
  const lang = useLang();
  const t = conformText(lang);
  const [params] = useState(() => new URLSearchParams(location.search));
  const scenario = params.get('scenario');
  const theme = urlTheme(params);
  const [parsed, setParsed] = useState<Parsed[] | null>(null);
  const [results, setResults] = useState<ReadonlyMap<string, Result>>(new Map());

  useEffect(() => {
    document.documentElement.dataset.theme = theme ?? 'auto';
  }, [theme]);

  // One engine for the view: parse every file, then run the shown experiments in turn.
  useEffect(() => {
    const engine = startConformEngine();
    let live = true;
    void (async () => {
      const all: Parsed[] = [];
      for (const file of conformFiles) {
        try {
          all.push({ file, exp: await engine.call('conformExperiment', file) });
        } catch (err) {
          all.push({ file, error: message(err) });
        }
      }
      if (!live) return;
      setParsed(all);
      const shown = ofScenario(
        all.flatMap((p) => ('exp' in p ? [p.exp] : [])),
        scenario,
      );
      for (const exp of shown) {
        let result: Result;
        try {
          const file = all.find((p) => p.file.id === exp.id)!.file;
          const rows = await engine.call('conformRows', {
            ...file,
            scenarioSource: await scenarioText(exp),
            scenarioFile: `scenarios/${exp.scenario}`,
            knownFailures,
          });
          result = { rows };
        } catch (err) {
          result = { error: message(err) };
        }
        if (!live) return;
        setResults((m) => new Map(m).set(exp.id, result));
      }
    })();
    return () => {
      live = false;
      engine.terminate();
    };
  }, [scenario]);

  const experiments = useMemo(
    () => ofScenario(parsed?.flatMap((p) => ('exp' in p ? [p.exp] : [])) ?? [], scenario),
    [parsed, scenario],
  );
  const broken = parsed?.filter((p): p is Extract<Parsed, { error: string }> => 'error' in p);
  const rowsOf = (ids: readonly ConformExperiment[]) =>
    ids.flatMap((e) => {
      const r = results.get(e.id);
      return r && 'rows' in r ? r.rows : [];
    });
  const done = experiments.filter((e) => results.has(e.id)).length;
  const overall = tally(rowsOf(experiments));
  const back = scenario === null ? withLang({}) : withLang({ s: scenario });

  return (
    <main className="page-narrow conform">
      <p>
        <a href={back}>{t.back}</a>
      </p>
      <h1>{t.title}</h1>
      <p className="lead">{t.intro}</p>
      <section className="conform-help" aria-labelledby="conform-help-h">
        <h2 id="conform-help-h">{t.bandHeading}</h2>
        <p>{t.band}</p>
        <p>{t.ratioHelp}</p>
        <ul className="conform-legend" aria-label={t.legend}>
          <li>
            <Mark verdict="in" t={t} />
            {t.legendSep}
            {t.legendIn}
          </li>
          <li>
            <Mark verdict="known" t={t} />
            {t.legendSep}
            {t.legendKnown}
          </li>
          <li>
            <Mark verdict="miss" t={t} />
            {t.legendSep}
            {t.legendMiss}
          </li>
        </ul>
      </section>

      {scenario !== null && (
        <p className="note">
          {t.filtered(scenario, experiments.length)}{' '}
          <a href={withLang(theme ? { view: 'conform', theme } : { view: 'conform' })}>
            {t.showAll}
          </a>
        </p>
      )}

      <p role="status" className="conform-progress" aria-live="polite">
        {parsed === null
          ? t.loading
          : experiments.length === 0
            ? scenario === null
              ? t.none
              : t.noneForScenario(scenario)
            : done < experiments.length
              ? t.running(done, experiments.length)
              : t.done(experiments.length)}
      </p>
      {done > 0 && (
        <p className="conform-overall" data-testid="conform-overall">
          <strong>{t.overall(done, overall.total, overall.inBand, percentInBand(overall))}</strong>{' '}
          {t.misses(overall.known, overall.miss)}
        </p>
      )}

      {broken?.map((b) => (
        <div key={b.file.id} className="note" role="alert">
          <code>{b.error}</code>
        </div>
      ))}

      {experiments.length > 0 && (
        <nav aria-labelledby="conform-toc-h" className="toc">
          <h2 id="conform-toc-h">{t.contents}</h2>
          <ul>
            {byMechanism(experiments).map((g) => (
              <li key={g.mechanism}>
                <a href={`#mech-${g.mechanism}`}>{mechanismName(lang, g.mechanism)}</a> (
                {g.experiments.length})
              </li>
            ))}
          </ul>
        </nav>
      )}

      {byMechanism(experiments).map((g) => {
        const groupTally = tally(rowsOf(g.experiments));
        return (
          <section
            key={g.mechanism}
            className="conform-group"
            aria-labelledby={`mech-${g.mechanism}`}
          >
            <h2 id={`mech-${g.mechanism}`}>{mechanismName(lang, g.mechanism)}</h2>
            {groupTally.total > 0 && <TallyLine tally={groupTally} t={t} />}
            {g.experiments.map((exp) => (
              <Experiment
                key={exp.id}
                exp={exp}
                result={results.get(exp.id)}
                t={t}
                href={inSimulator(exp) ? simulatorHref(exp, lang, theme) : null}
              />
            ))}
          </section>
        );
      })}
    </main>
  );
}

function TallyLine({ tally: x, t }: { tally: Tally; t: ConformMessages }) {
  return (
    <p className="conform-tally">
      {t.summary(x.inBand, x.total)}
      {x.known > 0 && ` · ${t.summaryKnown(x.known)}`}
      {x.miss > 0 && ` · ${t.summaryMiss(x.miss)}`}
    </p>
  );
}

const MARKS: Record<Verdict, string> = { in: '✓', stale: '✓', known: '!', miss: '✗' };

/** A verdict's mark: a shape and a word, coloured as a third cue only. */
function Mark({ verdict, t }: { verdict: Verdict; t: ConformMessages }) {
  const word =
    verdict === 'in' || verdict === 'stale'
      ? t.verdict.in
      : verdict === 'known'
        ? t.verdict.known.replace(/[:：]$/, '')
        : t.verdict.miss;
  return (
    <span className={`verdict verdict-${verdict}`}>
      <span className="verdict-mark" aria-hidden="true">
        {MARKS[verdict]}
      </span>{' '}
      {word}
    </span>
  );
}

function Experiment({
  exp,
  result,
  t,
  href,
}: {
  exp: ConformExperiment;
  result: Result | undefined;
  t: ConformMessages;
  /** The simulator's link; null when the simulator does not have the experiment's scenario. */
  href: string | null;
}) {
  const rows = result && 'rows' in result ? result.rows : null;
  const headingId = `exp-${exp.id}`;
  return (
    <article className="conform-exp" id={exp.id} aria-labelledby={headingId}>
      <h3 id={headingId} lang="en">
        {exp.title}
      </h3>
      {rows && <TallyLine tally={tally(rows)} t={t} />}
      <p className="conform-claim">
        <span className="muted">{t.claim}: </span>
        <span lang="en">{exp.claim}</span>
      </p>
      {href === null ? (
        <p className="muted">{t.notInSimulator(exp.scenario)}</p>
      ) : (
        <p>
          <a className="button" href={href} aria-label={t.openLabel(exp.title)}>
            {t.open}
          </a>
        </p>
      )}
      {result && 'error' in result && (
        <div className="note" role="alert">
          {t.failed(result.error)}
        </div>
      )}
      <ScrollBox className="conform-table-wrap" label={t.caption(exp.title)}>
        <table className="conform-table">
          <caption className="visually-hidden">{t.caption(exp.title)}</caption>
          <thead>
            <tr>
              <th scope="col">{t.col.value}</th>
              <th scope="col">{t.col.real}</th>
              <th scope="col">{t.col.range}</th>
              <th scope="col">{t.col.model}</th>
              <th scope="col">{t.col.ratio}</th>
              <th scope="col">{t.col.verdict}</th>
            </tr>
          </thead>
          <tbody>
            {exp.values.map((v) => {
              const row = rows?.find((r) => r.value === v.name);
              return (
                <tr key={v.name} data-value={v.name}>
                  <th scope="row">
                    <code>{v.name}</code>
                  </th>
                  <td className="num" data-testid="real">
                    {formatValue(v.median)}
                  </td>
                  <td className="num muted">
                    {formatValue(v.min)}..{formatValue(v.max)}
                  </td>
                  <td className="num" data-testid="model">
                    {row === undefined ? (
                      <span className="muted">{result ? '—' : t.pending}</span>
                    ) : row.model === null ? (
                      <span className="muted">{t.notComputed}</span>
                    ) : (
                      formatValue(row.model)
                    )}
                  </td>
                  <td className="ratio">
                    {row?.ratio != null && <RatioBar ratio={row.ratio} t={t} />}
                  </td>
                  <td data-testid="verdict">{row && <VerdictCell row={row} t={t} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollBox>
      <details className="conform-details">
        <summary>{t.details}</summary>
        <h4>{t.recording}</h4>
        <dl>
          {recordedFacts(exp).map(({ fact, value }) => (
            <div key={fact}>
              <dt>{t.facts[fact]}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <h4>{t.realSetup}</h4>
        <dl lang="en">
          {exp.real.map(([k, v]) => (
            <div key={k}>
              <dt>
                <code>{k}</code>
              </dt>
              <dd>{v || '—'}</dd>
            </div>
          ))}
        </dl>
        <h4>{t.modelRun}</h4>
        <dl>
          <div>
            <dt>{t.scenario}</dt>
            <dd>
              <code>{exp.scenario}</code>
            </dd>
          </div>
          <div>
            <dt>{t.variant}</dt>
            <dd>{exp.variant === null ? t.asWritten : <code>{exp.variant}</code>}</dd>
          </div>
          <div>
            <dt>{t.overrides}</dt>
            <dd>
              {exp.sets.length === 0
                ? t.noOverrides
                : exp.sets.map((s) => (
                    <code key={s} className="conform-set">
                      {s}
                    </code>
                  ))}
            </dd>
          </div>
        </dl>
        <h4>{t.lacks}</h4>
        {exp.missing_keys.length === 0 ? (
          <p>{t.lacksNone}</p>
        ) : (
          <ul lang="en">
            {exp.missing_keys.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
      </details>
    </article>
  );
}

function VerdictCell({ row, t }: { row: Row; t: ConformMessages }) {
  const verdict = verdictOf(row);
  const reason = bandReason(row);
  return (
    <>
      <Mark verdict={verdict} t={t} />
      {verdict === 'in' && reason && (
        <span className="muted"> ({reason === 'near' ? t.verdict.near : t.verdict.range})</span>
      )}
      {verdict === 'stale' && <span className="muted"> ({t.verdict.stale})</span>}
      {verdict === 'known' && (
        <span className="verdict-why" lang="en">
          {' '}
          {row.known_failure}
        </span>
      )}
    </>
  );
}

/** model ÷ Linux on a log scale from ×¼ to ×4, the ±10 % band shaded; and the ratio in text. */
function RatioBar({ ratio, t }: { ratio: number; t: ConformMessages }) {
  const W = 96;
  const H = 14;
  const { x, clipped } = ratioPosition(ratio);
  const at = (p: number) => 4 + p * (W - 8);
  const lo = at(ratioPosition(0.9).x);
  const hi = at(ratioPosition(1.1).x);
  const cx = at(x);
  const text = formatRatio(ratio);
  return (
    <span className="ratio-cell">
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={t.ratioLabel(text)}
        className="ratio-bar"
      >
        <line x1={4} x2={W - 4} y1={H / 2} y2={H / 2} className="ratio-track" />
        <rect x={lo} y={2} width={hi - lo} height={H - 4} className="ratio-band" />
        <line x1={W / 2} x2={W / 2} y1={1} y2={H - 1} className="ratio-one" />
        {clipped ? (
          <path
            className="ratio-dot"
            d={
              x >= 1
                ? `M${W - 1} ${H / 2} L${W - 8} 2 L${W - 8} ${H - 2} Z`
                : `M1 ${H / 2} L8 2 L8 ${H - 2} Z`
            }
          />
        ) : (
          <circle cx={cx} cy={H / 2} r={4} className="ratio-dot" />
        )}
      </svg>{' '}
      <span className="num">{text}</span>
    </span>
  );
}
