// What a kernel engineer reaches for in the site (issue 21): the title follows the overrides,
// "Compare kernels" puts the same run on another kernel beside it with the keys and switches
// that differ, every chart of the A/B view says which line is A and which is B, and the run
// summary, its CSV and `ss`/`tc` at the cursor are what `sendpath run` prints.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Download } from '@playwright/test';

import { ENGINE_DIR, expect, nativeRun, seriousViolations, test } from './fixtures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

test('after link.rate_mbit=10000 the title says 10 Gbit/s and lists the override', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=tcp-small-queues&set=link.rate_mbit%3D10000');
  await sendpath.ready();
  const heading = page.locator('#scenario-h');
  await expect(heading).toContainText('10 Gbit/s');
  await expect(heading).not.toContainText(/\b1 Gbit\/s/);
  await expect(page.getByTestId('changed-keys')).toContainText('link.rate_mbit=10000');
  expect(sendpath.errors).toEqual([]);
});

test('compare kernels runs B on the other kernel, and each chart has the A/B legend', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=tcp-small-queues');
  await sendpath.ready();
  await page.getByRole('button', { name: 'Compare kernels: B on 6.18' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.getAll('bset')).toContain('kernel=6.18');
  await sendpath.ready();
  await sendpath.reveal('Charts');
  const figures = page.getByRole('region', { name: 'Charts' }).locator('figure');
  await expect(figures.first()).toBeVisible();
  const n = await figures.count();
  expect(n).toBeGreaterThan(3);
  for (let i = 0; i < n; i++) {
    // An item that is the side's name alone, or starts with it ("A: goodput").
    const items = figures.nth(i).locator('.legend li');
    await expect(items.filter({ hasText: /^\s*A(:|\s*$)/ })).not.toHaveCount(0);
    await expect(items.filter({ hasText: /^\s*B(:|\s*$)/ })).not.toHaveCount(0);
  }
  expect(sendpath.errors).toEqual([]);
});

// The run summary, its CSV, `--at` and the kernel differences, each against the native CLI on
// the same configuration (autocorking, variant on, 20 ms; the binary global-setup.ts built).
const SCENARIO = 'scenarios/autocorking.toml';
const SHORT = './?s=autocorking&v=on&set=sim.duration_ms%3D20';
const CLI_ARGS = ['--variant', 'on', '--set', 'sim.duration_ms=20'];

/** `sendpath ARGS` run at the repository's root (files named as the page names them). */
function cli(args: string[]): string {
  return execFileSync(`${ENGINE_DIR}target/e2e/sendpath`, args, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function saved(download: Promise<Download>): Promise<string> {
  const d = await download;
  return readFileSync((await d.path())!, 'utf8');
}

test('the run summary shows the figures sendpath run prints, and its CSV is sendpath run --csv', async ({
  sendpath,
  page,
}) => {
  test.setTimeout(150_000);
  await sendpath.goto(SHORT);
  await sendpath.ready();
  await sendpath.reveal('Run summary');
  const panel = page.getByRole('region', { name: 'Run summary' });
  await panel.getByRole('button', { name: 'Summarize the whole run' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Summary ready' })).toBeVisible({
    timeout: 90_000,
  });
  const s = nativeRun(SCENARIO, CLI_ARGS).summary!;
  expect(s.flows).toHaveLength(4);
  await expect(panel.getByTestId('summary-flows').locator('tbody tr')).toHaveCount(4);
  for (const f of s.flows) {
    const row = panel.locator(`tr[data-flow="a/${f.flow}/${f.sk}"]`);
    await expect(row.locator('[data-col=throughput]')).toHaveText(
      (f.throughput_bps / 1e6).toFixed(2),
    );
    await expect(row.locator('[data-col=goodput]')).toHaveText((f.goodput_bps / 1e6).toFixed(2));
    await expect(row.locator('[data-col=cwnd]')).toHaveText(
      `${f.cwnd!.min}/${f.cwnd!.avg.toFixed(1)}/${f.cwnd!.max}`,
    );
    const t = f.tso_segs;
    await expect(row.locator('[data-col=tso]')).toHaveText(
      `${t.count}, ${t.mean.toFixed(1)}, ${t.p50}, ${t.p90}, ${t.p99}, ${t.max}`,
    );
  }
  // The qdisc's backlog percentiles and the holds per gate: the same numbers.
  const q = s.devices.find((d) => d.host === 'sender')!.qdisc_bytes!;
  await expect(panel.locator('tr[data-queue="a/sender/qdiscBytes"] td')).toHaveText([
    'sender',
    q.avg.toFixed(1),
    String(q.p50),
    String(q.p99),
    String(q.max),
  ]);
  const held = s.holds.filter((h) => h.ns.count > 0);
  expect(held.map((h) => h.gate)).toContain('autocork');
  await expect(panel.getByTestId('summary-holds').locator('tbody tr')).toHaveCount(held.length);
  for (const h of held) {
    await expect(panel.locator(`tr[data-gate="a/${h.gate}"] td`)).toHaveText([
      h.per,
      String(h.ns.count),
      (h.total_ns / 1e6).toFixed(3),
      (h.ns.mean / 1e3).toFixed(1),
      ...[h.ns.p50, h.ns.p90, h.ns.p99, h.ns.max].map((ns) => (ns / 1e3).toFixed(1)),
    ]);
  }

  // The CSV at 1 ms: the files `sendpath run --csv PREFIX --interval 1ms` writes.
  const dir = mkdtempSync(join(tmpdir(), 'sendpath-csv-'));
  cli(['run', SCENARIO, ...CLI_ARGS, '--csv', join(dir, 'run'), '--interval', '1ms']);
  for (const what of ['flows', 'devices'] as const) {
    const csv = await saved(
      Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: `Download ${what} CSV` }).click(),
      ]).then(([d]) => d),
    );
    const native = readFileSync(join(dir, `run.${what}.csv`), 'utf8');
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe(
      what === 'flows'
        ? 't_ms,flow,host,sk,app,cwnd,srtt_us,packets_out,sent_bytes,acked_bytes,read_bytes,throughput_mbit,acked_mbit'
        : 't_ms,host,qdisc_bytes,qdisc_packets,ring_descs,bql_inflight_bytes,bql_limit_bytes,wire_bytes,wire_mbit',
    );
    // One row per socket (8) or device with a queue, per ms of the 20 ms.
    expect(lines.length - 1).toBeGreaterThanOrEqual(20);
    expect(lines).toHaveLength(native.trim().split('\n').length);
    expect(csv).toBe(native);
  }
  // On a phone the wide tables scroll in their own boxes: the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - innerWidth))
    .toBeLessThanOrEqual(0);
  expect(sendpath.errors).toEqual([]);
});

test('ss -ti and tc -s qdisc at the cursor are the text of sendpath run --at', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto(SHORT);
  await sendpath.ready();
  // The cursor at the window's end.
  await page.keyboard.press('End');
  await sendpath.reveal('ss -ti and tc -s qdisc at the cursor');
  const panel = page.getByRole('region', { name: 'ss -ti and tc -s qdisc at the cursor' });
  const show = panel.getByRole('button', { name: /^Show at / });
  await expect(show).not.toHaveText('Show at 0.000000 ms');
  const ms = /Show at ([\d.]+) ms/.exec((await show.textContent())!)![1]!;
  const ns = Math.round(Number(ms) * 1e6);
  await show.click();
  const pre = panel.getByTestId('at-text-a');
  await expect(pre).toContainText('State');
  const text = await pre.textContent();
  const native = cli(['run', SCENARIO, ...CLI_ARGS, '--at', `${ns}ns`]);
  expect(native).toContain(`# ${SCENARIO} at t = ${ms} ms`);
  expect(native).toMatch(/^ESTAB/m);
  expect(native).toMatch(/^qdisc /m);
  expect(text).toBe(native);
  expect(await seriousViolations(page)).toEqual([]);
  expect(sendpath.errors).toEqual([]);
});

test('compare kernels lists the keys and switches that differ, as sendpath diff does', async ({
  sendpath,
  page,
}) => {
  test.setTimeout(150_000);
  await sendpath.goto(SHORT);
  await sendpath.ready();
  await page.getByRole('button', { name: 'Compare kernels: B on 6.18' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.getAll('bset')).toContain('kernel=6.18');
  await sendpath.ready();
  await sendpath.reveal('A/B comparison');
  const diff = page.getByTestId('kernel-diff');
  await expect(diff.getByTestId('kernel-diff-keys')).toBeVisible({ timeout: 30_000 });
  const text = cli(['diff', SCENARIO, ...CLI_ARGS, '--kernel', '3.14', '--kernel', '6.18']);
  const section = (title: string) =>
    text.split(`## ${title}`)[1]!.split('\n## ')[0]!.trim().split('\n');
  // key (40 columns), A (32 columns), B.
  const keys = section('keys whose value differs')
    .slice(1)
    .map((l) => [l.slice(0, 40).trim(), l.slice(41, 73).trim(), l.slice(74).trim()]);
  expect(keys.map((k) => k[0])).toContain('net.ipv4.tcp_limit_output_bytes');
  const rows = diff.getByTestId('kernel-diff-keys').locator('tbody tr');
  await expect(rows).toHaveCount(keys.length);
  for (const [i, k] of keys.entries()) await expect(rows.nth(i).locator('th, td')).toHaveText(k);
  // "name: name = A on 3.14, B on 6.18 (commits)" then "  fired on ...".
  const switches = section(
    'behaviour switches that differ (fired = its code path shows in the run)',
  );
  const named = switches
    .map((l) => /^(\w+): \w+ = (.*) on 3\.14, (.*) on 6\.18 \((.*)\)$/.exec(l))
    .filter((m) => m !== null);
  expect(named.length).toBeGreaterThan(3);
  const srows = diff.getByTestId('kernel-diff-switches').locator('tbody tr');
  await expect(srows).toHaveCount(named.length);
  for (const [i, m] of named.entries())
    await expect(srows.nth(i).locator('th, td').nth(3)).toHaveText(m[4]!);
  for (const [i, m] of named.entries())
    await expect(srows.nth(i).locator('th, td').first()).toHaveText(m[1]!);
  // Once both sides are summarized, each switch says where it fired, as the CLI does.
  await sendpath.reveal('Run summary');
  const panel = page.getByRole('region', { name: 'Run summary' });
  await panel.getByRole('button', { name: 'Summarize the whole run' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Summary ready' })).toBeVisible({
    timeout: 120_000,
  });
  const where: Record<string, string> = {
    'fired on 3.14 only': 'on A only',
    'fired on 6.18 only': 'on B only',
    'fired on both': 'on both',
    'fired on neither': 'on neither',
  };
  for (const m of named) {
    const at = switches.indexOf(m[0]);
    const fired = /^ {2}(fired on [^:]+):/.exec(switches[at + 2] ?? '');
    if (!fired) continue;
    await expect(diff.locator(`tr[data-switch="${m[1]}"] td`).last()).toContainText(
      where[fired[1]!]!,
    );
  }
  // Both sides' summaries, each row saying its side.
  await expect(panel.getByTestId('summary-flows').locator('tbody tr')).toHaveCount(8);
  await expect(panel.getByTestId('summary-flows').locator('tbody tr td:first-child')).toHaveText([
    ...Array<string>(4).fill('A'),
    ...Array<string>(4).fill('B'),
  ]);
  expect(await seriousViolations(page)).toEqual([]);
  expect(sendpath.errors).toEqual([]);
});

test('a control set back to the scenario’s value leaves the link without it; a key says whether the kernel has it and its default there', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  const box = await sendpath.control(/net\.ipv4/, 'net.ipv4.tcp_autocorking');
  await expect(box).toBeChecked();
  await box.uncheck();
  await expect
    .poll(() => new URL(page.url()).searchParams.getAll('set'))
    .toEqual(['net.ipv4.tcp_autocorking=0']);
  await sendpath.ready();
  await box.check();
  await expect.poll(() => new URL(page.url()).searchParams.getAll('set')).toEqual([]);
  await sendpath.ready();
  const label = page.getByLabel('net.ipv4.tcp_autocorking', { exact: true });
  const key = sendpath.controls.locator('.key').filter({ has: label });
  await expect(key.locator('.doc')).toContainText('default in 3.14: 1');
  // On 3.13 the key does not exist: the control says so.
  await sendpath.goto('./?s=autocorking&v=on&set=kernel%3D3.13');
  await sendpath.ready();
  await sendpath.control(/net\.ipv4/, 'net.ipv4.tcp_autocorking');
  await expect(key.locator('.doc')).toContainText('does not exist in 3.13: ignored');
  expect(sendpath.errors.filter((e) => !/does not exist in kernel 3\.13/.test(e))).toEqual([]);
});

test('"Simulate this" links only the recording’s settings that differ from the scenario, and runs the same configuration', async ({
  sendpath,
  page,
}) => {
  test.setTimeout(150_000);
  await sendpath.goto('./?capture=samples/autocork-off.jsonl');
  await expect(
    page.getByRole('heading', { level: 2, name: 'Recording: autocork-off.jsonl' }),
  ).toBeVisible({ timeout: 60_000 });
  await sendpath.ready();
  await page.getByRole('button', { name: 'Simulate this' }).first().click();
  await expect
    .poll(() => new URL(page.url()).searchParams.getAll('bset').length)
    .toBeGreaterThan(0);
  await sendpath.ready(90_000);
  const bsets = new URL(page.url()).searchParams.getAll('bset');
  // Every key the simulation used is listed with where its value came from; the link holds
  // only those the scenario file does not already give.
  await sendpath.reveal('Recording');
  const keys = page.getByTestId('capture-keys').locator('tbody tr');
  const defaults = page.getByTestId('capture-defaults').locator('tbody tr');
  const listed = (await keys.count()) + (await defaults.count());
  expect(listed).toBeGreaterThan(50);
  // 16 of 82 when this test was written: the kernel, the link, the workload, what was recorded.
  expect(bsets.length).toBeLessThan(listed / 4);
  expect(bsets).toContain('net.ipv4.tcp_autocorking=0');
  expect(bsets).toContain('kernel=6.18');
  // 6.18's own defaults (sim.hz 250 against 3.14's 1000) come with the kernel.
  expect(bsets.filter((s) => s.startsWith('sim.hz='))).toEqual([]);
  await expect(page.getByTestId('capture-compare')).toBeVisible({ timeout: 120_000 });
  expect(sendpath.errors).toEqual([]);
});
