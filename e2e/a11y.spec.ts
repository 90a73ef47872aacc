import { expect, test } from './classroom';
import { seriousViolations } from './fixtures';

for (const lang of ['en', 'zh-CN'])
  test(`a lesson in presenter mode has no serious accessibility violation (${lang})`, async ({
    page,
  }) => {
    await page.goto(`./?lesson=autocorking&step=2&lang=${lang}`);
    await expect(page.locator('#step-h')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

test('the landing, the lessons list and About have no serious accessibility violation', async ({
  page,
}) => {
  for (const q of [
    '?lang=en',
    '?view=lessons&lang=en',
    '?view=about&lang=en',
    '?view=about&lang=zh-CN',
  ]) {
    await page.goto(`./${q}`);
    await expect(page.locator('footer')).toBeVisible();
    // About in Chinese loads its document after the page.
    if (q.includes('about')) await expect(page.locator('article h2').first()).toBeVisible();
    expect(await seriousViolations(page), q).toEqual([]);
  }
});

test('every control of presenter mode has a label', async ({ page }) => {
  await page.goto('./?lesson=autocorking&step=1&lang=en');
  await expect(page.locator('#step-h')).toBeVisible();
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('button, a[href], select, input, [role="button"]')]
      .filter((el) => (el as HTMLElement).checkVisibility())
      .filter((el) => {
        const name =
          el.getAttribute('aria-label') ||
          (el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) ||
          el.closest('label')?.textContent ||
          el.textContent;
        return !name?.trim();
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect(unlabelled).toEqual([]);
});

test('with reduced motion the laser pointer draws no trail', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${test.info().project.use.baseURL}?lesson=autocorking&lang=en`);
  await expect(page.locator('#step-h')).toBeVisible();
  await page.keyboard.press('l');
  await expect(page.getByTestId('laser')).toBeVisible();
  await page.mouse.move(200, 200);
  await page.mouse.move(400, 200, { steps: 5 });
  // The dot is under the pointer (once the frame is drawn); nothing is left along its path.
  const alpha = (x: number, y: number) =>
    page.getByTestId('laser').evaluate(
      (c: HTMLCanvasElement, [x, y]) => {
        const dpr = window.devicePixelRatio || 1;
        return c.getContext('2d')!.getImageData(x! * dpr, y! * dpr, 1, 1).data[3]!;
      },
      [x, y],
    );
  await expect.poll(() => alpha(400, 200)).toBeGreaterThan(200);
  expect(await alpha(300, 200)).toBe(0);
  await context.close();
});

test('the embed has no serious accessibility violation, before and after play, and labels every control', async ({
  page,
}) => {
  await page.goto('./embed/?scenario=autocorking&lang=en');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  expect(await seriousViolations(page)).toEqual([]);
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('button, a[href], select, input')]
      .filter((el) => (el as HTMLElement).checkVisibility())
      .filter(
        (el) =>
          !(
            el.getAttribute('aria-label') ||
            el.closest('label')?.textContent?.trim() ||
            el.textContent?.trim()
          ),
      )
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect(unlabelled).toEqual([]);
});

test('with the system in dark mode, lessons, the lesson list and About are dark and have no serious accessibility violation', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  /** The page's background luminance, 0 (black) .. 255 (white). */
  const luminance = () =>
    page.evaluate(() => {
      const [r, g, b] = getComputedStyle(document.body)
        .backgroundColor.match(/\d+/g)!
        .map(Number) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    });
  for (const q of [
    '?lesson=autocorking&step=2&lang=en',
    '?view=lessons&lang=en',
    '?view=about&lang=en',
    '?lang=en',
  ]) {
    await page.goto(`./${q}`);
    await expect(page.locator('footer')).toBeVisible();
    if (q.includes('lesson=')) await expect(page.locator('#step-h')).toBeVisible();
    if (q.includes('about')) await expect(page.locator('article h2').first()).toBeVisible();
    expect(await luminance(), q).toBeLessThan(60);
    expect(await seriousViolations(page), q).toEqual([]);
  }
});

for (const colorScheme of ['light', 'dark'] as const)
  test(`presenter mode's menu, key list, moment and A/B side have no serious accessibility violation (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('./?lesson=tcp-small-queues&step=2&lang=en');
    await expect(page.locator('[data-testid="step-stage"] [data-run-state="ready"]')).toBeVisible({
      timeout: 60_000,
    });
    // The A/B side's badge, the moment's marker and button, the legend, every key counter.
    await page.keyboard.press('n');
    await expect(page.getByTestId('side-badge')).toBeVisible();
    await expect(page.getByTestId('time-mark')).toBeVisible();
    expect(await seriousViolations(page), 'step').toEqual([]);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.locator('#presenter-menu')).toBeVisible();
    expect(await seriousViolations(page), 'menu').toEqual([]);
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keys' })).toBeVisible();
    expect(await seriousViolations(page), 'keys').toEqual([]);
  });

for (const colorScheme of ['light', 'dark'] as const)
  test(`on a phone, About, the lesson list and Model vs Linux have no serious accessibility violation, and their wide tables scroll from the keyboard (${colorScheme})`, async ({
    browser,
  }) => {
    // At 390 px their tables are wider than the screen and scroll in a box of their own: a box
    // a keyboard cannot reach is a serious violation (scrollable-region-focusable).
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      colorScheme,
      baseURL: test.info().project.use.baseURL,
    });
    const page = await context.newPage();
    for (const q of ['?view=about&lang=en', '?view=lessons&lang=en', '?view=conform&lang=en']) {
      await page.goto(`./${q}`);
      await expect(page.locator('footer')).toBeVisible();
      if (q.includes('about')) await expect(page.locator('article h2').first()).toBeVisible();
      if (q.includes('conform')) await expect(page.locator('.conform-table').first()).toBeVisible();
      expect(await seriousViolations(page), q).toEqual([]);
    }

    await page.goto('./?view=about&lang=en');
    const table = page.locator('.md-table').first();
    await expect(table).toHaveAttribute('tabindex', '0');
    await expect(table).toHaveAttribute('role', 'region');
    await table.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await context.close();
  });

test('a table that fits is no tab stop', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./?view=about&lang=en');
  await expect(page.locator('article h2').first()).toBeVisible();
  const tables = page.locator('.md-table');
  expect(await tables.count()).toBeGreaterThan(0);
  const fits = await tables.evaluateAll((els) =>
    els.filter((el) => el.scrollWidth <= el.clientWidth + 1).map((el) => el.tabIndex),
  );
  expect(fits.length).toBeGreaterThan(0);
  expect(fits.every((i) => i === -1)).toBe(true);
});

for (const colorScheme of ['light', 'dark'] as const)
  test(`the landing with both runs' figures has no serious accessibility violation (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('./?lang=en');
    await expect(page.getByTestId('landing-effect')).toHaveAttribute('data-phase', 'done', {
      timeout: 90_000,
    });
    expect(await seriousViolations(page)).toEqual([]);
  });

for (const colorScheme of ['light', 'dark'] as const)
  test(`the NOTSENT_LOWAT step's unsent-bytes chart and its formula have no serious accessibility violation (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('./?lesson=notsent-lowat&step=2&lang=en');
    await expect(page.locator('[data-testid="step-stage"] [data-run-state="ready"]')).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByTestId('lowat-line')).toBeAttached();
    await expect(page.getByTestId('moment-formula')).toBeVisible();
    expect(await seriousViolations(page), 'step 2').toEqual([]);
    await page.goto('./?lesson=notsent-lowat&step=1&lang=en');
    await expect(page.getByTestId('lowat-note')).toBeVisible({ timeout: 60_000 });
    expect(await seriousViolations(page), 'step 1').toEqual([]);
  });
