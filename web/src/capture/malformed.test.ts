// The malformed-input corpus (fixtures/malformed/, described case by case in cases.json): each
// input gives a message that names the line and what was expected, keeps what is valid, and
// never throws.

import { readFileSync, readdirSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { FIXTURES, checkModel, internalErrors, parseFile } from './testing';

interface Case {
  file: string;
  /** true: the valid part is kept with a warning; false: the file is refused with an error. */
  ok: boolean;
  /** The line the message names (null: the message is about the whole file). */
  line: number | null;
  /** A phrase the message must contain. */
  says: string;
}

const dir = new URL('malformed/', FIXTURES);
const cases = JSON.parse(readFileSync(new URL('cases.json', dir), 'utf8')) as Case[];

describe('malformed inputs', () => {
  test('the corpus has at least 30 inputs and cases.json describes each exactly once', () => {
    const files = readdirSync(dir)
      .filter((f) => f !== 'cases.json')
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(30);
    expect(cases.map((c) => c.file).sort()).toEqual(files);
  });

  for (const c of cases) {
    const outcome = c.ok ? 'is kept with a warning' : 'is refused with an error';
    test(`${c.file} ${outcome} at line ${c.line ?? '(whole file)'}: "${c.says}"`, () => {
      const result = parseFile(new URL(c.file, dir), 4096);
      expect(internalErrors(result)).toEqual([]);
      if (c.ok) {
        expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
        if (!result.ok) return;
        const warning = result.diagnostics.find(
          (d) => d.severity === 'warning' && d.line === c.line && d.message.includes(c.says),
        );
        expect(warning, JSON.stringify(result.diagnostics, null, 1)).toBeDefined();
        expect(checkModel(result.model)).toEqual([]);
      } else {
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.error.line).toBe(c.line);
        expect(result.error.message).toContain(c.says);
        // Every refusal says what it expected, or what the file turned out to be.
        expect(result.error.message).toMatch(/expected|empty|UTF-16|binary/);
      }
    });
  }
});
