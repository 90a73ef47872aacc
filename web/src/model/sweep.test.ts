import { describe, expect, test } from 'vitest';

import type { SweepGrid } from '../engine/generated/SweepGrid';
import { heatOf, lineOf, numericValues, sweepCsv, sweepNumber, type SweepResults } from './sweep';

const grid = (vary: [string, string[]][]): SweepGrid => {
  const points: SweepGrid['points'] = [];
  const walk = (k: number, values: string[]) => {
    if (k === vary.length) {
      points.push({ values, sets: values.map((v, i) => `${vary[i]![0]}=${v}`) });
      return;
    }
    for (const v of vary[k]![1]) walk(k + 1, [...values, v]);
  };
  walk(0, []);
  return {
    vary: vary.map(([key, values]) => ({ key, values })),
    metrics: ['throughput_mbit', 'cpu_per_byte_ns'],
    points,
  };
};

const done = (...ys: (number | null)[][]): SweepResults =>
  ys.map((metrics) => ({ metrics, warnings: [] }));

describe('sweep data', () => {
  test('a line holds the points that have a value, at their key value', () => {
    const g = grid([['app.write_size_bytes', ['128', '256', '512']]]);
    const r = [...done([10, 1], [null, 2]), null];
    expect(lineOf(g, r, 0)).toEqual([{ x: 128, y: 10, point: 0 }]);
    expect(lineOf(g, r, 1)).toEqual([
      { x: 128, y: 1, point: 0 },
      { x: 256, y: 2, point: 1 },
    ]);
  });

  test('named values are placed by their index', () => {
    const g = grid([['net.core.default_qdisc', ['fq', 'pfifo_fast']]]);
    expect(numericValues(g.vary[0]!.values)).toBe(false);
    expect(lineOf(g, done([1, 0], [2, 0]), 0).map((p) => p.x)).toEqual([0, 1]);
  });

  test('a heat map has a cell per point, row by the first key, column by the second', () => {
    const g = grid([
      ['net.ipv4.tcp_autocorking', ['0', '1']],
      ['app.write_size_bytes', ['128', '256', '512']],
    ]);
    const cells = heatOf(g, done([1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [null, 0]), 0);
    expect(cells.map((c) => [c.row, c.col, c.v])).toEqual([
      [0, 0, 1],
      [0, 1, 2],
      [0, 2, 3],
      [1, 0, 4],
      [1, 1, 5],
      [1, 2, null],
    ]);
  });

  test('the CSV is what sendpath sweep --csv prints', () => {
    const g = grid([['app.write_size_bytes', ['128', '256']]]);
    expect(sweepCsv(g, [...done([3961.982, 8.0758812]), null])).toBe(
      'app.write_size_bytes,throughput_mbit,cpu_per_byte_ns\n128,3961.98,8.07588\n256,,\n',
    );
    expect(sweepNumber(990.3712345)).toBe('990.371');
    expect(sweepNumber(0.000123456789)).toBe('0.000123457');
    expect(sweepNumber(42)).toBe('42');
  });
});
