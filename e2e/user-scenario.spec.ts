// The reader's own scenario file (issue 21): opened from a file, checked by the engine with the
// errors `sendpath run` prints, edited in place, and carried by the page's link.
import { expect, test } from './fixtures';

/** A small scenario of our own: one bulk flow for 5 ms. */
const GOOD = `title = "My bulk flow"
summary = "One flow of 64 KB writes for five milliseconds."
kernel = "6.18"

[sim]
duration_ms = 5

[link]
rate_mbit = 1000
`;

/** The same with a misspelt sysctl. */
const BAD = GOOD.replace('[link]', '[sysctl]\n"net.ipv4.tcp_autocorkin" = 0\n\n[link]');

test('a user scenario with an error shows the engine message naming the file and the key', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto();
  await sendpath.ready();
  await test.step('open a file with a misspelt key', async () => {
    await page.getByTestId('scenario-file').setInputFiles({
      name: 'mine.toml',
      mimeType: 'text/plain',
      buffer: Buffer.from(BAD),
    });
  });
  const error = page.getByTestId('scenario-file-error');
  await expect(error).toBeVisible();
  // The CLI's words: the file, the key, the reason and the key it probably meant.
  await expect(error).toContainText('mine.toml: net.ipv4.tcp_autocorkin:');
  await expect(error).toContainText('net.ipv4.tcp_autocorking');
  await test.step('fix it in place and run it', async () => {
    const text = page.getByLabel('Scenario text');
    await expect(text).toHaveValue(BAD);
    await text.fill(GOOD);
    await page.getByRole('button', { name: 'Run this text' }).click();
  });
  await sendpath.ready();
  await expect(error).toHaveCount(0);
  await expect(page.locator('#scenario-h')).toHaveText('My bulk flow');
  expect(sendpath.errors).toEqual([]);
});

test('a user scenario without an error runs, and its link opens it again', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto();
  await sendpath.ready();
  await page.getByTestId('scenario-file').setInputFiles({
    name: 'bulk.toml',
    mimeType: 'text/plain',
    buffer: Buffer.from(GOOD),
  });
  await expect(page.locator('#scenario-h')).toHaveText('My bulk flow');
  await sendpath.ready();
  await expect(page.getByTestId('scenario-file-error')).toHaveCount(0);
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue(/^file:bulk@/);
  // The link carries the file: a fresh page opens the same run.
  await expect.poll(() => new URL(page.url()).searchParams.get('toml')).not.toBeNull();
  const url = page.url();
  const events = await sendpath.eventIndex.innerText();
  await sendpath.goto(`./${new URL(url).search}`);
  await sendpath.ready();
  await expect(page.locator('#scenario-h')).toHaveText('My bulk flow');
  await expect(sendpath.eventIndex).toHaveText(events);
  expect(sendpath.errors).toEqual([]);
});
