// bpftrace -f json output of sendpath.bt: the real file of fixtures/real (bpftrace 0.17, whose
// attached_probes has no "count"), and the newer shapes (bpftrace >= 0.24) as bpftrace's own
// test suite prints them.

import { describe, expect, test } from 'vitest';

import { parseCaptureText } from '../parse';
import { summarize } from '../query';
import { FIXTURES, checkModel, parseFile } from '../testing';

describe('bpftrace JSON importer', () => {
  test('reads the real bpftrace -f json output (snapshot)', () => {
    const result = parseFile(new URL('real/bpftrace.ndjson', FIXTURES));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.format).toBe('bpftrace-json');
    expect(result.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    expect(checkModel(result.model)).toEqual([]);
    expect(result.model.events.tables.sendmsg.count).toBeGreaterThan(0);
    expect(result.model.eventWindow?.truncatedBy).toBe('cap');
    expect(summarize(result.model)).toMatchSnapshot();
  });

  const clock = '{"type": "printf", "data": "clock mono_ns=1000000000 real=1795298690.085255\\n"}';
  const xmit =
    '{"type": "printf", "data": "xmit t=1000002000 dev=eth0 skbaddr=0xffff888101a2b300 len=1514 data_len=1448 gso_size=0 gso_segs=1 gso_type=0 queue_mapping=0\\n"}';

  test('accepts attached_probes and lost_events with and without "count" (bpftrace <= 0.23 and >= 0.24)', () => {
    const text = [
      '{"type": "attached_probes", "count": 14, "data": {"probes": 14}}',
      clock,
      xmit,
      '{"type": "lost_events", "count": 3, "data": {"events": 3}}',
      '{"type": "lost_events", "data": {"events": 2}}',
      xmit.replace('t=1000002000', 't=1000003000'),
    ].join('\n');
    const result = parseCaptureText(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.events.tables.xmit.count).toBe(2);
    expect(result.model.eventWindow?.lostEvents).toBe(5);
    expect(Array.from(result.model.events.tables.xmit.t_ns)).toEqual([2000, 3000]);
  });

  test('reads printf records with bpftrace spacing or none, and one printf holding two lines', () => {
    const compact = xmit.replace('{"type": "printf", "data": "', '{"type":"printf","data":"');
    const two = `{"type": "printf", "data": "queue t=1000001000 dev=eth0 skbaddr=0x1 len=1514\\nqueue t=1000001500 dev=eth0 skbaddr=0x2 len=1514\\n"}`;
    const result = parseCaptureText([clock, compact, two].join('\n'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.events.tables.xmit.count).toBe(1);
    expect(result.model.events.tables.queue.count).toBe(2);
  });

  test('keeps nanosecond times exact when the monotonic clock is beyond 2^53 ns', () => {
    const big = '9007199254740993123';
    const text = [
      `{"type": "printf", "data": "clock mono_ns=${big} real=1795298690.085255\\n"}`,
      `{"type": "printf", "data": "queue t=9007199254740993130 dev=eth0 skbaddr=0x1 len=60\\n"}`,
    ].join('\n');
    const result = parseCaptureText(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.events.tables.queue.t_ns[0]).toBe(7);
  });
});
