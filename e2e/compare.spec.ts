// A/B: both runs side by side, the counters with their difference.
import { expect, test } from './fixtures';

test('comparing autocorking on and off shows both runs and the autocorking counter only in A', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  await page.getByRole('button', { name: 'Compare with “tcp_autocorking = 0”' }).click();
  await sendpath.ready();
  await expect(sendpath.pipeline('A')).toBeVisible();
  await expect(sendpath.pipeline('B')).toBeVisible();
  await expect(page.getByRole('heading', { name: /^B: tcp_autocorking = 0/ })).toBeVisible();
  await sendpath.reveal('A/B comparison');
  const table = page.getByTestId('diff-window');
  const row = table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'TcpExtTCPAutoCorking', exact: true }) });
  const cells = row.getByRole('cell');
  await expect(cells.nth(0)).toHaveText('sender');
  const a = Number((await cells.nth(1).innerText()).replace(/,/g, ''));
  expect(a).toBeGreaterThan(0);
  await expect(cells.nth(2)).toHaveText('0');
  await expect(cells.nth(3)).toContainText(`-${a.toLocaleString('en-US')}`);
  // Without autocorking the same bytes need more packets (per byte: the corked senders, which
  // spend less CPU per write, also move more bytes in the window).
  const sender = async (counter: string) => {
    const r = table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: counter, exact: true }) })
      .filter({ hasText: 'sender' });
    const n = async (i: number) =>
      Number((await r.getByRole('cell').nth(i).innerText()).replace(/,/g, ''));
    return [await n(1), await n(2)] as const;
  };
  const [reqA, reqB] = await sender('IpOutRequests');
  const [octA, octB] = await sender('IpExtOutOctets');
  expect(reqB / octB).toBeGreaterThan(reqA / octA);
  // Both pipelines follow the one cursor.
  await sendpath.pipeline('A').scrollIntoViewIfNeeded();
  await sendpath.play.click();
  await sendpath.expectMoving(sendpath.pipeline('A'));
  await sendpath.expectMoving(sendpath.pipeline('B'));
  await expect(page).toHaveURL(/bv=off/);
  expect(sendpath.errors).toEqual([]);
});

test('a fork edits B alone: the change shows in the difference table', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=autocorking&v=on&to=1000000');
  await sendpath.ready();
  await page.getByRole('button', { name: 'Fork into B' }).click();
  await sendpath.ready();
  await expect(page.getByRole('radio', { name: 'B' })).toBeChecked();
  const box = await sendpath.control(/Socket options/, 'TCP_NODELAY');
  await box.check();
  await sendpath.ready();
  await expect(page).toHaveURL(/bset=TCP_NODELAY%3D1/);
  await expect(page).not.toHaveURL(/[?&]set=TCP_NODELAY/);
  await expect(page.getByRole('heading', { name: /^B: .*TCP_NODELAY=1/ })).toBeVisible();
});
