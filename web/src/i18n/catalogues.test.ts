// Every catalogue has every key of English, and none is left in English: a string equal to
// the English one (or a function giving the same text for the same arguments) fails, unless
// it is a name that is the same in every language (listed below with why).

import { beforeAll, describe, expect, it } from 'vitest';

import { en as simulatorEn } from './messages.en';
import { classroomEn } from './classroom.en';
import { conformEn } from './conform.en';
import { packetdrillEn } from './packetdrill.en';
import { loadCatalogues, loadedCatalogues } from './catalogues';
import { LANGS } from './lang';

beforeAll(async () => {
  for (const lang of LANGS) await loadCatalogues(lang);
});

/** Values that are the same in every language: kernel names, key names, symbols. */
const SAME_IN_EVERY_LANGUAGE = new Set<string>([
  'A / B', // the ratio's column: letters of the A/B comparison
  '—', // no value
  '', // an empty state (no offline support) shows nothing
  'P',
  'L',
  'F',
  'R',
  'N',
  'M',
  'Esc',
  '1 … 9',
  // Key names in the shortcut lists.
  'Home End',
  '← →',
  'Shift + ← →',
  '[ ]',
  '?',
  // Names that are the kernel's or the tools' own.
  'sendpath',
  'Socket',
  'cork / MSG_MORE',
  'A',
  'B',
  'B − A',
]);

type Walked = { path: string; value: unknown }[];

function walk(v: unknown, path = ''): Walked {
  if (typeof v === 'object' && v !== null)
    return Object.entries(v).flatMap(([k, x]) => walk(x, path ? `${path}.${k}` : k));
  return [{ path, value: v }];
}

/** Calls a message function with sample arguments of the types it takes (tried in turn). */
function sample(f: (...a: never[]) => unknown): unknown {
  const n = f.length;
  const patterns = [
    (i: number) => (i % 2 === 0 ? 3 : 'x'),
    (i: number) => (i % 2 === 0 ? 'x' : 3),
    () => 3,
    () => 'x',
  ];
  let last: unknown;
  for (const p of patterns) {
    try {
      return f(...(Array.from({ length: n }, (_, i) => p(i)) as never[]));
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

export function untranslated(
  en: unknown,
  other: unknown,
): { missing: string[]; same: string[]; extra: string[] } {
  const a = new Map(walk(en).map((w) => [w.path, w.value]));
  const b = new Map(walk(other).map((w) => [w.path, w.value]));
  const missing = [...a.keys()].filter((k) => !b.has(k));
  const extra = [...b.keys()].filter((k) => !a.has(k));
  const same: string[] = [];
  for (const [k, va] of a) {
    const vb = b.get(k);
    if (vb === undefined) continue;
    const ta = typeof va === 'function' ? sample(va as () => unknown) : va;
    const tb = typeof vb === 'function' ? sample(vb as () => unknown) : vb;
    if (typeof ta === 'string' && ta === tb && !SAME_IN_EVERY_LANGUAGE.has(ta)) same.push(k);
  }
  return { missing, same, extra };
}

describe('message catalogues', () => {
  for (const lang of LANGS.filter((l) => l !== 'en'))
    it(`${lang} translates every key of the classroom catalogue`, () => {
      expect(untranslated(classroomEn, loadedCatalogues(lang)?.classroom)).toEqual({
        missing: [],
        same: [],
        extra: [],
      });
    });

  for (const lang of LANGS.filter((l) => l !== 'en'))
    it(`${lang} translates every key of the simulator's catalogue`, () => {
      expect(untranslated(simulatorEn, loadedCatalogues(lang)?.messages)).toEqual({
        missing: [],
        same: [],
        extra: [],
      });
    });

  for (const lang of LANGS.filter((l) => l !== 'en'))
    it(`${lang} translates every key of the "Model vs Linux" catalogue`, () => {
      expect(untranslated(conformEn, loadedCatalogues(lang)?.conform)).toEqual({
        missing: [],
        same: [],
        extra: [],
      });
    });

  for (const lang of LANGS.filter((l) => l !== 'en'))
    it(`${lang} translates every key of the packetdrill player's catalogue`, () => {
      expect(untranslated(packetdrillEn, loadedCatalogues(lang)?.packetdrill)).toEqual({
        missing: [],
        same: [],
        extra: [],
      });
    });

  it('the check catches a key left in English and a missing one', () => {
    const en = { a: 'Play', b: { c: (n: number) => `${n} steps` }, d: 'x' };
    const zh = { a: 'Play', b: { c: (n: number) => `${n} steps` } };
    expect(untranslated(en, zh)).toEqual({ missing: ['d'], same: ['a', 'b.c'], extra: [] });
  });
});
