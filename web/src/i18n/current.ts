// The page's current language: picked once from the URL and the browser (lang.ts), switched by
// the language control, and kept in the URL (`lang=`) so that a link opens in the same
// language. Components subscribe through shared/useLang.ts. No React here.
//
// English is part of the page; another language's catalogues are a chunk of their own, which
// catalogues.ts loads before the page switches to it.

import { loadCatalogues } from './catalogues';
import { DEFAULT_LANG, pickLang, type Lang } from './lang';

let current: Lang = DEFAULT_LANG;
const listeners = new Set<() => void>();

export function currentLang(): Lang {
  return current;
}

/**
 * Reads the language from the page's URL and the browser and loads its catalogues; await it
 * once before rendering. If they cannot be loaded the page stays in English.
 */
export async function initLang(search: string, languages: readonly string[]): Promise<Lang> {
  const lang = pickLang(search, languages);
  try {
    await loadCatalogues(lang);
    current = lang;
  } catch (err) {
    console.error(`the ${lang} catalogues did not load:`, err);
    current = DEFAULT_LANG;
  }
  document.documentElement.lang = current;
  // Modules evaluated before this call (catalogues) follow the language from here on.
  for (const l of listeners) l();
  return current;
}

/**
 * Switches the page to `lang` once its catalogues are loaded, and records it in the URL
 * (replacing the history entry).
 */
export async function setLang(lang: Lang): Promise<void> {
  await loadCatalogues(lang);
  if (lang === current) return;
  current = lang;
  document.documentElement.lang = lang;
  const url = new URL(location.href);
  url.searchParams.set('lang', lang);
  history.replaceState(history.state, '', url);
  for (const l of listeners) l();
}

export function subscribeLang(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `search` with the current language added, for links that open another view. */
export function withLang(params: Record<string, string>): string {
  const p = new URLSearchParams(params);
  p.set('lang', current);
  return `?${p.toString()}`;
}
