// nstat's text output, on real outputs of nstat (iproute2 6.1) in fixtures/real.

import { readFileSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { parseCaptureText } from '../parse';
import { summarize } from '../query';
import { FIXTURES, parseFile } from '../testing';

const real = (f: string) => new URL(`real/${f}`, FIXTURES);

describe('nstat text importer', () => {
  for (const file of ['nstat.txt', 'nstat-a.txt', 'nstat-daemon.txt', 'nstat-series.txt']) {
    test(`reads ${file} (snapshot)`, () => {
      const result = parseFile(real(file));
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.model.format).toBe('nstat-text');
      expect(result.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
      expect(summarize(result.model)).toMatchSnapshot();
    });
  }

  test('every counter line of the file is a counter of the model, with its value', () => {
    const text = readFileSync(real('nstat-a.txt'), 'utf8');
    const result = parseCaptureText(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const lines = text.split('\n').filter((l) => /^[A-Za-z]/.test(l));
    const values = result.model.counters[0]!.values;
    expect(Object.keys(values)).toHaveLength(lines.length);
    for (const l of lines) {
      const [name, value] = l.split(/\s+/);
      expect(values[name!]).toBe(Number(value));
    }
  });

  test('the daemon answers with its own info source, not "kernel"', () => {
    const result = parseFile(real('nstat-daemon.txt'));
    expect(result.ok && result.model.counters[0]!.source).toMatch(
      /^\d+\.\d+ sampling_interval=1 time_const=10$/,
    );
  });

  test('a series keeps one sample per output, timed by the date line before each', () => {
    const result = parseFile(real('nstat-series.txt'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const times = result.model.counters.map((c) => c.t_ns);
    expect(times).toHaveLength(3);
    expect(times[0]).toBe(0);
    expect(times[1]!).toBeGreaterThan(0);
    expect(times[2]!).toBeGreaterThan(times[1]!);
  });

  test('names longer than the 32-character column and the (overflow) mark still read', () => {
    const result = parseCaptureText(
      '#kernel\nTcpExtTCPDelivered                 12                 0.0\nTcpExtTCPMigrateReqFailureXYZWLongName 5 0.0 (overflow)\n',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.counters[0]!.values).toEqual({
      TcpExtTCPDelivered: 12,
      TcpExtTCPMigrateReqFailureXYZWLongName: 5,
    });
  });
});
