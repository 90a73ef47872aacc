// "Simulate this" on the real samples: the scenario keys read from each recording, checked by
// the real engine (its scenario_info refuses what a run would refuse).

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import * as wasm from '../engine/pkg/sendpath_wasm';
import type { ScenarioInfo } from '../engine/generated/ScenarioInfo';
import type { Catalog } from '../model/catalog';
import { scenarioSource } from '../model/testkit';
import { kernelProfile, scenarioFromRecording, type ScenarioMapping } from './scenario';
import { modelOf, SAMPLE_NAMES, SAMPLES } from './testing';

let catalog: Catalog;
const mapped: Record<string, ScenarioMapping> = {};

beforeAll(() => {
  wasm.initSync({
    module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
  });
  catalog = JSON.parse(wasm.engine_catalog()) as Catalog;
  for (const n of SAMPLE_NAMES)
    mapped[n] = scenarioFromRecording(modelOf(new URL(`${n}.jsonl`, SAMPLES)), catalog.keys);
});

/** The value of `key` the engine resolved, per host. */
function resolved(info: ScenarioInfo, key: string): string[] {
  return info.keys[key]!.values;
}

function infoOf(m: ScenarioMapping): ScenarioInfo {
  const { source, path } = scenarioSource(`${m.base}.toml`);
  return JSON.parse(wasm.scenario_info(source, path, undefined, m.sets)) as ScenarioInfo;
}

describe('a scenario from a recording', () => {
  test('the engine accepts the overrides of every sample, and every registry key has a value', () => {
    for (const n of SAMPLE_NAMES) {
      const m = mapped[n]!;
      expect(() => infoOf(m), n).not.toThrow();
      for (const k of catalog.keys.keys)
        expect(
          m.keys.some((x) => x.key === k.name),
          `${n}: ${k.name}`,
        ).toBe(true);
    }
  });

  test('the autocorking samples run the recorded sysctl, writes, socket option and tbf rate', () => {
    for (const [n, autocork] of [
      ['autocork-on', '1'],
      ['autocork-off', '0'],
    ] as const) {
      const info = infoOf(mapped[n]!);
      expect(info.kernel).toBe('6.18');
      expect(resolved(info, 'net.ipv4.tcp_autocorking')).toEqual([autocork, autocork]);
      expect(resolved(info, 'TCP_NODELAY')).toEqual(['1', '1']);
      expect(resolved(info, 'app.write_size_bytes')).toEqual(['128']);
      expect(resolved(info, 'app.bytes')).toEqual(['118912']);
      expect(resolved(info, 'link.rate_mbit')).toEqual(['20']);
      expect(resolved(info, 'sim.hz')).toEqual(['250']);
      expect(resolved(info, 'bql.enabled')[0]).toBe('0');
    }
    const rate = mapped['autocork-on']!.keys.find((k) => k.key === 'link.rate_mbit')!;
    expect(rate.source).toBe('approximated');
    expect(rate.why).toMatch(/tbf/);
  });

  test('the ping-pong samples run on loopback with the recorded rounds and TCP_NODELAY', () => {
    for (const [n, nodelay] of [
      ['pingpong-default', '0'],
      ['pingpong-nodelay', '1'],
    ] as const) {
      const m = mapped[n]!;
      expect(m.base).toBe('nagle-delayed-ack');
      const info = infoOf(m);
      expect(info.hosts).toEqual(['localhost']);
      expect(resolved(info, 'app.kind')).toEqual(['pingpong']);
      expect(resolved(info, 'app.rounds')).toEqual(['100']);
      expect(resolved(info, 'app.n_chunk')).toEqual(['100']);
      expect(resolved(info, 'TCP_NODELAY')).toEqual([nodelay]);
    }
  });

  test('the bulk sample takes its RTT from tcp_probe and its send buffer from the workload', () => {
    const m = mapped['bulk-40ms']!;
    const delay = Number(m.keys.find((k) => k.key === 'link.delay_us')!.value);
    expect(delay).toBeGreaterThan(19_000);
    expect(delay).toBeLessThan(23_000);
    const info = infoOf(m);
    expect(resolved(info, 'SO_SNDBUF')[0]).toBe('1000000');
    expect(resolved(info, 'app.bytes')).toEqual(['2000000']);
    expect(resolved(info, 'tc.qdisc')[0]).toBe('noqueue');
  });

  test('a key the recording cannot fill says which default it took and why', () => {
    const m = mapped['autocork-on']!;
    // The namespace's default is bbr, which the engine now has; the socket itself ran cubic.
    const cong = m.keys.find((k) => k.key === 'net.ipv4.tcp_congestion_control')!;
    expect(cong).toMatchObject({ source: 'recorded', value: 'bbr' });
    const own = m.keys.find((k) => k.key === 'TCP_CONGESTION')!;
    expect(own).toMatchObject({ source: 'recorded', value: 'cubic' });
    const speed = m.keys.find((k) => k.key === 'cpu.speed_percent')!;
    expect(speed).toMatchObject({ source: 'default', value: '100' });
    expect(speed.why.length).toBeGreaterThan(10);
  });

  test('a kernel release maps to the newest profile not newer than it', () => {
    const kernels = ['3.13', '3.14', '3.18', '3.19', '4.4', '6.18'];
    expect(kernelProfile('6.18.44-fc-v669', kernels)).toEqual({ profile: '6.18', exact: true });
    expect(kernelProfile('5.15.0-91-generic', kernels)).toEqual({ profile: '4.4', exact: false });
    expect(kernelProfile('3.16.0', kernels)).toEqual({ profile: '3.14', exact: false });
    expect(kernelProfile(null, kernels)).toEqual({ profile: '6.18', exact: false });
  });
});
