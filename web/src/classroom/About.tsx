// "About the model": docs/model-vs-linux.md of this build, rendered, with a table of contents.
// The document is English in every language; the page around it is translated.

import { lexer, type Tokens } from 'marked';
import { useMemo } from 'react';

import modelVsLinux from '../../../docs/model-vs-linux.md?raw';
import { withLang } from '../i18n/current';
import { Markdown, slug } from './Markdown';
import { useText } from './useLang';

/** The document without its own "# " title (the page has one). */
const BODY = modelVsLinux.replace(/^# .*\n/, '');

export function About() {
  const t = useText();
  const toc = useMemo(
    () =>
      lexer(BODY)
        .filter((tok): tok is Tokens.Heading => tok.type === 'heading' && tok.depth <= 3)
        .map((h) => ({ depth: h.depth, text: h.text.replace(/`/g, ''), id: slug(h.text) })),
    [],
  );
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
              <a href={`#${h.id}`}>{h.text}</a>
            </li>
          ))}
        </ul>
      </nav>
      <article lang="en">
        <Markdown text={BODY} />
      </article>
    </main>
  );
}
