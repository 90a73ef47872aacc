// Every scenario file and every key of the engine's registry has its text in every language:
// a new scenario or key without a translation fails here.

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { Catalog } from '../model/catalog';
import { scenarioEntries } from '../model/scenarioIndex';
import { keyMeaning, scenarioText, translated } from './content';
import { loadCatalogues } from './catalogues';
import { LANGS } from './lang';

wasm.initSync({
  module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
});
const catalog = JSON.parse(wasm.engine_catalog()) as Catalog;

beforeAll(async () => {
  for (const lang of LANGS) await loadCatalogues(lang);
});

describe('translations of the engine texts', () => {
  for (const lang of LANGS.filter((l) => l !== 'en')) {
    it(`${lang} has every scenario's title and summary`, () => {
      const names = scenarioEntries.map((e) => e.name).sort();
      expect(translated(lang).scenarios.sort()).toEqual(names);
    });

    it(`${lang} has the meaning of every key of the registry, and no other`, () => {
      const keys = catalog.keys.keys.map((k) => k.name).sort();
      expect(translated(lang).keys.sort()).toEqual(keys);
      for (const k of catalog.keys.keys) expect(keyMeaning(lang, k.name, k.doc)).not.toBe(k.doc);
    });
  }

  it('English is the engine text itself', () => {
    const own = { title: 'T', summary: 'S' };
    expect(scenarioText('en', 'autocorking', own)).toBe(own);
    expect(keyMeaning('en', 'kernel', 'the doc')).toBe('the doc');
  });
});
