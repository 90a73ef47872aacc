// "About the model": docs/model-vs-linux.md of this build, rendered, with a table of contents.
// In Chinese the page renders the translation, docs/model-vs-linux.zh-CN.md, a chunk of its own
// loaded only when asked for (the English page never downloads it); if it cannot be loaded the
// page shows the English document. model-vs-linux.test.ts keeps the two files in step.

import { lexer, type Tokens } from 'marked';
import { use, useEffect, useMemo, type ReactNode } from 'react';

import modelVsLinux from '../../../docs/model-vs-linux.md?raw';
import { withLang } from '../i18n/current';
import type { Lang } from '../i18n/lang';
import { Markdown, slug, withoutTitle } from './Markdown';
import { useLang, useText } from '../shared/useLang';

/** A document's body (without its "# " title: the page has one) and the language it is in. */
type Doc = { body: string; lang: Lang };

const ENGLISH: Doc = { body: withoutTitle(modelVsLinux), lang: 'en' };

/** The translations, by language: each a chunk of its own. */
const TRANSLATIONS: Record<Exclude<Lang, 'en'>, () => Promise<{ default: string }>> = {
  'zh-CN': () => import('../../../docs/model-vs-linux.zh-CN.md?raw'),
};
const loaded: Partial<Record<Lang, Promise<Doc>>> = {};

/** `lang`'s translation, loaded once, on first use; the English document if it does not load. */
function translation(lang: Exclude<Lang, 'en'>): Promise<Doc> {
  return (loaded[lang] ??= TRANSLATIONS[lang]().then(
    (m) => ({ body: withoutTitle(m.default), lang }),
    (err: unknown) => {
      console.error(`docs/model-vs-linux.${lang}.md did not load:`, err);
      return ENGLISH;
    },
  ));
}

/** A heading's text with its `code spans` as code, as in the heading itself. */
function withCode(text: string): ReactNode[] {
  return text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

export function About() {
  const t = useText();
  const lang = useLang();
  // Suspends (Root's Suspense shows its loading line) until the translation is loaded.
  const doc = lang === 'en' ? ENGLISH : use(translation(lang));
  const toc = useMemo(
    () =>
      lexer(doc.body)
        .filter((tok): tok is Tokens.Heading => tok.type === 'heading' && tok.depth <= 3)
        .map((h) => ({ depth: h.depth, text: h.text, id: slug(h.text) })),
    [doc],
  );
  // A link to a heading (`?view=about#tcp-small-queue-check`) finds its target only once the
  // document is on the page, after the browser's own jump on load.
  useEffect(() => {
    let id = location.hash.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch {
      // Not percent-encoded: the id as written.
    }
    if (id) document.getElementById(id)?.scrollIntoView();
  }, [doc]);
  return (
    <main className="page-narrow about">
      <p>
        <a href={withLang({})}>{t.about.back}</a>
      </p>
      <h1>{t.about.region}</h1>
      <p className="lead">{t.about.intro}</p>
      <nav aria-labelledby="about-toc-h" className="toc">
        <h2 id="about-toc-h">{t.about.contents}</h2>
        <ul>
          {toc.map((h) => (
            <li key={h.id} className={`toc-${h.depth}`}>
              <a href={`#${h.id}`}>{withCode(h.text)}</a>
            </li>
          ))}
        </ul>
      </nav>
      <article lang={doc.lang}>
        <Markdown text={doc.body} />
      </article>
    </main>
  );
}
