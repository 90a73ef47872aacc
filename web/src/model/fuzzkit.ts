// The fuzz tests' shared settings (not part of the site): how many inputs each target runs, the
// slowest input's time, which `npm run fuzz` (scripts/fuzz.mjs) checks against 2 s, and the
// generator of query strings the page's and the embed's URL targets share.

import fc from 'fast-check';

/** Inputs per target: SENDPATH_FUZZ_RUNS (npm run fuzz), else a few thousand (npm test). */
export function fuzzRuns(fallback = 2000): number {
  const n = Number(process.env.SENDPATH_FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** A fuzz test's time limit: an hour per target under `npm run fuzz`, a minute otherwise. */
export function fuzzTimeoutMs(): number {
  return process.env.SENDPATH_FUZZ_RUNS ? 3_600_000 : 60_000;
}

/** A check inside a fuzz property: cheaper than expect() over a million inputs. */
export function check(ok: boolean, what: () => string): void {
  if (!ok) throw new Error(what());
}

/** The longest an input may take in `npm run fuzz`. */
export const FUZZ_BUDGET_MS = 2000;

/**
 * Counts a target's inputs and keeps its slowest. `report()` prints one line that
 * scripts/fuzz.mjs reads, and under `npm run fuzz` fails the test if an input took 2 s or more.
 */
export function timed(target: string) {
  let inputs = 0;
  let slowest = 0;
  let slowestCpu = 0;
  const t0 = performance.now();
  return {
    run<T>(f: () => T): T {
      const s = performance.now();
      const c = process.cpuUsage();
      try {
        return f();
      } finally {
        inputs++;
        const took = performance.now() - s;
        if (took > slowest) {
          slowest = took;
          // The CPU this process used meanwhile (all its threads: an upper bound), which a busy
          // machine's waiting does not inflate.
          const u = process.cpuUsage(c);
          slowestCpu = Math.max(slowestCpu, (u.user + u.system) / 1000);
        }
      }
    },
    report(): void {
      const wall = (performance.now() - t0) / 1000;
      // One line per target, which scripts/fuzz.mjs collects (the lint allows warn).
      console.warn(
        `fuzz ${target}: ${inputs} inputs, slowest ${slowest.toFixed(1)} ms (${slowestCpu.toFixed(1)} ms of CPU), ${wall.toFixed(1)} s`,
      );
      if (process.env.SENDPATH_FUZZ_RUNS && Math.min(slowest, slowestCpu) >= FUZZ_BUDGET_MS)
        throw new Error(`fuzz ${target}: an input took ${slowest.toFixed(0)} ms (budget 2 s)`);
    },
  };
}

/** Scenario names the URL targets know. */
export const NAMES = ['autocorking', 'nagle-delayed-ack', 'tcp-small-queues'];

/** URL parameters the page and the embed read, and some they do not. */
export const PARAMS = [
  'sweep',
  'metric',
  's',
  'v',
  'set',
  'b',
  'bs',
  'bv',
  'bset',
  'from',
  'to',
  't',
  'e',
  'speed',
  'sk',
  'edit',
  'theme',
  'step',
  'log',
  'sel',
  'capture',
  'lesson',
  'lang',
  'view',
  'scenario',
  'variant',
  'autoplay',
  'panels',
  'height',
];
const value = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1e308',
    'NaN',
    'Infinity',
    '0x10',
    '1.5',
    'a',
    'b',
    'dark',
    'autocorking',
    'nope',
    'on',
    'off',
    'net.ipv4.tcp_autocorking=1',
    'skb:3',
    'bytes:0:1:0',
    'samples/autocork-on.jsonl',
    'https://other.example/x.jsonl',
    'javascript:alert(1)',
    '%',
    '%E0%A4%A',
    '\u0000',
    '\u202e',
    'x'.repeat(5000),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.integer().map(String),
  fc.double().map(String),
);
/** A query string: known parameters with hostile values, in any order, repeated, raw or encoded. */
export const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 8 })),
      value,
      fc.boolean(),
    ),
    {
      maxLength: 12,
    },
  )
  .map(
    (kv) =>
      `?${kv.map(([k, v, raw]) => (raw ? `${k}=${v}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&')}`,
  );
