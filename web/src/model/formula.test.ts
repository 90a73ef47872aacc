// The moment's formula against the engine: the rule's inputs, read from the run, give the
// engine's own result (the trace row's), in the lessons' windows.

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import { stepMatcher } from './log';
import { momentFormula, kernelAtLeast, type FormulaInfo } from './formula';
import { sockStateAt } from './sockstate';
import { nextRow } from './trace';
import { catalogOf, runWindow, scenarioSource } from './testkit';

beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
});

function info(name: string, variant: string): FormulaInfo {
  const { source, path } = scenarioSource(name);
  return JSON.parse(wasm.scenario_info(source, path, variant, [])) as FormulaInfo;
}

/** Every row of kind `focus` in the window, with its formula. */
function formulas(name: string, variant: string, fromUs: number, toUs: number, focus: string) {
  const m = runWindow(wasm, name, { variant, fromNs: fromUs * 1000, toNs: toUs * 1000 });
  const schema = catalogOf(wasm).trace;
  const match = stepMatcher(m, schema, focus)!;
  const out = [];
  for (let r = nextRow(m.cols, -1, match, 1); r >= 0; r = nextRow(m.cols, r, match, 1))
    out.push(momentFormula(m, schema, r, info(name, variant))!);
  return out;
}

describe("a moment's formula gives the engine's result", () => {
  it('kernelAtLeast', () => {
    expect(kernelAtLeast('3.18', 3, 19)).toBe(false);
    expect(kernelAtLeast('3.19', 3, 19)).toBe(true);
    expect(kernelAtLeast('4.4', 3, 19)).toBe(true);
    expect(kernelAtLeast('6.18', 5, 18)).toBe(true);
  });

  it('3.18 tcp_xmit_size_goal: max(sk_pacing_rate / 2000, tcp_min_tso_segs x mss) in whole MSS', () => {
    const all = formulas('tso-autosizing.toml', 'before', 40_000, 250_000, 'sendmsg_copy');
    expect(all.length).toBeGreaterThan(10);
    for (const f of all) {
      if (f.kind !== 'sizeGoal') throw new Error(`not a size goal: ${f.kind}`);
      const gso = Math.max(f.perHalfMs ?? Infinity, f.minSegs * f.mss);
      // (64 KB less the headers, and half the peer's window, do not bound it here.)
      expect(f.goal).toBe(Math.floor(gso / f.mss) * f.mss);
    }
    // At the first write: the rate tcp_init_transfer set from the handshake's RTT (not the
    // unlimited one before it), 724,000 B/s / 2000 = 362 B, less than 2 x 1448.
    const first = all[0]!;
    expect(first.kind === 'sizeGoal' && [first.rate, first.goal]).toEqual([724_000, 2896]);
  });

  it('3.19 tcp_tso_autosize: each cut is the autosized segments', () => {
    const all = formulas('tso-autosizing.toml', 'after', 40_000, 250_000, 'fragment');
    expect(all.length).toBeGreaterThan(10);
    for (const f of all) {
      if (f.kind !== 'autosize') throw new Error(`not autosize: ${f.kind}`);
      // Here every cut is the autosized packet (cwnd or the window could make it smaller).
      expect(f.len).toBe(f.segs * f.mss);
    }
    // The packets grow with the rate, from 2 segments right after the handshake.
    const segs = all.map((f) => (f.kind === 'autosize' ? f.segs : 0));
    expect(segs[0]).toBe(2);
    expect(Math.max(...segs)).toBeGreaterThan(5);
  });

  it('3.14 tcp_small_queue_check: the limit is max(tcp_limit_output_bytes, sk_pacing_rate >> 10)', () => {
    const all = formulas('tcp-small-queues.toml', 'tsq', 300_000, 320_000, 'xmit_hold:tsq');
    expect(all.length).toBeGreaterThan(3);
    for (const f of all) {
      if (f.kind !== 'tsq') throw new Error(`not tsq: ${f.kind}`);
      expect(f.rule).toBe('max');
      expect(f.limit).toBe(Math.max(f.sysctl, f.perMs ?? Infinity));
      expect(f.wmem).toBeGreaterThan(f.limit);
    }
  });

  it('NOTSENT_LOWAT: the writer sleeps with more unsent bytes than the limit', () => {
    const all = formulas('notsent-lowat.toml', 'single_on', 100_000, 100_300, 'sendmsg_wait');
    expect(all.length).toBeGreaterThan(0);
    for (const f of all) {
      if (f.kind !== 'notsent') throw new Error(`not notsent: ${f.kind}`);
      expect(f.lowat).toBe(131072);
      expect(f.notsent).toBeGreaterThanOrEqual(f.lowat);
    }
  });
});

describe('the pacing rate of a socket before its first ACK', () => {
  it("is unlimited (3.x's ~0U) before the handshake and tcp_init_transfer's rate after it", () => {
    const m = runWindow(wasm, 'tso-autosizing.toml', { variant: 'before', toNs: 41_000_000 });
    const sk = Array.from(m.socks.sends).indexOf(1);
    // The snapshot at 0: not 4,294,967,295 B/s but unlimited, as ss -ti prints it.
    expect(m.summary.socketsAtStart[sk]!.sk_pacing_rate).toBeNull();
    expect(sockStateAt(m, sk, 0).pacingRate).toBeNull();
    // After the handshake (40 ms RTT): 2 x 10 x 1448 B per 40 ms.
    expect(sockStateAt(m, sk, 40_001_000).pacingRate).toBe(724_000);
  });
});
