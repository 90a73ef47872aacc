// Keyboard, phone width, themes, reduced motion, accessibility, network.
import { expect, seriousViolations, test } from './fixtures';

test('the page works from the keyboard alone', async ({ sendpath, page }) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  // Tab reaches the play button; Enter plays, Space pauses.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await sendpath.play.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(sendpath.play).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(sendpath.pause).toBeVisible();
  await page.locator('body').press(' ');
  await expect(sendpath.play).toBeVisible();
  // Arrow keys step event by event.
  const before = await sendpath.eventIndex.innerText();
  await page.locator('body').press('ArrowRight');
  await expect(sendpath.eventIndex).not.toHaveText(before);
  // A control, by keyboard: focus it, toggle it with Space; the run follows.
  const box = await sendpath.control(/net\.ipv4/, 'net.ipv4.tcp_autocorking');
  await box.focus();
  await page.keyboard.press(' ');
  await expect(box).not.toBeChecked();
  await sendpath.ready();
  // The stages of the pipeline are focusable and say what they hold.
  await page.getByRole('button', { name: 'NIC TX ring' }).first().focus();
  await expect(page.getByRole('tooltip')).toContainText('descriptors');
  // '?' lists the shortcuts.
  await page.locator('body').press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('at phone width the pipeline reflows vertically and nothing overflows sideways', async ({
  sendpath,
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  const box = (await sendpath.pipeline().boundingBox())!;
  expect(box.height).toBeGreaterThan(box.width);
  expect(box.width).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await sendpath.play.click();
  await sendpath.expectMoving(sendpath.pipeline());
});

test('at 1280x720 the time controls and the pipeline are on the first screen', async ({
  sendpath,
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await sendpath.goto();
  await sendpath.ready();
  // The landing plays as it opens: its button says Pause.
  await expect(sendpath.play.or(sendpath.pause)).toBeInViewport();
  await expect(sendpath.pipeline()).toBeInViewport({ ratio: 0.5 });
});

test('light and dark themes; the system choice is followed', async ({ sendpath, page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await bg();
  await page.getByLabel('Theme').selectOption('light');
  expect(await bg()).not.toBe(dark);
  await page.getByLabel('Theme').selectOption('dark');
  expect(await bg()).toBe(dark);
});

test('with reduced motion the page does not start moving by itself', async ({ sendpath, page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  const a = await sendpath.pipeline().screenshot();
  await page.waitForTimeout(800);
  expect((await sendpath.pipeline().screenshot()).equals(a)).toBe(true);
  await expect(sendpath.play).toBeVisible();
});

test('the animation pauses while the pipeline is off screen', async ({ sendpath, page }) => {
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  await sendpath.play.click();
  await page.waitForTimeout(300);
  const playing = await sendpath.draws();
  await page.waitForTimeout(300);
  expect(await sendpath.draws()).toBeGreaterThan(playing);
  await page.getByRole('region', { name: 'Full experiment' }).scrollIntoViewIfNeeded();
  await page.waitForTimeout(200);
  const hidden = await sendpath.draws();
  await page.waitForTimeout(600);
  expect(await sendpath.draws()).toBe(hidden);
});

for (const theme of ['light', 'dark']) {
  test(`axe finds no serious or critical violation (${theme})`, async ({ sendpath, page }) => {
    await sendpath.goto(`./?s=autocorking&v=on&theme=${theme}&sel=skb:30`);
    await sendpath.ready();
    await page.getByRole('button', { name: 'Compare with “tcp_autocorking = 0”' }).click();
    await sendpath.ready();
    await sendpath.revealAll();
    await sendpath.reveal('A/B comparison');
    await expect(page.getByTestId('diff-window')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run the full experiment' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('the page makes no request outside its own origin', async ({ sendpath, page, context }) => {
  test.setTimeout(120_000);
  const requests: string[] = [];
  // The context sees the page's requests and its workers' (the wasm fetch).
  context.on('request', (r) => requests.push(r.url()));
  page.on('worker', (w) => requests.push(w.url()));
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  const own = new URL(page.url()).origin;
  await sendpath.play.click();
  await page.getByRole('button', { name: 'Compare with “tcp_autocorking = 0”' }).click();
  await sendpath.ready();
  await sendpath.reveal('Full experiment');
  const section = page.getByRole('region', { name: 'Full experiment' });
  await section.getByRole('button', { name: 'Run the full experiment' }).click();
  await expect(section.getByRole('status')).toHaveText('Finished', { timeout: 90_000 });
  await page.getByLabel('Experiment', { exact: true }).selectOption('nagle-delayed-ack');
  await sendpath.ready();
  expect(requests.length).toBeGreaterThan(3);
  for (const url of requests) {
    const u = new URL(url);
    if (u.protocol === 'data:' || u.protocol === 'blob:') continue;
    expect(u.origin, url).toBe(own);
  }
});
