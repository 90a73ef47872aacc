// The sample menu lists every recording of public/samples, each with a title.

import { readdirSync } from 'node:fs';

import { expect, test } from 'vitest';

import { en } from './messages.en';
import { SAMPLE_FILES } from '../capture/samples';
import { SAMPLES } from '../capture/testing';

test('the sample menu lists every recording in public/samples, each with a title', () => {
  const files = readdirSync(SAMPLES)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
  expect([...SAMPLE_FILES].sort()).toEqual(files);
  for (const f of SAMPLE_FILES) {
    const m = en.native.samples[f];
    expect(m?.title.length ?? 0, f).toBeGreaterThan(10);
    expect(m?.summary.length ?? 0, f).toBeGreaterThan(10);
  }
});
