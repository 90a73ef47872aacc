// The whole state in the URL: a copied link opens the same run; back and forward work.
import { expect, nativeRun, test } from './fixtures';

test('a copied URL restores the same state in a new page', async ({ sendpath, page, context }) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  const input = await sendpath.control(/net\.ipv4/, 'net.ipv4.tcp_limit_output_bytes');
  await input.fill('65536');
  await input.press('Enter');
  await sendpath.ready();
  await sendpath.revealAll();
  await page.getByLabel('Step to decision').selectOption('xmit_hold:nagle');
  await page.getByRole('button', { name: 'Next of this kind' }).click();
  await page.getByRole('button', { name: 'Next of this kind' }).click();
  const row = (await sendpath.currentLogRow.getAttribute('data-row'))!;
  const event = await sendpath.eventIndex.innerText();
  await page.getByRole('list', { name: 'skbs at the cursor' }).getByRole('button').first().click();
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page).toHaveURL(/sel=skb/);
  await page.waitForTimeout(400); // the cursor reaches the URL once it rests
  const url = page.url();

  const other = await context.newPage();
  await other.goto(url);
  const again = new (sendpath.constructor as typeof import('./fixtures').SendpathPage)(other);
  await again.ready();
  await again.revealAll();
  await expect(await again.control(/net\.ipv4/, 'net.ipv4.tcp_limit_output_bytes')).toHaveValue(
    '65536',
  );
  await expect(again.eventIndex).toHaveText(event);
  await expect(again.currentLogRow).toHaveAttribute('data-row', row);
  await expect(other.getByLabel('Step to decision')).toHaveValue('xmit_hold:nagle');
  await expect(
    other.getByRole('list', { name: 'skbs at the cursor' }).getByRole('button', { pressed: true }),
  ).toHaveCount(1);
  await expect(other.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(again.errors).toEqual([]);
});

test('back and forward walk through configurations', async ({ sendpath, page }) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  await page.getByLabel('Variant').selectOption('off');
  await sendpath.ready();
  await expect(page).toHaveURL(/v=off/);
  await page.getByLabel('Experiment', { exact: true }).selectOption('nagle-delayed-ack');
  await expect(page).toHaveURL(/s=nagle-delayed-ack/);
  await sendpath.ready();
  await page.goBack();
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue('autocorking');
  await expect(page.getByLabel('Variant')).toHaveValue('off');
  await sendpath.ready();
  await page.goBack();
  await expect(page.getByLabel('Variant')).toHaveValue('on');
  await page.goForward();
  await expect(page.getByLabel('Variant')).toHaveValue('off');
  await sendpath.ready();
  expect(sendpath.errors).toEqual([]);
});

test('changes made while a run is on its way each keep their history entry', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  // The second change comes before the first one's run is painted.
  await page.getByLabel('Variant').selectOption('off');
  await page.getByLabel('Experiment', { exact: true }).selectOption('nagle-delayed-ack');
  await expect(page).toHaveURL(/s=nagle-delayed-ack/);
  await sendpath.ready();
  await page.goBack();
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue('autocorking');
  await expect(page.getByLabel('Variant')).toHaveValue('off');
  await page.goBack();
  await expect(page.getByLabel('Variant')).toHaveValue('on');
  expect(sendpath.errors).toEqual([]);
});

test('any stretch of the whole run can be recorded, and the link keeps it', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  const window = page.getByRole('form', { name: 'Traced part of the run' });
  await window.getByLabel('from (ms)').fill('100');
  await window.getByLabel('to (ms)').fill('101');
  await window.getByRole('button', { name: 'Trace this part' }).click();
  await sendpath.ready();
  await expect(page).toHaveURL(/from=100000000&to=101000000/);
  await sendpath.reveal(/^Decision log/);
  const first = sendpath.log.getByRole('listitem').first();
  await expect(first).toContainText(/^100\.\d{6} ms/);
  // At the end of that window the counters are the run's at 101 ms.
  await sendpath.toEnd();
  expect(await sendpath.counter('sender', 'TcpExtTCPAutoCorking')).toBe(
    nativeRun('scenarios/autocorking.toml', ['--variant', 'on', '--set', 'sim.duration_ms=101'])
      .hosts.sender!.counters.TcpExtTCPAutoCorking,
  );
});
