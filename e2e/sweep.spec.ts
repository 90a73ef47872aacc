// The parameter sweep panel (a link opens and runs a sweep on the browser's cores, its points
// carry the native engine's numbers, a point opens its run, the plots and numbers export, a
// sweep can be cancelled, a bad key is named) and "Download pcap".

import { readFileSync } from 'node:fs';

import type { Download, Page } from '@playwright/test';

import { expect, nativeRun, test } from './fixtures';

const BASE = './?s=autocorking&v=on&set=sim.duration_ms%3D5';
const SWEEP = `${BASE}&sweep=app.write_size_bytes%3D128..512x2&metric=throughput_mbit&metric=TcpExtTCPAutoCorking`;

const panel = (page: Page) => page.getByRole('region', { name: 'Parameter sweep' });

async function saved(download: Promise<Download>): Promise<Buffer> {
  const d = await download;
  return readFileSync((await d.path())!);
}

test('a link opens a sweep that runs on the cores, with the native engine numbers at its points', async ({
  sendpath,
  page,
}) => {
  test.setTimeout(120_000);
  await sendpath.goto(SWEEP);
  await sendpath.ready();
  await sendpath.reveal('Parameter sweep');
  const p = panel(page);
  await test.step('the link ran its sweep: one line per metric', async () => {
    await expect(p.getByTestId('sweep-progress')).toContainText('3 points in', {
      timeout: 60_000,
    });
    await expect(p.getByTestId('sweep-plot')).toHaveCount(2);
    await expect(p.getByLabel('Values', { exact: true })).toHaveValue('128..512x2');
  });
  await test.step('each point says what the native engine says of that run', async () => {
    const r = nativeRun('scenarios/autocorking.toml', [
      '--variant',
      'on',
      '--set',
      'sim.duration_ms=5',
      '--set',
      'app.write_size_bytes=256',
    ]);
    const autocorks = Object.values(r.hosts)
      .map((h) => h.counters.TcpExtTCPAutoCorking ?? 0)
      .reduce((a, b) => a + b, 0);
    const plot = p.getByTestId('sweep-plot').nth(1);
    await expect(plot.getByRole('button')).toHaveCount(3);
    await expect(
      plot.getByRole('button', {
        name: `app.write_size_bytes=256: TcpExtTCPAutoCorking ${autocorks}. Open this run`,
      }),
    ).toBeVisible();
  });
  await test.step('the numbers and the plots export', async () => {
    const csv = (
      await saved(
        Promise.all([
          page.waitForEvent('download'),
          p.getByRole('button', { name: 'Export the plots as CSV' }).click(),
        ]).then(([d]) => d),
      )
    ).toString();
    expect(csv.split('\n')[0]).toBe('app.write_size_bytes,throughput_mbit,TcpExtTCPAutoCorking');
    expect(csv.trim().split('\n')).toHaveLength(4);
    const svg = (
      await saved(
        Promise.all([
          page.waitForEvent('download'),
          p.getByRole('button', { name: 'Export the plots as SVG' }).click(),
        ]).then(([d]) => d),
      )
    ).toString();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/<circle/g)).toHaveLength(6);
    const png = await saved(
      Promise.all([
        page.waitForEvent('download'),
        p.getByRole('button', { name: 'Export the plots as PNG' }).click(),
      ]).then(([d]) => d),
    );
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
  await test.step('a point opens the run it came from', async () => {
    await p
      .getByTestId('sweep-plot')
      .first()
      .getByRole('button', { name: /^app\.write_size_bytes=512: throughput_mbit/ })
      .click();
    await expect(page).toHaveURL(/set=app\.write_size_bytes%3D512/);
    await sendpath.ready();
    await expect(page).toHaveURL(/sweep=app\.write_size_bytes%3D128\.\.512x2/);
  });
  expect(sendpath.errors).toEqual([]);
});

test('two keys make a heat map; a running sweep can be cancelled', async ({ sendpath, page }) => {
  test.setTimeout(120_000);
  await sendpath.goto(
    `${BASE}&sweep=net.ipv4.tcp_autocorking%3D0..1&sweep=app.write_size_bytes%3D128..256:128&metric=TcpExtTCPAutoCorking`,
  );
  await sendpath.ready();
  await sendpath.reveal('Parameter sweep');
  const p = panel(page);
  await expect(p.getByTestId('sweep-progress')).toContainText('4 points in', { timeout: 60_000 });
  const heat = p.getByRole('img', {
    name: 'TcpExtTCPAutoCorking over net.ipv4.tcp_autocorking and app.write_size_bytes',
  });
  await expect(heat.getByRole('button')).toHaveCount(4);
  // Autocorking off never autocorks.
  await expect(
    heat.getByRole('button', {
      name: 'net.ipv4.tcp_autocorking=0, app.write_size_bytes=128: TcpExtTCPAutoCorking 0. Open this run',
    }),
  ).toBeVisible();

  // 200 runs of the whole 500 ms scenario: far more than the time it takes to cancel.
  await p.getByLabel('Key', { exact: true }).fill('app.write_size_bytes');
  await p.getByLabel('Values', { exact: true }).fill('64..12800:64');
  await p.getByLabel('Second key (heat map)').fill('');
  await p.getByLabel('Metrics').fill('throughput_mbit');
  const baseSet = page.url();
  expect(baseSet).toContain('sim.duration_ms');
  await p.getByRole('button', { name: 'Run the sweep' }).click();
  await expect(p.getByTestId('sweep-progress')).toContainText('of 200 points');
  await p.getByRole('button', { name: 'Cancel' }).click();
  await expect(p.getByTestId('sweep-progress')).toContainText('Cancelled after');
  await expect(p.getByRole('button', { name: 'Run the sweep' })).toBeEnabled();
  await expect(page).toHaveURL(/sweep=app\.write_size_bytes%3D64\.\.12800%3A64/);
  expect(sendpath.errors).toEqual([]);
});

test('a sweep of a key the engine does not know says so; a malformed one in the link too', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto(`${BASE}&sweep=app.write_sise_bytes%3D1..2&sweep=nonsense`);
  await sendpath.ready();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Parts of the link were ignored' }),
  ).toContainText('sweep=nonsense must be KEY=A..B[:STEP|xFACTOR] or KEY=V1,V2,...; ignored');
  await sendpath.reveal('Parameter sweep');
  await expect(panel(page).getByRole('alert')).toContainText(
    'app.write_sise_bytes: unknown key; did you mean "app.write_size_bytes"?',
    { timeout: 30_000 },
  );
});

test('Download pcap saves the run on screen as pcapng', async ({ sendpath, page }) => {
  await sendpath.goto(BASE);
  await sendpath.ready();
  await sendpath.reveal('Full experiment');
  const section = page.getByRole('region', { name: 'Full experiment' });
  await section.getByLabel('Frames').selectOption('wire');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: 'Download pcap' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('autocorking-wire.pcapng');
  const bytes = readFileSync((await download.path())!);
  // A pcapng section header block, little-endian, then an interface per host.
  expect([...bytes.subarray(0, 4)]).toEqual([0x0a, 0x0d, 0x0d, 0x0a]);
  expect(bytes.readUInt32LE(8)).toBe(0x1a2b3c4d);
  expect(bytes.toString('latin1')).toContain('sender');
  expect(bytes.toString('latin1')).toContain('receiver');
  await expect(section.getByRole('status')).toContainText('Downloaded autocorking-wire.pcapng');
  expect(sendpath.errors).toEqual([]);
});
