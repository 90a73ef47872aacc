// The scenario files of /scenarios as the site loads them: the list of names up front, each
// file's text on demand (its own small chunk), so the first load carries only the scenario it
// opens. (scenarios.ts bundles every file eagerly, for the unit tests.)

import { userFile, type ScenarioEntry } from './userFiles';

const loaders = import.meta.glob<string>('../../../scenarios/*.toml', {
  query: '?raw',
  import: 'default',
});

export type { ScenarioEntry } from './userFiles';
export {
  decodeText,
  encodeText,
  isUserScenario,
  registerUserScenario,
  USER_PREFIX,
  userEntries,
  userScenarioText,
} from './userFiles';

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

/** The entry called `name`, or the default scenario's (or the first) when there is none. */
export function entryOf(name: string): ScenarioEntry {
  const user = userFile(name);
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
  const user = userFile(name);
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
  const user = userFile(name);
  if (user) return user.text;
  return loaded.get(entryOf(name).name);
}

/** The first `[variants.NAME]` of a scenario's text: the variant a link without one opens. */
export function firstVariantInText(source: string): string | null {
  return /^\[variants\.([A-Za-z0-9_-]+)\]/m.exec(source)?.[1] ?? null;
}
