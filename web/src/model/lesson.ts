// Lessons as data: the parser of one lesson folder (docs/lesson-format.md).
//
//   scenarios/lessons/<id>/lesson.toml   the configuration: scenario, and per [[step]] the
//                                        variant, overrides, time range, highlights, chart
//   scenarios/lessons/<id>/<lang>.md     the text of every language: "# title", a summary,
//                                        then one "## heading" section per step, in order
//
// Parsing never returns a half-valid lesson: the first problem throws a LessonError naming the
// file and the field ("scenarios/lessons/tsq/lesson.toml: step[2].highlight[0]: unknown
// element \"qdsic\"; elements: app, write_queue, ..."). No React here.

import { parse as parseToml, TomlError } from 'smol-toml';

import { LANGS, type Lang } from '../i18n/lang';

/** Pipeline elements a step can outline (the site maps each to its drawing). */
export const PIPELINE_ELEMENTS = [
  'app',
  'write_queue',
  'qdisc',
  'tx_ring',
  'wire',
  'receiver',
  'acks',
  'completion',
] as const;
export type PipelineElement = (typeof PIPELINE_ELEMENTS)[number];

/** A highlight: a pipeline element, or one nstat counter row (`counter:TcpExtTCPAutoCorking`). */
export type Highlight =
  { kind: 'element'; element: PipelineElement } | { kind: 'counter'; name: string };

/** Charts a step can put beside the pipeline. */
import { CHARTS, type ChartName } from './charts';
export { CHARTS, type ChartName };

/** Seconds of screen time a step's range plays in, unless the step says. */
export const DEFAULT_PLAY_SECONDS = 20;

/** One step's text in one language. */
export interface StepText {
  title: string;
  /** Markdown. */
  body: string;
}

export interface LessonStep {
  /** 1-based, as the URL (`?step=3`) and the number keys count. */
  number: number;
  /** Variant of the lesson's scenario; null = the file as written. */
  variant: string | null;
  /** `KEY=VALUE` overrides after the variant, in order. */
  sets: string[];
  /** Time range to record and play, µs of simulated time; null = the site's default window. */
  fromUs: number | null;
  toUs: number | null;
  /** Seconds of screen time the range plays in. */
  playSeconds: number;
  highlights: Highlight[];
  chart: ChartName | null;
  /** Decision kind the cursor starts on (the first in the range), e.g. `autocork`. */
  focus: string | null;
  /**
   * A run step's other side: a variant run beside the step's own (with the same `sets` and
   * window) and drawn as B in the step's chart, so a comparison shows both sides.
   */
  beside: string | null;
  /** An A/B step: the two variants compared (A first), with `sets` applied to both. */
  compare: { a: string; b: string } | null;
  /** Metrics of the A/B table (engine metric names, docs/scenario-format.md). */
  metrics: string[];
  text: Record<Lang, StepText>;
}

export interface Lesson {
  /** The folder name, as the URL names it (`?lesson=autocorking`). */
  id: string;
  /** Scenario file name without `.toml`. */
  scenario: string;
  /** Position in the lesson list (smaller first). */
  order: number;
  title: Record<Lang, string>;
  /** Markdown: the text between the title and the first step. */
  summary: Record<Lang, string>;
  steps: LessonStep[];
}

/** What the source document of a scenario measured: its `[source]` table. */
export interface SourceData {
  name: string;
  url: string;
  /** variant -> metric -> value, in file order. */
  values: Map<string, Map<string, number>>;
  /** Ratios worth comparing, `[A, B]` variant pairs. */
  compare: [string, string][];
}

/** The parts of a scenario file a lesson refers to. */
export interface ScenarioMeta {
  variants: string[];
  source: SourceData | null;
}

export class LessonError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(field === null ? `${file}: ${reason}` : `${file}: ${field}: ${reason}`);
    this.name = 'LessonError';
  }
}

const tomlProblem = (e: unknown) =>
  e instanceof TomlError
    ? `not valid TOML: ${e.message.split('\n')[0]} (line ${e.line}, column ${e.column})`
    : `not valid TOML: ${String(e)}`;

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/**
 * Reads what a lesson needs of a scenario file (its variants and `[source]`); the engine
 * validates the rest when it runs the file.
 */
export function scenarioMeta(text: string, file: string): ScenarioMeta {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (e) {
    throw new LessonError(file, null, tomlProblem(e));
  }
  const variants = isTable(doc.variants) ? Object.keys(doc.variants) : [];
  let source: SourceData | null = null;
  if (isTable(doc.source)) {
    const s = doc.source;
    source = {
      name: typeof s.name === 'string' ? s.name : '',
      url: typeof s.url === 'string' ? s.url : '',
      values: new Map(),
      compare: [],
    };
    for (const [k, v] of Object.entries(s)) {
      if (k === 'compare' && Array.isArray(v)) {
        for (const pair of v) {
          const [a, b] = typeof pair === 'string' ? pair.split('/') : [];
          if (a && b) source.compare.push([a, b]);
        }
      } else if (isTable(v)) {
        const m = new Map<string, number>();
        for (const [metric, x] of Object.entries(v)) {
          const n = typeof x === 'bigint' ? Number(x) : x;
          if (typeof n === 'number') m.set(metric, n);
        }
        source.values.set(k, m);
      }
    }
  }
  return { variants, source };
}

/** The files of one lesson folder, as text. */
export interface LessonFiles {
  /** Folder name = the lesson's id. */
  id: string;
  /** Path of the folder as errors name it, e.g. `scenarios/lessons/autocorking`. */
  dir: string;
  toml: string;
  /** `<lang>.md` of each language; a missing language is an error. */
  markdown: Partial<Record<Lang, string>>;
}

const STEP_KEYS = [
  'variant',
  'set',
  'from_us',
  'to_us',
  'play_seconds',
  'highlight',
  'chart',
  'focus',
  'beside',
  'compare',
  'metrics',
] as const;
const LESSON_KEYS = ['scenario', 'order', 'step'] as const;

/** Closest of `known` to `s` by edit distance, when close enough to be a misspelling. */
function suggest(s: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(s, k);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(s.length / 3)) ? best : null;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

const didYouMean = (s: string, known: readonly string[]) => {
  const g = suggest(s, known);
  return g ? `; did you mean "${g}"?` : '';
};

/** Splits a lesson's Markdown into its title, summary and step sections. */
export function splitMarkdown(
  text: string,
  file: string,
): { title: string; summary: string; steps: StepText[] } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let title: string | null = null;
  const summary: string[] = [];
  const steps: { title: string; body: string[] }[] = [];
  let fence: string | null = null;
  for (const [i, line] of lines.entries()) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) fence = fence === null ? f[1]! : fence === f[1] ? null : fence;
    const h = fence === null && !f ? /^(#{1,2})\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (h && h[1] === '#') {
      if (title !== null)
        throw new LessonError(
          file,
          `line ${i + 1}`,
          'a second "# " title; a lesson has one title, and "## " starts each step',
        );
      if (!h[2]) throw new LessonError(file, `line ${i + 1}`, 'the "# " title is empty');
      title = h[2];
    } else if (h && h[1] === '##') {
      if (title === null)
        throw new LessonError(file, `line ${i + 1}`, 'a step ("## ") before the "# " title');
      if (!h[2]) throw new LessonError(file, `line ${i + 1}`, 'the step\'s "## " heading is empty');
      steps.push({ title: h[2], body: [] });
    } else if (steps.length > 0) {
      steps[steps.length - 1]!.body.push(line);
    } else if (title !== null) {
      summary.push(line);
    } else if (line.trim() !== '') {
      throw new LessonError(file, `line ${i + 1}`, 'text before the "# " title');
    }
  }
  if (title === null) throw new LessonError(file, null, 'no "# " title');
  return {
    title,
    summary: summary.join('\n').trim(),
    steps: steps.map((s, n) => {
      const body = s.body.join('\n').trim();
      if (!body) throw new LessonError(file, `step ${n + 1} (## ${s.title})`, 'has no text');
      return { title: s.title, body };
    }),
  };
}

function int(v: unknown): number | null {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return null;
}

/**
 * Parses one lesson folder. `scenarios` maps scenario names (file names without `.toml`) to
 * what a lesson needs of them; the step's variants and A/B metrics are checked against it.
 */
export function parseLesson(
  files: LessonFiles,
  scenarios: ReadonlyMap<string, ScenarioMeta>,
): Lesson {
  const tomlFile = `${files.dir}/lesson.toml`;
  const fail = (field: string | null, reason: string): never => {
    throw new LessonError(tomlFile, field, reason);
  };
  if (!/^[a-z0-9][a-z0-9-]*$/.test(files.id))
    fail(null, `the folder name "${files.id}" must be lower case letters, digits and dashes`);
  let doc: Table;
  try {
    doc = parseToml(files.toml) as Table;
  } catch (e) {
    return fail(null, tomlProblem(e));
  }
  for (const k of Object.keys(doc))
    if (!(LESSON_KEYS as readonly string[]).includes(k))
      fail(k, `unknown field${didYouMean(k, LESSON_KEYS)}; fields: ${LESSON_KEYS.join(', ')}`);

  const scenario = doc.scenario;
  if (typeof scenario !== 'string') return fail('scenario', 'missing: a scenario file name');
  const scenarioName = scenario.replace(/\.toml$/, '');
  const meta = scenarios.get(scenarioName);
  if (!meta)
    fail(
      'scenario',
      `no scenarios/${scenarioName}.toml${didYouMean(scenarioName, [...scenarios.keys()])}`,
    );
  const { variants, source } = meta!;

  const order = doc.order === undefined ? 100 : int(doc.order);
  if (order === null) fail('order', 'must be an integer');

  const rawSteps = doc.step;
  if (!Array.isArray(rawSteps) || rawSteps.length === 0)
    return fail('step', 'missing: a lesson has at least one [[step]]');

  const checkVariant = (field: string, v: unknown): string => {
    if (typeof v !== 'string') return fail(field, 'must be a variant name (a string)');
    if (!variants.includes(v))
      fail(
        field,
        `scenarios/${scenarioName}.toml has no variant "${v}"${didYouMean(v, variants)}; variants: ${variants.join(', ') || '(none)'}`,
      );
    return v;
  };
  const strings = (field: string, v: unknown): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      return fail(field, 'must be a list of strings');
    return v as string[];
  };

  const steps: Omit<LessonStep, 'text'>[] = rawSteps.map((raw: unknown, i) => {
    const at = `step[${i + 1}]`;
    if (!isTable(raw)) return fail(at, 'must be a table ([[step]])');
    for (const k of Object.keys(raw))
      if (!(STEP_KEYS as readonly string[]).includes(k))
        fail(
          `${at}.${k}`,
          `unknown field${didYouMean(k, STEP_KEYS)}; fields: ${STEP_KEYS.join(', ')}`,
        );
    const variant = raw.variant === undefined ? null : checkVariant(`${at}.variant`, raw.variant);
    const sets = strings(`${at}.set`, raw.set);
    for (const [j, s] of sets.entries())
      if (!/^([a-z]+:)?[A-Za-z_][\w.-]*=.+$/.test(s))
        fail(`${at}.set[${j + 1}]`, `expected KEY=VALUE or HOST:KEY=VALUE, got "${s}"`);

    const time = (k: 'from_us' | 'to_us'): number | null => {
      if (raw[k] === undefined) return null;
      const n = int(raw[k]);
      if (n === null || n < 0) return fail(`${at}.${k}`, 'must be a whole number of µs, ≥ 0');
      return n;
    };
    const fromUs = time('from_us');
    const toUs = time('to_us');
    if ((fromUs === null) !== (toUs === null))
      fail(`${at}.${fromUs === null ? 'from_us' : 'to_us'}`, 'from_us and to_us go together');
    if (fromUs !== null && toUs !== null && toUs <= fromUs)
      fail(`${at}.to_us`, `must be after from_us (${fromUs})`);

    let playSeconds = DEFAULT_PLAY_SECONDS;
    if (raw.play_seconds !== undefined) {
      const p = raw.play_seconds;
      const n = typeof p === 'bigint' ? Number(p) : p;
      if (typeof n !== 'number' || !(n > 0 && n <= 600))
        fail(`${at}.play_seconds`, 'must be a number of seconds in (0, 600]');
      playSeconds = n as number;
    }

    const highlights: Highlight[] = strings(`${at}.highlight`, raw.highlight).map((h, j) => {
      if (h.startsWith('counter:')) {
        const name = h.slice('counter:'.length);
        if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name))
          fail(`${at}.highlight[${j + 1}]`, `"${h}": a counter is named as nstat names it`);
        return { kind: 'counter', name };
      }
      if (!(PIPELINE_ELEMENTS as readonly string[]).includes(h))
        fail(
          `${at}.highlight[${j + 1}]`,
          `unknown element "${h}"${didYouMean(h, PIPELINE_ELEMENTS)}; elements: ${PIPELINE_ELEMENTS.join(', ')}, or counter:NAME`,
        );
      return { kind: 'element', element: h as PipelineElement };
    });

    let chart: ChartName | null = null;
    if (raw.chart !== undefined) {
      if (typeof raw.chart !== 'string' || !(CHARTS as readonly string[]).includes(raw.chart))
        fail(
          `${at}.chart`,
          `unknown chart ${JSON.stringify(raw.chart)}${typeof raw.chart === 'string' ? didYouMean(raw.chart, CHARTS) : ''}; charts: ${CHARTS.join(', ')}`,
        );
      chart = raw.chart as ChartName;
    }

    let focus: string | null = null;
    if (raw.focus !== undefined) {
      if (typeof raw.focus !== 'string' || !/^[a-z_]+(:[a-z_]+)?$/.test(raw.focus))
        fail(`${at}.focus`, 'must be a decision kind, e.g. "autocork" or "xmit_hold:tsq"');
      focus = raw.focus as string;
    }

    let compare: LessonStep['compare'] = null;
    if (raw.compare !== undefined) {
      const c = raw.compare;
      if (!Array.isArray(c) || c.length !== 2)
        fail(`${at}.compare`, 'must be two variant names: ["A", "B"]');
      const a = checkVariant(`${at}.compare[1]`, (c as unknown[])[0]);
      const b = checkVariant(`${at}.compare[2]`, (c as unknown[])[1]);
      if (a === b) fail(`${at}.compare`, 'compares a variant with itself');
      if (variant !== null) fail(`${at}.variant`, 'an A/B step names its variants in compare');
      compare = { a, b };
    }
    const beside = raw.beside === undefined ? null : checkVariant(`${at}.beside`, raw.beside);
    if (beside !== null && compare !== null)
      fail(`${at}.beside`, 'an A/B step already runs both sides (compare)');
    if (beside !== null && beside === variant)
      fail(`${at}.beside`, `is the step's own variant "${variant}"`);
    if (beside !== null && chart === null)
      fail(`${at}.beside`, "draws its run in the step's chart: give the step a chart");
    let metrics = strings(`${at}.metrics`, raw.metrics);
    if (raw.metrics !== undefined && compare === null)
      fail(`${at}.metrics`, 'only an A/B step (compare = [...]) has metrics');
    for (const [j, m] of metrics.entries())
      if (
        !/^(elapsed_s|throughput_mbit|ctxt_switches|cpu_per_byte_ns|[a-z]+:[A-Za-z_][A-Za-z0-9_]*)$/.test(
          m,
        )
      )
        fail(
          `${at}.metrics[${j + 1}]`,
          `"${m}" is not a metric name (elapsed_s, throughput_mbit, ctxt_switches, cpu_per_byte_ns, HOST:tcp_mem_pages, HOST:<nstat counter>)`,
        );
    if (compare !== null && metrics.length === 0) {
      // The source document's measurements of the two variants, in file order.
      const names = new Set<string>();
      for (const v of [compare.a, compare.b])
        for (const m of source?.values.get(v)?.keys() ?? []) names.add(m);
      metrics = [...names];
      if (metrics.length === 0)
        fail(
          `${at}.metrics`,
          `scenarios/${scenarioName}.toml has no [source] measurements of "${compare.a}" or "${compare.b}": list the metrics to show`,
        );
    }
    return {
      number: i + 1,
      variant,
      sets,
      fromUs,
      toUs,
      playSeconds,
      highlights,
      chart,
      focus,
      beside,
      compare,
      metrics,
    };
  });

  const title = {} as Record<Lang, string>;
  const summary = {} as Record<Lang, string>;
  const texts = {} as Record<Lang, StepText[]>;
  for (const lang of LANGS) {
    const mdFile = `${files.dir}/${lang}.md`;
    const md = files.markdown[lang];
    if (md === undefined)
      throw new LessonError(
        mdFile,
        null,
        `missing: every lesson is written in ${LANGS.join(' and ')}`,
      );
    const parts = splitMarkdown(md, mdFile);
    if (parts.steps.length !== steps.length)
      throw new LessonError(
        mdFile,
        parts.steps.length < steps.length
          ? `step ${parts.steps.length + 1}`
          : `step ${steps.length + 1}`,
        `has ${parts.steps.length} "## " step sections, lesson.toml has ${steps.length} [[step]]`,
      );
    title[lang] = parts.title;
    summary[lang] = parts.summary;
    texts[lang] = parts.steps;
  }

  return {
    id: files.id,
    scenario: scenarioName,
    order: order!,
    title,
    summary,
    steps: steps.map((s, i) => ({
      ...s,
      text: Object.fromEntries(LANGS.map((l) => [l, texts[l][i]!])) as Record<Lang, StepText>,
    })),
  };
}

/** The step a URL asks for (`?step=3`), clamped to the lesson; 1 when absent or unreadable. */
export function stepNumber(lesson: Lesson, asked: string | null): number {
  const n = asked === null ? 1 : Number.parseInt(asked, 10);
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, lesson.steps.length);
}
