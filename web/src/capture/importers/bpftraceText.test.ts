// bpftrace's text output of sendpath.bt: the real file of fixtures/real (stdout and stderr saved
// together, as a terminal shows them), and the newer banner of bpftrace >= 0.24.

import { describe, expect, test } from 'vitest';

import { parseCaptureText } from '../parse';
import { summarize } from '../query';
import { FIXTURES, checkModel, modelOf, parseFile } from '../testing';

describe('bpftrace text importer', () => {
  test('reads the real text output, stderr included (snapshot)', () => {
    const result = parseFile(new URL('real/bpftrace.txt', FIXTURES));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.format).toBe('bpftrace-text');
    expect(result.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    expect(checkModel(result.model)).toEqual([]);
    expect(summarize(result.model)).toMatchSnapshot();
  });

  test('the text and JSON outputs of the same script both hold its main event kinds', () => {
    for (const file of ['real/bpftrace.txt', 'real/bpftrace.ndjson']) {
      const m = modelOf(new URL(file, FIXTURES));
      for (const kind of ['sendmsg', 'queue', 'xmit', 'probe', 'state'] as const)
        expect(m.events.tables[kind].count, `${file}: ${kind}`).toBeGreaterThan(0);
    }
  });

  test('accepts the "Attached N probes" banner of bpftrace >= 0.24 and "Lost N events"', () => {
    const result = parseCaptureText(
      [
        'Attached 14 probes',
        'clock mono_ns=5000 real=1795298690.085255',
        'probe t=6000 sport=5001 dport=40000 data_len=0 snd_nxt=100 snd_una=50 snd_cwnd=10 ssthresh=2147483647 snd_wnd=65535 srtt=1200 rcv_wnd=65536',
        'Lost 7 events',
        '',
        '@unused[1]: 3',
      ].join('\n'),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.events.tables.probe.count).toBe(1);
    expect(result.model.events.tables.probe.t_ns[0]).toBe(1000);
    expect(result.model.eventWindow?.lostEvents).toBe(7);
  });
});
