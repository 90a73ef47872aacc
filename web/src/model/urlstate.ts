// The whole page state in the URL: the configuration of each side (scenario, variant,
// `KEY=VALUE` overrides), the recorded window, the time cursor and the view. A link opens the
// same run; back and forward walk through configurations.
//
//   ?s=autocorking&v=on&set=net.ipv4.tcp_autocorking%3D0      side A
//   &bs=autocorking&bv=off&bset=...                            side B (A/B comparison)
//   &from=0&to=2500000                                         window, ns
//   &t=1234567&e=86&speed=100000                               cursor (ns, event row), speed
//   &sk=0&edit=b&theme=dark&step=autocork&log=...&sel=skb:12     view
//   &capture=samples/autocork-on.jsonl                         a recording to replay (native mode)
//   &sweep=app.write_size_bytes%3D128..3200%3A128&metric=throughput_mbit    a parameter sweep
//
// Parsing never throws: a value that cannot be read is reported in `problems` (the page shows
// them) and replaced by its default. Values the engine judges (a scenario key out of range)
// are passed through untouched: the engine's own error is what the page shows for those.

import type { ScenarioInfo } from '../engine/generated/ScenarioInfo';
import { decodeText, encodeText, registerUserScenario, userFile } from './userFiles';

export interface SideConfig {
  /** Scenario file name without `.toml`, e.g. `autocorking`. */
  scenario: string;
  variant: string | null;
  /** `KEY=VALUE` overrides, in order. */
  sets: string[];
}

export type Theme = 'auto' | 'light' | 'dark';

export interface PageState {
  a: SideConfig;
  b: SideConfig | null;
  /** Recorded window start, ns. */
  fromNs: number;
  /** Window end, ns; null until the first run has chosen one. */
  toNs: number | null;
  /** Time cursor, ns; null = the window's start. */
  t: number | null;
  /** The event row the cursor stands on when several events share its instant; null none. */
  row: number | null;
  /** Playback speed: simulated ns per second of screen time; null = fit the window in 20 s. */
  speed: number | null;
  /** Socket the charts and `ss` focus on; null = the first that sends data. */
  focus: number | null;
  /** Side the controls edit. */
  edit: 'a' | 'b';
  theme: Theme;
  /** Kind the "step to next decision" buttons look for: a kind name or `xmit_hold:<gate>`. */
  step: string;
  /** Decision log filter, `key:value` pairs separated by commas (host, flow, func, reason). */
  log: string;
  /** "Why is it waiting?" selection: `skb:<id>` or `bytes:<socket>:<from>:<to>`; '' none. */
  sel: string;
  /**
   * A recording replayed in place of side A: its URL (relative to the page, or absolute on a
   * server that allows it with CORS); null when none, or when it was opened from a file.
   */
  capture: string | null;
  /** The sweep panel's settings; null when none was set. */
  sweep: SweepSettings | null;
}

/**
 * A parameter sweep of side A's configuration (`sendpath sweep`'s `--vary` and `--metric`):
 * one varied key (a line plot) or two (a heat map), and the metrics read at each point.
 */
export interface SweepSettings {
  /** `KEY=A..B`, `KEY=A..B:STEP`, `KEY=A..BxFACTOR` or `KEY=V1,V2,...`; one or two. */
  vary: string[];
  /** Metric names (`throughput_mbit`, `HOST:counter`, ...); at least one. */
  metrics: string[];
}

/** The most keys a sweep varies on the page: two make a heat map. */
export const SWEEP_MAX_KEYS = 2;
/** The most metrics a sweep plots. */
export const SWEEP_MAX_METRICS = 6;
export const DEFAULT_SWEEP_METRIC = 'throughput_mbit';

/**
 * What is wrong with the shape of a `--vary` value, or null. The engine judges the rest (the
 * key, the range, the values) and names what it refuses.
 */
export function varyShapeProblem(v: string): string | null {
  const eq = v.indexOf('=');
  if (eq <= 0) return 'must be KEY=A..B[:STEP|xFACTOR] or KEY=V1,V2,...';
  if (!/^[A-Za-z0-9_.:-]+$/.test(v.slice(0, eq).trim())) return 'names no key';
  if (v.slice(eq + 1).trim() === '') return 'has no values';
  return null;
}

/** The key a `--vary` value varies. */
export const varyKey = (v: string): string => v.slice(0, v.indexOf('=')).trim();

const METRIC_NAME = /^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)?$/;

export interface ParseProblem {
  param: string;
  /** `param=value: what is wrong; what the page did instead` (the value clipped to 60 characters). */
  message: string;
}

/** A value quoted in a problem: at most 60 characters, so a huge one cannot flood the page. */
export function clipValue(v: string): string {
  const chars = [...v];
  return chars.length <= 60 ? v : `${chars.slice(0, 60).join('')}… (${chars.length} characters)`;
}

export const DEFAULT_STEP = 'autocork';

export function defaultState(scenario: string, variant: string | null): PageState {
  return {
    a: { scenario, variant, sets: [] },
    b: null,
    fromNs: 0,
    toNs: null,
    t: null,
    row: null,
    speed: null,
    focus: null,
    edit: 'a',
    theme: 'auto',
    step: DEFAULT_STEP,
    log: '',
    sel: '',
    capture: null,
    sweep: null,
  };
}

/** Slowest and fastest playback speeds, simulated ns per second of screen time. */
export const SPEED_MIN = 1e3;
export const SPEED_MAX = 1e10;

function readNumber(
  p: URLSearchParams,
  name: string,
  problems: ParseProblem[],
  check: (n: number) => string | null,
): number | null {
  const raw = p.get(name);
  if (raw === null || raw === '') return null;
  const n = Number(raw);
  const bad = Number.isFinite(n) ? check(n) : 'is not a number';
  if (bad) {
    problems.push({ param: name, message: `${name}=${clipValue(raw)} ${bad}; ignored` });
    return null;
  }
  return n;
}

const nonNegativeInt = (n: number) =>
  Number.isInteger(n) && n >= 0 ? null : 'must be a whole number, 0 or more';

/**
 * Reads the page state from a query string. `scenarios` are the known scenario names and
 * `firstVariant` gives a scenario's default variant.
 */
export function parseState(
  search: string,
  scenarios: readonly string[],
  defaultScenario: string,
  firstVariant: (scenario: string) => string | null,
): { state: PageState; problems: ParseProblem[] } {
  const p = new URLSearchParams(search);
  const problems: ParseProblem[] = [];
  const side = (prefix: '' | 'b'): SideConfig | null => {
    const sName = prefix ? 'bs' : 's';
    let scenario = p.get(sName);
    if (prefix && scenario === null && p.get('b') === null) return null;
    if (scenario === null || scenario === '') scenario = prefix ? null : defaultScenario;
    if (scenario === null) scenario = defaultScenario;
    if (!scenarios.includes(scenario)) {
      problems.push({
        param: sName,
        message: `${sName}=${clipValue(scenario)}: no scenario "${clipValue(scenario)}"; scenarios: ${scenarios.join(', ')}; showing ${defaultScenario}`,
      });
      scenario = defaultScenario;
    }
    const vName = prefix ? 'bv' : 'v';
    const variant = p.has(vName) ? p.get(vName) || null : firstVariant(scenario);
    return { scenario, variant, sets: p.getAll(prefix ? 'bset' : 'set') };
  };
  const a = side('')!;
  const b = side('b');
  const fromNs = readNumber(p, 'from', problems, nonNegativeInt) ?? 0;
  let toNs = readNumber(p, 'to', problems, nonNegativeInt);
  if (toNs !== null && toNs <= fromNs) {
    problems.push({ param: 'to', message: `to=${toNs} is not after from=${fromNs}; ignored` });
    toNs = null;
  }
  // Whole nanoseconds, as the link writes them.
  const tRead = readNumber(p, 't', problems, (n) => (n >= 0 ? null : 'must be 0 or more'));
  const t = tRead === null ? null : Math.round(tRead);
  const row = readNumber(p, 'e', problems, nonNegativeInt);
  const speed = readNumber(p, 'speed', problems, (n) =>
    n >= SPEED_MIN && n <= SPEED_MAX ? null : `must be between ${SPEED_MIN} and ${SPEED_MAX}`,
  );
  const focus = readNumber(p, 'sk', problems, nonNegativeInt);
  const editRaw = p.get('edit');
  const edit = editRaw === 'b' && b ? 'b' : 'a';
  if (editRaw !== null && editRaw !== 'a' && editRaw !== 'b') {
    problems.push({
      param: 'edit',
      message: `edit=${clipValue(editRaw)} must be a or b; ignored`,
    });
  }
  const themeRaw = p.get('theme');
  let theme: Theme = 'auto';
  if (themeRaw === 'light' || themeRaw === 'dark' || themeRaw === 'auto') theme = themeRaw;
  else if (themeRaw !== null) {
    problems.push({
      param: 'theme',
      message: `theme=${clipValue(themeRaw)} must be light, dark or auto; showing auto`,
    });
  }
  return {
    state: {
      sweep: readSweep(p, problems),
      a,
      b,
      fromNs,
      toNs,
      t,
      row,
      speed,
      focus,
      edit,
      theme,
      step: p.get('step') || DEFAULT_STEP,
      log: p.get('log') ?? '',
      sel: p.get('sel') ?? '',
      capture: p.get('capture') || null,
    },
    problems,
  };
}

function readSweep(p: URLSearchParams, problems: ParseProblem[]): SweepSettings | null {
  const vary: string[] = [];
  for (const raw of p.getAll('sweep')) {
    const v = raw.trim();
    const bad = varyShapeProblem(v);
    const why = bad
      ? bad
      : vary.some((x) => varyKey(x) === varyKey(v))
        ? `varies ${clipValue(varyKey(v))} a second time`
        : vary.length >= SWEEP_MAX_KEYS
          ? 'is a third key: a sweep varies one key (a line) or two (a heat map)'
          : null;
    if (why) problems.push({ param: 'sweep', message: `sweep=${clipValue(raw)} ${why}; ignored` });
    else vary.push(v);
  }
  const metrics: string[] = [];
  for (const m of p.getAll('metric')) {
    const why = !METRIC_NAME.test(m)
      ? 'is not a metric name'
      : metrics.includes(m)
        ? 'is named twice'
        : metrics.length >= SWEEP_MAX_METRICS
          ? `is more than ${SWEEP_MAX_METRICS} metrics`
          : vary.length === 0
            ? 'belongs to a sweep, and there is none (sweep=KEY=A..B)'
            : null;
    if (why) problems.push({ param: 'metric', message: `metric=${clipValue(m)} ${why}; ignored` });
    else metrics.push(m);
  }
  if (vary.length === 0) return null;
  return { vary, metrics: metrics.length > 0 ? metrics : [DEFAULT_SWEEP_METRIC] };
}

/**
 * The files a link carries (`toml=`, `btoml=`: the reader's own scenario files, base64url of
 * their text, with their names in `tomlfile=`, `btomlfile=`): registered before the state is
 * read, so that `s=file:...` names a known scenario. A value that is not base64url of UTF-8 is a
 * problem.
 */
export function registerLinkedFiles(search: string): ParseProblem[] {
  const p = new URLSearchParams(search);
  const problems: ParseProblem[] = [];
  for (const prefix of ['', 'b']) {
    const raw = p.get(`${prefix}toml`);
    if (!raw) continue;
    const text = decodeText(raw);
    if (text === null) {
      problems.push({
        param: `${prefix}toml`,
        message: `${prefix}toml=${clipValue(raw)} is not a scenario file's text (base64url of UTF-8); ignored`,
      });
      continue;
    }
    registerUserScenario(p.get(`${prefix}tomlfile`) || 'scenario.toml', text);
  }
  return problems;
}

/** The query string of a state (with a leading `?`). */
export function serializeState(s: PageState): string {
  const p = new URLSearchParams();
  p.set('s', s.a.scenario);
  p.set('v', s.a.variant ?? '');
  for (const x of s.a.sets) p.append('set', x);
  if (s.b) {
    p.set('b', '1');
    p.set('bs', s.b.scenario);
    p.set('bv', s.b.variant ?? '');
    for (const x of s.b.sets) p.append('bset', x);
  }
  // The reader's own files travel in the link.
  for (const [prefix, cfg] of [
    ['', s.a],
    ['b', s.b && s.b.scenario !== s.a.scenario ? s.b : null],
  ] as const) {
    const user = cfg ? userFile(cfg.scenario) : undefined;
    if (user) {
      p.set(`${prefix}toml`, encodeText(user.text));
      p.set(`${prefix}tomlfile`, user.entry.file);
    }
  }
  if (s.fromNs !== 0) p.set('from', String(s.fromNs));
  if (s.toNs !== null) p.set('to', String(s.toNs));
  if (s.t !== null) p.set('t', String(Math.round(s.t)));
  if (s.row !== null) p.set('e', String(s.row));
  if (s.speed !== null) p.set('speed', String(s.speed));
  if (s.focus !== null) p.set('sk', String(s.focus));
  if (s.edit !== 'a') p.set('edit', s.edit);
  if (s.theme !== 'auto') p.set('theme', s.theme);
  if (s.step !== DEFAULT_STEP) p.set('step', s.step);
  if (s.log) p.set('log', s.log);
  if (s.sel) p.set('sel', s.sel);
  if (s.capture) p.set('capture', s.capture);
  for (const v of s.sweep?.vary ?? []) p.append('sweep', v);
  for (const m of s.sweep?.metrics ?? []) p.append('metric', m);
  return `?${p.toString()}`;
}

/** Whether two states describe the same runs (what a history entry is made for). */
export function sameRuns(x: PageState, y: PageState): boolean {
  const side = (a: SideConfig | null, b: SideConfig | null) =>
    a === b ||
    (a !== null &&
      b !== null &&
      a.scenario === b.scenario &&
      a.variant === b.variant &&
      a.sets.length === b.sets.length &&
      a.sets.every((v, i) => v === b.sets[i]));
  return (
    side(x.a, y.a) &&
    side(x.b, y.b) &&
    x.fromNs === y.fromNs &&
    x.toNs === y.toNs &&
    x.capture === y.capture
  );
}

/** `sets` with `key` set to `value` (replacing an earlier override of the same key). */
export function withSet(sets: readonly string[], key: string, value: string | null): string[] {
  const rest = sets.filter((s) => s.slice(0, s.indexOf('=')).trim() !== key);
  return value === null ? rest : [...rest, `${key}=${value}`];
}

/**
 * `sets` with `key` set to `value`, or without any override of `key` when `value` is the
 * scenario's own value (`base`, known once the page saw the key without an override): a link
 * then holds only the settings that differ from the scenario, not a control moved and moved back.
 */
export function withChange(
  sets: readonly string[],
  key: string,
  value: string | null,
  base: string | undefined,
): string[] {
  return withSet(sets, key, value !== null && value === base ? null : value);
}

/** An override `KEY=VALUE` or `HOST:KEY=VALUE` read into its parts (null: not an override). */
export function parseSet(s: string): { host: string | null; key: string; value: string } | null {
  const eq = s.indexOf('=');
  if (eq <= 0) return null;
  const lhs = s.slice(0, eq).trim();
  const colon = lhs.indexOf(':');
  return {
    host: colon >= 0 ? lhs.slice(0, colon).trim() : null,
    key: lhs.slice(colon + 1).trim(),
    value: s.slice(eq + 1).trim(),
  };
}

/**
 * The overrides of `sets` that change something: those whose value differs from what `base`
 * (the scenario resolved with the kernel of `sets` alone) already says, and a kernel other
 * than the scenario's own (`ownKernel`), in their order. "Simulate this" fills every key from a
 * recording; its link then holds only the ones that differ.
 */
export function pruneSets(
  sets: readonly string[],
  base: ScenarioInfo,
  ownKernel: string,
): string[] {
  return sets.filter((s) => {
    const p = parseSet(s);
    if (!p) return true;
    if (p.key === 'kernel') return p.value !== ownKernel;
    const kv = base.keys[p.key];
    if (!kv || kv.values.length === 0) return true;
    if (p.host !== null) {
      const i = base.hosts.indexOf(p.host);
      return i < 0 || kv.values[i] !== p.value;
    }
    return !kv.values.every((v) => v === p.value);
  });
}

/** The keys two resolutions of a scenario give other values (`kernel` among them). */
export function keysThatDiffer(a: ScenarioInfo, b: ScenarioInfo): string[] {
  const out = a.kernel === b.kernel ? [] : ['kernel'];
  for (const k of new Set([...Object.keys(a.keys), ...Object.keys(b.keys)]))
    if (JSON.stringify(a.keys[k]?.values) !== JSON.stringify(b.keys[k]?.values)) out.push(k);
  return out;
}

/** The override of `key` in `sets`, or undefined. */
export function setValue(sets: readonly string[], key: string): string | undefined {
  for (let i = sets.length - 1; i >= 0; i--) {
    const s = sets[i]!;
    const eq = s.indexOf('=');
    if (eq > 0 && s.slice(0, eq).trim() === key) return s.slice(eq + 1).trim();
  }
  return undefined;
}

/** A "Why is it waiting?" selection. */
export type Selection =
  { kind: 'skb'; id: number } | { kind: 'bytes'; sk: number; from: number; to: number } | null;

export function parseSelection(sel: string): Selection {
  const parts = sel.split(':');
  if (parts[0] === 'skb' && parts.length === 2) {
    const id = Number(parts[1]);
    return Number.isInteger(id) && id >= 0 ? { kind: 'skb', id } : null;
  }
  if (parts[0] === 'bytes' && parts.length === 4) {
    const [sk, from, to] = parts.slice(1).map(Number) as [number, number, number];
    if ([sk, from, to].every((n) => Number.isInteger(n) && n >= 0) && to > from) {
      return { kind: 'bytes', sk, from, to };
    }
  }
  return null;
}

export function serializeSelection(s: Selection): string {
  if (!s) return '';
  return s.kind === 'skb' ? `skb:${s.id}` : `bytes:${s.sk}:${s.from}:${s.to}`;
}
