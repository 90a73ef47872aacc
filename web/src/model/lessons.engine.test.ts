// Every lesson step's configuration as the engine judges it: the variant exists, the overrides
// name real keys within their ranges, the focus is a decision kind of the trace and the
// highlighted counters are counters the engine counts. A lesson that passes the parser but
// not the engine fails here, naming the lesson and the step.

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { Catalog } from './catalog';
import { bundledLessons } from './lessons';
import { stepKinds } from './log';
import { scenarioFiles } from './scenarios';
import { runWindow } from './testkit';
import { loadCatalogues } from '../i18n/catalogues';
import { scenarioText } from '../i18n/content';

wasm.initSync({
  module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
});
const catalog = JSON.parse(wasm.engine_catalog()) as Catalog;
const kinds = new Set(stepKinds(catalog.trace).map((k) => k.value));

describe('every lesson step, as the engine reads it', () => {
  for (const lesson of bundledLessons().lessons)
    it(`${lesson.id}: every step's configuration is valid`, () => {
      const file = scenarioFiles.find((f) => f.name === `${lesson.scenario}.toml`)!;
      for (const step of lesson.steps) {
        const where = `${lesson.id} step ${step.number}`;
        const variants = step.compare ? [step.compare.a, step.compare.b] : [step.variant];
        for (const v of variants)
          expect(
            () => wasm.scenario_info(file.source, file.path, v ?? undefined, step.sets),
            where,
          ).not.toThrow();
        if (step.focus) expect(kinds, where).toContain(step.focus);
        for (const h of step.highlights)
          if (h.kind === 'counter') expect(catalog.counters, where).toContain(h.name);
      }
    });

  it('a bad override is refused with the key named', () => {
    const file = scenarioFiles.find((f) => f.name === 'autocorking.toml')!;
    expect(() =>
      wasm.scenario_info(file.source, file.path, 'on', ['net.ipv4.tcp_autocorking=7']),
    ).toThrow(/net\.ipv4\.tcp_autocorking/);
  });
});

describe("a lesson's title says what its runs show", () => {
  it('TCP_QUICKACK set once changes nothing in the Nagle lesson, and its titles say so', async () => {
    await loadCatalogues('zh-CN');
    const run = (variant: string) =>
      runWindow(wasm, 'nagle-delayed-ack.toml', { variant, toNs: 30_000_000_000 }).summary;
    const [quickack, plain] = [run('quickack'), run('default')];
    // The A/B of step 6: the same time and the same packets, not "a little" better.
    expect(quickack.result.elapsed_s).toBe(plain.result.elapsed_s);
    expect(quickack.result.events).toBe(plain.result.events);
    const lesson = bundledLessons().lessons.find((l) => l.id === 'nagle-delayed-ack')!;
    const file = scenarioFiles.find((f) => f.name === 'nagle-delayed-ack.toml')!;
    const title = (
      JSON.parse(wasm.scenario_info(file.source, file.path, undefined, [])) as {
        title: string;
      }
    ).title;
    const zh = scenarioText('zh-CN', 'nagle-delayed-ack', { title, summary: '' }).title;
    for (const t of [lesson.title.en, title]) {
      expect(t).not.toMatch(/barely|a little|hardly/);
      expect(t).toMatch(/TCP_QUICKACK set once does not help/);
    }
    for (const t of [lesson.title['zh-CN'], zh]) {
      expect(t).not.toMatch(/几乎/);
      expect(t).toMatch(/只设置一次 TCP_QUICKACK 毫无帮助/);
    }
  });
});
