// The "Model vs Linux" view's strings in a language. English (conform.en.ts) is imported here,
// and only the view's chunk imports this module, so the first load carries none of it; other
// languages' text is in their chunks, which catalogues.ts loads.

import { loadedCatalogues } from './catalogues';
import { conformEn, type ConformMessages } from './conform.en';
import type { Lang } from './lang';

export type { ConformMessages };

/** The view's strings in `lang` (English until that language's catalogues are loaded). */
export function conformText(lang: Lang): ConformMessages {
  return lang === 'en' ? conformEn : (loadedCatalogues(lang)?.conform ?? conformEn);
}

/** A mechanism's name in `lang`; the file's own name for one the catalogue does not know. */
export function mechanismName(lang: Lang, mechanism: string): string {
  return conformText(lang).mechanisms[mechanism] ?? mechanism;
}
