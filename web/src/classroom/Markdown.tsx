// Markdown (lesson texts, docs/model-vs-linux.md) rendered as React elements from marked's
// tokens: no HTML string is ever inserted into the page. Raw HTML in the source shows as text;
// links leave the site only for http(s) URLs, other targets (repository paths) show as text.

import { lexer, type Token, type Tokens } from 'marked';
import { Fragment, useMemo, type ReactNode } from 'react';

import { ScrollBox } from '../shared/ScrollBox';
import './markdown.css';

/** `Heading text` -> `heading-text`: ids for headings, so a table of contents can link them. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
}

/**
 * A document without its title: everything up to and including its first "# " line (a
 * translation's note on its source comes before the title).
 */
export function withoutTitle(text: string): string {
  return text.replace(/^[\s\S]*?^# .*(?:\n|$)/m, '');
}

function inline(tokens: Token[] | undefined, key = ''): ReactNode[] {
  return (tokens ?? []).map((t, i) => {
    const k = `${key}${i}`;
    switch (t.type) {
      case 'strong':
        return <strong key={k}>{inline((t as Tokens.Strong).tokens, k)}</strong>;
      case 'em':
        return <em key={k}>{inline((t as Tokens.Em).tokens, k)}</em>;
      case 'del':
        return <del key={k}>{inline((t as Tokens.Del).tokens, k)}</del>;
      case 'codespan':
        return <code key={k}>{decode((t as Tokens.Codespan).text)}</code>;
      case 'br':
        return <br key={k} />;
      case 'link': {
        const l = t as Tokens.Link;
        return /^https?:\/\//.test(l.href) ? (
          <a key={k} href={l.href} rel="noopener noreferrer" target="_blank">
            {inline(l.tokens, k)}
          </a>
        ) : (
          <Fragment key={k}>{inline(l.tokens, k)}</Fragment>
        );
      }
      case 'text': {
        const x = t as Tokens.Text;
        return x.tokens ? (
          <Fragment key={k}>{inline(x.tokens, k)}</Fragment>
        ) : (
          <Fragment key={k}>{decode(x.text)}</Fragment>
        );
      }
      case 'escape':
        return <Fragment key={k}>{decode((t as Tokens.Escape).text)}</Fragment>;
      default:
        return <Fragment key={k}>{decode(t.raw)}</Fragment>;
    }
  });
}

/** marked escapes &, <, >, " and ' in text; the page wants the characters. */
function decode(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function block(t: Token, k: string, headingLevelShift: number): ReactNode {
  switch (t.type) {
    case 'heading': {
      const h = t as Tokens.Heading;
      const level = Math.min(6, h.depth + headingLevelShift);
      const Tag = `h${level}` as 'h2';
      return (
        <Tag key={k} id={slug(h.text)}>
          {inline(h.tokens, k)}
        </Tag>
      );
    }
    case 'paragraph':
      return <p key={k}>{inline((t as Tokens.Paragraph).tokens, k)}</p>;
    case 'list': {
      const l = t as Tokens.List;
      const items = l.items.map((it, i) => (
        <li key={i}>
          {it.tokens.map((c, j) => blockOrInline(c, `${k}-${i}-${j}`, headingLevelShift))}
        </li>
      ));
      return l.ordered ? (
        <ol key={k} start={typeof l.start === 'number' ? l.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={k}>{items}</ul>
      );
    }
    case 'code':
      return (
        <pre key={k}>
          <code>{(t as Tokens.Code).text}</code>
        </pre>
      );
    case 'blockquote':
      return (
        <blockquote key={k}>
          {(t as Tokens.Blockquote).tokens.map((c, i) => block(c, `${k}-${i}`, headingLevelShift))}
        </blockquote>
      );
    case 'table': {
      const tb = t as Tokens.Table;
      return (
        <ScrollBox key={k} className="md-table" label={tb.header.map((c) => c.text).join(', ')}>
          <table>
            <thead>
              <tr>
                {tb.header.map((c, i) => (
                  <th key={i} scope="col" style={{ textAlign: tb.align[i] ?? undefined }}>
                    {inline(c.tokens, `${k}h${i}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tb.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((c, j) => (
                    <td key={j} style={{ textAlign: tb.align[j] ?? undefined }}>
                      {inline(c.tokens, `${k}r${i}c${j}`)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      );
    }
    case 'hr':
      return <hr key={k} />;
    case 'space':
      return null;
    case 'html':
      // HTML comments (<!-- keys:begin -->) are markers, not content.
      return /^\s*<!--[\s\S]*-->\s*$/.test(t.raw) ? null : <p key={k}>{t.raw}</p>;
    case 'text': {
      const x = t as Tokens.Text;
      return <p key={k}>{x.tokens ? inline(x.tokens, k) : decode(x.text)}</p>;
    }
    default:
      return <p key={k}>{t.raw}</p>;
  }
}

/** A list item's tight text is inline; anything else is a block. */
function blockOrInline(t: Token, k: string, shift: number): ReactNode {
  if (t.type === 'text') {
    const x = t as Tokens.Text;
    return <Fragment key={k}>{x.tokens ? inline(x.tokens, k) : decode(x.text)}</Fragment>;
  }
  return block(t, k, shift);
}

/**
 * Markdown as React elements. `headingLevelShift` moves every heading down (a lesson step's
 * text under the page's own h2 uses 2).
 */
export function Markdown({
  text,
  headingLevelShift = 0,
  className,
}: {
  text: string;
  headingLevelShift?: number;
  className?: string;
}) {
  const tokens = useMemo(() => lexer(text), [text]);
  return (
    <div className={className}>{tokens.map((t, i) => block(t, `b${i}`, headingLevelShift))}</div>
  );
}
