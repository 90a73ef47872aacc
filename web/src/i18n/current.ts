// The page's current language: picked once from the URL and the browser (lang.ts), switched by
// the language control, and kept in the URL (`lang=`) so that a link opens in the same
// language. Components subscribe through classroom/useLang.ts. No React here.

import { DEFAULT_LANG, pickLang, type Lang } from './lang';

let current: Lang = DEFAULT_LANG;
const listeners = new Set<() => void>();

export function currentLang(): Lang {
  return current;
}

/** Reads the language from the page's URL and the browser; call once before rendering. */
export function initLang(search: string, languages: readonly string[]): Lang {
  current = pickLang(search, languages);
  document.documentElement.lang = current;
  // Modules evaluated before this call (catalogues) follow the language from here on.
  for (const l of listeners) l();
  return current;
}

/** Switches the page to `lang` and records it in the URL (replacing the history entry). */
export function setLang(lang: Lang): void {
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
