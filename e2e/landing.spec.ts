// The landing page shows what autocorking changes without a click (issue 17): at 1280 x 800 the
// figures of both whole runs (tcp_autocorking 1 and 0) sit above the fold beside a caption, the
// numbers are the native engine's, and the picture plays; with reduced motion it stays paused
// and the numbers are still there; on a phone nothing scrolls sideways.
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';

import { collectErrors, expect, nativeRun, SendpathPage, test } from './fixtures';

const SCENARIO = 'scenarios/autocorking.toml';

/** A fresh context on the site (its own first visit), 1280 x 800 unless `options` says otherwise. */
function siteContext(browser: Browser, options: BrowserContextOptions = {}) {
  return browser.newContext({
    viewport: { width: 1280, height: 800 },
    baseURL: test.info().project.use.baseURL,
    ...options,
  });
}

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
  const context = await siteContext(browser);
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
  const context = await siteContext(browser, { reducedMotion: 'reduce' });
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
    const context = await siteContext(browser, { viewport: { width, height } });
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

// The landing's first view comes from the prerendered first run (web/src/engine/firstRun.ts):
// it needs no wasm, it is the run the engine gives the same scenario, and the engine loads
// after it (or says clearly that it cannot).

test('with the engine unreachable the landing still shows and plays its first run, then says the engine failed', async ({
  browser,
}) => {
  const context = await siteContext(browser, { reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await context.route('**/*.wasm', (route) => route.abort());
  await page.goto('./');
  const player = page.getByRole('region', { name: 'Time controls' });
  await player.getByRole('button', { name: 'Play' }).click();
  await expect(player.locator('output.time')).not.toHaveText(/^0\.000000 ms/);
  await expect(page.getByRole('img', { name: /^Animated pipeline of run A/ })).toBeVisible();
  expect(await page.evaluate(() => performance.getEntriesByName('sp:interactive').length)).toBe(1);
  await expect(page.locator('[data-run-state]')).toHaveAttribute('data-run-state', 'failed');
  await expect(page.locator('[data-run-state]')).toHaveText(/^Engine failed: /);
  // The browser's own report of the aborted fetches, and nothing else.
  expect(errors.filter((e) => !/wasm|ERR_FAILED|Failed to fetch|engine/i.test(e))).toEqual([]);
  await context.close();
});

test("the landing's prerendered first run is the run a link to its scenario gets from the engine", async ({
  browser,
}) => {
  const context = await siteContext(browser, { reducedMotion: 'reduce' });
  const shown: { status: string; nstat: string; time: string }[] = [];
  for (const url of ['./', './?s=autocorking&v=on']) {
    const page = await context.newPage();
    const sendpath = new SendpathPage(page);
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    await sendpath.goto(url);
    await sendpath.ready();
    // The landing reads its first run in a worker of its own; a link runs it in the engine's.
    if (url === './') expect(workers[0]).toMatch(/\/assets\/firstRunWorker-[\w-]+\.js$/);
    else expect(workers.some((w) => /firstRunWorker/.test(w))).toBe(false);
    await sendpath.toEnd();
    shown.push({
      status: await sendpath.runState.innerText(),
      time: await sendpath.time.innerText(),
      nstat: await (async () => {
        await sendpath.reveal('Counters');
        await expect(sendpath.nstat('sender')).toContainText('IpOutRequests');
        return sendpath.nstat('sender').innerText();
      })(),
    });
    expect(sendpath.errors).toEqual([]);
    await page.close();
  }
  expect(shown[0]!.status).toMatch(/\d/);
  expect(shown[0]!.nstat).toMatch(/IpOutRequests/);
  expect(shown[0]).toEqual(shown[1]);
  await context.close();
});
