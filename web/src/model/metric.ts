// How the lessons' A/B tables show a metric's value (model or source). No React.

import { formatCount } from './format';

/** Whole numbers and values of 100 or more grouped, others to 3 significant digits; — none. */
export function formatMetric(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (Math.abs(v) >= 100 || Number.isInteger(v)) return formatCount(Math.round(v));
  return Number(v.toPrecision(3)).toString();
}

/** a / b, or null when either is missing or b is 0. */
export function ratioOf(a: number | null | undefined, b: number | null | undefined): number | null {
  return a === null || a === undefined || b === null || b === undefined || b === 0 ? null : a / b;
}
