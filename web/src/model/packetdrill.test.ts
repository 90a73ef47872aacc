import { describe, expect, it } from 'vitest';

import type { PacketdrillReport } from '../engine/generated/PacketdrillReport';
import {
  MAX_WAIT_MS,
  MIN_WAIT_MS,
  currentEvent,
  lineStates,
  loadUpstream,
  stopOf,
  upstreamScripts,
  waitBefore,
} from './packetdrill';

const ev = (line: number, t_us: number, last_line = line) => ({
  line,
  last_line,
  t_us,
  kind: 'syscall',
  detail: '',
});

const failing: PacketdrillReport = {
  name: 'x.pkt',
  outcome: {
    kind: 'fail',
    line: 6,
    message: 'live packet field tcp_psh',
    expected: 'P.',
    actual: '.',
  },
  lines: [ev(1, 0), ev(2, 0, 3), ev(5, 1_000_000)],
  notes: [],
};

describe('packetdrill player model', () => {
  it('marks the lines that ran, the current event (all its lines) and nothing after', () => {
    expect(lineStates(failing, 2, 7)).toEqual([
      'done',
      'current',
      'current',
      'idle',
      'idle',
      'idle',
      'idle',
    ]);
    expect(currentEvent(failing, 2)?.line).toBe(2);
    expect(currentEvent(failing, 0)).toBeNull();
  });

  it('shows where the script stopped only once every event has run', () => {
    expect(lineStates(failing, 2, 7)[5]).toBe('idle');
    const end = lineStates(failing, 3, 7);
    expect(end[4]).toBe('current');
    expect(end[5]).toBe('fail');
    expect(stopOf(failing)).toMatchObject({ line: 6, kind: 'fail', expected: 'P.' });
  });

  it('waits the script time between events, scaled, within bounds', () => {
    expect(waitBefore(failing, 1, 'real')).toBe(MIN_WAIT_MS);
    expect(waitBefore(failing, 2, 'real')).toBe(1000);
    expect(waitBefore(failing, 2, 'fast')).toBe(250);
    expect(waitBefore(failing, 2, 'slow')).toBe(MAX_WAIT_MS);
    expect(waitBefore(failing, 3, 'real')).toBe(0);
  });

  it('carries the vendored upstream scripts, each loaded when chosen', async () => {
    expect(upstreamScripts).toContain('nagle/sockopt_cork_nodelay.pkt');
    expect(upstreamScripts.length).toBeGreaterThanOrEqual(20);
    expect(await loadUpstream('nagle/sockopt_cork_nodelay.pkt')).toContain('TCP_CORK');
    await expect(loadUpstream('nope.pkt')).rejects.toThrow('no such script');
  });
});
