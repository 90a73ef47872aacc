import { describe, expect, it } from 'vitest';

import { formatMetric, ratioOf } from './metric';

describe('a metric in the A/B table', () => {
  it('reads as the source documents print it', () => {
    expect(formatMetric(7.927)).toBe('7.93');
    expect(formatMetric(0.056)).toBe('0.056');
    expect(formatMetric(9410.39)).toBe(formatMetric(9410));
    expect(formatMetric(1397)).toBe(formatMetric(1397.2));
    expect(formatMetric(null)).toBe('—');
    expect(formatMetric(Number.NaN)).toBe('—');
  });

  it('has no ratio without both values or over zero', () => {
    expect(ratioOf(1, 2)).toBe(0.5);
    expect(ratioOf(1, 0)).toBeNull();
    expect(ratioOf(null, 2)).toBeNull();
  });
});
