import { describe, expect, it } from 'vitest';

import {
  csvName,
  csvRows,
  deviceRows,
  fired,
  mbit,
  minAvgMax,
  tsoBuckets,
  usOf,
} from './runSummary';

describe('run summary', () => {
  it('buckets TSO sizes by powers of two, as sendpath run prints them', () => {
    // engine/cli/src/summary.rs's test: the same histogram, the same buckets.
    const b = tsoBuckets([
      [1, 5],
      [2, 1],
      [3, 2],
      [44, 7],
    ]);
    expect(b[0]).toEqual(['1', 5]);
    expect(b[1]).toEqual(['2-3', 3]);
    expect(b[2]).toEqual(['4-7', 0]);
    expect(b[b.length - 1]).toEqual(['32-63', 7]);
    expect(b).toHaveLength(6);
    expect(tsoBuckets([])).toEqual([['1', 0]]);
  });

  it('prints figures with the CLI’s precision', () => {
    expect(mbit(2_449_823_456)).toBe('2449.82');
    expect(usOf(37_349)).toBe('37.3');
    expect(minAvgMax({ min: 11, avg: 113.94, max: 216 })).toBe('11/113.9/216');
    expect(minAvgMax(null)).toBe('–');
  });

  it('lists only the queues a device has', () => {
    const level = { avg: 1, p50: 0, p99: 2, max: 3 };
    expect(
      deviceRows({
        host: 'sender',
        qdisc_bytes: level,
        qdisc_packets: level,
        ring_descs: null,
        bql_inflight_bytes: null,
      }).map((r) => r.queue),
    ).toEqual(['qdiscBytes', 'qdiscPackets']);
  });

  it('counts CSV rows without the header', () => {
    expect(csvRows('t_ms,host\n0,a\n1,a\n')).toBe(2);
    expect(csvRows('t_ms,host\n')).toBe(0);
  });

  it('names CSV files as --csv PREFIX does', () => {
    expect(csvName('autocorking.toml', null, 1_000_000, 'flows')).toBe('autocorking-1ms.flows.csv');
    expect(csvName('my file.toml', 'b', 100_000, 'devices')).toBe('my_file-B-0.1ms.devices.csv');
  });

  it('says on which side a switch fired', () => {
    expect(fired(0, 560)).toBe('b');
    expect(fired(3, 0)).toBe('a');
    expect(fired(1, 1)).toBe('both');
    expect(fired(0, 0)).toBe('neither');
    expect(fired(null, 3)).toBeNull();
    expect(fired(undefined, 3)).toBeNull();
  });
});
