import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { TraceSchema } from './catalog';
import type { RunModel } from './derive';
import { filterRows, parseLogFilter, serializeLogFilter, stepKinds, stepMatcher } from './log';
import { nextRow } from './trace';
import { catalogOf, runWindow } from './testkit';

let m: RunModel;
let schema: TraceSchema;
beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
  m = runWindow(wasm, 'autocorking.toml', { variant: 'on', toNs: 1_000_000 });
  schema = catalogOf(wasm).trace;
});

describe('decision log filters', () => {
  test('round-trip through the URL and drop what they cannot read', () => {
    const f = { host: 0, flow: 2, func: 'tcp_push', reason: 'nagle' };
    expect(parseLogFilter(serializeLogFilter(f))).toEqual(f);
    expect(parseLogFilter('host:x,flow:-1,junk,func:')).toEqual({
      host: null,
      flow: null,
      func: null,
      reason: null,
    });
  });

  test('a function filter keeps only the kinds that function decides', () => {
    const rows = filterRows(m, schema, { host: null, flow: null, func: 'tcp_push', reason: null });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(schema.kinds[m.cols.kind[r]!]!.func).toBe('tcp_push');
  });

  test('host, flow and reason filters combine', () => {
    const rows = filterRows(m, schema, { host: 0, flow: 1, func: null, reason: 'nagle' });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(m.cols.host[r]).toBe(0);
      expect(m.rowFlow[r]).toBe(1);
      expect(schema.gates[m.rowReason[r]!]).toBe('nagle');
    }
  });
});

describe('stepping to a decision', () => {
  test('the next autocork from the start is the first autocork event', () => {
    const match = stepMatcher(m, schema, 'autocork')!;
    const row = nextRow(m.cols, -1, match);
    const autocork = schema.kinds.findIndex((k) => k.name === 'autocork');
    expect(row).toBe(m.cols.kind.indexOf(autocork));
  });

  test('a hold at one gate matches only holds at that gate', () => {
    const match = stepMatcher(m, schema, 'xmit_hold:nagle')!;
    const row = nextRow(m.cols, -1, match);
    expect(schema.kinds[m.cols.kind[row]!]!.name).toBe('xmit_hold');
    expect(schema.gates[m.rowReason[row]!]).toBe('nagle');
    expect(stepMatcher(m, schema, 'xmit_hold:nope')).toBeNull();
    expect(stepKinds(schema).map((k) => k.value)).toContain('xmit_hold:tsq');
  });
});
