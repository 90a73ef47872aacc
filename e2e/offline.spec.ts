import { expect, stepTitles, SUBPATH_PREFIX, test } from './classroom';

const root = () =>
  `http://127.0.0.1:${Number(process.env.SENDPATH_SUBPATH_PORT ?? 4180)}${SUBPATH_PREFIX}`;

test('the site under a sub-path keeps working with the network cut off after the first visit', async ({
  page,
  context,
}) => {
  await test.step('first visit: the service worker caches the build', async () => {
    await page.goto(`${root()}?lang=en`);
    await expect(page.getByTestId('build-version')).toHaveText(/^sendpath \d+\.\d+\.\d+ \(\w+/);
    await expect(page.getByTestId('offline-state')).toHaveAttribute('data-state', 'ready', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('offline-state')).toHaveText(/works offline/);
    // Saving the site began only once the first run was on screen.
    const marks = await page.evaluate(() =>
      ['sp:interactive', 'sp:offline'].map((m) => performance.getEntriesByName(m)[0]?.startTime),
    );
    expect(marks[0]).toBeDefined();
    expect(marks[1]).toBeGreaterThanOrEqual(marks[0]!);
  });

  await context.setOffline(true);

  await test.step('offline: the simulator loads and its engine (wasm, in a worker) starts', async () => {
    await page.goto(`${root()}?lang=en`);
    await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
    // The simulator's own "ready" signal: its run finished (data-run-state), or, before the
    // simulator of issue 5, the engine's status line.
    await expect(
      page.locator('[data-run-state="ready"], :text-is("Engine ready")').first(),
    ).toBeVisible({ timeout: 60_000 });
  });

  await test.step('offline: a lesson at a step, and About, open from the cache', async () => {
    await page.goto(`${root()}?lesson=autocorking&step=2&lang=en`);
    await expect(page.locator('#step-h')).toHaveText(stepTitles('autocorking', 'en')[1]!);
    await page.goto(`${root()}?view=about&lang=zh-CN`);
    await expect(page.getByRole('heading', { level: 1, name: '关于模型' })).toBeVisible();
    // The translation is a chunk of its own: the cache holds it too.
    await expect(page.getByRole('heading', { name: '数字与来源文档的比较' })).toBeVisible();
  });

  await test.step('the network really is cut off', async () => {
    const status = await page.evaluate(() =>
      fetch('https://example.invalid/').then(
        () => 'reached',
        () => 'failed',
      ),
    );
    expect(status).toBe('failed');
  });
});
