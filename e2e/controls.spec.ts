// Controls re-run the engine; the numbers on the page are the native engine's; bad input
// shows the engine's error and keeps the last good run.
import { expect, nativeRun, test } from './fixtures';

const WINDOW = './?s=autocorking&v=on&to=2000000';

test('turning tcp_autocorking off changes the counters exactly as the engine says', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto(WINDOW);
  await sendpath.ready();
  await sendpath.toEnd();
  const before = await sendpath.counter('sender', 'TcpExtTCPAutoCorking');
  const native = (sets: string[]) =>
    nativeRun('scenarios/autocorking.toml', [
      '--variant',
      'on',
      '--set',
      'sim.duration_ms=2',
      ...sets.flatMap((s) => ['--set', s]),
    ]);
  expect(before).toBe(native([]).hosts.sender!.counters.TcpExtTCPAutoCorking);
  expect(before).toBeGreaterThan(0);

  const box = await sendpath.control(/net\.ipv4/, 'net.ipv4.tcp_autocorking');
  await box.uncheck();
  await expect(page).toHaveURL(/set=net\.ipv4\.tcp_autocorking%3D0/);
  await sendpath.ready();
  await sendpath.toEnd();
  const expected = native(['net.ipv4.tcp_autocorking=0']).hosts.sender!.counters;
  await expect.poll(() => sendpath.counter('sender', 'TcpExtTCPAutoCorking')).toBe(0);
  for (const name of ['IpOutRequests', 'TcpOutSegs', 'IpExtOutOctets']) {
    expect(await sendpath.counter('sender', name)).toBe(expected[name]);
  }
  await expect(page).toHaveURL(/set=net\.ipv4\.tcp_autocorking%3D0/);
  expect(sendpath.errors).toEqual([]);
});

test("an out-of-range value shows the engine's error beside the control and keeps the last good run", async ({
  sendpath,
}) => {
  await sendpath.goto(WINDOW);
  await sendpath.ready();
  await sendpath.toEnd();
  const events = await sendpath.eventIndex.innerText();
  const segs = await sendpath.counter('sender', 'TcpOutSegs');
  const input = await sendpath.control(/NIC/, 'ethtool.tx');
  await input.fill('0');
  await input.press('Enter');
  const error = sendpath.controlError('ethtool.tx');
  // The engine's own message (the key is the control's label; the file name is left out).
  await expect(error).toContainText('1..65536');
  await expect(error).not.toContainText('scenarios/autocorking.toml');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await sendpath.ready();
  await expect(sendpath.eventIndex).toHaveText(events);
  expect(await sendpath.counter('sender', 'TcpOutSegs')).toBe(segs);
  await expect(sendpath.pipeline()).toBeVisible();

  // A good value clears the error and runs.
  await input.fill('256');
  await input.press('Enter');
  await expect(error).toHaveCount(0);
  await sendpath.ready();
});

test('after a rejected value the charts say their figures are stale until a valid value runs', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto(WINDOW);
  await sendpath.ready();
  await sendpath.reveal('Charts');
  const charts = page.getByRole('region', { name: 'Charts' });
  const note = charts.getByRole('status').filter({ hasText: /^Stale/ });
  await expect(note).toHaveCount(0);
  const input = await sendpath.control(/NIC/, 'ethtool.tx');
  await input.fill('0');
  await input.press('Enter');
  await expect(sendpath.controlError('ethtool.tx')).toBeVisible();
  // Seen and announced: a live region with the words, the plots greyed out.
  await expect(note).toBeVisible();
  await expect(note).toContainText('last valid run');
  await expect(charts).toHaveAttribute('data-stale', 'true');
  await expect(charts.locator('figure svg').first()).toHaveCSS('opacity', '0.45');

  // A good value runs and replaces them.
  await input.fill('256');
  await input.press('Enter');
  await sendpath.ready();
  await expect(note).toHaveCount(0);
  await expect(charts).toHaveAttribute('data-stale', 'false');
  await expect(charts.locator('figure svg').first()).toHaveCSS('opacity', '1');
});

test("a hand-edited link with a bad value shows the engine's error and still shows a run", async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=autocorking&v=on&set=net.ipv4.tcp_limit_output_bytes%3D-5&t=abc');
  await sendpath.ready();
  await expect(page.getByRole('alert').filter({ hasText: 't=abc' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'not applied' })).toBeVisible();
  const input = await sendpath.control(/net\.ipv4/, 'net.ipv4.tcp_limit_output_bytes');
  await expect(input).toHaveValue('-5');
  await expect(sendpath.controlError('net.ipv4.tcp_limit_output_bytes')).toBeVisible();
  await expect(sendpath.pipeline()).toBeVisible();
  expect(sendpath.errors).toEqual([]);
});

test('an unknown scenario in a link opens the default one and says so', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=no-such-experiment');
  await sendpath.ready();
  await expect(
    page.getByRole('alert').filter({ hasText: 'no scenario "no-such-experiment"' }),
  ).toBeVisible();
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue('autocorking');
});

test('the per-gate table reads the window as a reader can check it, and fits a phone', async ({
  sendpath,
  page,
}) => {
  // Issue 17: it summed every skb's wait (103 s of waiting in a 340 ms window).
  await page.setViewportSize({ width: 390, height: 844 });
  await sendpath.goto(WINDOW);
  await sendpath.ready();
  await sendpath.reveal('Counters');
  const table = page.getByTestId('gate-waits');
  await expect(table).toBeVisible();
  await expect(table.locator('caption')).toContainText('Per gate, the recorded window (2 ms)');
  await expect(table.getByRole('columnheader')).toHaveText([
    'Gate',
    'Held',
    'Median',
    'Longest',
    'Busy',
  ]);
  for (const busy of await table.locator('td[data-col="busy"]').allInnerTexts()) {
    const v = Number(busy.replace(' %', ''));
    expect(v).toBeGreaterThan(0);
    expect(v).toBeLessThanOrEqual(100);
  }
  const box = (await table.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
