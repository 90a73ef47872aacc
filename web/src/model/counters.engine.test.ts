// The key counters at the time cursor, from a lesson step's window run in the real wasm engine
// as the worker's `simulate` runs it: they must be the counters of the picture at that instant,
// not those of a sample taken before the burst the picture shows (issue 17, "counters follow
// the time cursor").

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import { countersAt, sampleTimes } from './counters';
import { lessonById } from './lessons';
import { runWindow } from './testkit';

wasm.initSync({
  module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
});

describe('key counters at the time cursor', () => {
  it('TSO autosizing step 3: the segments of the first burst are counted before the next one', () => {
    const step = lessonById('tso-autosizing')!.steps[2]!;
    const m = runWindow(wasm, 'tso-autosizing.toml', {
      variant: step.variant,
      sets: step.sets,
      fromNs: step.fromUs! * 1000,
      toNs: step.toUs! * 1000,
    });
    const layout = m.summary.samples;
    const times = sampleTimes(m.samples, layout.stride);
    const sender = layout.hosts.indexOf('sender');
    const at = (t: number) =>
      countersAt(m.samples, layout, times, sender, t, 0).find((r) => r.name === 'TcpOutSegs')
        ?.value ?? 0;
    // The burst after the handshake (40 ms) is on the wire by 49.45 ms; the ACKs that open the
    // next one come back an RTT later.
    expect(at(49.45e6)).toBeGreaterThanOrEqual(11);
    expect(at(49.45e6)).toBeLessThanOrEqual(at(step.toUs! * 1000));
  });
});
