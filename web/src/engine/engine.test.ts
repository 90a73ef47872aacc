// The engine protocol end to end, without a browser: the real wasm engine (built by
// scripts/build-wasm.mjs), served by serve.ts on one end of a MessageChannel, called through
// EngineBridge on the other. Only the Worker itself is replaced, by the channel.

import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, test, vi } from 'vitest';

import { EngineBridge, EngineError, type WorkerLike } from './bridge';
import { defaultScenario } from '../model/scenarios';
import type { RunRequest } from './generated/RunRequest';
import { initSync, run, version } from './pkg/sendpath_wasm';
import { serveEngine, type Endpoint, type EngineModule } from './serve';

const cargoToml = readFileSync(new URL('../../../engine/Cargo.toml', import.meta.url), 'utf8');
const workspaceVersion = /\[workspace\.package\][^[]*?version\s*=\s*"([^"]+)"/.exec(cargoToml)?.[1];

function loadWasm(): Promise<EngineModule> {
  const bytes = readFileSync(new URL('./pkg/sendpath_wasm_bg.wasm', import.meta.url));
  initSync({ module: bytes });
  return Promise.resolve({ version, run });
}

const scenario = defaultScenario();

function request(sets: string[] = []): RunRequest {
  return { source: scenario.source, file: scenario.path, variant: null, sets };
}

const channels: MessageChannel[] = [];

function connect(load: () => Promise<EngineModule>): {
  bridge: EngineBridge;
  mainSide: MessagePort;
} {
  const channel = new MessageChannel();
  channels.push(channel);
  const workerSide = channel.port2;
  serveEngine(workerSide as unknown as Endpoint, load);
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
  test('signals ready with the version of the Cargo workspace', async () => {
    expect(workspaceVersion).toBeDefined();
    const { bridge } = connect(loadWasm);
    await expect(bridge.ready).resolves.toBe(workspaceVersion);
    await expect(bridge.call('version')).resolves.toBe(workspaceVersion);
  });

  test('runs the default scenario in wasm', { timeout: 60_000 }, async () => {
    const { bridge } = connect(loadWasm);
    const result = await bridge.call('run', request());
    const kernel = /^kernel\s*=\s*"([^"]+)"/m.exec(scenario.source)?.[1];
    expect(result.kernel).toBe(kernel);
    expect(result.events).toBeGreaterThan(0);
    expect(result.elapsed_s).toBeGreaterThan(0);
    expect(result.apps.length).toBeGreaterThan(0);
  });

  test('rejects a run with a misspelt key, naming the file and the key', async () => {
    const { bridge } = connect(loadWasm);
    const call = bridge.call('run', request(['net.ipv4.tcp_autocorkin=1']));
    await expect(call).rejects.toThrow(EngineError);
    await expect(call).rejects.toThrow(
      `${scenario.path}: net.ipv4.tcp_autocorkin: unknown key; did you mean "net.ipv4.tcp_autocorking"?`,
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
      bridge.call('run', request(['no.such.key=1'])).catch(() => answered.push('run')),
      bridge.call('version').then(() => answered.push('version')),
    ];
    finishLoading();
    await Promise.all(calls);
    expect(answered).toEqual(['run', 'version']);
  });

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
