// The site's Content-Security-Policy (scripts/vite-plugin-csp.ts, issue 15): every page of the
// build states it, it keeps out what it should (another origin's data, an injected inline
// script), and nothing the site itself does trips it: the simulator with its wasm engine, a
// recording, a lesson, About, Model vs Linux, and the embed in another site's page (an opaque
// origin whose engine starts from a blob worker).
import type { Frame, Page } from '@playwright/test';

import { CSP } from '../scripts/vite-plugin-csp';
import { componentSnippet } from '../web/src/shared/embedSnippet';
import { parseEmbed } from '../web/src/shared/embedParams';
import { collectErrors, expect, test } from './fixtures';

const embedOrigin = `http://127.0.0.1:${Number(process.env.SENDPATH_EMBED_PORT ?? 4181)}`;
const hostUrl = `http://127.0.0.1:${Number(process.env.SENDPATH_HOST_PORT ?? 4182)}/`;

/** Records every CSP violation a document of `page` reports, and reads them back. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(
        `${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  return async () => {
    const out: string[] = [];
    for (const f of page.frames())
      out.push(
        ...(await f
          .evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])
          .catch(() => [] as string[])),
      );
    return out;
  };
}

async function policyOf(target: Page | Frame): Promise<string | null> {
  return target
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content', { timeout: 5_000 });
}

test('the site states its policy and keeps out other origins and injected scripts', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?lang=en');
  expect(await policyOf(page)).toBe(CSP);
  await sendpath.ready();
  const blocked = await page.evaluate(async (other) => {
    const fetched = await fetch(`${other}/favicon.svg`).then(
      () => 'reached',
      () => 'blocked',
    );
    const s = document.createElement('script');
    s.textContent = 'window.__injected = 1';
    document.body.append(s);
    const injected = (window as unknown as { __injected?: number }).__injected ?? 'blocked';
    return { fetched, injected };
  }, embedOrigin);
  // The embed's server answers any origin with CORS: only the policy keeps the page from it.
  expect(blocked).toEqual({ fetched: 'blocked', injected: 'blocked' });
});

test('nothing the site does trips its policy: simulator, recording, lesson, About, Model vs Linux', async ({
  sendpath,
  page,
}) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const violations = await watchViolations(page);
  await test.step('the simulator runs its wasm engine', async () => {
    await sendpath.goto('./?lang=en');
    await sendpath.ready();
    await sendpath.revealAll();
  });
  await test.step('a recording opens from a same-origin link', async () => {
    await sendpath.goto('./?capture=samples/autocork-on.jsonl&lang=en');
    await expect(
      page.getByRole('heading', { level: 2, name: 'Recording: autocork-on.jsonl' }),
    ).toBeVisible({ timeout: 60_000 });
    await sendpath.ready();
  });
  await test.step('a lesson, About, Model vs Linux', async () => {
    await page.goto('./?lesson=autocorking&step=2&lang=en');
    await expect(page.locator('#step-h')).toBeVisible();
    await page.goto('./?view=about&lang=zh-CN');
    await expect(page.getByRole('heading', { level: 1, name: '关于模型' })).toBeVisible();
    await page.goto('./?view=conform&lang=en');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('table').first()).toBeVisible({ timeout: 60_000 });
  });
  expect(await violations()).toEqual([]);
  expect(errors.filter((e) => /Content.Security.Policy|CSP/i.test(e))).toEqual([]);
});

test('the embed plays under its policy in another site’s page', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const violations = await watchViolations(page);
  const config = parseEmbed('?scenario=autocorking&autoplay=1&lang=en', {
    scenarios: ['autocorking'],
    lessons: [],
  }).config;
  await page.goto(hostUrl);
  await page.evaluate(
    (h) => {
      const slot = document.getElementById('slot')!;
      slot.append(document.createRange().createContextualFragment(h));
      slot.scrollIntoView();
    },
    componentSnippet(new URL(`${embedOrigin}/`), config),
  );
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(embedOrigin))).toBe(true);
  const frame = page.frames().find((f) => f.url().startsWith(embedOrigin))!;
  expect(await policyOf(frame)).toBe(CSP);
  await expect(frame.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
  expect(await violations()).toEqual([]);
  expect(errors.filter((e) => /Content.Security.Policy|CSP/i.test(e))).toEqual([]);
});
