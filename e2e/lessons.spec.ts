import type { Browser } from '@playwright/test';

import { formatMetric } from '../web/src/model/metric';
import { expect, lessonIds, stepTitles, test } from './classroom';
import { nativeRun } from './fixtures';

/** A lesson's step opened in English with reduced motion, its run ready. */
async function openStep(browser: Browser, lesson: string, step: number) {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${test.info().project.use.baseURL}?lesson=${lesson}&step=${step}&lang=en`);
  const stage = page.getByTestId('step-stage');
  await expect(stage.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  return { context, page, stage };
}

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
  const { context, page, stage } = await openStep(browser, 'tcp-small-queues', 2);
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
  const natives: Record<string, number> = {};
  for (const [col, variant] of [
    ['model-a', 'no_delay'],
    ['model-b', 'default'],
  ] as const) {
    const native = nativeRun('scenarios/nagle-delayed-ack.toml', ['--variant', variant]);
    await expect(row.locator(`[data-col="${col}"]`)).toHaveText(formatMetric(native.elapsed_s));
    natives[col] = native.elapsed_s;
    const packets = native.hosts.localhost!.counters.IpOutRequests ?? 0;
    await expect(
      table.locator('tr[data-metric="localhost:IpOutRequests"]').locator(`[data-col="${col}"]`),
    ).toHaveText(formatMetric(packets));
  }
  // Both sides drawn, on one scale: the bars' lengths are in the ratio of the two runs.
  const bars = page.getByTestId('ab-bars').locator('[data-metric="elapsed_s"]');
  const width = async (side: string) =>
    (await bars.locator(`[data-side="${side}"]`).boundingBox())!.width;
  const [wa, wb] = [await width('a'), await width('b')];
  expect(Math.max(wa, wb)).toBeGreaterThan(50);
  const [na, nb] = [natives['model-a']!, natives['model-b']!];
  expect(Math.min(wa, wb) / Math.max(wa, wb)).toBeCloseTo(Math.min(na, nb) / Math.max(na, nb), 1);
  expect(lesson.errors).toEqual([]);
});

test('the presenter drives the step from the keyboard: speed, reset, A/B, the numbers, and ? lists the keys', async ({
  browser,
}) => {
  // Reduced motion: the step opens paused on its focus decision, so its instant is known.
  const { context, page, stage } = await openStep(browser, 'autocorking', 2);
  const player = stage.getByRole('region', { name: 'Time controls' });
  const time = player.locator('output.time');
  const speed = player.locator('.speed output');

  await test.step('] and [ play faster and slower', async () => {
    const before = await speed.innerText();
    await page.keyboard.press(']');
    await expect(speed).not.toHaveText(before);
    await page.keyboard.press('[');
    await expect(speed).toHaveText(before);
  });

  await test.step('R takes the run back to where the step opened', async () => {
    const opened = await time.innerText();
    await page.keyboard.press('p');
    await expect(time).not.toHaveText(opened);
    await page.keyboard.press('p');
    await page.keyboard.press('r');
    await expect(time).toHaveText(opened);
  });

  await test.step('N shows every key counter, not only the one the step names', async () => {
    const rows = stage.getByTestId('key-counters').getByRole('row');
    await expect(rows).toHaveCount(1);
    await page.keyboard.press('n');
    await expect(rows).toHaveCount(4);
    await page.keyboard.press('N');
    await expect(rows).toHaveCount(1);
  });

  await test.step("B runs the other side of the lesson's A/B, and back", async () => {
    // lesson.toml: step 2 runs variant "on"; the A/B steps compare "on" with "off".
    await expect(stage).toHaveAttribute('data-side', 'A');
    await page.keyboard.press('b');
    await expect(stage).toHaveAttribute('data-side', 'B');
    await expect(stage.getByTestId('side-badge')).toContainText('off');
    await expect(stage.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
    await page.keyboard.press('b');
    await expect(stage).toHaveAttribute('data-side', 'A');
    await expect(stage.getByTestId('side-badge')).toContainText('on');
  });

  await test.step('? lists every key; Esc closes the list, not the lesson', async () => {
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keys' });
    await expect(dialog).toBeVisible();
    for (const what of ['play faster', 'reset the step', 'A/B', 'show the numbers', 'laser'])
      await expect(dialog).toContainText(what);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(new URL(page.url()).searchParams.get('lesson')).toBe('autocorking');
  });
  await context.close();
});

test('presenter mode reads from the back of the room: large type, every text at 7:1 contrast, in both themes', async ({
  browser,
}) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      colorScheme,
    });
    const page = await context.newPage();
    await page.goto(`${test.info().project.use.baseURL}?lesson=tcp-small-queues&step=1&lang=en`);
    await expect(page.locator('#step-h')).toBeVisible();
    const worst = await page.evaluate(() => {
      // rgb(r, g, b) in 0..255, or color(srgb r g b) in 0..1 (what color-mix() computes to).
      const rgb = (c: string) =>
        c
          .match(/[\d.]+/g)!
          .slice(0, 3)
          .map((v) => Number(v) * (c.startsWith('color(') ? 255 : 1));
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      const L = (c: string) => {
        const [r, g, b] = rgb(c).map(lin) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      // The colour behind an element: its own background, else its nearest ancestor's.
      const behind = (el: Element | null): number => {
        for (; el; el = el.parentElement) {
          const c = getComputedStyle(el).backgroundColor;
          if (!/rgba\(.*,\s*0\)$/.test(c) && c !== 'transparent') return L(c);
        }
        return L(getComputedStyle(document.body).backgroundColor);
      };
      const ratio = (el: Element) => {
        const fg = L(getComputedStyle(el).color);
        const bg = behind(el);
        return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      };
      const texts = [...document.querySelectorAll('.presenter-bar *, .step-text *')].filter(
        (el) =>
          (el as HTMLElement).checkVisibility() &&
          [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()),
      );
      const sizes = [...document.querySelectorAll('.step-text p')].map((p) =>
        Number.parseFloat(getComputedStyle(p).fontSize),
      );
      return {
        contrast: Math.min(...texts.map(ratio)),
        smallest: Math.min(...sizes),
      };
    });
    expect(worst.contrast, colorScheme).toBeGreaterThanOrEqual(7);
    expect(worst.smallest, colorScheme).toBeGreaterThanOrEqual(20);
    await context.close();
  }
});

test('a step marks its moment on the time line, M jumps there, and it names and outlines its chart', async ({
  browser,
}) => {
  // tcp-small-queues step 2: focus = "xmit_hold:tsq", chart = "queues".
  const { context, page, stage } = await openStep(browser, 'tcp-small-queues', 2);
  const mark = stage.getByTestId('time-mark');
  await expect(mark).toHaveCount(1);
  await expect(mark).toHaveAccessibleName(/first xmit_hold at tsq/);
  // The marker sits over the scrubber at the moment's instant.
  const [markBox, barBox] = [
    (await mark.boundingBox())!,
    (await stage.locator('.scrubber input').boundingBox())!,
  ];
  expect(markBox.x + markBox.width / 2).toBeGreaterThanOrEqual(barBox.x);
  expect(markBox.x + markBox.width / 2).toBeLessThanOrEqual(barBox.x + barBox.width);
  // The step opened on its moment; play away from it, then M comes back, paused.
  const time = stage.locator('output.time');
  const opened = await time.innerText();
  await page.keyboard.press('Home');
  await stage
    .locator('.scrubber input')
    .fill(String((await stage.locator('.scrubber input').getAttribute('max'))!));
  await expect(time).not.toHaveText(opened);
  // Keys typed into the scrubber are the scrubber's: leave it first.
  await stage.locator('.scrubber input').blur();
  await page.keyboard.press('m');
  await expect(time).toHaveText(opened);
  await expect(stage.getByRole('button', { name: 'Play' })).toBeVisible();
  // The moment's test, as the kernel writes it, with the two numbers it compared then.
  const formula = stage.getByTestId('moment-formula');
  await expect(formula).toContainText('tcp_small_queue_check() (3.6 to 3.18): sk_wmem_alloc');
  const [wmem, limit] = (
    /sk_wmem_alloc ([\d,]+) > limit ([\d,]+)/.exec(await formula.innerText()) ?? []
  )
    .slice(1)
    .map((v) => Number(v.replace(/,/g, '')));
  expect(wmem).toBeGreaterThan(limit!);
  expect(limit).toBeGreaterThan(0);
  // The chart the step talks about is on screen, outlined, and named in "Look at".
  await expect(stage.getByTestId('step-chart')).toHaveClass(/lesson-highlight/);
  await expect(stage.getByTestId('step-chart')).toContainText(
    'sk_wmem_alloc against the TSQ limit',
  );
  await expect(page.locator('.step-facts')).toContainText(
    'the chart “Bytes in the qdisc and the NIC, sk_wmem_alloc against the TSQ limit”',
  );
  await context.close();
});

test('a run step with a side beside it draws both sides in its chart (TSO step 3: 3.19 as A, 3.18 as B)', async ({
  browser,
}) => {
  const { context, stage } = await openStep(browser, 'tso-autosizing', 3);
  const chart = stage.getByTestId('step-chart');
  await expect(chart).toHaveAttribute('data-chart', 'segs');
  await expect(chart.getByTestId('chart-sides')).toHaveText(/A: after\s+B: before/);
  // One group of marks per side, each with something drawn in it.
  for (const side of ['a', 'b'])
    await expect(chart.locator(`svg g.side-${side} > *`).first()).toBeAttached();
  await context.close();
});

test('TSQ step 2 draws the limit tcp_small_queue_check used, which sk_wmem_alloc exceeds by at most one skb', async ({
  browser,
}) => {
  // 3.14's limit is max(tcp_limit_output_bytes, sk_pacing_rate >> 10): the sysctl's 131072 is
  // only its floor, so the line drawn as the limit is the one the holds compared with.
  const { context, stage } = await openStep(browser, 'tcp-small-queues', 2);
  const chart = stage.getByTestId('step-chart');
  // The y of a path's points (SVG y grows downwards: the highest value has the smallest y).
  const ys = async (sel: string) =>
    (await chart.locator(sel).first().getAttribute('d'))!
      .match(/-?\d+(\.\d+)?,-?\d+(\.\d+)?/g)!
      .map((p) => Number(p.split(',')[1]));
  const limitY = await ys('path.s-limit');
  const wmemY = await ys('path.s-wmem');
  const sysctlY = Number(await chart.locator('line.s-limit-sysctl').first().getAttribute('y1'));
  // The y axis ends at the value 0.
  const axisZero = Number(await chart.locator('line.axis-line').first().getAttribute('y2'));
  const height = (y: number) => axisZero - y;
  const limit = Math.max(...limitY.map(height));
  const wmem = Math.max(...wmemY.map(height));
  expect(limit).toBeGreaterThan(0);
  // sk_wmem_alloc passes the limit in force by one 64 KB skb at most (the check comes before
  // the send), far less than twice it; the sysctl line lies below the limit in force.
  expect(wmem).toBeGreaterThanOrEqual(limit * 0.9);
  expect(wmem).toBeLessThan(limit * 1.5);
  expect(height(sysctlY)).toBeLessThan(limit);
  await expect(chart).toContainText('TSQ limit in force (tcp_small_queue_check)');
  await context.close();
});

test('autocorking step 6 answers its check on screen: equal throughput and packets, less CPU per byte with autocorking', async ({
  browser,
}) => {
  // On a CPU 1.7 times faster both runs reach the link's rate; what autocorking saves is CPU.
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${test.info().project.use.baseURL}?lesson=autocorking&step=6&lang=en`);
  const table = page.getByTestId('ab-table');
  const ratio = async (metric: string) =>
    Number(
      (await table.locator(`tr[data-metric="${metric}"] td[data-col="model-ratio"]`).innerText())
        .replace(/,/g, '')
        .trim(),
    );
  await expect(
    table.locator('tr[data-metric="cpu_per_byte_ns"] td[data-col="model-a"]'),
  ).not.toHaveText(/^(|—|-)$/, { timeout: 120_000 });
  await expect(table).not.toHaveAttribute('data-phase', 'running', { timeout: 120_000 });
  const throughput = await ratio('throughput_mbit');
  expect(Math.abs(throughput - 1)).toBeLessThan(0.05);
  expect(await ratio('cpu_per_byte_ns')).toBeLessThan(0.9);
  // Both at line rate, TSQ and the qdisc fill the skbs either way: the packet counts match.
  expect(Math.abs((await ratio('sender:IpOutRequests')) - 1)).toBeLessThan(0.1);
  await expect(table).toContainText("the senders' CPU time per byte sent (ns)");
  await context.close();
});

test('NOTSENT_LOWAT steps 1 and 2 plot the unsent bytes against the limit, named and outlined', async ({
  browser,
}) => {
  const title = 'Unsent bytes (write_seq − snd_nxt) against the TCP_NOTSENT_LOWAT limit';
  // Step 1, no limit: megabytes unsent, and the chart says there is no limit to draw.
  {
    const { context, page, stage } = await openStep(browser, 'notsent-lowat', 1);
    const chart = stage.getByTestId('step-chart');
    await expect(chart).toHaveAttribute('data-chart', 'notsent');
    await expect(chart).toHaveClass(/lesson-highlight/);
    await expect(chart).toContainText(title);
    await expect(page.locator('.step-facts')).toContainText(`the chart “${title}”`);
    await expect(chart.getByTestId('lowat-line')).toHaveCount(0);
    await expect(chart.getByTestId('lowat-note')).toContainText('no TCP_NOTSENT_LOWAT limit');
    await expect(chart.getByTestId('notsent-line')).toHaveAttribute('d', /^M/);
    await context.close();
  }
  // Step 2, 131072: the unsent bytes reach the dashed limit and fall below it; the step's moment
  // is the writer's first sleep, with the numbers tcp_stream_memory_free compared.
  {
    const { context, stage } = await openStep(browser, 'notsent-lowat', 2);
    const chart = stage.getByTestId('step-chart');
    await expect(chart).toHaveAttribute('data-chart', 'notsent');
    const line = chart.getByTestId('lowat-line');
    await expect(line).toHaveAttribute('data-bytes', '131072');
    await expect(chart).toContainText('TCP_NOTSENT_LOWAT limit (131,072 B)');
    const limitY = Number(await line.getAttribute('y1'));
    // The y of the path's points (SVG y grows downwards: the highest value has the smallest y).
    const pts = (await chart.getByTestId('notsent-line').getAttribute('d'))!
      .match(/-?\d+(\.\d+)?,-?\d+(\.\d+)?/g)!
      .map((p) => Number(p.split(',')[1]));
    // The y axis ends at the value 0.
    const axisZero = Number(await chart.locator('line.axis-line').first().getAttribute('y2'));
    const height = (y: number) => axisZero - y;
    const top = Math.max(...pts.map(height));
    const bottom = Math.min(...pts.map(height));
    // At the limit, passed by at most one 64 KB skb (tcp_sendmsg checks before a new skb), and
    // below it in between.
    const bytes = (h: number) => (h / height(limitY)) * 131072;
    expect(bytes(top)).toBeGreaterThanOrEqual(131072);
    expect(bytes(top)).toBeLessThanOrEqual(131072 + 65536 + 2000);
    expect(bottom).toBeLessThan(height(limitY));
    const formula = stage.getByTestId('moment-formula');
    await expect(formula).toContainText('tcp_stream_memory_free()');
    const [unsent, lowat] = (
      /snd_nxt = ([\d,]+) ≥ tcp_notsent_lowat ([\d,]+)/.exec(await formula.innerText()) ?? []
    )
      .slice(1)
      .map((v) => Number(v.replace(/,/g, '')));
    expect(lowat).toBe(131072);
    expect(unsent).toBeGreaterThanOrEqual(lowat!);
    await context.close();
  }
});

test("the formulas a learner wants, with the run's values: tcp_xmit_size_goal, tcp_tso_autosize, the TSQ limit", async ({
  browser,
}) => {
  const num = (s: string) => Number(s.replace(/,/g, ''));
  // TSO step 1 (3.18): the first copy's size goal from the rate the handshake set.
  {
    const { context, stage } = await openStep(browser, 'tso-autosizing', 1);
    const formula = stage.getByTestId('moment-formula');
    await expect(formula).toHaveAttribute('data-formula', 'sizeGoal');
    const m =
      /sk_pacing_rate ([\d,]+) B\/s \/ 2000 = ([\d,]+), tcp_min_tso_segs (\d+) × mss_now ([\d,]+) = ([\d,]+)\).*size_goal ([\d,]+) B/.exec(
        await formula.innerText(),
      )!;
    const [rate, half, min, mss, minBytes, goal] = m.slice(1).map(num) as number[];
    expect(Math.floor(rate! / 2000)).toBe(half);
    expect(min! * mss!).toBe(minBytes);
    expect(goal).toBe(Math.floor(Math.max(half!, minBytes!) / mss!) * mss!);
    await context.close();
  }
  // TSO step 2 (3.19): the first cut from tcp_tso_autosize.
  {
    const { context, stage } = await openStep(browser, 'tso-autosizing', 2);
    const formula = stage.getByTestId('moment-formula');
    await expect(formula).toHaveAttribute('data-formula', 'autosize');
    const m =
      /sk_pacing_rate ([\d,]+) B\/s >> 10 = ([\d,]+), 64 KB − headers\) \/ mss_now ([\d,]+), tcp_min_tso_segs (\d+)\) = (\d+) segments = ([\d,]+) B.*cuts ([\d,]+) B off/.exec(
        await formula.innerText(),
      )!;
    const [rate, perMs, mss, min, segs, bytes, len] = m.slice(1).map(num) as number[];
    expect(Math.floor(rate! / 1024)).toBe(perMs);
    expect(segs).toBe(Math.max(Math.floor(perMs! / mss!), min!));
    expect(bytes).toBe(segs! * mss!);
    expect(len).toBeLessThanOrEqual(bytes!);
    await context.close();
  }
  // TSQ step 2 (3.14): the limit from its two terms, as 3.6 to 3.18 compute it.
  {
    const { context, stage } = await openStep(browser, 'tcp-small-queues', 2);
    const formula = stage.getByTestId('moment-formula');
    await expect(formula).toContainText('(3.6 to 3.18)');
    const m =
      /limit ([\d,]+) = max\(tcp_limit_output_bytes ([\d,]+), sk_pacing_rate ([\d,]+) B\/s >> 10 = ([\d,]+)\)/.exec(
        await formula.innerText(),
      )!;
    const [limit, sysctl, rate, perMs] = m.slice(1).map(num) as number[];
    expect(Math.floor(rate! / 1024)).toBe(perMs);
    expect(limit).toBe(Math.max(sysctl!, perMs!));
    await context.close();
  }
});

test('the steps about a TX completion mark the moment its TSQ handler sends again', async ({
  browser,
}) => {
  for (const [lesson, step] of [
    ['autocorking', 3],
    ['tcp-small-queues', 3],
  ] as const) {
    const { context, page, stage } = await openStep(browser, lesson, step);
    const mark = stage.getByTestId('time-mark');
    await expect(mark).toHaveCount(1);
    await expect(mark).toHaveAccessibleName(/first tsq_handler \(tcp_tsq_handler\)/);
    // The step opens on it; M comes back to it after the end.
    const time = stage.locator('output.time');
    const opened = await time.innerText();
    const scrubber = stage.locator('.scrubber input');
    await scrubber.fill(String((await scrubber.getAttribute('max'))!));
    await expect(time).not.toHaveText(opened);
    await scrubber.blur();
    await page.keyboard.press('m');
    await expect(time).toHaveText(opened);
    await context.close();
  }
});

test("TSQ step 1 draws the qdisc, the NIC ring and sk_wmem_alloc full from the window's start", async ({
  browser,
}) => {
  const { context, stage } = await openStep(browser, 'tcp-small-queues', 1);
  const chart = stage.getByTestId('step-chart');
  const axisZero = Number(await chart.locator('line.axis-line').first().getAttribute('y2'));
  // The y of a path's points (SVG y grows downwards: the highest value has the smallest y).
  const ys = async (sel: string) =>
    (await chart.locator(sel).first().getAttribute('d'))!
      .match(/-?\d+(\.\d+)?,-?\d+(\.\d+)?/g)!
      .map((p) => Number(p.split(',')[1]));
  const [qdisc, nic, wmem] = [
    await ys('path.s-qdisc'),
    await ys('path.s-nic'),
    await ys('path.s-wmem'),
  ];
  // From the first point on, and the NIC ring never empty while the wire is busy.
  expect(axisZero - qdisc[0]!).toBeGreaterThan(0.5 * (axisZero - Math.min(...qdisc)));
  expect(axisZero - wmem[0]!).toBeGreaterThan(0.5 * (axisZero - Math.min(...wmem)));
  expect(Math.max(...nic)).toBeLessThan(axisZero);
  // The sysctl set out of reach is named in the legend, not written over the lines.
  await expect(chart.getByTestId('limit-above')).toContainText('above the scale');
  await expect(chart.locator('svg text', { hasText: 'above the scale' })).toHaveCount(0);
  await context.close();
});
