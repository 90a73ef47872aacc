// The capture worker protocol without a browser: serve.ts on one end of a MessageChannel,
// client.ts on the other, reading a real sample as a Blob (what a dropped File is).

import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, test } from 'vitest';

import { parseCaptureInWorker, type CaptureWorkerLike } from './client';
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
