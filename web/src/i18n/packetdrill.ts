// The packetdrill player's strings in a language. English (packetdrill.en.ts) is imported here,
// and only the view's chunk imports this module, so the first load carries none of it; other
// languages' text is in their chunks, which catalogues.ts loads.

import { loadedCatalogues } from './catalogues';
import { packetdrillEn, type PacketdrillMessages } from './packetdrill.en';
import type { Lang } from './lang';

export type { PacketdrillMessages };

/** The view's strings in `lang` (English until that language's catalogues are loaded). */
export function packetdrillText(lang: Lang): PacketdrillMessages {
  return lang === 'en' ? packetdrillEn : (loadedCatalogues(lang)?.packetdrill ?? packetdrillEn);
}
