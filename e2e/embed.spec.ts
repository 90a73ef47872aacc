// The embed as another site sees it: the host page (one origin) holds the player (another
// origin) in a sandboxed iframe, or through <sendpath-player>. The player loads nothing until
// scrolled to, plays in its sandbox (the engine in a worker, the wasm fetched cross-origin),
// sets its iframe's height, and leaves the host page's scroll and focus alone.
import { gzipSync } from 'node:zlib';

import type { Frame, Page, Request } from '@playwright/test';

import { componentSnippet, iframeSnippet } from '../web/src/shared/embedSnippet';
import { parseEmbed } from '../web/src/shared/embedParams';
import { expect, test } from './classroom';

const embedOrigin = `http://127.0.0.1:${Number(process.env.SENDPATH_EMBED_PORT ?? 4181)}`;
const hostUrl = `http://127.0.0.1:${Number(process.env.SENDPATH_HOST_PORT ?? 4182)}/`;
const embedRoot = new URL(`${embedOrigin}/`);

/** The first-load budget of the embed before play, gzip (issue 7). */
const FIRST_LOAD_BUDGET_BYTES = 250_000;

function config(search: string) {
  return parseEmbed(search, { scenarios: ['autocorking', 'nagle-delayed-ack'], lessons: [] })
    .config;
}

/** Opens the host page with `html` (a snippet) in its slot, far below the first screen. */
async function hostWith(page: Page, html: string): Promise<void> {
  await page.goto(hostUrl);
  await page.evaluate((h) => {
    const slot = document.getElementById('slot')!;
    // A contextual fragment runs the snippet's scripts, as the page's own HTML would.
    slot.append(document.createRange().createContextualFragment(h));
  }, html);
}

/** The embed's frame, once it exists. */
async function embedFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(embedOrigin))).toBe(true);
  return page.frames().find((f) => f.url().startsWith(embedOrigin))!;
}

/** Focus on the host's input, then scroll the host page (by the host) to the embed. */
async function focusThenScrollToEmbed(page: Page): Promise<number> {
  await page.getByLabel('Comment').focus();
  const y = await page.evaluate(() => {
    window.scrollTo(0, document.getElementById('slot')!.offsetTop - 100);
    return window.scrollY;
  });
  return y;
}

async function expectHostUntouched(page: Page, y: number): Promise<void> {
  expect(await page.evaluate(() => window.scrollY)).toBe(y);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('comment');
}

test('the iframe snippet: lazy, plays in a sandboxed cross-origin frame, resizes itself, leaves the host alone', async ({
  page,
}) => {
  const requests: Request[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(embedOrigin)) requests.push(r);
  });
  const snippet = iframeSnippet(
    embedRoot,
    config('?scenario=autocorking&autoplay=1&lang=en'),
    'sendpath',
  );
  expect(snippet).toContain('sandbox="allow-scripts"');
  await hostWith(page, snippet);

  await test.step('nothing loads while the embed is far below', async () => {
    await page.waitForTimeout(1000);
    expect(requests.map((r) => r.url())).toEqual([]);
  });

  const y = await focusThenScrollToEmbed(page);
  const frame = await embedFrame(page);

  await test.step('scrolled to: it loads, starts by itself (autoplay) and plays', async () => {
    await expect(frame.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
    // The engine really runs inside the sandbox: a worker and the wasm came from the embed's origin.
    expect(requests.some((r) => r.url().endsWith('.wasm'))).toBe(true);
    const time = frame.locator('.embed-controls output');
    const t0 = await time.textContent();
    await expect.poll(() => time.textContent()).not.toBe(t0);
  });

  await test.step('its iframe takes the height the player reports', async () => {
    const iframe = page.locator('#slot iframe');
    await expect
      .poll(async () => {
        const outer = await iframe.evaluate((f) => f.getBoundingClientRect().height);
        const inner = await frame.evaluate(() =>
          Math.ceil(document.documentElement.getBoundingClientRect().height),
        );
        return Math.abs(outer - inner) <= 1 && outer !== 480;
      })
      .toBe(true);
  });

  await test.step("the host page's scroll and focus never moved", async () => {
    await expectHostUntouched(page, y);
  });

  await test.step('no request left for anywhere but the embed and the host', async () => {
    for (const r of requests) expect(new URL(r.url()).origin).toBe(embedOrigin);
  });
});

test('the embed transfers at most 250 KB gzip before play, and loads the engine only on play', async ({
  page,
}) => {
  const bodies: { url: string; gz: number }[] = [];
  page.on('response', async (res) => {
    if (!res.url().startsWith(embedOrigin)) return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    bodies.push({ url: res.url(), gz: gzipSync(body, { level: 6 }).length });
  });
  await hostWith(
    page,
    iframeSnippet(embedRoot, config('?scenario=autocorking&lang=en'), 'sendpath'),
  );
  await focusThenScrollToEmbed(page);
  const frame = await embedFrame(page);
  const play = frame.getByRole('button', { name: 'Play' });
  await expect(play).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const before = [...bodies];
  const total = before.reduce((s, b) => s + b.gz, 0);
  process.stdout.write(
    `embed first load before play: ${(total / 1000).toFixed(1)} kB gzip in ${before.length} files\n`,
  );
  expect(before.some((b) => b.url.endsWith('.wasm'))).toBe(false);
  expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);

  await play.click();
  await expect(frame.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  expect(bodies.some((b) => b.url.endsWith('.wasm'))).toBe(true);
});

test('the web component: one script, lazy, plays, sizes itself, leaves the host alone', async ({
  page,
}) => {
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(embedOrigin)) requests.push(r.url());
  });
  const snippet = componentSnippet(
    embedRoot,
    config(
      '?scenario=nagle-delayed-ack&variant=no_delay&autoplay=1&lang=en&panels=pipeline,player',
    ),
  );
  expect(snippet).toContain('<sendpath-player');
  await hostWith(page, snippet);
  await page.waitForTimeout(1000);
  // Only the one script, until the element is scrolled near.
  expect(requests).toEqual([`${embedOrigin}/sendpath-player.js`]);

  const y = await focusThenScrollToEmbed(page);
  const frame = await embedFrame(page);
  expect(frame.url()).toContain('variant=no_delay');
  await expect(frame.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  // panels=pipeline,player: no chart, no counters.
  await expect(frame.getByTestId('key-counters')).toHaveCount(0);
  await expect(frame.getByTestId('pipeline-a')).toBeVisible();
  await expect
    .poll(async () => {
      const outer = await page
        .locator('sendpath-player')
        .evaluate((el) => el.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height);
      const inner = await frame.evaluate(() =>
        Math.ceil(document.documentElement.getBoundingClientRect().height),
      );
      return Math.abs(outer - inner) <= 1 && outer !== 480;
    })
    .toBe(true);
  await expectHostUntouched(page, y);
});

test('"Copy embed code" gives an iframe for the current state that plays on another site', async ({
  page,
}) => {
  await page.goto('./?s=autocorking&v=off&set=app.flows%3D1&lang=en');
  await expect(page.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Embed this view' });
  await expect(dialog).toBeVisible();
  const iframe = await dialog.getByLabel('An iframe').inputValue();
  const component = await dialog.getByLabel('A web component (one script)').inputValue();
  expect(iframe).toContain('sandbox="allow-scripts"');
  expect(iframe).toContain('embed/?scenario=autocorking&amp;variant=off&amp;set=app.flows%3D1');
  expect(component).toContain(
    '<sendpath-player scenario="autocorking" variant="off" set="app.flows=1"',
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // The same snippet, with the site on the embed's origin, on the blog post.
  const site = new URL('./', page.url()).href;
  await hostWith(page, iframe.replaceAll(site, `${embedOrigin}/`));
  await focusThenScrollToEmbed(page);
  const frame = await embedFrame(page);
  expect(new URL(frame.url()).searchParams.get('variant')).toBe('off');
  await frame.getByRole('button', { name: 'Play' }).click();
  await expect(frame.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  await expect(frame.getByTestId('key-counters')).toContainText('TcpExtTCPAutoCorking');
});

test('the embed speaks the language it is given', async ({ page }) => {
  await page.goto(`${embedOrigin}/embed/?scenario=autocorking&lang=zh-CN`);
  await expect(page.getByRole('button', { name: '播放' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'TCP 自动封包：4 个数据流，每次写入 128 字节',
  );
});
