import { expect, lessonIds, stepTitles, test } from './classroom';

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
  await expect(page.getByRole('button', { name: 'Laser pointer' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
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
