import { describe, expect, it } from 'vitest';

import { rateText, titleWithSets } from './title';

describe('titleWithSets', () => {
  it('follows link.rate_mbit in the rate a title names', () => {
    const t = 'TCP Small Queues: one bulk flow on a 1 Gbit/s link';
    expect(titleWithSets(t, ['link.rate_mbit=10000'])).toBe(
      'TCP Small Queues: one bulk flow on a 10 Gbit/s link',
    );
    expect(titleWithSets(t, ['link.rate_mbit=100'])).toBe(
      'TCP Small Queues: one bulk flow on a 100 Mbit/s link',
    );
    // The last override wins, as the engine applies them.
    expect(titleWithSets(t, ['link.rate_mbit=100', 'link.rate_mbit=2500'])).toContain('2.5 Gbit/s');
  });

  it('leaves a title alone without a rate override or without a rate in it', () => {
    expect(titleWithSets('on a 1 Gbit/s link', ['app.flows=2'])).toBe('on a 1 Gbit/s link');
    expect(titleWithSets('Nagle and delayed ACK', ['link.rate_mbit=10000'])).toBe(
      'Nagle and delayed ACK',
    );
    expect(titleWithSets('on a 1 Gbit/s link', ['link.rate_mbit=abc'])).toBe('on a 1 Gbit/s link');
  });

  it('writes rates as titles do', () => {
    expect(rateText(40000)).toBe('40 Gbit/s');
    expect(rateText(500)).toBe('500 Mbit/s');
  });
});
