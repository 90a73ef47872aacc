// The engine protocol end to end, without a browser: the real wasm engine (built by
// scripts/build-wasm.mjs), served by serve.ts on one end of a MessageChannel, called through
// EngineBridge on the other. Only the Worker itself is replaced, by the channel.

import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, test, vi } from 'vitest';

import { EngineBridge, EngineError, type WorkerLike } from './bridge';
import { initSync, version, wire_bytes_of_full_mss_frame } from './pkg/sendpath_wasm';
import { serveEngine, type Endpoint, type EngineModule } from './serve';

const cargoToml = readFileSync(new URL('../../../engine/Cargo.toml', import.meta.url), 'utf8');
const workspaceVersion = /\[workspace\.package\][^[]*?version\s*=\s*"([^"]+)"/.exec(cargoToml)?.[1];

function loadWasm(): Promise<EngineModule> {
  const bytes = readFileSync(new URL('./pkg/sendpath_wasm_bg.wasm', import.meta.url));
  initSync({ module: bytes });
  return Promise.resolve({ version, wire_bytes_of_full_mss_frame });
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

  test('computes the wire bytes of a full-MSS segment in wasm: 1538', async () => {
    const { bridge } = connect(loadWasm);
    await expect(bridge.call('wireBytesOfFullMssFrame')).resolves.toBe(1538);
  });

  test('answers calls made before the engine finished loading, in order', async () => {
    let finishLoading!: () => void;
    const gate = new Promise<void>((resolve) => (finishLoading = resolve));
    const { bridge } = connect(async () => {
      await gate;
      return loadWasm();
    });
    const calls = [bridge.call('wireBytesOfFullMssFrame'), bridge.call('version')];
    finishLoading();
    await expect(Promise.all(calls)).resolves.toEqual([1538, workspaceVersion]);
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
