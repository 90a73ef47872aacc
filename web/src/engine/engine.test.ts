// The engine protocol end to end, without a browser: the real wasm engine (built by
// scripts/build-wasm.mjs), served by serve.ts on one end of a MessageChannel, called through
// EngineBridge on the other. Only the Worker itself is replaced, by the channel.

import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, test, vi } from 'vitest';

import { EngineBridge, EngineError, type WorkerLike } from './bridge';
import { defaultScenario } from '../model/scenarios';
import type { SideRequest } from './protocol';
import { kindCodes } from '../model/catalog';
import { PKT_DATA } from '../model/derive';
import * as conformWasm from './pkg/sendpath_conform';
import * as jobsWasm from './pkg/sendpath_jobs';
import * as wasm from './pkg/sendpath_wasm';
import {
  conformHandlers,
  serveEngine,
  siteHandlers,
  type Endpoint,
  type EngineModule,
  type Handlers,
} from './serve';

const cargoToml = readFileSync(new URL('../../../engine/Cargo.toml', import.meta.url), 'utf8');
const workspaceVersion = /\[workspace\.package\][^[]*?version\s*=\s*"([^"]+)"/.exec(cargoToml)?.[1];

function loadWasm(): Promise<EngineModule> {
  const bytes = readFileSync(new URL('./pkg/sendpath_wasm_bg.wasm', import.meta.url));
  wasm.initSync({ module: bytes });
  return Promise.resolve(wasm);
}

/** "Model vs Linux"'s module, as engine/conformWorker.ts serves it. */
function loadConformWasm(): Promise<EngineModule> {
  const bytes = readFileSync(new URL('./pkg/sendpath_conform_bg.wasm', import.meta.url));
  conformWasm.initSync({ module: bytes });
  return Promise.resolve(conformWasm);
}

/** The jobs module, as engine/jobsWorker.ts serves it (sweeps, pcap, the run summary). */
function loadJobsWasm(): Promise<EngineModule> {
  const bytes = readFileSync(new URL('./pkg/sendpath_jobs_bg.wasm', import.meta.url));
  jobsWasm.initSync({ module: bytes });
  return Promise.resolve(jobsWasm);
}

const scenario = defaultScenario();

function request(sets: string[] = []): SideRequest {
  return { source: scenario.source, file: scenario.path, variant: null, sets };
}

const channels: MessageChannel[] = [];

function connect(
  load: () => Promise<EngineModule>,
  handlers: Partial<Handlers> = siteHandlers,
): {
  bridge: EngineBridge;
  mainSide: MessagePort;
} {
  const channel = new MessageChannel();
  channels.push(channel);
  const workerSide = channel.port2;
  serveEngine(workerSide as unknown as Endpoint, load, handlers);
  workerSide.start();
  const mainSide = channel.port1;
  const bridge = new EngineBridge(mainSide as unknown as WorkerLike);
  mainSide.start();
  return { bridge, mainSide };
}

afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

describe('the engine behind the bridge', () => {
  test('the module every page loads leaves the sweeps and pcap downloads to the jobs module', () => {
    // engine/wasm/src/site_jobs.rs: 56 kB gzip that only jobsWorker.ts's module carries.
    expect('sweep_grid' in wasm).toBe(false);
    expect('pcap_file' in wasm).toBe(false);
  });

  test('the jobs module runs the summary with progress, the --at text and the kernel diff; the first load carries none of them', async () => {
    for (const name of ['WasmSummaryRun', 'at_text', 'kernel_diff'])
      expect(name in wasm).toBe(false);
    const { bridge } = connect(loadJobsWasm);
    const short = request(['sim.duration_ms=5']);
    const progress: number[] = [];
    const s = await bridge.callWithProgress(
      'runSummary',
      (done, total) => progress.push(done / total),
      short,
      1_000_000,
    );
    expect(progress.at(-1)).toBe(1);
    expect(s.intervalNs).toBe(1_000_000);
    expect(s.result.summary?.flows.length).toBeGreaterThan(0);
    expect(s.flowsCsv.split('\n')[0]).toMatch(/^t_ms,flow,host,sk,app,cwnd,/);
    expect(s.devicesCsv.split('\n')[0]).toMatch(/^t_ms,host,qdisc_bytes,/);
    const text = await bridge.call('atText', short, 2_000_000);
    expect(text.startsWith(`# ${scenario.path} at t = 2.000000 ms\n`)).toBe(true);
    await expect(bridge.call('atText', short, 6_000_000)).rejects.toThrow('after the run ends');
    const d = await bridge.call('kernelDiff', request(['kernel=3.13']), request(['kernel=6.18']));
    expect([d.kernel_a, d.kernel_b]).toEqual(['3.13', '6.18']);
    expect(d.switches.map((w) => w.name)).toContain('autocorking');
    // The site's module refuses them, naming what it lacks.
    const site = connect(loadWasm).bridge;
    await expect(site.call('atText', short, 0)).rejects.toThrow('has no at_text');
  });

  test('signals ready with the version of the Cargo workspace', async () => {
    expect(workspaceVersion).toBeDefined();
    const { bridge } = connect(loadWasm);
    await expect(bridge.ready).resolves.toBe(workspaceVersion);
    await expect(bridge.call('version')).resolves.toBe(workspaceVersion);
  });

  test(
    'runs the default scenario to its end in wasm, as the native engine counts',
    { timeout: 60_000 },
    async () => {
      const { bridge } = connect(loadWasm);
      const { summary } = await bridge.call('experiment', request());
      const kernel = /^kernel\s*=\s*"([^"]+)"/m.exec(scenario.source)?.[1];
      expect(summary.result.kernel).toBe(kernel);
      expect(summary.result.events).toBeGreaterThan(1_000_000);
      expect(summary.cut).toBe(false);
      expect(summary.result.apps.length).toBeGreaterThan(0);
    },
  );

  test('rejects a scenario with a misspelt key, naming the file and the key', async () => {
    const { bridge } = connect(loadWasm);
    const call = bridge.call('scenarioInfo', request(['net.ipv4.tcp_autocorkin=1']));
    await expect(call).rejects.toThrow(EngineError);
    await expect(call).rejects.toThrow(
      `${scenario.path}: net.ipv4.tcp_autocorkin: unknown key; did you mean "net.ipv4.tcp_autocorking"?`,
    );
  });

  test(
    'the conform module reads a conformance experiment and runs it beside its recording',
    { timeout: 60_000 },
    async () => {
      const { bridge } = connect(loadConformWasm, conformHandlers);
      await expect(bridge.ready).resolves.toBe(workspaceVersion);
      const file = {
        id: 'x',
        file: 'scenarios/conformance/x.toml',
        source: [
          '# The default scenario runs.',
          '[experiment]',
          'title = "X"',
          'mechanism = "autocorking"',
          `scenario = "${scenario.name}"`,
          '[values]',
          'elapsed_s = { median = 1, min = 1, max = 1 }',
          'no_such_value = { median = 5, min = 5, max = 5 }',
        ].join('\n'),
      };
      const exp = await bridge.call('conformExperiment', file);
      expect(exp.claim).toBe('The default scenario runs.');
      expect(exp.values.map((v) => v.name)).toEqual(['elapsed_s', 'no_such_value']);
      const rows = await bridge.call('conformRows', {
        ...file,
        scenarioSource: scenario.source,
        scenarioFile: scenario.path,
        knownFailures: '[x]\nno_such_value = "the model has no such value"\n',
      });
      expect(rows.map((r) => [r.value, r.real])).toEqual([
        ['elapsed_s', 1],
        ['no_such_value', 5],
      ]);
      expect(rows[0]!.model).toBeGreaterThan(0);
      expect(rows[1]).toMatchObject({
        model: null,
        known_failure: 'the model has no such value',
      });
      await expect(
        bridge.call('conformExperiment', { ...file, source: '[experiment]\n' }),
      ).rejects.toThrow('scenarios/conformance/x.toml');
    },
  );

  test('each module serves only its own verbs: the first load carries no conform code', async () => {
    const site = connect(loadWasm).bridge;
    const file = { id: 'x', file: 'scenarios/conformance/x.toml', source: '[experiment]\n' };
    await expect(site.call('conformExperiment', file)).rejects.toThrow(
      "unknown verb 'conformExperiment' in this worker",
    );
    expect('conform_rows' in wasm).toBe(false);
    const conform = connect(loadConformWasm, conformHandlers).bridge;
    await expect(conform.call('catalog')).rejects.toThrow("unknown verb 'catalog' in this worker");
    expect('WasmSession' in conformWasm).toBe(false);
    // The handlers ask the module for what they call: a module without it says so.
    const mismatched = connect(loadWasm, conformHandlers).bridge;
    await expect(mismatched.call('conformExperiment', file)).rejects.toThrow(
      "this worker's wasm module has no conform_experiment",
    );
  });

  test('answers calls made before the engine finished loading, in order', async () => {
    let finishLoading!: () => void;
    const gate = new Promise<void>((resolve) => (finishLoading = resolve));
    const { bridge } = connect(async () => {
      await gate;
      return loadWasm();
    });
    const answered: string[] = [];
    const calls = [
      bridge.call('scenarioInfo', request(['no.such.key=1'])).catch(() => answered.push('info')),
      bridge.call('version').then(() => answered.push('version')),
    ];
    finishLoading();
    await Promise.all(calls);
    expect(answered).toEqual(['info', 'version']);
  });

  test('publishes a catalog holding every event kind the site reads, and every key', async () => {
    const { bridge } = connect(loadWasm);
    const catalog = await bridge.call('catalog');
    expect(() => kindCodes(catalog.trace)).not.toThrow();
    expect(catalog.keys.keys.map((k) => k.name)).toContain('net.ipv4.tcp_autocorking');
    expect(catalog.counters).toContain('TcpExtTCPAutoCorking');
  });

  test('scenarioInfo resolves a variant and an override, and refuses an out-of-range value', async () => {
    const { bridge } = connect(loadWasm);
    const info = await bridge.call('scenarioInfo', {
      ...request(['net.ipv4.tcp_limit_output_bytes=65536']),
      variant: 'off',
    });
    expect(info.keys['net.ipv4.tcp_autocorking']?.values).toEqual(['0', '0']);
    expect(info.keys['net.ipv4.tcp_autocorking']?.origins).toEqual(['variant', 'variant']);
    expect(info.keys['net.ipv4.tcp_limit_output_bytes']?.origins[0]).toBe('set');
    await expect(bridge.call('scenarioInfo', request(['ethtool.tx=0']))).rejects.toThrow(
      `${scenario.path}: ethtool.tx: `,
    );
  });

  test('simulate records a calibrated window, derives its model, and describe words its rows', async () => {
    const { bridge } = connect(loadWasm);
    const model = await bridge.call('simulate', {
      ...request(),
      variant: 'on',
      side: 'a',
      fromNs: 0,
      toNs: null,
      calibrateEvents: 5_000,
    });
    expect(model.cols.t.length).toBeGreaterThanOrEqual(5_000);
    expect(model.summary.cut).toBe(true);
    expect(model.packets.type).toContain(PKT_DATA);
    const autocork = model.cols.kind.indexOf(
      (await bridge.call('catalog')).trace.kinds.findIndex((k) => k.name === 'autocork'),
    );
    expect(autocork).toBeGreaterThan(0);
    const words = await bridge.call('describe', 'a', [autocork]);
    expect(words.texts[0]).toMatch(/^tcp_push: skb#\d+ \d+ B < size_goal/);
    // The count the English line names, as a number for the log's other languages.
    const named = /\(TcpExtTCPAutoCorking (\d+)\)/.exec(words.texts[0]!)?.[1];
    expect(words.autocorking).toEqual([named === undefined ? null : Number(named)]);
  });

  test(
    "experiment reports progress while it runs and ends with the run's counters",
    { timeout: 60_000 },
    async () => {
      const { bridge } = connect(loadWasm);
      const progress: number[] = [];
      const out = await bridge.callWithProgress(
        'experiment',
        (done, total) => progress.push(done / total),
        request(['sim.duration_ms=40']),
      );
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.at(-1)).toBe(1);
      expect(out.summary.result.hosts.sender?.counters.TcpExtTCPAutoCorking).toBeGreaterThan(0);
      expect(out.samples.length % out.summary.samples.stride).toBe(0);
    },
  );

  test('rejects a call to an unknown verb with an EngineError naming it', async () => {
    const { bridge } = connect(loadWasm);
    const call = (bridge.call as (verb: string) => Promise<unknown>)('simulateEverything');
    await expect(call).rejects.toThrow(EngineError);
    await expect(call).rejects.toThrow("unknown verb 'simulateEverything'");
  });

  test('fails ready and every call when the engine cannot load', async () => {
    const { bridge } = connect(() => Promise.reject(new Error('no wasm here')));
    await expect(bridge.ready).rejects.toThrow('the engine failed to start: no wasm here');
    await expect(bridge.call('version')).rejects.toThrow('no wasm here');
  });

  test('rejects pending calls when the bridge is terminated', async () => {
    const { bridge } = connect(() => new Promise<EngineModule>(() => {}));
    const call = bridge.call('version');
    bridge.terminate();
    await expect(call).rejects.toThrow('the engine was stopped');
  });

  test('the worker logs and skips a message that is not a request, then answers the next', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { bridge, mainSide } = connect(loadWasm);
    await bridge.ready;
    mainSide.postMessage({ hello: 'world' });
    await expect(bridge.call('version')).resolves.toBe(workspaceVersion);
    expect(logged).toHaveBeenCalledWith('engine worker: ignoring a message that is not a request', {
      hello: 'world',
    });
    logged.mockRestore();
  });
});
