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
