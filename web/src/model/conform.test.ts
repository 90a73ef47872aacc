// "Model vs Linux": how the view judges and groups the engine's rows, and the bundled experiment
// files read by the real wasm engine (built by scripts/build-wasm.mjs), as the worker reads them.

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import type { ConformExperiment } from '../engine/generated/ConformExperiment';
import type { Row } from '../engine/generated/Row';
import * as wasm from '../engine/pkg/sendpath_conform';
import {
  bandReason,
  byMechanism,
  conformSearch,
  formatRatio,
  formatValue,
  ofScenario,
  percentInBand,
  ratioPosition,
  recordedFacts,
  scenarioName,
  simulatorSearch,
  tally,
  verdictOf,
} from './conform';
import { conformFiles, knownFailures, setupSource } from './conformFiles';
import { scenarioFiles } from './scenarios';
import { parseState } from './urlstate';

function row(over: Partial<Row>): Row {
  return {
    experiment: 'x',
    value: 'elapsed_s',
    model: 100,
    real: 100,
    real_min: 95,
    real_max: 105,
    ratio: 1,
    in_band: true,
    known_failure: null,
    ...over,
  };
}

function experiment(over: Partial<ConformExperiment>): ConformExperiment {
  return {
    id: 'x',
    title: 'X',
    mechanism: 'nagle',
    claim: 'A claim.',
    scenario: 'nagle-delayed-ack.toml',
    variant: 'default',
    sets: ['kernel=6.18', 'sim.hz=250'],
    missing_keys: [],
    real: [],
    recorded: [],
    values: [],
    ...over,
  };
}

describe('verdicts', () => {
  test('a value is in band, a stale known failure, an explained miss or an unexplained one', () => {
    expect(verdictOf(row({}))).toBe('in');
    expect(verdictOf(row({ known_failure: 'no veth' }))).toBe('stale');
    expect(verdictOf(row({ in_band: false, known_failure: 'no veth' }))).toBe('known');
    expect(verdictOf(row({ in_band: false }))).toBe('miss');
    expect(verdictOf(row({ in_band: false, model: null, ratio: null }))).toBe('miss');
  });

  test('a value in band says whether the kernel’s range or the ±10 % put it there', () => {
    expect(bandReason(row({ model: 104 }))).toBe('range');
    expect(bandReason(row({ model: 109, ratio: 1.09 }))).toBe('near');
    expect(bandReason(row({ in_band: false, model: 150 }))).toBeNull();
  });

  test('a tally counts stale markers as in band and splits the misses', () => {
    const t = tally([
      row({}),
      row({ known_failure: 'k' }),
      row({ in_band: false, known_failure: 'k' }),
      row({ in_band: false }),
    ]);
    expect(t).toEqual({ total: 4, inBand: 2, known: 1, miss: 1 });
    expect(percentInBand(t)).toBe(50);
    expect(percentInBand(tally([]))).toBe(0);
  });
});

describe('grouping and links', () => {
  test('mechanisms come in the issue’s order, unknown ones after by name, files in order', () => {
    const g = byMechanism([
      { id: 'a', mechanism: 'zeta' },
      { id: 'b', mechanism: 'loss' },
      { id: 'c', mechanism: 'nagle' },
      { id: 'd', mechanism: 'alpha' },
      { id: 'e', mechanism: 'nagle' },
    ]);
    expect(g.map((x) => x.mechanism)).toEqual(['nagle', 'loss', 'alpha', 'zeta']);
    expect(g[0]!.experiments.map((e) => e.id)).toEqual(['c', 'e']);
  });

  test('an experiment opens the simulator on its scenario, variant and overrides', () => {
    const e = experiment({ sets: ['kernel=6.18', 'net.ipv4.tcp_autocorking=0'] });
    expect(scenarioName(e)).toBe('nagle-delayed-ack');
    const { state, problems } = parseState(
      simulatorSearch(e),
      ['autocorking', 'nagle-delayed-ack'],
      'autocorking',
      () => null,
    );
    expect(problems).toEqual([]);
    expect(state.a).toEqual({
      scenario: 'nagle-delayed-ack',
      variant: 'default',
      sets: ['kernel=6.18', 'net.ipv4.tcp_autocorking=0'],
    });
    expect(conformSearch('nagle-delayed-ack')).toEqual({
      view: 'conform',
      scenario: 'nagle-delayed-ack',
    });
    expect(
      ofScenario([e, experiment({ scenario: 'autocorking.toml' })], 'autocorking'),
    ).toHaveLength(1);
  });

  test('the recording’s facts are picked from [recorded] in a fixed order', () => {
    const e = experiment({
      recorded: [
        ['date', '2026-11-25'],
        ['kernel', '6.18.44'],
        ['load_average_1m', '8.00, 7.76'],
        ['hz', '250'],
      ],
    });
    expect(recordedFacts(e)).toEqual([
      { fact: 'kernel', value: '6.18.44' },
      { fact: 'hz', value: '250' },
      { fact: 'date', value: '2026-11-25' },
    ]);
  });

  test('the ratio bar is a log scale from ¼ to 4 with equality in the middle', () => {
    expect(ratioPosition(1)).toEqual({ x: 0.5, clipped: false });
    expect(ratioPosition(2).x).toBeCloseTo(0.75);
    expect(ratioPosition(0.5).x).toBeCloseTo(0.25);
    expect(ratioPosition(10)).toEqual({ x: 1, clipped: true });
    expect(ratioPosition(0)).toEqual({ x: 0, clipped: true });
    expect(formatRatio(0.974)).toBe('×0.97');
    expect(formatRatio(23.4)).toBe('×23.4');
    expect(formatValue(245152)).toBe('245,152');
    expect(formatValue(8.70322)).toBe('8.703');
    expect(formatValue(43.55)).toBe('43.5');
    expect(formatValue(0)).toBe('0');
  });
});

describe.skipIf(conformFiles.length === 0)('the bundled experiments in the engine', () => {
  let parsed: ConformExperiment[];
  beforeAll(() => {
    wasm.initSync({
      module: readFileSync(new URL('../engine/pkg/sendpath_conform_bg.wasm', import.meta.url)),
    });
    parsed = conformFiles.map(
      (f) => JSON.parse(wasm.conform_experiment(f.source, f.file, f.id)) as ConformExperiment,
    );
  });

  test('every file parses and mirrors a scenario of the site or a setup beside it', () => {
    const names = new Set(scenarioFiles.map((s) => s.name.replace(/\.toml$/, '')));
    for (const e of parsed) {
      expect(e.claim, e.id).not.toBe('');
      expect(e.values.length, e.id).toBeGreaterThan(0);
      const found = names.has(scenarioName(e)) || setupSource(e.scenario) !== undefined;
      expect(found, `${e.id}: ${e.scenario}`).toBe(true);
    }
  });

  test('the build’s count of experiments per scenario is the engine’s', () => {
    const counts: Record<string, number> = {};
    for (const e of parsed) counts[scenarioName(e)] = (counts[scenarioName(e)] ?? 0) + 1;
    expect(__SENDPATH_CONFORM__).toEqual(counts);
  });

  test(
    'an experiment’s rows put the file’s medians beside the model’s values',
    { timeout: 60_000 },
    () => {
      const e = parsed.find((x) => scenarioName(x) === 'nagle-delayed-ack') ?? parsed[0]!;
      const file = conformFiles.find((f) => f.id === e.id)!;
      const scenario = scenarioFiles.find((s) => s.name === e.scenario)!;
      const rows = JSON.parse(
        wasm.conform_rows(
          file.source,
          file.file,
          file.id,
          scenario.source,
          scenario.path,
          knownFailures,
          'scenarios/conformance/known-failures.toml',
        ),
      ) as Row[];
      expect(rows.map((r) => r.value)).toEqual(e.values.map((v) => v.name));
      for (const [i, r] of rows.entries()) {
        expect(r.experiment).toBe(e.id);
        expect(r.real).toBe(e.values[i]!.median);
        if (r.model !== null) expect(Number.isFinite(r.model)).toBe(true);
      }
      expect(rows.some((r) => r.model !== null)).toBe(true);
    },
  );
});
