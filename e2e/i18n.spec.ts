import { expect, isLanguageNeutral, test, visibleStrings } from './classroom';

/** English strings still on screen after switching to Chinese (language-neutral ones aside). */
async function leftInEnglish(
  page: import('@playwright/test').Page,
  english: string[],
): Promise<string[]> {
  const now = new Set(await visibleStrings(page));
  return english.filter((s) => now.has(s) && !isLanguageNeutral(s));
}

test('switching a lesson to Chinese changes every visible string, and the URL keeps it', async ({
  page,
}) => {
  await page.goto('./?lesson=autocorking&step=2&lang=en');
  await expect(page.locator('#step-h')).toBeVisible();
  // The language switch is in the presenter's menu, with the other tools.
  await page.getByRole('button', { name: 'Menu' }).click();
  const english = await visibleStrings(page);
  expect(english.length).toBeGreaterThan(20);
  await page.getByLabel('Language').selectOption('zh-CN');
  await expect(page.locator('#step-h')).toHaveText('tcp_push 暂扣末尾的 skb');
  expect(await leftInEnglish(page, english)).toEqual([]);
  expect(new URL(page.url()).searchParams.get('lang')).toBe('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  // The link opens in Chinese.
  await page.reload();
  await expect(page.locator('#step-h')).toHaveText('tcp_push 暂扣末尾的 skb');
});

test('the landing and the footer switch to Chinese as a whole', async ({ page }) => {
  await page.goto('./?lang=en');
  const landing = page.getByRole('region', { name: 'Welcome' });
  await expect(landing).toBeVisible();
  const english = [
    ...(await landing.evaluate((el) =>
      [...el.querySelectorAll('p, a, button')].map((e) => e.textContent!.trim()),
    )),
    ...(await page
      .locator('footer')
      .evaluate((el) =>
        [...el.querySelectorAll('a, p > span, label')].map((e) =>
          e.childNodes[0]!.textContent!.trim(),
        ),
      )),
  ].filter((s) => s && !isLanguageNeutral(s));
  await page.getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('region', { name: '欢迎' })).toBeVisible();
  expect(await leftInEnglish(page, english)).toEqual([]);
});

test("the browser's language picks the page's language", async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`${test.info().project.use.baseURL}?lesson=nagle-delayed-ack`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('step-of')).toHaveText(/^第 1 步/);
  await context.close();
});

test('switching the simulator to Chinese changes every visible string', async ({ page }) => {
  await page.goto('./?s=autocorking&lang=en');
  await expect(page.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  // The panels below the first screen load when scrolled near.
  for (const y of [0.25, 0.5, 0.75, 1]) {
    await page.evaluate((f) => window.scrollTo(0, document.body.scrollHeight * f), y);
    await page.waitForTimeout(300);
  }
  const log = page.getByRole('region', { name: 'Decision log' });
  await expect(log).toBeVisible();
  await expect(page.getByRole('region', { name: 'Counters' })).toBeVisible();
  // The log's rows on screen, with the engine's words (not only their kernel function).
  await log.scrollIntoViewIfNeeded();
  const lines = log.locator('li .d');
  await expect(lines.first()).toHaveText(/^\S+: .+/);
  const englishLines = await lines.allTextContents();
  const english = await visibleStrings(page);
  expect(english.length).toBeGreaterThan(100);
  for (const line of englishLines.slice(0, 5)) expect(english).toContain(line);
  await page.locator('footer').getByLabel('Language').selectOption('zh-CN');
  const logZh = page.getByRole('region', { name: '决策日志' });
  await expect(logZh).toBeVisible();
  // Every line now reads in Chinese and says so: none is left out of the check as English.
  await expect(logZh.locator('li .d[lang="en"]')).toHaveCount(0);
  await expect(logZh.locator('li .d[lang="zh-CN"]').first()).toHaveText(/^\S+：.*\p{Script=Han}/u);
  expect(await leftInEnglish(page, english)).toEqual([]);
  expect(new URL(page.url()).searchParams.get('lang')).toBe('zh-CN');
});

test('About in Chinese shows the translated model document, and its contents jump to the headings', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto('./?view=about&lang=en');
  await expect(
    page.getByRole('heading', { name: 'How the numbers compare with the source documents' }),
  ).toBeVisible();
  const english = await visibleStrings(page);
  expect(english.length).toBeGreaterThan(300);
  await page.getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('heading', { level: 2, name: '数字与来源文档的比较' })).toBeVisible();
  await expect(page.locator('article')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('table').first()).toContainText('已知不符');
  // Names the Chinese document keeps as they are: a socket option, a counter's increment, a
  // program.
  const names = ['TCP_NODELAY', '+= pcount', 'netperf'];
  expect((await leftInEnglish(page, english)).filter((s) => !names.includes(s))).toEqual([]);

  // Every entry of the contents names a heading of the document by its id, and following one
  // scrolls to it.
  const toc = page.getByRole('navigation', { name: '目录' }).getByRole('link');
  const entries = await toc.evaluateAll((links) =>
    links.map((a) => ({
      text: a.textContent!,
      hash: decodeURIComponent(new URL((a as HTMLAnchorElement).href).hash.slice(1)),
    })),
  );
  expect(entries.length).toBeGreaterThan(10);
  for (const { text, hash } of entries)
    await expect(page.locator(`article [id="${hash}"]`)).toHaveText(text);
  const target = entries.find((e) => e.text.startsWith('TCP 之下'))!;
  await toc.filter({ hasText: target.text }).click();
  const heading = page.locator(`[id="${target.hash}"]`);
  await expect(heading).toBeInViewport();
  expect(decodeURIComponent(new URL(page.url()).hash.slice(1))).toBe(target.hash);
  // A link to that heading opens the page there, once the translation has loaded.
  await page.goto('about:blank');
  await page.goto(`./?view=about&lang=zh-CN#${encodeURIComponent(target.hash)}`);
  await expect(page.locator(`[id="${target.hash}"]`)).toBeInViewport();
  expect(errors).toEqual([]);
});

test("a recording's decision log reads in Chinese too", async ({ page }) => {
  await page.goto('./?capture=samples/pingpong-default.jsonl&lang=zh-CN');
  await expect(
    page.getByRole('heading', { level: 2, name: /pingpong-default\.jsonl/ }),
  ).toBeVisible({ timeout: 60_000 });
  const log = page.getByRole('region', { name: '决策日志' });
  await expect(async () => {
    await log.first().scrollIntoViewIfNeeded({ timeout: 2_000 });
  }).toPass();
  const lines = log.locator('li .d');
  // The tracepoint, then the recorded event in Chinese; no line is left in English.
  await expect(lines.first()).toHaveText(/^[\w:]+(（tcp_delack_timer）)?：.*\p{Script=Han}/u);
  await expect(log.locator('li .d[lang="en"]')).toHaveCount(0);
  await expect(log.locator('li .d[lang="zh-CN"]').first()).toBeVisible();
});
