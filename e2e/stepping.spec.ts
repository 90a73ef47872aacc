// Time controls: stepping to the next decision of a kind, and the decision log.
import { expect, test } from './fixtures';

test('step to the next autocork lands on an autocork event', async ({ sendpath, page }) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  await sendpath.reveal(/^Decision log/);
  await page.getByLabel('Step to decision').selectOption('autocork');
  await page.getByRole('button', { name: 'Next of this kind' }).click();
  await expect(sendpath.currentLogRow).toContainText('tcp_push:');
  await expect(sendpath.currentLogRow).toContainText('autocorked');
  const first = await sendpath.eventIndex.innerText();
  // Again, by keyboard: a later autocork.
  await page.locator('body').press('Shift+ArrowRight');
  await expect(sendpath.currentLogRow).toContainText('autocorked');
  await expect(sendpath.eventIndex).not.toHaveText(first);
  // The counter's value is named: TcpExtTCPAutoCorking N.
  await expect(sendpath.currentLogRow).toContainText(
    /TcpExtTCPAutoCorking \d+|TSQ_THROTTLED already set/,
  );
});

test('clicking an entry of the decision log moves the cursor there', async ({ sendpath, page }) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  await sendpath.reveal(/^Decision log/);
  await sendpath.log.getByLabel('Kernel function', { exact: true }).selectOption('tcp_write_xmit');
  // The list re-renders with the filter: pick an entry only once it has.
  const rows = sendpath.log.getByRole('listitem');
  await expect(rows.filter({ hasNotText: 'tcp_write_xmit' })).toHaveCount(0);
  const entry = rows.nth(3).getByRole('button');
  await expect(entry).toBeVisible();
  const row = (await entry.getAttribute('data-row'))!;
  await entry.click();
  await expect(sendpath.currentLogRow).toHaveAttribute('data-row', row);
  await expect(page).toHaveURL(/func%3Atcp_write_xmit/);
});

test('the log filters by host, flow and reason', async ({ sendpath }) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  await sendpath.reveal(/^Decision log/);
  await sendpath.log.getByLabel('Reason').selectOption('nagle');
  await sendpath.log.getByLabel('Flow').selectOption('2');
  const rows = sendpath.log.getByRole('listitem');
  // Retried until both filters have applied: every row is flow 2's (sk4) and a Nagle decision.
  await expect(rows.first()).toContainText('Nagle');
  await expect(rows.filter({ hasNotText: 'sk4' })).toHaveCount(0);
  await expect(rows.filter({ hasNotText: 'Nagle' })).toHaveCount(0);
  await expect(rows.first()).toContainText('sk4');
});
