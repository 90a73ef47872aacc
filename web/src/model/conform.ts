// "Model vs Linux" (issue 14): the conformance experiments as the view reads them. The engine
// parses each file and computes the model's values (`conformExperiment`, `conformRows`: the rows
// `sendpath conform --json` prints); this module only judges how to show them: each row's
// verdict, the summaries per experiment, per mechanism and overall, the groups, the ratio's place
// on a small log scale, and the simulator link of an experiment. No React.

import type { ConformExperiment } from '../engine/generated/ConformExperiment';
import type { Row } from '../engine/generated/Row';
import { defaultState, serializeState } from './urlstate';

/**
 * A compared value's verdict. `in`: the model is in band (within ±10 % of the real median, or
 * inside the recorded min..max); `stale`: in band, yet still marked as a known failure (the
 * marker should go); `known`: a miss whose mechanism is named in known-failures.toml; `miss`: a
 * miss nothing explains yet.
 */
export type Verdict = 'in' | 'stale' | 'known' | 'miss';

export function verdictOf(row: Row): Verdict {
  if (row.in_band) return row.known_failure === null ? 'in' : 'stale';
  return row.known_failure === null ? 'miss' : 'known';
}

/**
 * Why a value in band is in band: `range` when the model lies inside the recorded min..max
 * (the kernel itself varied that much), `near` when it is within ±10 % of the median; null for a
 * value that is not in band.
 */
export function bandReason(row: Row): 'range' | 'near' | null {
  if (!row.in_band || row.model === null) return null;
  return row.real_min <= row.model && row.model <= row.real_max ? 'range' : 'near';
}

/** How many values are in band, and how the others miss. */
export interface Tally {
  total: number;
  /** In band (stale markers included: the value is in band). */
  inBand: number;
  /** Misses with a known failure. */
  known: number;
  /** Misses nothing explains. */
  miss: number;
}

export function tally(rows: readonly Row[]): Tally {
  const t: Tally = { total: rows.length, inBand: 0, known: 0, miss: 0 };
  for (const r of rows) {
    const v = verdictOf(r);
    if (v === 'in' || v === 'stale') t.inBand++;
    else if (v === 'known') t.known++;
    else t.miss++;
  }
  return t;
}

/** The share of values in band, in whole percent (0 without values). */
export function percentInBand(t: Tally): number {
  return t.total === 0 ? 0 : Math.round((100 * t.inBand) / t.total);
}

/** The order mechanisms are shown in: the seeds' order in issue 14, then the rest by name. */
export const MECHANISM_ORDER: readonly string[] = [
  'nagle',
  'autocorking',
  'tso',
  'notsent_lowat',
  'tsq',
  'loss',
];

/** Experiments grouped by mechanism, in `MECHANISM_ORDER`, each group in file order. */
export function byMechanism<T extends { mechanism: string }>(
  experiments: readonly T[],
): { mechanism: string; experiments: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const e of experiments) {
    const g = groups.get(e.mechanism);
    if (g) g.push(e);
    else groups.set(e.mechanism, [e]);
  }
  const rank = (m: string) => {
    const i = MECHANISM_ORDER.indexOf(m);
    return i < 0 ? MECHANISM_ORDER.length : i;
  };
  return [...groups.keys()]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((mechanism) => ({ mechanism, experiments: groups.get(mechanism)! }));
}

/**
 * The scenario's name from the experiment's file: its path relative to scenarios/ without
 * `.toml`, which for the simulator's scenarios is their name in the site's URLs
 * (`nagle-delayed-ack`); a setup beside the experiments keeps its folder
 * (`conformance/setups/loss-recovery`).
 */
export function scenarioName(exp: Pick<ConformExperiment, 'scenario'>): string {
  return exp.scenario.replace(/\.toml$/, '');
}

/** The experiments that mirror scenario `name` (all of them when `name` is null). */
export function ofScenario<T extends Pick<ConformExperiment, 'scenario'>>(
  experiments: readonly T[],
  name: string | null,
): T[] {
  return name === null ? [...experiments] : experiments.filter((e) => scenarioName(e) === name);
}

/**
 * The simulator's URL parameters for an experiment: its scenario, variant and overrides, so
 * the page runs what the model's column shows (the language is the caller's to add).
 */
export function simulatorSearch(exp: ConformExperiment): string {
  const s = defaultState(scenarioName(exp), exp.variant);
  s.a.sets = [...exp.sets];
  return serializeState(s);
}

/** The view's own parameters: `?view=conform`, and the scenario it is filtered to. */
export function conformSearch(scenario: string | null): Record<string, string> {
  return scenario === null ? { view: 'conform' } : { view: 'conform', scenario };
}

/** The recording's facts the view names, from `[recorded]` (absent ones are left out). */
export const RECORDED_FACTS = ['kernel', 'hz', 'date', 'machine', 'repetitions'] as const;
export type RecordedFact = (typeof RECORDED_FACTS)[number];

export function recordedFacts(
  exp: Pick<ConformExperiment, 'recorded'>,
): { fact: RecordedFact; value: string }[] {
  const of = new Map(exp.recorded);
  return RECORDED_FACTS.flatMap((fact) => {
    const value = of.get(fact);
    return value === undefined ? [] : [{ fact, value }];
  });
}

/** The ratio bar's span: model / real from ¼ to 4, on a log scale. */
const SPAN_LOG2 = 2;

/**
 * Where model / real = `ratio` sits on the ratio bar, 0 (¼ or less) to 1 (4 or more), 0.5 at
 * equality; `clipped` when the ratio lies beyond the bar's ends.
 */
export function ratioPosition(ratio: number): { x: number; clipped: boolean } {
  if (!(ratio > 0) || !Number.isFinite(ratio)) return { x: ratio > 0 ? 1 : 0, clipped: true };
  const l = Math.log2(ratio);
  const x = 0.5 + l / (2 * SPAN_LOG2);
  return { x: Math.min(1, Math.max(0, x)), clipped: Math.abs(l) > SPAN_LOG2 };
}

/** A value as the table shows it: whole numbers grouped, others with 3 to 4 significant digits. */
export function formatValue(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1000 || Number.isInteger(x)) return new Intl.NumberFormat('en-US').format(Math.round(x));
  if (a >= 10) return x.toFixed(1);
  return String(Number(x.toPrecision(4)));
}

/** A ratio as `×0.97`. */
export function formatRatio(r: number): string {
  if (r >= 100) return `×${Math.round(r)}`;
  return `×${r >= 10 ? r.toFixed(1) : r.toFixed(2)}`;
}
