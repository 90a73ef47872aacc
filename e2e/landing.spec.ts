// The landing page shows what autocorking changes without a click (issue 17): at 1280 x 800 the
// figures of both whole runs (tcp_autocorking 1 and 0) sit above the fold beside a caption, the
// numbers are the native engine's, and the picture plays; with reduced motion it stays paused
// and the numbers are still there; on a phone nothing scrolls sideways.
import type { Page } from '@playwright/test';

import { expect, nativeRun, test } from './fixtures';

const SCENARIO = 'scenarios/autocorking.toml';

/** The figures panel, once both runs are in. */
async function figures(page: Page) {
  const effect = page.getByRole('region', { name: 'What tcp_autocorking changes' });
  await expect(effect).toHaveAttribute('data-phase', 'done', { timeout: 90_000 });
  return effect;
}

/** The value of `figure` in run `side` as the page has it (the unrounded number). */
async function value(page: Page, figure: string, side: 'a' | 'b'): Promise<number> {
  const v = await page
    .locator(`[data-figure="${figure}"] [data-side="${side}"] .effect-value`)
    .getAttribute('data-value');
  return Number(v);
}

test('at 1280x800 the landing shows both runs of autocorking above the fold, and plays', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    baseURL: test.info().project.use.baseURL,
  });
  const page = await context.newPage();
  await page.goto('./');
  const effect = await figures(page);

  // The caption and both runs' figures are on the first screen.
  await expect(effect.getByTestId('effect-caption')).toBeInViewport({ ratio: 1 });
  await expect(effect.getByTestId('effect-caption')).toContainText('fewer, bigger packets');
  for (const f of ['packets', 'bytesPerPacket', 'cpuPerMB', 'throughput', 'autocorks'])
    for (const side of ['a', 'b'])
      await expect(
        page.locator(`[data-figure="${f}"] [data-side="${side}"] .effect-value`),
        `${f} of run ${side}`,
      ).toBeInViewport({ ratio: 1 });

  // Autocorking on sends fewer, bigger packets, with less CPU per MB, and autocorks.
  const packets = { a: await value(page, 'packets', 'a'), b: await value(page, 'packets', 'b') };
  expect(packets.a).toBeGreaterThan(0);
  expect(packets.a).toBeLessThan(packets.b);
  expect(await value(page, 'bytesPerPacket', 'a')).toBeGreaterThan(
    await value(page, 'bytesPerPacket', 'b'),
  );
  expect(await value(page, 'cpuPerMB', 'a')).toBeLessThan(await value(page, 'cpuPerMB', 'b'));
  expect(await value(page, 'autocorks', 'a')).toBeGreaterThan(0);

  // They are the engine's numbers: `sendpath run --variant on|off` counts the same packets.
  const on = nativeRun(SCENARIO, ['--variant', 'on']);
  const off = nativeRun(SCENARIO, ['--variant', 'off']);
  expect(packets.a).toBe(on.hosts.sender!.counters.IpOutRequests);
  expect(packets.b).toBe(off.hosts.sender!.counters.IpOutRequests);
  expect(await value(page, 'autocorks', 'a')).toBe(on.hosts.sender!.counters.TcpExtTCPAutoCorking);

  // The picture plays without a click.
  const player = page.getByRole('region', { name: 'Time controls' });
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(player.locator('output.time')).not.toHaveText(/^0\.000000 ms/);
  await context.close();
});

test('with reduced motion the landing stays paused and still shows the figures', async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
    baseURL: test.info().project.use.baseURL,
  });
  const page = await context.newPage();
  await page.goto('./?lang=en');
  const effect = await figures(page);
  await expect(effect.locator('[data-figure="packets"]')).toBeInViewport();
  const player = page.getByRole('region', { name: 'Time controls' });
  await expect(player.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(player.locator('output.time')).toHaveText(/^0\.000000 ms/);
  await context.close();
});

for (const [width, height] of [
  [390, 844],
  [1024, 768],
] as const)
  test(`at ${width}x${height} the landing's figures are whole and nothing scrolls sideways`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport: { width, height },
      baseURL: test.info().project.use.baseURL,
    });
    const page = await context.newPage();
    await page.goto('./?lang=en');
    const effect = await figures(page);
    await effect.scrollIntoViewIfNeeded();
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    // Every card lies inside the screen's width, its value whole.
    for (const card of await effect.locator('[data-figure]').all()) {
      const box = (await card.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      for (const v of await card.locator('.effect-value').all())
        expect(await v.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    }
    await context.close();
  });
