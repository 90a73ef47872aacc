// What a kernel engineer reaches for in the site (issue 21): the title follows the overrides,
// "Compare kernels" puts the same run on another kernel beside it, and every chart of the A/B
// view says which line is A and which is B.
import { expect, test } from './fixtures';

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
