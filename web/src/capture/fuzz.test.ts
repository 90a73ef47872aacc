// Property tests: every importer, and the whole parser, on random and mutated inputs. They must
// never throw, never report an internal error, and always give either a consistent model or a
// refusal that names what was expected. Seeds are fixed (fast-check prints the failing one).
// Each importer is a fuzz target: a few thousand inputs under `npm test`, a million under
// `npm run fuzz` (SENDPATH_FUZZ_RUNS, model/fuzzkit.ts), which also checks none took 2 s.

import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { BpftraceJsonImporter } from './importers/bpftraceJson';
import { BpftraceTextImporter } from './importers/bpftraceText';
import type { Importer } from './importers/importer';
import { NstatJsonImporter } from './importers/nstatJson';
import { NstatTextImporter } from './importers/nstatText';
import { SendpathCaptureImporter } from './importers/sendpathCapture';
import { parseCaptureText } from './parse';
import { summarize } from './query';
import { check, fuzzRuns, fuzzTimeoutMs, timed } from '../model/fuzzkit';
import { FIXTURES, SAMPLES, checkModel, internalErrors, parseBytes } from './testing';

const RUNS = { numRuns: 300, seed: 20261121 };

const realLines = [
  ...readFileSync(new URL('bulk-40ms.jsonl', SAMPLES), 'utf8').split('\n').slice(0, 120),
  ...readFileSync(new URL('real/bpftrace.txt', FIXTURES), 'utf8').split('\n').slice(0, 40),
  ...readFileSync(new URL('real/nstat-series.txt', FIXTURES), 'utf8').split('\n').slice(0, 30),
  ...readFileSync(new URL('real/nstat-ajp.json', FIXTURES), 'utf8').split('\n'),
];

/** A line: real, real with a random edit, or random text. */
const line = fc.oneof(
  fc.constantFrom(...realLines),
  fc
    .tuple(
      fc.constantFrom(...realLines),
      fc.nat(),
      fc.string({ maxLength: 12 }),
      fc.nat({ max: 8 }),
    )
    .map(([l, at, insert, cut]) => {
      const i = l.length ? at % l.length : 0;
      return l.slice(0, i) + insert + l.slice(i + cut);
    }),
  fc.string({ maxLength: 80, unit: 'binary' }),
  fc
    .tuple(
      fc.constantFrom('xmit', 'queue', 'sendmsg', 'probe', 'clock', 'cap', 'dequeue'),
      fc.array(
        fc.tuple(
          fc.constantFrom('t', 'len', 'skbaddr', 'dev', 'mono_ns', 'gso_segs', 'handle'),
          fc.oneof(
            fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
            fc.string({ maxLength: 10 }),
            fc.constant('0xffff88810a2b3c00'),
            fc.constant('(nil)'),
          ),
        ),
        { maxLength: 8 },
      ),
    )
    .map(([kind, kv]) => `${kind} ${kv.map(([k, v]) => `${k}=${v}`).join(' ')}`),
);
const lines = fc.array(line, { maxLength: 60 });

function checkResult(text: string): void {
  const result = parseCaptureText(text);
  expect(internalErrors(result)).toEqual([]);
  if (result.ok) expect(checkModel(result.model)).toEqual([]);
  else expect(result.error.message.length).toBeGreaterThan(10);
}

const IMPORTERS: Array<[string, () => Importer]> = [
  ['sendpath-capture', () => new SendpathCaptureImporter()],
  ['nstat-text', () => new NstatTextImporter()],
  ['nstat-json', () => new NstatJsonImporter()],
  ['bpftrace-json', () => new BpftraceJsonImporter()],
  ['bpftrace-text', () => new BpftraceTextImporter()],
];

describe('fuzzing', () => {
  for (const [name, make] of IMPORTERS) {
    test(
      `the ${name} importer survives any sequence of lines, and its model stays consistent`,
      () => {
        const t = timed(`capture ${name}`);
        fc.assert(
          fc.property(lines, fc.boolean(), (ls, unterminated) =>
            t.run(() => {
              const importer = make();
              ls.forEach((l, i) => importer.line(l, i + 1));
              importer.end(unterminated, ls.length);
              const broken = checkModel(importer.builder.finish());
              check(broken.length === 0, () => `${JSON.stringify(ls)}: ${broken.join('; ')}`);
            }),
          ),
          { ...RUNS, numRuns: fuzzRuns() },
        );
        t.report();
      },
      fuzzTimeoutMs(),
    );
  }

  test('the parser survives any text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 2000, unit: 'grapheme' }), checkResult), RUNS);
  });

  test('the parser survives any lines, real or not', () => {
    fc.assert(
      fc.property(lines, (ls) => checkResult(ls.join('\n'))),
      RUNS,
    );
  });

  test('the parser survives any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
        const result = parseBytes(bytes, 97);
        expect(internalErrors(result)).toEqual([]);
      }),
      RUNS,
    );
  });

  test('a real capture cut at any point keeps a consistent model of what precedes', () => {
    const text = readFileSync(new URL('bulk-40ms.jsonl', SAMPLES), 'utf8').slice(0, 200_000);
    fc.assert(
      fc.property(fc.nat({ max: text.length }), (cut) => {
        const result = parseCaptureText(text.slice(0, cut));
        expect(internalErrors(result)).toEqual([]);
        if (result.ok) {
          expect(result.model.format).toBe('sendpath-capture');
          expect(checkModel(result.model)).toEqual([]);
        }
      }),
      { numRuns: 100, seed: 7 },
    );
  });

  test('how a file is split into chunks never changes the model', () => {
    const bytes = new Uint8Array(readFileSync(new URL('real/bpftrace.txt', FIXTURES)));
    const whole = parseBytes(bytes, bytes.length);
    expect(whole.ok).toBe(true);
    if (!whole.ok) return;
    const expected = summarize(whole.model, 1000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), (size) => {
        const r = parseBytes(bytes, size);
        expect(r.ok && summarize(r.model, 1000)).toEqual(expected);
      }),
      { numRuns: 50, seed: 11 },
    );
  });
});
