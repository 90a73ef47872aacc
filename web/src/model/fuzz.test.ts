// Fuzzing the site's own input surfaces (issue 15): the URL state of the page, and lesson
// files (the embed's URL: shared/fuzz.test.ts). The capture importers have theirs in capture/fuzz.test.ts. Each input must
// end in a result or a problem that names what it is about (a parameter, a file and its field),
// never an exception. `npm test` runs a few thousand inputs per target; `npm run fuzz`
// (scripts/fuzz.mjs) sets SENDPATH_FUZZ_RUNS to a million and checks that none took 2 s.

import fc from 'fast-check';
import { describe, test } from 'vitest';

import { LessonError, parseLesson, type LessonFiles } from './lesson';
import { lessonFolders, scenarioMetas } from './lessons';
import { parseState, serializeState } from './urlstate';
import { check, fuzzRuns, fuzzTimeoutMs, NAMES, PARAMS, query, timed } from './fuzzkit';

export const first = (s: string) => (s === 'autocorking' ? 'on' : null);

describe('fuzzing the URL state', () => {
  test(
    'any query gives a state and problems that each name their parameter; the state survives a round trip',
    () => {
      const t = timed('url-state');
      fc.assert(
        fc.property(query, (q) =>
          t.run(() => {
            const { state, problems } = parseState(q, NAMES, 'autocorking', first);
            for (const p of problems)
              check(
                PARAMS.includes(p.param) && p.message.startsWith(`${p.param}=`),
                () => `${q}: the problem "${p.message}" does not start with ${p.param}=`,
              );
            check(NAMES.includes(state.a.scenario), () => `${q}: scenario ${state.a.scenario}`);
            const again = parseState(serializeState(state), NAMES, 'autocorking', first);
            check(
              JSON.stringify(again.state) === JSON.stringify(state) && again.problems.length === 0,
              () => `${q}: the state changed in a round trip: ${JSON.stringify([state, again])}`,
            );
          }),
        ),
        { numRuns: fuzzRuns(), seed: 15 },
      );
      t.report();
    },
    fuzzTimeoutMs(),
  );
});

describe('fuzzing lesson files', () => {
  const folders = lessonFolders();
  const metas = scenarioMetas();
  const edit = fc.tuple(
    fc.nat(),
    fc.nat({ max: 40 }),
    fc.oneof(
      fc.constantFrom(
        '',
        '=',
        '"',
        '[',
        ']',
        '[[step]]\n',
        '\n## ',
        '\n# ',
        'variant = "nope"\n',
        'range_ms = [5, 1]\n',
        'highlight = ["qdsic"]\n',
        'chart = "x"\n',
        '\u0000',
        '1e999',
        '-1',
      ),
      fc.string({ maxLength: 12 }),
    ),
  );
  const mangled = fc
    .tuple(fc.nat({ max: folders.length - 1 }), fc.array(edit, { maxLength: 4 }), fc.boolean())
    .map(([i, edits, inToml]) => {
      const f = folders[i]!;
      const apply = (s: string) =>
        edits.reduce((acc, [at, cut, ins]) => {
          const k = acc.length ? at % acc.length : 0;
          return acc.slice(0, k) + ins + acc.slice(k + cut);
        }, s);
      const files: LessonFiles = inToml
        ? { ...f, toml: apply(f.toml) }
        : { ...f, markdown: { ...f.markdown, en: apply(f.markdown.en ?? '') } };
      return files;
    });

  test(
    'a mangled lesson parses or throws a LessonError naming its file',
    () => {
      const t = timed('lesson');
      fc.assert(
        fc.property(mangled, (files) =>
          t.run(() => {
            try {
              parseLesson(files, metas);
            } catch (e) {
              check(
                e instanceof LessonError && e.message.startsWith(`${files.dir}/`),
                () => `not a LessonError naming its file: ${String(e)}`,
              );
            }
          }),
        ),
        { numRuns: fuzzRuns(), seed: 17 },
      );
      t.report();
    },
    fuzzTimeoutMs(),
  );
});
