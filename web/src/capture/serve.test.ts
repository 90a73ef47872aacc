// The capture worker protocol without a browser: serve.ts on one end of a MessageChannel,
// client.ts on the other, reading a real sample as a Blob (what a dropped File is).

import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, test } from 'vitest';

import type { Catalog } from '../model/catalog';
import { openReplay, parseCaptureInWorker, type CaptureWorkerLike } from './client';
import { serveCaptureParsing, type CaptureEndpoint } from './serve';
import { SAMPLES } from './testing';

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((c) => (c.port1.close(), c.port2.close())));

function worker(): CaptureWorkerLike {
  const channel = new MessageChannel();
  channels.push(channel);
  serveCaptureParsing(channel.port2 as unknown as CaptureEndpoint);
  channel.port2.start();
  channel.port1.start();
  return channel.port1 as unknown as CaptureWorkerLike;
}

describe('capture worker protocol', () => {
  test('a File is parsed in the worker, with progress up to its size, and the model comes back', async () => {
    const bytes = readFileSync(new URL('pingpong-default.jsonl', SAMPLES));
    const blob = new Blob([bytes]);
    const progress: number[] = [];
    const parsing = parseCaptureInWorker(
      { blob, name: 'pingpong-default.jsonl' },
      (read) => progress.push(read),
      worker(),
    );
    const { result, name } = await parsing.result;
    expect(name).toBe('pingpong-default.jsonl');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.events.tables.sendmsg.count).toBeGreaterThan(0);
    expect(result.model.events.tables.sendmsg.t_ns).toBeInstanceOf(Float64Array);
    expect(progress.at(-1)).toBe(bytes.length);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!).toBeGreaterThan(progress[i - 1]!);
  });

  test('a URL that cannot be fetched gives a result that says so, not a rejection', async () => {
    const { result } = await parseCaptureInWorker(
      { url: 'http://127.0.0.1:1/nothing.jsonl' },
      undefined,
      worker(),
    ).result;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toMatch(/cannot fetch http:\/\/127\.0\.0\.1:1\/nothing\.jsonl/);
  });
});

describe('replay session protocol', () => {
  test('an opened capture comes back as its head, its run model and its scenario keys, and describes its rows', async () => {
    const wasm = await import('../engine/pkg/sendpath_wasm');
    wasm.initSync({
      module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
    });
    const catalog = JSON.parse(wasm.engine_catalog()) as Catalog;
    const bytes = readFileSync(new URL('autocork-on.jsonl', SAMPLES));
    const progress: number[] = [];
    const session = openReplay(
      { blob: new Blob([bytes]), name: 'autocork-on.jsonl' },
      catalog.trace,
      catalog.keys,
      (read) => progress.push(read),
      worker(),
    );
    const { result, name } = await session.opened;
    expect(name).toBe('autocork-on.jsonl');
    expect(progress.at(-1)).toBe(bytes.length);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.head.eventCounts.sendmsg).toBe(929);
    expect(result.model.recording?.name).toBe('autocork-on.jsonl');
    expect(result.model.cols.t.length).toBe(result.model.recording?.totalEvents);
    expect(result.scenario.sets).toContain('net.ipv4.tcp_autocorking=1');
    const described = await session.describe([0]);
    expect(described.texts[0]).toMatch(/^sock:inet_sock_set_state: /);
    expect(described.facts[0]?.kind).toBe('state');
    const lastT = result.model.cols.t[result.model.cols.t.length - 1]!;
    const half = await session.replay({ fromNs: 0, toNs: lastT / 2 });
    expect(half.cols.t.length).toBeLessThan(result.model.cols.t.length);
    session.close();
  });

  test('a capture that cannot be read opens as an error naming its line', async () => {
    const bytes = new TextEncoder().encode('{"type":"header","format":"something-else"}\n');
    const session = openReplay(
      { blob: new Blob([bytes]), name: 'x.jsonl' },
      { maxFields: 0, kinds: [], gates: [], ackReasons: [], dropSites: [], noSock: 0 },
      { kernels: ['6.18'], keys: [] },
      undefined,
      worker(),
    );
    const { result } = await session.opened;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.line).toBe(1);
    expect(result.error.message).toMatch(/expected "sendpath-capture"/);
  });
});
