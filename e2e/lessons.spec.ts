import { formatMetric } from '../web/src/model/metric';
import { expect, lessonIds, stepTitles, test } from './classroom';
import { nativeRun } from './fixtures';

test('a link opens the lesson at the step it names', async ({ lesson, page }) => {
  const titles = stepTitles('autocorking', 'en');
  await lesson.open('autocorking', 3);
  await expect(lesson.stepHeading).toHaveText(titles[2]!);
  await expect(lesson.stepOf).toHaveText(`Step 3 of ${titles.length}`);
  await expect(page.getByRole('button', { name: `Step 3: ${titles[2]}` })).toHaveAttribute(
    'aria-current',
    'step',
  );
  expect(lesson.errors).toEqual([]);
});

test('a step number past the end opens the last step', async ({ lesson }) => {
  const titles = stepTitles('tcp-small-queues', 'en');
  await lesson.open('tcp-small-queues', 99);
  await expect(lesson.stepHeading).toHaveText(titles[titles.length - 1]!);
});

test('every lesson runs from its first step to its last by keyboard alone', async ({
  lesson,
  page,
}) => {
  for (const id of lessonIds()) {
    const titles = stepTitles(id, 'en');
    await test.step(`${id}: ${titles.length} steps`, async () => {
      await lesson.open(id);
      await expect(lesson.stepHeading).toHaveText(titles[0]!);
      for (let i = 1; i < titles.length; i++) {
        await page.keyboard.press(i % 2 ? 'Space' : 'ArrowRight');
        await expect(lesson.stepHeading).toHaveText(titles[i]!);
        expect(lesson.urlStep()).toBe(String(i + 1));
      }
      // Past the end stays at the end; back and number keys move as they say.
      await page.keyboard.press('Space');
      await expect(lesson.stepHeading).toHaveText(titles[titles.length - 1]!);
      await page.keyboard.press('ArrowLeft');
      await expect(lesson.stepHeading).toHaveText(titles[titles.length - 2]!);
      await page.keyboard.press('1');
      await expect(lesson.stepHeading).toHaveText(titles[0]!);
      await page.keyboard.press('PageDown');
      await expect(lesson.stepHeading).toHaveText(titles[1]!);
      await page.keyboard.press('PageUp');
      await expect(lesson.stepHeading).toHaveText(titles[0]!);
    });
  }
  expect(lesson.errors).toEqual([]);
});

test('the laser pointer follows the pointer and toggles with L', async ({ lesson, page }) => {
  await lesson.open('autocorking', 1);
  const laser = page.getByTestId('laser');
  await expect(laser).toBeHidden();
  await page.keyboard.press('l');
  // The button is in the presenter's menu, closed: the key works without opening it.
  await expect(
    page.getByRole('button', { name: 'Laser pointer', includeHidden: true }),
  ).toHaveAttribute('aria-pressed', 'true');
  await expect(laser).toBeVisible();
  await page.mouse.move(400, 300);
  await page.mouse.move(420, 310);
  // Something red is drawn where the pointer is (once the frame is painted).
  const red = () =>
    laser.evaluate((c: HTMLCanvasElement) => {
      const dpr = window.devicePixelRatio || 1;
      const d = c.getContext('2d')!.getImageData(420 * dpr, 310 * dpr, 1, 1).data;
      return d[0]! > 200 && d[1]! < 100 && d[3]! > 200;
    });
  await expect.poll(red).toBe(true);
  await page.keyboard.press('L');
  await expect(laser).toBeHidden();
});

test('an unknown lesson says so and links to the list', async ({ page }) => {
  await page.goto('./?lesson=nope&lang=en');
  await expect(page.getByRole('alert')).toHaveText('There is no lesson “nope”.');
  await expect(page.getByRole('link', { name: 'Lessons' }).first()).toBeVisible();
});

test('the landing says what the site is and opens the autocorking lesson', async ({ page }) => {
  await page.goto('./?lang=en');
  const landing = page.getByRole('region', { name: 'Welcome' });
  await expect(landing).toContainText('Linux TCP send path');
  await landing.getByRole('link', { name: 'Start the lesson: autocorking' }).click();
  await expect(page.locator('#step-h')).toHaveText(stepTitles('autocorking', 'en')[0]!);
  expect(new URL(page.url()).searchParams.get('lesson')).toBe('autocorking');
});

test('the lessons page lists every lesson, and About shows the model document', async ({
  page,
}) => {
  await page.goto('./?view=lessons&lang=en');
  await expect(page.getByRole('heading', { level: 1, name: 'Lessons' })).toBeVisible();
  await expect(page.locator('.lessons-list > ol > li')).toHaveCount(lessonIds().length);
  await page.goto('./?view=about&lang=en');
  await expect(page.getByRole('heading', { level: 1, name: 'About the model' })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'How the numbers compare with the source documents' }),
  ).toBeVisible();
  await expect(page.getByRole('table').first()).toContainText('known failure');
});

test("a step records its window of the run, outlines the step's elements and plays with P", async ({
  lesson,
  page,
}) => {
  await lesson.open('autocorking', 2);
  const stage = page.getByTestId('step-stage');
  await expect(stage.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  // lesson.toml: highlight = ["write_queue", "qdisc", "tx_ring", "counter:TcpExtTCPAutoCorking"]
  for (const id of ['wq', 'qdisc', 'ring'])
    await expect(stage.getByTestId(`highlight-${id}`)).toBeVisible();
  await expect(stage.getByTestId('key-counters').locator('tr.lesson-highlight')).toContainText(
    'TcpExtTCPAutoCorking',
  );
  // The step opens on its focus decision (an autocork) and plays.
  const play = stage.getByRole('region', { name: 'Time controls' }).getByRole('button').first();
  await expect(play).toHaveText('Pause');
  await page.keyboard.press('p');
  await expect(play).toHaveText('Play');
  await page.keyboard.press('P');
  await expect(play).toHaveText('Pause');
  expect(lesson.errors).toEqual([]);
});

test('with reduced motion a step does not start playing by itself', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${test.info().project.use.baseURL}?lesson=tcp-small-queues&step=2&lang=en`);
  const stage = page.getByTestId('step-stage');
  await expect(stage.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  const play = stage.getByRole('region', { name: 'Time controls' }).getByRole('button').first();
  await page.waitForTimeout(500);
  await expect(play).toHaveText('Play');
  await context.close();
});

test("the Nagle lesson's last A/B puts the engine's full runs beside the article's numbers", async ({
  lesson,
  page,
}) => {
  await lesson.open('nagle-delayed-ack', 5);
  const table = page.getByTestId('ab-table');
  await expect(table).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  const row = table.locator('tr[data-metric="elapsed_s"]');
  // The article's own numbers, from the scenario's [source]: no_delay 0.056 s, default 7.927 s.
  await expect(row.locator('[data-col="source-a"]')).toHaveText('0.056');
  await expect(row.locator('[data-col="source-b"]')).toHaveText('7.93');
  // The model's, as the native engine computes them.
  for (const [col, variant] of [
    ['model-a', 'no_delay'],
    ['model-b', 'default'],
  ] as const) {
    const native = nativeRun('scenarios/nagle-delayed-ack.toml', ['--variant', variant]);
    await expect(row.locator(`[data-col="${col}"]`)).toHaveText(formatMetric(native.elapsed_s));
    const packets = native.hosts.localhost!.counters.IpOutRequests ?? 0;
    await expect(
      table.locator('tr[data-metric="localhost:IpOutRequests"]').locator(`[data-col="${col}"]`),
    ).toHaveText(formatMetric(packets));
  }
  expect(lesson.errors).toEqual([]);
});
