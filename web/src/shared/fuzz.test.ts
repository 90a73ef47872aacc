// Fuzzing the embed's URL (issue 15): any query gives a configuration and problems, never an
// exception. The page's URL state and lesson files: model/fuzz.test.ts.

import fc from 'fast-check';
import { describe, test } from 'vitest';

import { check, fuzzRuns, fuzzTimeoutMs, NAMES, query, timed } from '../model/fuzzkit';
import { loadLessons } from '../model/lessons';
import { parseEmbed } from './embedParams';

/** The shipped lessons (the embed's `lesson=` names one). */
const LESSONS = loadLessons().lessons;

describe('fuzzing the embed URL', () => {
  test(
    'any embed query gives a configuration and problems, never an exception',
    () => {
      const t = timed('embed-url');
      fc.assert(
        fc.property(query, (q) =>
          t.run(() => {
            const { config, problems } = parseEmbed(q, { scenarios: NAMES, lessons: LESSONS });
            check(NAMES.includes(config.scenario), () => `${q}: scenario ${config.scenario}`);
            for (const p of problems) check(p.length > 5, () => `${q}: a problem "${p}"`);
          }),
        ),
        { numRuns: fuzzRuns(), seed: 16 },
      );
      t.report();
    },
    fuzzTimeoutMs(),
  );
});
