// The A/B steps of the bundled lessons, run at build time: scripts/vite-plugin-lesson-ab.ts runs
// each side of each A/B step in the build's own wasm engine (the same `experiment` verb the page
// would call, engine/serve.ts) and the page shows those metrics at once instead of running two
// full runs on load (classroom/ABTable.tsx). Made anew by every build, from that build's engine
// and scenario files, so the numbers are the engine's own and cannot go stale.

import type { Lesson } from './lesson';

/** The metrics of one side's full run, by metric name (null: a name the engine does not know). */
export type AbValues = Record<string, number | null>;

/** Every prerendered side, by `abSideKey`. */
export type PrerenderedAb = Record<string, AbValues>;

/** What one side of an A/B step asks of the engine, as one string. */
export function abSideKey(
  scenario: string,
  variant: string,
  sets: readonly string[],
  metrics: readonly string[],
): string {
  return JSON.stringify([scenario, variant, sets, metrics]);
}

/** Each side of every A/B step of `lessons`, once: `{ key, scenario, variant, sets, metrics }`. */
export function abSides(lessons: readonly Lesson[]) {
  const out = new Map<
    string,
    { scenario: string; variant: string; sets: string[]; metrics: string[] }
  >();
  for (const lesson of lessons)
    for (const step of lesson.steps) {
      if (!step.compare) continue;
      for (const variant of [step.compare.a, step.compare.b]) {
        const key = abSideKey(lesson.scenario, variant, step.sets, step.metrics);
        if (!out.has(key))
          out.set(key, {
            scenario: lesson.scenario,
            variant,
            sets: [...step.sets],
            metrics: [...step.metrics],
          });
      }
    }
  return [...out].map(([key, side]) => ({ key, ...side }));
}
