// docs/model-vs-linux.zh-CN.md translates docs/model-vs-linux.md: the two must not drift apart.
// Section by section (a section runs from a heading to the next), the translation has the same
// heading level, the same tables with the same number of rows, the same number of list items,
// and the same backticked identifiers and numbers as the English. A section, a row, a bullet,
// an identifier or a number added to the English without its translation fails here.

import { lexer, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

import english from '../../../docs/model-vs-linux.md?raw';
import chinese from '../../../docs/model-vs-linux.zh-CN.md?raw';
import { slug, withoutTitle } from './Markdown';

type Section = {
  /** The heading as written (the English one, for messages); '' before the first heading. */
  heading: string;
  depth: number;
  tableRows: number[];
  listItems: number;
  code: string[];
  numbers: string[];
};

/** Every `code span` of a markdown text, in order. */
function codeSpans(raw: string): string[] {
  return [...raw.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** The numbers written outside code spans (`3.16..3.18` gives 3.16 and 3.18). */
function numbers(raw: string): string[] {
  return [...raw.replace(/`[^`]+`/g, ' ').matchAll(/\d+(?:\.\d+)*/g)].map((m) => m[0]);
}

const sortedSet = (xs: string[]) => [...new Set(xs)].sort();

function sections(markdown: string): Section[] {
  const out: Section[] = [];
  let cur: Section = { heading: '', depth: 0, tableRows: [], listItems: 0, code: [], numbers: [] };
  const take = (raw: string) => {
    cur.code.push(...codeSpans(raw));
    cur.numbers.push(...numbers(raw));
  };
  for (const t of lexer(withoutTitle(markdown)) as Token[]) {
    if (t.type === 'heading') {
      out.push(cur);
      const h = t as Tokens.Heading;
      cur = { heading: h.text, depth: h.depth, tableRows: [], listItems: 0, code: [], numbers: [] };
      take(h.text);
      continue;
    }
    if (t.type === 'table') cur.tableRows.push((t as Tokens.Table).rows.length);
    if (t.type === 'list') cur.listItems += (t as Tokens.List).items.length;
    take(t.raw);
  }
  out.push(cur);
  return out;
}

/** How `translation` differs in structure from `original`: one line per difference. */
export function drift(original: string, translation: string): string[] {
  const a = sections(original);
  const b = sections(translation);
  const problems: string[] = [];
  if (a.length !== b.length)
    problems.push(`${a.length - 1} headings in the English, ${b.length - 1} in the translation`);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i]!, b[i]!];
    const where = `section ${i} ("${x.heading || 'before the first heading'}")`;
    if (x.depth !== y.depth)
      problems.push(`${where}: heading level ${x.depth}, translated as level ${y.depth}`);
    if (x.tableRows.join() !== y.tableRows.join())
      problems.push(`${where}: table rows [${x.tableRows}], translated [${y.tableRows}]`);
    if (x.listItems !== y.listItems)
      problems.push(`${where}: ${x.listItems} list items, translated ${y.listItems}`);
    for (const [what, p, q] of [
      ['identifier', sortedSet(x.code), sortedSet(y.code)],
      ['number', sortedSet(x.numbers), sortedSet(y.numbers)],
    ] as const) {
      const missing = p.filter((s) => !q.includes(s));
      const extra = q.filter((s) => !p.includes(s));
      if (missing.length) problems.push(`${where}: ${what}s not in the translation: ${missing}`);
      if (extra.length) problems.push(`${where}: ${what}s only in the translation: ${extra}`);
    }
  }
  return problems;
}

describe('docs/model-vs-linux.zh-CN.md', () => {
  it('has the sections, tables, rows, bullets, identifiers and numbers of the English', () => {
    expect(sections(english).length).toBeGreaterThan(10);
    expect(drift(english, chinese)).toEqual([]);
  });

  it('the check catches a section, a row, a bullet or a number added to the English alone', () => {
    const section = `${english}\n### \`tcp_new_function\` — x\n\nText.\n`;
    expect(drift(section, chinese)).toContainEqual(
      expect.stringMatching(/headings in the English/),
    );
    // The last row of the first table gets a twin in the English only.
    const row =
      '| | throughput of one flow, on / off | 0.993 | 0.989 | reproduced; the rate itself (31.6 Gbit/s against 17.4) is a **known failure** |\n';
    expect(english).toContain(row);
    expect(drift(english.replace(row, row + row), chinese)).toEqual([
      expect.stringMatching(/table rows \[13\], translated \[12\]/),
    ]);
    const bullet = '- no prequeue (≤ 4.13)';
    expect(english).toContain(bullet);
    expect(drift(english.replace(bullet, `- no \`frob\`.\n${bullet}`), chinese)).toEqual([
      expect.stringMatching(/7 list items, translated 6/),
      expect.stringMatching(/identifiers not in the translation: frob/),
    ]);
    expect(drift(english.replace('7.927 s', '7.930 s'), chinese)).toEqual([
      expect.stringMatching(/numbers not in the translation: 7\.930/),
      expect.stringMatching(/numbers only in the translation: 7\.927/),
    ]);
  });

  it('gives every heading a distinct, non-empty id in both languages, for the contents', () => {
    for (const text of [english, chinese]) {
      const ids = (lexer(withoutTitle(text)) as Token[])
        .filter((t): t is Tokens.Heading => t.type === 'heading')
        .map((h) => slug(h.text));
      expect(ids.every((id) => id.length > 0)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('is a translation: its headings and prose are in Chinese', () => {
    const headings = (lexer(withoutTitle(chinese)) as Token[]).filter(
      (t): t is Tokens.Heading => t.type === 'heading',
    );
    // Headings made only of file and function names are the same in both languages.
    const words = headings.filter((h) =>
      /[a-z]{4,} [a-z]{3,}/i.test(h.text.replace(/`[^`]+`/g, '')),
    );
    expect(words.map((h) => h.text)).toEqual([]);
    expect(chinese.split('\n')[0]).toMatch(/^> 本文是 \[model-vs-linux\.md\]/);
  });
});
