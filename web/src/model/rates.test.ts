// The throughput chart's rates against the link they were measured on (issue 17): the autocorking
// lesson's step 4 window drew 47 Gbit/s spikes on a 10 Gbit/s link.

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { RunModel } from './derive';
import { hostRates } from './rates';
import { runWindow } from './testkit';

/** The windows the issue saw: four flows at 100 ms (lesson step 4), one flow at its start. */
const windows: [string, RunModel][] = [];
beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
  windows.push([
    'autocorking on, 100.0..100.3 ms',
    runWindow(wasm, 'autocorking.toml', { variant: 'on', fromNs: 100_000_000, toNs: 100_300_000 }),
  ]);
  windows.push([
    'autocorking off, one flow, 0..2 ms',
    runWindow(wasm, 'autocorking.toml', { variant: 'off', sets: ['app.flows=1'], toNs: 2_000_000 }),
  ]);
});

describe('throughput', () => {
  test("the link rate is the scenario's 10 Gbit/s", () => {
    for (const [name, m] of windows) expect(m.charts.linkBps[0], name).toBeCloseTo(10e9, -7);
  });

  test('a bin of bytes on the wire never holds more than the link carries in it', () => {
    for (const [name, m] of windows) {
      const c = m.charts;
      const most = (c.linkBps[0]! / 8e9) * c.binNs;
      for (let i = 0; i < c.bins; i++)
        expect(c.wireBytes[i]!, `${name}, bin ${i}`).toBeLessThanOrEqual(most * 1.001);
    }
  });

  test('goodput and wire rates never exceed the link rate, over a window of at least one packet', () => {
    for (const [name, m] of windows) {
      const r = hostRates(m.charts, 0);
      expect(r.windowNs, name).toBeGreaterThanOrEqual(m.charts.serializeMaxNs[0]!);
      expect(Math.max(...r.goodputBps), name).toBeLessThanOrEqual(r.linkBps * 1.001);
      expect(Math.max(...r.wireBps), name).toBeLessThanOrEqual(r.linkBps * 1.001);
      // Still a picture of the run, not flattened to nothing.
      expect(Math.max(...r.wireBps), name).toBeGreaterThan(r.linkBps * 0.2);
      expect(Math.max(...r.goodputBps), name).toBeGreaterThan(0);
    }
  });
});
