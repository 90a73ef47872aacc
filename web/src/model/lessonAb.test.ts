import { describe, expect, it } from 'vitest';

import { abSideKey, abSides } from './lessonAb';
import { bundledLessons } from './lessons';

describe('lessonAb', () => {
  it('lists each side of every bundled A/B step once, keyed as the table looks it up', () => {
    const { lessons } = bundledLessons();
    const sides = abSides(lessons);
    const keys = new Set(sides.map((s) => s.key));
    expect(keys.size).toBe(sides.length);
    let steps = 0;
    for (const lesson of lessons)
      for (const step of lesson.steps) {
        if (!step.compare) continue;
        steps++;
        for (const variant of [step.compare.a, step.compare.b])
          expect(keys).toContain(abSideKey(lesson.scenario, variant, step.sets, step.metrics));
      }
    expect(steps).toBeGreaterThan(0);
    for (const s of sides) expect(s.key).toBe(abSideKey(s.scenario, s.variant, s.sets, s.metrics));
  });

  it('tells apart sides that differ only in their overrides or metrics', () => {
    expect(abSideKey('x', 'on', [], ['a'])).not.toBe(abSideKey('x', 'on', ['k=1'], ['a']));
    expect(abSideKey('x', 'on', [], ['a'])).not.toBe(abSideKey('x', 'on', [], ['a', 'b']));
  });
});
