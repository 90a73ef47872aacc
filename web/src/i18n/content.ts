// Translations of the engine's own texts that the simulator shows: each scenario file's title
// and summary, and the one-line meaning of each key of the registry (engine/core/src/keys.rs).
// English is the engine's text itself; another language falls back to it only for what it
// lacks, which content.test.ts forbids for every scenario file and every key. Kernel names stay
// as they are. No React.

import { loadedCatalogues } from './catalogues';
import type { Lang } from './lang';

/** A scenario's title and summary in `lang` (the file's own English when `lang` is English). */
export function scenarioText(
  lang: Lang,
  name: string,
  own: { title: string; summary: string },
): { title: string; summary: string } {
  return loadedCatalogues(lang)?.scenarios[name] ?? own;
}

/** A key's one-line meaning in `lang` (the registry's English when `lang` is English). */
export function keyMeaning(lang: Lang, key: string, own: string): string {
  return loadedCatalogues(lang)?.keys[key] ?? own;
}

/** What `lang` translates (for the completeness test). */
export function translated(lang: Lang): { scenarios: string[]; keys: string[] } {
  const c = loadedCatalogues(lang);
  return { scenarios: Object.keys(c?.scenarios ?? {}), keys: Object.keys(c?.keys ?? {}) };
}
