// The fuzz tests' shared settings (not part of the site): how many inputs each target runs, and
// the slowest input's time, which `npm run fuzz` (scripts/fuzz.mjs) checks against 2 s.

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
  const t0 = performance.now();
  return {
    run<T>(f: () => T): T {
      const s = performance.now();
      try {
        return f();
      } finally {
        inputs++;
        slowest = Math.max(slowest, performance.now() - s);
      }
    },
    report(): void {
      const wall = (performance.now() - t0) / 1000;
      // One line per target, which scripts/fuzz.mjs collects (the lint allows warn).
      console.warn(
        `fuzz ${target}: ${inputs} inputs, slowest ${slowest.toFixed(1)} ms, ${wall.toFixed(1)} s`,
      );
      if (process.env.SENDPATH_FUZZ_RUNS && slowest >= FUZZ_BUDGET_MS)
        throw new Error(`fuzz ${target}: an input took ${slowest.toFixed(0)} ms (budget 2 s)`);
    },
  };
}
