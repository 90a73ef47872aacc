// The capture kit end to end, on this machine: capture/lab/netns-lab.sh builds two network
// namespaces joined through a delaying forwarder, runs a 0.5 s small-write workload, and records
// it with capture/sendpath-record; the importer then reads the file. Needs root (network
// namespaces), iproute2 and gcc; skipped, saying why, where those are missing. bpftrace is
// optional: with it the recording must be in full mode, with events.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, test } from 'vitest';

import { counterIncrements } from './query';
import { parseTcQdisc } from './recorded';
import { checkModel, parseFile } from './testing';

const LAB = fileURLToPath(new URL('../../../capture/lab/netns-lab.sh', import.meta.url));

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function whyNot(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root (network namespaces need it)';
  const missing = ['ip', 'tc', 'nstat', 'gcc', 'timeout'].filter((c) => !has(c));
  if (missing.length) return `missing ${missing.join(', ')}`;
  return null;
}

const reason = whyNot();
if (reason) console.warn(`capture kit test skipped: ${reason}`);
const dir = reason ? '' : mkdtempSync(join(tmpdir(), 'sendpath-recorder-test-'));
afterAll(() => {
  if (dir && !process.env.SENDPATH_KEEP_TEST_FILES) rmSync(dir, { recursive: true, force: true });
});

/** Run the lab's smoke experiment; returns the capture file. */
function record(extraArgs = ''): string {
  const out = join(dir, extraArgs ? 'counters' : 'full');
  const run = spawnSync(LAB, ['-q', '-o', out, 'smoke'], {
    env: { ...process.env, LAB_RECORD_ARGS: extraArgs },
    encoding: 'utf8',
    timeout: 90_000,
  });
  if (run.status !== 0)
    throw new Error(`netns-lab.sh smoke failed (${run.status ?? run.signal}):\n${run.stderr}`);
  return join(out, 'smoke.jsonl');
}

describe.skipIf(reason !== null)(
  `capture kit on this host${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    test(
      'sendpath-record records a real small-write workload between two namespaces',
      { timeout: 120_000 },
      () => {
        const file = record();
        const result = parseFile(new URL(`file://${file}`));
        expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
        if (!result.ok) return;
        const m = result.model;
        expect(result.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
        expect(m.format).toBe('sendpath-capture');
        expect(m.truncated).toBe(false);
        expect(checkModel(m)).toEqual([]);
        // What the recorder saw of the host: its kernel, the sysctls, the veth and its tbf.
        expect(m.config.host?.kernelRelease).toBe(
          execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim(),
        );
        expect(m.config.sysctls['']?.['net.ipv4.tcp_autocorking']).toMatch(/^[01]$/);
        // The driver's name comes from ethtool, an optional tool: checked where it is installed.
        if (has('ethtool')) expect(m.config.devices[0]?.driver?.['driver']).toBe('veth');
        else console.warn('capture kit test: ethtool missing, the device driver is not checked');
        const qdisc = parseTcQdisc(m.qdiscs.at(-1)!.text)[0];
        expect(qdisc?.kind).toBe('tbf');
        // The workload ran and the counters saw it.
        expect(m.workload?.exit_status).toBe(0);
        const inc = counterIncrements(m);
        expect(inc['TcpOutSegs']!).toBeGreaterThan(100);
        expect(m.counters.filter((c) => c.kind === 'delta').length).toBeGreaterThanOrEqual(3);
        if (has('bpftrace')) {
          expect(m.config.mode, m.config.modeReason ?? '').toBe('full');
          expect(m.events.tables.xmit.count).toBeGreaterThan(0);
          expect(m.events.tables.probe.count).toBeGreaterThan(0);
          if (m.config.tracepoints?.['tcp:tcp_sendmsg_locked'])
            expect(m.events.tables.sendmsg.count).toBeGreaterThan(0);
        } else {
          expect(m.config.mode).toBe('counters');
        }
      },
    );

    test(
      'without bpftrace (--no-bpf) it records the counters only, and says so',
      { timeout: 120_000 },
      () => {
        const result = parseFile(new URL(`file://${record('--no-bpf')}`));
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.model.config.mode).toBe('counters');
        expect(result.model.config.modeReason).toBe('--no-bpf');
        expect(result.model.events.timelineKind.length).toBe(0);
        expect(counterIncrements(result.model)['TcpOutSegs']!).toBeGreaterThan(100);
        expect(result.model.coverage.find((c) => c.stage === 'app_writes')?.reason).toMatch(
          /counters mode/,
        );
      },
    );
  },
);
