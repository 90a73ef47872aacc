// The scenario files of /scenarios as the site loads them: the list of names up front, each
// file's text on demand (its own small chunk), so the first load carries only the scenario it
// opens. (scenarios.ts bundles every file eagerly, for the unit tests.)

const loaders = import.meta.glob<string>('../../../scenarios/*.toml', {
  query: '?raw',
  import: 'default',
});

export interface ScenarioEntry {
  /** Name in the URL: the file name without `.toml`, e.g. `autocorking`. */
  name: string;
  /** File name, e.g. `autocorking.toml`. */
  file: string;
  /** Path as the engine names it in errors, e.g. `scenarios/autocorking.toml`. */
  path: string;
}

/** The scenario the site opens with. */
export const DEFAULT_SCENARIO_NAME = 'autocorking';

export const scenarioEntries: readonly ScenarioEntry[] = Object.keys(loaders)
  .map((key) => {
    const file = key.slice(key.lastIndexOf('/') + 1);
    return { name: file.replace(/\.toml$/, ''), file, path: `scenarios/${file}` };
  })
  .sort((a, b) => a.file.localeCompare(b.file));

const texts = new Map<string, Promise<string>>();
const loaded = new Map<string, string>();

// ---- the reader's own files ----
//
// A scenario file opened or dropped on the page (or carried by a link's `toml=`) is a scenario
// like the others for the rest of the site: its name is `file:` + its file name without
// `.toml` + `@` + a hash of its text, so each edit is a run of its own in the history; its path
// is the file's name, which the engine names in its errors as `sendpath run` does.

/** The prefix of a user scenario's name. */
export const USER_PREFIX = 'file:';

const userFiles = new Map<string, { entry: ScenarioEntry; text: string }>();

/** FNV-1a of the text, 8 hex digits: a short name for one version of a file. */
function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Registers the text of a file the reader opened; returns its entry. */
export function registerUserScenario(fileName: string, text: string): ScenarioEntry {
  const file = fileName.replace(/^.*[\\/]/, '') || 'scenario.toml';
  const base = file.replace(/\.toml$/i, '').replace(/[^A-Za-z0-9_.-]/g, '_') || 'scenario';
  const name = `${USER_PREFIX}${base}@${textHash(text)}`;
  const entry: ScenarioEntry = { name, file, path: file };
  userFiles.set(name, { entry, text });
  loaded.set(name, text);
  return entry;
}

/** The text of a user scenario, if `name` is one. */
export function userScenarioText(name: string): string | undefined {
  return userFiles.get(name)?.text;
}

/** Whether `name` names a file the reader opened. */
export function isUserScenario(name: string): boolean {
  return name.startsWith(USER_PREFIX);
}

/** The user scenarios registered so far (the experiment menu lists them). */
export function userEntries(): ScenarioEntry[] {
  return [...userFiles.values()].map((u) => u.entry);
}

/** A text as base64url of its UTF-8, for a link's `toml=`. */
export function encodeText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text of a link's `toml=`; null when it is not base64url of UTF-8. */
export function decodeText(encoded: string): string | null {
  try {
    const bin = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The entry called `name`, or the default scenario's (or the first) when there is none. */
export function entryOf(name: string): ScenarioEntry {
  const user = userFiles.get(name);
  if (user) return user.entry;
  const e =
    scenarioEntries.find((x) => x.name === name) ??
    scenarioEntries.find((x) => x.name === DEFAULT_SCENARIO_NAME) ??
    scenarioEntries[0];
  if (!e) throw new Error('scenarios/ holds no .toml file');
  return e;
}

/** The text of scenario `name` (loaded once). */
export function loadScenario(name: string): Promise<string> {
  const user = userFiles.get(name);
  if (user) return Promise.resolve(user.text);
  const e = entryOf(name);
  let p = texts.get(e.name);
  if (!p) {
    const load = Object.entries(loaders).find(([k]) => k.endsWith(`/${e.file}`))![1];
    p = load().then((text) => {
      loaded.set(e.name, text);
      return text;
    });
    texts.set(e.name, p);
  }
  return p;
}

/**
 * The text of scenario `name` if it has loaded, without waiting: a run can then be requested in
 * the same task as the change that asks for it, before React renders the change.
 */
export function loadedScenario(name: string): string | undefined {
  return loaded.get(entryOf(name).name);
}

/** The first `[variants.NAME]` of a scenario's text: the variant a link without one opens. */
export function firstVariantInText(source: string): string | null {
  return /^\[variants\.([A-Za-z0-9_-]+)\]/m.exec(source)?.[1] ?? null;
}
