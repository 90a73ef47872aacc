// The landing page's prerendered first run (firstRun.ts) is the run a live page gets: the asset
// the build emits (scripts/vite-plugin-first-run.ts, from the real wasm engine), read as the
// page reads it, gives the same model, array for array, as the engine's `simulate` of the
// request the store makes for a bare link, through the real bridge.

import { readFileSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { firstRunAsset } from '../../../scripts/vite-plugin-first-run';
import { EngineBridge, type WorkerLike } from './bridge';
import {
  CALIBRATE_EVENTS,
  decodeFirstRun,
  encodeFirstRun,
  FIRST_RUN_SCENARIO,
  firstRunRequest,
  readFirstRun,
  sameRequest,
  type FirstRun,
} from './firstRun';
import * as wasm from './pkg/sendpath_wasm';
import { firstRunOf, serveEngine, siteHandlers, type Endpoint } from './serve';
import { defaultScenario } from '../model/scenarios';
import { DEFAULT_SCENARIO_NAME, firstVariantInText } from '../model/scenarioIndex';
import { parseState } from '../model/urlstate';

wasm.initSync({ module: readFileSync(new URL('./pkg/sendpath_wasm_bg.wasm', import.meta.url)) });

function bridge(): EngineBridge {
  const channel = new MessageChannel();
  serveEngine(channel.port2 as unknown as Endpoint, () => Promise.resolve(wasm), siteHandlers);
  channel.port2.start();
  channel.port1.start();
  return new EngineBridge(channel.port1 as unknown as WorkerLike);
}

function stream(bytes: Uint8Array): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new Response(new Uint8Array(bytes)).body!;
}

describe('the prerendered first run', () => {
  const scenario = defaultScenario();

  test("is the run the store asks for on a bare link (app/store.ts showFirstRun's request)", () => {
    expect(FIRST_RUN_SCENARIO).toBe(DEFAULT_SCENARIO_NAME);
    const { state } = parseState('', [DEFAULT_SCENARIO_NAME], DEFAULT_SCENARIO_NAME, () =>
      firstVariantInText(scenario.source),
    );
    expect(state.b).toBeNull();
    const store = {
      source: scenario.source,
      file: scenario.path,
      variant: state.a.variant,
      sets: state.a.sets,
      fromNs: state.fromNs,
      toNs: state.toNs,
      calibrateEvents: CALIBRATE_EVENTS,
    };
    expect(firstRunRequest(scenario.source)).toEqual(store);
    expect(sameRequest(firstRunRequest(scenario.source), store)).toBe(true);
    expect(sameRequest(firstRunRequest(scenario.source), { ...store, sets: ['a=1'] })).toBe(false);
    expect(sameRequest(firstRunRequest(scenario.source), { ...store, source: '' })).toBe(false);
  });

  test('the asset the build emits gives the model of a live run, array for array', async () => {
    const request = firstRunRequest(scenario.source);
    const shown = await readFirstRun(stream(await firstRunAsset()));
    const engine = bridge();
    const live = await engine.call('simulate', { ...request, side: 'a' });
    expect(shown.request).toEqual(request);
    expect(shown.version).toBe(await engine.call('version'));
    expect(shown.catalog).toEqual(await engine.call('catalog'));
    expect(shown.info).toEqual(await engine.call('scenarioInfo', request));
    // A real run: thousands of rows, packets on the wire.
    expect(live.cols.t.length).toBeGreaterThan(10_000);
    expect(live.packets.id.length).toBeGreaterThan(100);
    // Everything but where the worker spent its time.
    expect({ ...shown.model, timing: null }).toEqual({ ...live, timing: null });
    // `describe` needs the engine to have run it: keepRun does, without the model.
    expect(await engine.call('keepRun', { ...request, side: 'a' })).toBeNull();
    const rows = [0, 1, live.cols.t.length - 1];
    const described = await engine.call('describe', 'a', rows);
    expect(described.texts).toHaveLength(3);
    expect(described.texts.every((t) => t.length > 0)).toBe(true);
    // A build, two runs and a deep comparison of every array: seconds on a busy machine.
  }, 60_000);

  test('arrays that are not integers are kept exactly too', () => {
    const run: FirstRun = firstRunOf(wasm, firstRunRequest(scenario.source));
    const values = run.cols.values.slice(0, 70);
    values[3] = 0.5;
    values[5] = -0;
    values[8] = 2 ** 60;
    const odd: FirstRun = {
      ...run,
      cols: {
        ...run.cols,
        t: run.cols.t.slice(0, 10),
        values,
        host: run.cols.host.slice(0, 10),
        sk: run.cols.sk.slice(0, 10),
        kind: run.cols.kind.slice(0, 10),
      },
      samples: Float64Array.from([1.25, -3, Number.NaN]),
    };
    const back = decodeFirstRun(encodeFirstRun(odd));
    expect(back.cols).toEqual(odd.cols);
    expect(Object.is(back.cols.values[5], -0)).toBe(true);
    expect(back.samples).toEqual(odd.samples);
    expect(back.summary).toEqual(run.summary);
  });
});
