// A parameter sweep's data as the sweep panel plots and exports it (app/Sweep.tsx): the grid
// comes from the engine (`sweepGrid`, engine/core/src/sweep), each point's metrics from a
// worker (`sweepPoint`). No React, no D3: series for a line plot (one varied key) or the cells
// of a heat map (two), and the CSV `sendpath sweep --csv` prints for the same sweep.

import type { SweepGrid } from '../engine/generated/SweepGrid';

/** What one point of a sweep gave: its metrics (null: no value), and its warnings. */
export interface SweepPointResult {
  metrics: (number | null)[];
  warnings: string[];
}

/** What a point gave: null while it has not run (or the sweep was cancelled before it). */
export type SweepResults = (SweepPointResult | null)[];

/** A point of a line plot: `x` is the value (a number, or the value's index for names). */
export interface LinePoint {
  x: number;
  y: number;
  /** The grid point it came from. */
  point: number;
}

/** Whether every value is a number (the x axis is then linear, else one band per value). */
export function numericValues(values: readonly string[]): boolean {
  return values.every((v) => v.trim() !== '' && Number.isFinite(Number(v)));
}

/** The line of metric `m` against the (single) varied key: the points that have a value. */
export function lineOf(grid: SweepGrid, results: SweepResults, m: number): LinePoint[] {
  const numeric = numericValues(grid.vary[0]?.values ?? []);
  const out: LinePoint[] = [];
  grid.points.forEach((p, i) => {
    const y = results[i]?.metrics[m];
    if (y === null || y === undefined || !Number.isFinite(y)) return;
    const v = p.values[0]!;
    out.push({ x: numeric ? Number(v) : grid.vary[0]!.values.indexOf(v), y, point: i });
  });
  return out;
}

/** A heat map cell: the row is the first key's value, the column the second's. */
export interface HeatCell {
  row: number;
  col: number;
  /** The metric, or null where the point has no value (yet). */
  v: number | null;
  point: number;
}

/** The cells of metric `m` over two varied keys (the first varies slowest: row by row). */
export function heatOf(grid: SweepGrid, results: SweepResults, m: number): HeatCell[] {
  const cols = grid.vary[1]?.values.length ?? 1;
  return grid.points.map((_, i) => {
    const y = results[i]?.metrics[m];
    return {
      row: Math.floor(i / cols),
      col: i % cols,
      v: y === null || y === undefined || !Number.isFinite(y) ? null : y,
      point: i,
    };
  });
}

/** A number as `sendpath sweep` prints it: up to 6 significant digits, no trailing zeros. */
export function sweepNumber(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '';
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return x.toFixed(0);
  const digits = Math.min(9, Math.max(0, 5 - Math.floor(Math.log10(Math.abs(x)))));
  const s = x.toFixed(digits);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** RFC 4180 CSV: the varied keys and the metrics as columns, one row per point. */
export function sweepCsv(grid: SweepGrid, results: SweepResults): string {
  const cell = (c: string) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  const rows = [[...grid.vary.map((v) => v.key), ...grid.metrics]];
  grid.points.forEach((p, i) => {
    const r = results[i];
    rows.push([...p.values, ...grid.metrics.map((_, m) => sweepNumber(r?.metrics[m]))]);
  });
  return rows.map((r) => r.map(cell).join(',')).join('\n') + '\n';
}
