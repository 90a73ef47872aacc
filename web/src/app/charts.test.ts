import { curveStepAfter, line } from 'd3-shape';
import { describe, expect, it } from 'vitest';

import { stepAfterPath } from './Charts';

describe("the charts' step paths", () => {
  it('are written as D3 writes line().curve(curveStepAfter)', () => {
    const cases: [number, number][][] = [
      [[1.23456, 2.5]],
      [
        [0, 0],
        [10.0004, 3.33333],
      ],
      Array.from(
        { length: 50 },
        (_, i) => [i * 1.7 + 0.12345, Math.sin(i) * 100] as [number, number],
      ),
      [
        [0, NaN],
        [1, 2],
        [2, NaN],
      ],
    ];
    for (const pts of cases) {
      const d3 = line().curve(curveStepAfter)(pts) ?? '';
      expect(
        stepAfterPath(
          pts.length,
          (i) => pts[i]![0],
          (i) => pts[i]![1],
        ),
      ).toBe(d3);
    }
  });
});
