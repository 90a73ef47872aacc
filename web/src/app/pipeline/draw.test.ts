import { describe, expect, it } from 'vitest';

import { fitLabels, lightColour, type SegLabel } from './draw';

const label = (x: number, boxW: number, text = '×45', y = 50): SegLabel => ({
  text,
  x: x + 2,
  y,
  w: 24,
  box: { x, y: y - 10, w: boxW, h: 20 },
  colour: '#243a58',
});

describe("a packet's segment count on the wire", () => {
  it('is written inside its own packet only', () => {
    expect(fitLabels([label(0, 40)], 15, 'horizontal')).toHaveLength(1);
    // "×45" is 24 px wide: a 20 px packet has no room for it (it spilled onto the next one).
    expect(fitLabels([label(0, 20)], 15, 'horizontal')).toHaveLength(0);
  });

  it('never over another label: two packets close together do not read "×45×45"', () => {
    // Overlapping packets (one still serializing behind the other): the second label is dropped.
    const kept = fitLabels([label(0, 40), label(10, 40)], 15, 'horizontal');
    expect(kept.map((l) => l.x)).toEqual([2]);
    // Side by side with room for both, or in different lanes: both written.
    expect(fitLabels([label(0, 40), label(40, 40)], 15, 'horizontal')).toHaveLength(2);
    expect(fitLabels([label(0, 40), label(10, 40, '×45', 90)], 15, 'horizontal')).toHaveLength(2);
  });

  it('is dark on a light packet and white on a dark one', () => {
    expect(lightColour('#c5d5ea')).toBe(true);
    expect(lightColour('#243a58')).toBe(false);
  });
});
