import { describe, expect, it } from 'vitest';

import type { RunResult } from '../engine/generated/RunResult';
import { differingFigures, effectSummary, effectValues, type EffectValues } from './effect';

function run(counters: Record<string, number>): RunResult {
  return {
    elapsed_s: 0.5,
    kernel: '3.14',
    variant: null,
    hosts: {
      sender: { counters } as unknown as RunResult['hosts'][string],
      receiver: { counters: { IpOutRequests: 5 } } as unknown as RunResult['hosts'][string],
    },
    host_names: ['sender', 'receiver'],
    sockets: [],
    apps: [
      {
        host: 'sender',
        kind: 'tcp_stream',
        flow: 0,
        bytes_written: 1,
        bytes_read: 0,
        throughput_bps: 1,
        cpu_s: 1,
        voluntary_ctxt_switches: 0,
        send_calls: 1,
        finished_s: null,
      },
    ],
    events: 0,
    warnings: [],
  };
}

describe('the landing effect', () => {
  it("reads the writing host's counters and the engine's metrics", () => {
    const v = effectValues(run({ IpOutRequests: 100, IpExtOutOctets: 6_400_000 }), {
      throughput_mbit: 9578,
      cpu_per_byte_ns: 2.45,
    });
    expect(v).toEqual({
      packets: 100,
      bytesPerPacket: 64_000,
      cpuPerMB: 2.45,
      throughput: 9578,
      autocorks: 0,
    });
  });

  it('shows only the figures that differ, and says which way', () => {
    const a: EffectValues = {
      packets: 9381,
      bytesPerPacket: 62948,
      cpuPerMB: 2.45,
      throughput: 9578,
      autocorks: 6830,
    };
    const b: EffectValues = {
      packets: 326016,
      bytesPerPacket: 1413,
      cpuPerMB: 4.51,
      throughput: 9500,
      autocorks: 0,
    };
    expect(differingFigures(a, b)).toEqual(['packets', 'bytesPerPacket', 'cpuPerMB', 'autocorks']);
    const s = effectSummary(a, b);
    expect(s.packets).toEqual({ fewer: true, times: 326016 / 9381 });
    expect(s.cpuPerMB).toEqual({ less: true, pct: 46 });
    expect(s.throughput).toBeNull();
  });
});
