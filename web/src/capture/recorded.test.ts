// The readers of the text the recorder stores (tc -s qdisc, ss -tinm, ip -d link), on the real
// text of the samples.

import { describe, expect, test } from 'vitest';

import { parseIpLink, parseSs, parseTcQdisc, tcRateBps, tcSizeBytes, tcTimeUs } from './recorded';
import { SAMPLES, modelOf } from './testing';

describe('recorded text', () => {
  test('tc units: rates are 1000-based bits, sizes 1024-based bytes', () => {
    expect(tcRateBps('500Mbit')).toBe(500e6);
    expect(tcRateBps('4Kbit')).toBe(4000);
    expect(tcRateBps('1Gbps')).toBe(8e9);
    expect(tcSizeBytes('16Kb')).toBe(16384);
    expect(tcSizeBytes('1514b')).toBe(1514);
    expect(tcTimeUs('200ms')).toBe(200000);
    expect(tcRateBps('fast')).toBeNull();
  });

  test('reads tbf from the autocorking sample: rate, burst, and the packets it sent', () => {
    const m = modelOf(new URL('autocork-on.jsonl', SAMPLES));
    const last = m.qdiscs.at(-1)!;
    const [tbf] = parseTcQdisc(last.text);
    expect(tbf?.kind).toBe('tbf');
    expect(tbf?.parent).toBe('root');
    expect(tcRateBps(tbf!.params['rate']!)).toBe(20e6);
    expect(tcSizeBytes(tbf!.params['burst']!)).toBe(1600);
    expect(tbf!.sentPackets!).toBeGreaterThan(300);
    expect(tbf!.backlogBytes).toBe(0);
  });

  test('reads the sockets of the ping-pong from ss: both ends, cubic, cwnd and rtt', () => {
    const m = modelOf(new URL('pingpong-default.jsonl', SAMPLES));
    const sockets = parseSs(m.sockets[0]!.text);
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    for (const s of sockets) {
      expect(s.cc).toBe('cubic');
      expect(s.cwnd).toBe(10);
      expect(s.rttMs).not.toBeNull();
      expect(s.skmem['tb']).toBeGreaterThan(0);
    }
    expect(sockets.map((s) => s.localPort)).toContain(5001);
  });

  test('reads the veth device of the bulk sample: MTU 1500, tbf-less, GSO limits', () => {
    const m = modelOf(new URL('bulk-40ms.jsonl', SAMPLES));
    const link = parseIpLink(m.config.devices[0]!.link);
    expect(link).toMatchObject({ mtu: 1500, kind: 'veth', gsoMaxSize: 65536 });
    expect(m.config.devices[0]!.driver?.['driver']).toBe('veth');
  });
});
