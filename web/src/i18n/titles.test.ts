// A lesson's title, in every language, says what its runs show: the claims a title makes are
// checked against the engine's full runs of the variants it names.

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import { bundledLessons } from '../model/lessons';
import { scenarioFiles } from '../model/scenarios';
import { runWindow } from '../model/testkit';
import { loadCatalogues } from './catalogues';
import { scenarioText } from './content';

wasm.initSync({
  module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
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
    // The lesson's title (short for a phone's bar) claims nothing the runs contradict; the
    // scenario's says what they show.
    for (const t of [lesson.title.en, title]) {
      expect(t).not.toMatch(/barely|a little|hardly|helps/);
      expect(t).toMatch(/TCP_QUICKACK set once/);
    }
    expect(title).toMatch(/TCP_QUICKACK set once does not help/);
    for (const t of [lesson.title['zh-CN'], zh]) {
      expect(t).not.toMatch(/几乎/);
      expect(t).toMatch(/只设置一次/);
    }
    expect(zh).toMatch(/只设置一次 TCP_QUICKACK 毫无帮助/);
  });
});
