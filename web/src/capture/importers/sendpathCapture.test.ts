// Our capture format, on the real recordings shipped in public/samples (made by
// capture/lab/netns-lab.sh on Linux 6.18 with bpftrace 0.17).

import { describe, expect, test } from 'vitest';

import { counterIncrements, counterSeries, eventRow, summarize } from '../query';
import { SAMPLES, checkModel, modelOf, parseFile } from '../testing';

const SAMPLE_FILES = [
  'autocork-on.jsonl',
  'autocork-off.jsonl',
  'pingpong-default.jsonl',
  'pingpong-nodelay.jsonl',
  'bulk-40ms.jsonl',
];

describe('sendpath capture importer', () => {
  for (const file of SAMPLE_FILES) {
    test(`${file} reads without warnings into a consistent model (snapshot)`, () => {
      const result = parseFile(new URL(file, SAMPLES));
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const problems = result.diagnostics.filter((d) => d.severity !== 'info');
      expect(problems).toEqual([]);
      expect(result.model.format).toBe('sendpath-capture');
      expect(result.model.truncated).toBe(false);
      expect(checkModel(result.model)).toEqual([]);
      expect(summarize(result.model)).toMatchSnapshot();
    });
  }

  test('autocorking shows in the counters only when net.ipv4.tcp_autocorking is 1', () => {
    const on = modelOf(new URL('autocork-on.jsonl', SAMPLES));
    const off = modelOf(new URL('autocork-off.jsonl', SAMPLES));
    expect(on.config.sysctls['']?.['net.ipv4.tcp_autocorking']).toBe('1');
    expect(off.config.sysctls['']?.['net.ipv4.tcp_autocorking']).toBe('0');
    expect(counterIncrements(on)['TcpExtTCPAutoCorking']).toBeGreaterThan(0);
    expect(counterIncrements(off)['TcpExtTCPAutoCorking'] ?? 0).toBe(0);
  });

  test('the ping-pong without TCP_NODELAY waits for delayed ACKs: about 2 per round', () => {
    const m = modelOf(new URL('pingpong-default.jsonl', SAMPLES));
    const delayed = counterIncrements(m)['TcpExtDelayedACKs'] ?? 0;
    expect(delayed).toBeGreaterThanOrEqual(150);
    expect(delayed).toBeLessThanOrEqual(250);
    // Delayed-ACK timers are armed 10 jiffies (40 ms at HZ 250) ahead.
    const starts = m.events.tables.delack_start;
    expect(starts.count).toBeGreaterThan(0);
    const ahead = eventRow(m, 'delack_start', 0);
    expect(Number(ahead['expires']) - Number(ahead['now'])).toBe(10);
    expect(m.config.host?.configHz).toBe(250);
  });

  test('the bulk transfer sends GSO skbs: more TCP segments than IP packets', () => {
    const m = modelOf(new URL('bulk-40ms.jsonl', SAMPLES));
    const inc = counterIncrements(m);
    expect(inc['TcpOutSegs']!).toBeGreaterThan(1300);
    expect(inc['IpOutRequests']!).toBeLessThan(inc['TcpOutSegs']!);
    const xmit = m.events.tables.xmit;
    const segs = xmit.columns['gso_segs']!;
    expect(Math.max(...segs)).toBeGreaterThan(1);
    // The receiver's namespace was sampled too (-n).
    expect(Object.keys(counterIncrements(m, m.config.filters!.netns[0]))).toContain('TcpInSegs');
  });

  test('counter series start at 0 and grow by the deltas', () => {
    const m = modelOf(new URL('bulk-40ms.jsonl', SAMPLES));
    const series = counterSeries(m, 'TcpOutSegs');
    expect(series[0]![1]).toBe(0);
    expect(series.at(-1)![1]).toBe(counterIncrements(m)['TcpOutSegs']);
    for (let i = 1; i < series.length; i++)
      expect(series[i]![0]).toBeGreaterThanOrEqual(series[i - 1]![0]);
  });

  test('the event cap shows as the end of the event window, not as lost events', () => {
    const m = modelOf(new URL('pingpong-nodelay.jsonl', SAMPLES));
    expect(m.eventWindow?.truncatedBy).toBe('cap');
    expect(m.eventWindow!.endNs).toBeLessThan(m.durationNs);
  });

  test('chunk boundaries do not change the model', () => {
    const url = new URL('bulk-40ms.jsonl', SAMPLES);
    const whole = parseFile(url, 1 << 30);
    const small = parseFile(url, 777);
    expect(whole.ok && small.ok).toBe(true);
    if (!whole.ok || !small.ok) return;
    expect(summarize(small.model, 50)).toEqual(summarize(whole.model, 50));
  });
});
