// nstat -j output, on real outputs of nstat (iproute2 6.1) in fixtures/real.

import { describe, expect, test } from 'vitest';

import { parseCaptureText } from '../parse';
import { summarize } from '../query';
import { FIXTURES, parseFile } from '../testing';

const real = (f: string) => new URL(`real/${f}`, FIXTURES);

describe('nstat JSON importer', () => {
  for (const file of [
    'nstat-j.json',
    'nstat-ajp.json',
    'nstat-daemon.json',
    'nstat-series.jsonl',
  ]) {
    test(`reads ${file} (snapshot)`, () => {
      const result = parseFile(real(file));
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.model.format).toBe('nstat-json');
      expect(result.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
      expect(summarize(result.model)).toMatchSnapshot();
    });
  }

  test('the top-level key is the info source, whatever it is', () => {
    const result = parseFile(real('nstat-daemon.json'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.counters[0]!.source).toMatch(/sampling_interval=1 time_const=10$/);
    expect(Object.keys(result.model.counters[0]!.values).length).toBeGreaterThan(5);
  });

  test('pretty-printed (-p) and one-line outputs of the same counters read the same', () => {
    const pretty = parseCaptureText(
      '{\n  "kernel": {\n    "TcpOutSegs": 17,\n    "IpOutRequests": 9\n  }\n}\n',
    );
    const line = parseCaptureText('{"kernel":{"TcpOutSegs":17,"IpOutRequests":9}}');
    expect(pretty.ok && line.ok).toBe(true);
    if (!pretty.ok || !line.ok) return;
    expect(pretty.model.counters[0]!.values).toEqual(line.model.counters[0]!.values);
  });

  test('a series of objects, concatenated or one per line, gives one sample each', () => {
    const result = parseFile(real('nstat-series.jsonl'));
    expect(result.ok && result.model.counters.length).toBe(3);
    const joined = parseCaptureText('{"kernel":{"TcpOutSegs":1}}{"kernel":{"TcpOutSegs":2}}');
    expect(joined.ok && joined.model.counters.map((c) => c.values['TcpOutSegs'])).toEqual([1, 2]);
  });

  test('a timed wrapper {"t_ns": ..., "nstat": {...}} gives sample times relative to the first', () => {
    const result = parseCaptureText(
      '{"t_ns":1795298690000000000,"nstat":{"kernel":{"TcpOutSegs":1}}}\n{"t_ns":1795298690250000000,"nstat":{"kernel":{"TcpOutSegs":3}}}\n',
    );
    expect(result.ok && result.model.counters.map((c) => c.t_ns)).toEqual([0, 250000000]);
  });
});
