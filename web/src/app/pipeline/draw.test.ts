import { describe, expect, it } from 'vitest';

import { Batch, fitLabels, lightColour, type SegLabel } from './draw';

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

describe('packets batched for painting', () => {
  /** The rectangles a batch fills (one call per rectangle of the path). */
  const painted = (batch: Batch) => {
    const rects: number[][] = [];
    const g = {
      globalAlpha: 1,
      fillStyle: '',
      beginPath() {},
      rect: (x: number, y: number, w: number, h: number) => rects.push([x, y, w, h]),
      fill() {},
    } as unknown as CanvasRenderingContext2D;
    batch.flush(g);
    return rects;
  };

  it('merges packets that overlap or touch in a lane into one rectangle (the same union)', () => {
    const b = new Batch();
    for (let i = 0; i < 1000; i++) b.add('#111', 1, { x: 10 + i * 0.3, y: 5, w: 2, h: 4 });
    // A gap, then another run; another lane; another colour.
    b.add('#111', 1, { x: 400, y: 5, w: 2, h: 4 });
    b.add('#111', 1, { x: 401, y: 5, w: 2, h: 4 });
    b.add('#111', 1, { x: 402, y: 20, w: 2, h: 4 });
    b.add('#222', 1, { x: 403, y: 20, w: 2, h: 4 });
    expect(b.size).toBe(4);
    const r = painted(b);
    expect(r[0]![0]).toBe(10);
    expect(r[0]![2]).toBeCloseTo(0.3 * 999 + 2);
    expect(r.slice(1)).toEqual([
      [400, 5, 3, 4],
      [402, 20, 2, 4],
      [403, 20, 2, 4],
    ]);
  });

  it('merges along y in a vertical pipeline', () => {
    const b = new Batch();
    b.add('#111', 1, { x: 5, y: 10, w: 4, h: 2 });
    b.add('#111', 1, { x: 5, y: 11, w: 4, h: 2 });
    expect(painted(b)).toEqual([[5, 10, 4, 3]]);
  });
});
