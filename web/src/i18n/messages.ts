// The simulator's strings in the page's language: `msg`, which follows the language switch. The
// text is in the catalogues: messages.en.ts (English, and the shape of every language's) and the
// other languages' chunks, which catalogues.ts loads.

import { loadedCatalogues } from './catalogues';
import { currentLang, subscribeLang } from './current';
import type { Lang } from './lang';
import { en, type Messages } from './messages.en';

export type { Messages };

/**
 * The messages of the page's language. A live binding: it follows the language switch
 * (current.ts, which loads a language's catalogues before switching to it), and the views
 * re-render on a switch, reading the new catalogue.
 */
export let msg: Messages = catalogue(currentLang());
subscribeLang(() => {
  msg = catalogue(currentLang());
});

function catalogue(lang: Lang): Messages {
  return lang === 'en' ? en : (loadedCatalogues(lang)?.messages ?? en);
}
