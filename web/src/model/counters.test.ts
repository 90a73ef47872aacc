import { describe, expect, test } from 'vitest';

import type { SampleLayout } from '../engine/generated/SampleLayout';
import { counterDiff, countersAt, finalCounter, sampleTimes } from './counters';

// Two hosts, counters [A, B], then tcp_mem_pages; no apps: stride 1 + 2 * 3 = 7.
const layout: SampleLayout = { hosts: ['s', 'r'], counters: ['A', 'B'], apps: 0, stride: 7 };
// prettier-ignore
const samples = Float64Array.from([
  0,    0, 0, 0,   0, 0, 0,
  100,  5, 0, 1,   1, 0, 0,
  200,  9, 2, 1,   3, 0, 0,
  300, 14, 2, 1,   3, 0, 0,
]);
const times = sampleTimes(samples, layout.stride);

describe('nstat at the cursor', () => {
  test('shows the last sample at or before the cursor, nonzero counters only', () => {
    expect(countersAt(samples, layout, times, 0, 250, 1e9)).toEqual([
      { name: 'A', value: 9, delta: 9 },
      { name: 'B', value: 2, delta: 2 },
    ]);
    expect(countersAt(samples, layout, times, 1, 50, 10)).toEqual([]);
  });

  test('the delta is the change since the sample the interval before', () => {
    expect(countersAt(samples, layout, times, 0, 300, 100)).toEqual([
      { name: 'A', value: 14, delta: 5 },
      { name: 'B', value: 2, delta: 0 },
    ]);
  });

  test('the final counter is the last sample', () => {
    expect(finalCounter(samples, layout, 0, 'A')).toBe(14);
    expect(finalCounter(samples, layout, 1, 'A')).toBe(3);
    expect(finalCounter(samples, layout, 0, 'nope')).toBe(0);
  });
});

describe('A/B counters', () => {
  test('every counter of either side appears, in nstat order, zero where absent', () => {
    const rows = counterDiff(
      { sender: { TcpOutSegs: 10, TcpExtTCPAutoCorking: 4 } },
      { sender: { TcpOutSegs: 30 } },
      ['TcpOutSegs', 'TcpExtTCPAutoCorking'],
    );
    expect(rows).toEqual([
      { host: 'sender', name: 'TcpOutSegs', a: 10, b: 30 },
      { host: 'sender', name: 'TcpExtTCPAutoCorking', a: 4, b: 0 },
    ]);
  });
});
