// The site's languages, and how a page picks one: the URL's `lang` parameter, else the
// browser's preferred languages, else English. No React: the lesson loader uses it too.

/** Every language the site and its lessons are written in. English is the reference. */
export const LANGS = ['en', 'zh-CN'] as const;
export type Lang = (typeof LANGS)[number];

export const DEFAULT_LANG: Lang = 'en';

/** Each language's name in itself, for the language switch. */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', 'zh-CN': '简体中文' };

export function isLang(s: string): s is Lang {
  return (LANGS as readonly string[]).includes(s);
}

/**
 * The language for a BCP 47 tag as browsers report it: `zh`, `zh-CN`, `zh-Hans`, `zh-SG` read
 * Simplified Chinese; `zh-TW`, `zh-HK`, `zh-Hant` have no catalogue of their own and also get
 * Simplified Chinese, which their readers read more easily than English. Null for anything else.
 */
export function langOfTag(tag: string): Lang | null {
  const t = tag.trim().toLowerCase();
  if (t === 'en' || t.startsWith('en-')) return 'en';
  if (t === 'zh' || t.startsWith('zh-')) return 'zh-CN';
  return null;
}

/** The first of the browser's languages the site has, else English. */
export function langFromBrowser(languages: readonly string[]): Lang {
  for (const tag of languages) {
    const l = langOfTag(tag);
    if (l) return l;
  }
  return DEFAULT_LANG;
}

/** The language a page opens in: `?lang=` when valid, else the browser's. */
export function pickLang(search: string, languages: readonly string[]): Lang {
  const asked = new URLSearchParams(search).get('lang');
  if (asked !== null) {
    if (isLang(asked)) return asked;
    const l = langOfTag(asked);
    if (l) return l;
  }
  return langFromBrowser(languages);
}
