// The builder's two readers of an event line: exactEvent, which reads a line exactly as
// sendpath.bt prints it in one pass, and the token-by-token reading of everything else. What
// exactEvent reads must come out as the token-by-token reading gives it, and what it refuses it
// must leave untouched.

import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { ReplayBuilder } from './builder';
import { EVENT_FIELDS, EVENT_KINDS } from './model';
import { FIXTURES, SAMPLES } from './testing';

const ENCODER = new TextEncoder();

/** The payloads of a sample and of a real bpftrace text output (events, and clock or config). */
const realPayloads = [
  ...readFileSync(new URL('bulk-40ms.jsonl', SAMPLES), 'utf8')
    .split('\n')
    .map((l) => /^\{"type": "printf", "data": "(.*)\\n"\}$/.exec(l)?.[1])
    .filter((p): p is string => p !== undefined)
    .slice(0, 200),
  ...readFileSync(new URL('real/bpftrace.txt', FIXTURES), 'utf8')
    .split('\n')
    .filter((l) => /^[a-z_]+ [a-z_]+=/.test(l)),
];
const realEvents = realPayloads.filter((p) => (EVENT_KINDS as string[]).includes(p.split(' ')[0]!));

/** A payload: real, real with a random edit, or made of a kind's own fields. */
const payload = fc.oneof(
  fc.constantFrom(...realPayloads),
  fc
    .tuple(
      fc.constantFrom(...realPayloads),
      fc.nat(),
      fc.string({ maxLength: 6 }),
      fc.nat({ max: 4 }),
    )
    .map(([p, at, insert, cut]) => {
      const i = at % p.length;
      return p.slice(0, i) + insert + p.slice(i + cut);
    }),
  fc.constantFrom(...EVENT_KINDS).chain((kind) =>
    fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.array(
          fc.oneof(
            fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }).map(String),
            fc.bigInt({ min: 0n, max: 2n ** 64n }).map((v) => `0x${v.toString(16)}`),
            fc.constantFrom('(nil)', '0X1F', 'eth0', '', 'a"b', 'a\\b', '0x', '-'),
          ),
          { minLength: EVENT_FIELDS[kind].length, maxLength: EVENT_FIELDS[kind].length },
        ),
      )
      .map(
        ([t, values]) =>
          `${kind} t=${t} ${EVENT_FIELDS[kind].map((f, i) => `${f}=${values[i]}`).join(' ')}`,
      ),
  ),
);

/** What a builder made of the payloads: its model's events and its diagnostics. */
function read(payloads: string[]) {
  const b = new ReplayBuilder('bpftrace-text');
  b.setMonoT0('1000');
  payloads.forEach((p, i) => b.eventPayload(p, i + 1));
  const m = b.finish();
  return { events: m.events, diagnostics: b.diagnostics };
}

/** The same payload with two spaces after its kind, which only the token-by-token reading takes. */
function tokenByToken(p: string): string {
  return p.replace(' ', '  ');
}

describe('exactEvent', () => {
  test('reads the real event lines (none falls back)', () => {
    expect(realEvents.length).toBeGreaterThan(100);
    for (const p of realEvents) {
      const b = new ReplayBuilder('bpftrace-text');
      b.setMonoT0('1000');
      const bytes = ENCODER.encode(p);
      expect(b.exactEvent(bytes, 0, bytes.length, 1), p).toBe(true);
    }
  });

  test('gives what the token-by-token reading gives, for any payloads', () => {
    fc.assert(
      fc.property(fc.array(payload, { maxLength: 20 }), (ps) => {
        expect(read(ps)).toEqual(read(ps.map(tokenByToken)));
      }),
      { numRuns: 500, seed: 20261127 },
    );
  });

  test.each([
    ['a quote in a name', 'queue t=5 dev=et"h0 skbaddr=0x1 len=1'],
    ['a backslash in a name', 'queue t=5 dev=eth\\0 skbaddr=0x1 len=1'],
    ['16 digits', 'queue t=5 dev=eth0 skbaddr=0x1 len=1234567890123456'],
    ['14 hexadecimal digits', 'enqueue t=5 skbaddr=0x1 handle=0xffff88810a2b3c parent=0x1'],
    ['fields out of order', 'queue t=5 skbaddr=0x1 dev=eth0 len=1'],
    ['a missing field', 'queue t=5 dev=eth0 skbaddr=0x1'],
    ['a field it does not know', 'queue t=5 dev=eth0 skbaddr=0x1 len=1 cpu=3'],
    ['two spaces', 'queue t=5 dev=eth0  skbaddr=0x1 len=1'],
    ['t after the fields', 'queue dev=eth0 skbaddr=0x1 len=1 t=5'],
    ['a value that is not a number', 'queue t=5 dev=eth0 skbaddr=0x1 len=1x'],
    ['a line that is not an event', 'clock mono_ns=5 real=1.000000'],
  ])('refuses %s, and changes nothing', (_, p) => {
    const b = new ReplayBuilder('bpftrace-text');
    b.setMonoT0('1000');
    const bytes = ENCODER.encode(p);
    expect(b.exactEvent(bytes, 0, bytes.length, 1)).toBe(false);
    expect(b.eventCount()).toBe(0);
    expect(b.diagnostics).toEqual([]);
    const m = b.finish();
    expect(m.events.addressCount).toBe(0);
    expect(m.events.strings).toEqual([]);
  });

  test('reads (nil), 0X, kernel pointers and negative numbers as the token-by-token reading does', () => {
    const ps = [
      'queue t=2000 dev=eth0 skbaddr=(nil) len=-0',
      'queue t=2001 dev=eth0 skbaddr=0X1F len=-12',
      'queue t=2002 dev=eth0 skbaddr=0xffff8882e29b0000 len=1',
    ];
    const b = new ReplayBuilder('bpftrace-text');
    b.setMonoT0('1000');
    for (const p of ps) {
      const bytes = ENCODER.encode(p);
      expect(b.exactEvent(bytes, 0, bytes.length, 1), p).toBe(true);
    }
    expect(read(ps)).toEqual(read(ps.map(tokenByToken)));
  });
});
