// The capture worker protocol without a browser: serve.ts on one end of a MessageChannel,
// client.ts on the other, reading a real sample as a Blob (what a dropped File is).

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import type { Catalog } from '../model/catalog';
import { openReplay, parseCaptureInWorker, type CaptureWorkerLike } from './client';
import { serveCaptureParsing, type CaptureEndpoint, type CaptureServeOptions } from './serve';
import { SAMPLES } from './testing';

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((c) => (c.port1.close(), c.port2.close())));

function worker(options?: CaptureServeOptions): CaptureWorkerLike {
  const channel = new MessageChannel();
  channels.push(channel);
  serveCaptureParsing(channel.port2 as unknown as CaptureEndpoint, options);
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

describe('capture links: origin, size and time limits (issue 15)', () => {
  const sample = readFileSync(new URL('pingpong-default.jsonl', SAMPLES));
  let server: Server;
  let base = '';
  const open = new Set<import('node:http').ServerResponse>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      open.add(res);
      res.on('close', () => open.delete(res));
      const path = req.url ?? '/';
      if (path === '/sample.jsonl') res.end(sample);
      else if (path === '/no-answer.jsonl') {
        // Never answers.
      } else if (path === '/stalls.jsonl') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write(sample.subarray(0, 2048));
      } else if (path === '/announced-big.jsonl') {
        res.writeHead(200, { 'content-length': String(5 * 1024 * 1024) });
        res.write(sample.subarray(0, 100));
      } else if (path === '/endless.jsonl') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const line = Buffer.from('{"type":"counters"}\n'.repeat(512));
        const push = () => {
          if (!res.writableEnded && !res.destroyed) res.write(line, () => setImmediate(push));
        };
        push();
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise((r) => server.close(r));
  });
  const limits = { maxBytes: 1024 * 1024, idleMs: 300 };

  async function errorOf(
    source: { url: string; otherOrigin?: boolean },
    options: CaptureServeOptions,
  ) {
    const { result } = await parseCaptureInWorker(source, undefined, worker(options)).result;
    return result.ok ? null : result.error.message;
  }

  test('a link to another origin is not fetched unless the reader confirmed it', async () => {
    const page = { origin: 'http://site.example', limits };
    expect(await errorOf({ url: `${base}/sample.jsonl` }, page)).toBe(
      `cannot read ${base}/sample.jsonl: it is on another site (${base}) than this page (http://site.example), and reading it was not confirmed`,
    );
    expect(await errorOf({ url: `${base}/sample.jsonl`, otherOrigin: true }, page)).toBeNull();
    // The page's own origin needs no confirmation.
    expect(await errorOf({ url: `${base}/sample.jsonl` }, { origin: base, limits })).toBeNull();
  });

  test('a server that never answers, or stops sending, is given up after the time limit', async () => {
    const own = { origin: base, limits };
    expect(await errorOf({ url: `${base}/no-answer.jsonl` }, own)).toBe(
      `cannot fetch ${base}/no-answer.jsonl: the server sent nothing for 0.3 s (the capture link time limit)`,
    );
    expect(await errorOf({ url: `${base}/stalls.jsonl` }, own)).toBe(
      `cannot read ${base}/stalls.jsonl: the server sent nothing for 0.3 s (the capture link time limit) after 2 KiB`,
    );
  });

  test('a capture over the size limit is refused by its Content-Length, by what arrives, or by its size', async () => {
    // A time limit no busy machine reaches: this test is about size.
    const own = { origin: base, limits: { ...limits, idleMs: 30_000 } };
    expect(await errorOf({ url: `${base}/announced-big.jsonl` }, own)).toBe(
      `${base}/announced-big.jsonl is 5 MiB (its Content-Length); a capture may be at most 1 MiB (the capture size limit); the page keeps what it showed`,
    );
    expect(await errorOf({ url: `${base}/endless.jsonl` }, own)).toBe(
      `${base}/endless.jsonl sent more than 1 MiB; a capture may be at most 1 MiB (the capture size limit); the page keeps what it showed`,
    );
    const { result } = await parseCaptureInWorker(
      { blob: new Blob([new Uint8Array(1024 * 1024 + 1)]), name: 'big.jsonl' },
      undefined,
      worker(own),
    ).result;
    expect(result.ok ? null : result.error.message).toBe(
      'big.jsonl is 1.0 MiB; a capture may be at most 1 MiB (the capture size limit). Record a shorter run (sendpath-record -d SECONDS) or fewer events (--max-events N); the page keeps what it showed',
    );
  });
});
