// The classroom strings in a language (shared/useLang.ts gives React the page's). The text is in
// the catalogues: classroom.en.ts (English, and the shape of every language's) and the other
// languages' chunks, which catalogues.ts loads.

import { loadedCatalogues } from './catalogues';
import { classroomEn, type ClassroomMessages } from './classroom.en';
import type { Lang } from './lang';

export type { ClassroomMessages };

/** The classroom strings in `lang` (English until that language's catalogues are loaded). */
export function classroomText(lang: Lang): ClassroomMessages {
  return lang === 'en' ? classroomEn : (loadedCatalogues(lang)?.classroom ?? classroomEn);
}
