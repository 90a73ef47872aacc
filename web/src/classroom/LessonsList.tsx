// Every lesson of scenarios/lessons/ with its title and summary in the page's language; a
// lesson that does not parse shows its error (file and field) instead.

import { withLang } from '../i18n/current';
import { bundledLessons } from '../model/lessons';
import { Markdown } from './Markdown';
import { useLang, useText } from '../shared/useLang';

export function LessonsList({ headingLevel = 2 }: { headingLevel?: 1 | 2 }) {
  const t = useText();
  const lang = useLang();
  const { lessons, errors } = bundledLessons();
  const H = `h${headingLevel}` as 'h1';
  const Item = `h${headingLevel + 1}` as 'h2';
  return (
    <section className="lessons-list" aria-labelledby="lessons-h">
      <H id="lessons-h">{t.lessons.region}</H>
      <ol>
        {lessons.map((l) => (
          <li key={l.id}>
            <Item>
              <a href={withLang({ lesson: l.id })}>{l.title[lang]}</a>
            </Item>
            <p className="muted">{t.lessons.steps(l.steps.length)}</p>
            <Markdown text={l.summary[lang]} />
          </li>
        ))}
      </ol>
      {errors.map((e) => (
        <div key={e.id} className="note" role="alert">
          {t.lessons.broken} <code>{e.message}</code>
        </div>
      ))}
    </section>
  );
}
