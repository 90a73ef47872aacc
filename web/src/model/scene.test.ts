// The pipeline at an instant, against a brute-force reading of the run model.

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { RunModel } from './derive';
import { sceneAt, sceneContext, skbStateAt, type SceneContext } from './scene';
import { catalogOf, runWindow } from './testkit';

let m: RunModel;
let ctx: SceneContext;
beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
  m = runWindow(wasm, 'autocorking.toml', { variant: 'on', toNs: 1_000_000 });
  ctx = sceneContext(m, catalogOf(wasm).trace, 'pfifo_fast');
});

const instants = () => Array.from({ length: 40 }, (_, i) => 100_000 + i * 22_500);

describe('the scene at an instant', () => {
  test('has a lane for each of the four sending sockets', () => {
    expect(ctx.lanes.map((l) => l.flow)).toEqual([0, 1, 2, 3]);
  });

  test('puts on the wire exactly the packets of the shown host that are on the wire', () => {
    const P = m.packets;
    for (const t of instants()) {
      const s = sceneAt(ctx, t, 1);
      const brute = [];
      for (let p = 0; p < P.n; p++) {
        if (
          P.host[p] === ctx.host &&
          P.tWire[p]! <= t &&
          !(P.tRx[p]! <= t) &&
          !(P.tEnq[p]! <= t && !(P.tDeq[p]! <= t))
        ) {
          brute.push(p);
        }
      }
      expect([...s.wire].sort((a, b) => a - b)).toEqual(brute);
    }
  });

  test('holds in the TX ring exactly the posted packets whose completion has not come', () => {
    const P = m.packets;
    for (const t of instants()) {
      const s = sceneAt(ctx, t, 1);
      const brute = [];
      for (let p = 0; p < P.n; p++) {
        if (P.host[p] === ctx.host && P.tRing[p]! <= t && !(P.tDone[p]! <= t)) brute.push(p);
      }
      expect([...s.ring].sort((a, b) => a - b)).toEqual(brute);
    }
  });

  test('holds in each write queue the skbs created and not yet freed, by sequence', () => {
    const S = m.skbs;
    for (const t of instants()) {
      const s = sceneAt(ctx, t, 1);
      ctx.lanes.forEach((lane, i) => {
        const brute = [];
        for (let k = 0; k < S.n; k++) {
          if (S.sk[k] === lane.sk && S.tCreate[k]! <= t && !(S.tFreed[k]! <= t)) brute.push(k);
        }
        brute.sort((a, b) => S.seqStart[a]! - S.seqStart[b]!);
        expect(s.skbs[i]).toEqual(brute);
      });
    }
  });

  test('an skb grows with each copy toward its size goal', () => {
    const S = m.skbs;
    const i = Array.from({ length: S.n }, (_, k) => k).find(
      (k) => S.evOff[k + 1]! - S.evOff[k]! >= 3 && S.parent[k]! < 0,
    )!;
    const times = Array.from(S.evRow.subarray(S.evOff[i]!, S.evOff[i + 1]!)).map(
      (r) => m.cols.t[r]!,
    );
    const lens = times.map((t) => skbStateAt(m, i, t).len);
    expect(lens[0]).toBeGreaterThan(0);
    expect(lens.every((l) => l <= S.sizeGoal[i]!)).toBe(true);
  });
});
