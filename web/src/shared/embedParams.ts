// The embed's configuration, all of it in the URL of /embed/ (docs/embedding.md):
//
//   ?scenario=autocorking&variant=off&set=app.flows%3D1&from_us=40&to_us=300&t_us=120
//    &autoplay=1&theme=dark&lang=zh-CN&panels=pipeline,player,chart,counters&chart=sizes
//   ?lesson=autocorking&step=2        the configuration of a lesson's step
//
// Parsing never throws: what cannot be read is reported in `problems` (the embed shows them)
// and replaced by its default. No React.

import { pickLang, type Lang } from '../i18n/lang';
import { CHARTS, type ChartName } from '../model/charts';
import type { Lesson } from '../model/lesson';

export const PANELS = ['pipeline', 'player', 'chart', 'counters'] as const;
export type Panel = (typeof PANELS)[number];
export type Theme = 'auto' | 'light' | 'dark';

export interface EmbedConfig {
  /** Scenario file name without `.toml`. */
  scenario: string;
  /** The lesson and step the configuration came from, if any. */
  lesson: string | null;
  step: number | null;
  variant: string | null;
  sets: string[];
  /** Recorded window, µs; null = the player's default window. */
  fromUs: number | null;
  toUs: number | null;
  /** Where the time cursor starts, µs; null = the window's start. */
  tUs: number | null;
  /** Start playing once visible (never before: the embed is lazy). */
  autoplay: boolean;
  theme: Theme;
  lang: Lang;
  panels: Panel[];
  chart: ChartName;
}

export const DEFAULT_PANELS: Panel[] = [...PANELS];
export const DEFAULT_CHART: ChartName = 'throughput';

export interface Known {
  scenarios: readonly string[];
  lessons: readonly Lesson[];
}

function micros(p: URLSearchParams, key: string, problems: string[]): number | null {
  const v = p.get(key);
  if (v === null || v === '') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    problems.push(`${key}: expected a whole number of µs, got "${v}"`);
    return null;
  }
  return n;
}

export function parseEmbed(
  search: string,
  known: Known,
  languages: readonly string[] = [],
): { config: EmbedConfig; problems: string[] } {
  const p = new URLSearchParams(search);
  const problems: string[] = [];
  const config: EmbedConfig = {
    scenario: known.scenarios.includes('autocorking') ? 'autocorking' : (known.scenarios[0] ?? ''),
    lesson: null,
    step: null,
    variant: null,
    sets: [],
    fromUs: null,
    toUs: null,
    tUs: null,
    autoplay: false,
    theme: 'auto',
    lang: pickLang(search, languages),
    panels: [...DEFAULT_PANELS],
    chart: DEFAULT_CHART,
  };

  // A lesson's step first: explicit parameters below override what it says.
  const lessonId = p.get('lesson');
  if (lessonId !== null) {
    const lesson = known.lessons.find((l) => l.id === lessonId);
    if (!lesson) problems.push(`lesson: no lesson "${lessonId}"`);
    else {
      const asked = Number.parseInt(p.get('step') ?? '1', 10);
      const n = Number.isFinite(asked) ? Math.min(Math.max(1, asked), lesson.steps.length) : 1;
      const s = lesson.steps[n - 1]!;
      config.lesson = lesson.id;
      config.step = n;
      config.scenario = lesson.scenario;
      config.variant = s.compare ? s.compare.a : s.variant;
      config.sets = [...s.sets];
      config.fromUs = s.fromUs;
      config.toUs = s.toUs;
      if (s.chart) config.chart = s.chart;
    }
  }

  const scenario = p.get('scenario');
  if (scenario !== null) {
    const name = scenario.replace(/\.toml$/, '');
    if (known.scenarios.includes(name)) config.scenario = name;
    else
      problems.push(
        `scenario: no scenario "${scenario}"; scenarios: ${known.scenarios.join(', ')}`,
      );
  }
  const variant = p.get('variant');
  if (variant !== null) config.variant = variant === '' ? null : variant;
  const sets = p.getAll('set');
  for (const s of sets)
    if (!/^([a-z]+:)?[A-Za-z_][\w.-]*=.+$/.test(s))
      problems.push(`set: expected KEY=VALUE or HOST:KEY=VALUE, got "${s}"`);
  if (sets.length > 0) config.sets = [...config.sets, ...sets.filter((s) => s.includes('='))];

  const from = micros(p, 'from_us', problems);
  const to = micros(p, 'to_us', problems);
  if (from !== null || to !== null) {
    if (from === null || to === null) problems.push('from_us, to_us: give both or neither');
    else if (to <= from) problems.push(`to_us: must be after from_us (${from})`);
    else {
      config.fromUs = from;
      config.toUs = to;
    }
  }
  config.tUs = micros(p, 't_us', problems);

  const autoplay = p.get('autoplay');
  if (autoplay !== null)
    config.autoplay = autoplay === '' || autoplay === '1' || autoplay === 'true';

  const theme = p.get('theme');
  if (theme !== null) {
    if (theme === 'auto' || theme === 'light' || theme === 'dark') config.theme = theme;
    else problems.push(`theme: expected auto, light or dark, got "${theme}"`);
  }

  const panels = p.get('panels');
  if (panels !== null) {
    const list = panels
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = list.filter((x) => !(PANELS as readonly string[]).includes(x));
    if (bad.length > 0)
      problems.push(`panels: unknown ${bad.join(', ')}; panels: ${PANELS.join(', ')}`);
    const good = list.filter((x): x is Panel => (PANELS as readonly string[]).includes(x));
    if (good.length > 0) config.panels = good;
  }

  const chart = p.get('chart');
  if (chart !== null) {
    if ((CHARTS as readonly string[]).includes(chart)) config.chart = chart as ChartName;
    else problems.push(`chart: unknown "${chart}"; charts: ${CHARTS.join(', ')}`);
  }
  return { config, problems };
}

/** The query of an embed URL that opens `c` (defaults left out). */
export function embedQuery(c: EmbedConfig): string {
  const p = new URLSearchParams();
  p.set('scenario', c.scenario);
  if (c.variant !== null) p.set('variant', c.variant);
  for (const s of c.sets) p.append('set', s);
  if (c.fromUs !== null && c.toUs !== null) {
    p.set('from_us', String(c.fromUs));
    p.set('to_us', String(c.toUs));
  }
  if (c.tUs !== null) p.set('t_us', String(c.tUs));
  if (c.autoplay) p.set('autoplay', '1');
  if (c.theme !== 'auto') p.set('theme', c.theme);
  p.set('lang', c.lang);
  if (c.panels.join(',') !== DEFAULT_PANELS.join(',')) p.set('panels', c.panels.join(','));
  if (c.chart !== DEFAULT_CHART) p.set('chart', c.chart);
  return `?${p.toString()}`;
}
