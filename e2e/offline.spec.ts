import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { BrowserContext, Page } from '@playwright/test';

import { staticHandler } from '../scripts/serve-static.mjs';
import { writeOffline } from '../scripts/vite-plugin-offline';
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

// ---- The service worker against the hosts it meets (issue 15) ----

/** The build the e2e suite serves. */
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** A host of its own origin serving `dir()` under /site/, with `headers` on every answer. */
async function hostOf(
  dir: () => string,
  headers: Record<string, string> = {},
): Promise<{ root: string; close: () => Promise<void> }> {
  const serve = staticHandler({ dir, prefix: '/site/', headers });
  const server = createServer((req, res) => {
    // Same-origin files that are not the build's: an API answer, a user's recording.
    if (req.url?.startsWith('/site/extra/')) res.writeHead(200, headers).end('{}');
    else serve(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    root: `http://127.0.0.1:${port}/site/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The files of a build that its worker caches at install (dist/sw.js's FILES). */
function buildFiles(dir: string): string[] {
  const sw = readFileSync(join(dir, 'sw.js'), 'utf8');
  return JSON.parse(/const FILES = (\[[^\]]*\]);/.exec(sw)![1]!) as string[];
}

/** Every cache of the page's origin, with the URLs it holds. */
function cachesOf(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const k of await caches.keys())
      out[k] = (await (await caches.open(k)).keys()).map((r) => r.url).sort();
    return out;
  });
}

async function firstVisit(page: Page, root: string): Promise<void> {
  await page.goto(`${root}?lang=en`);
  await expect(page.getByTestId('offline-state')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
}

async function worksOffline(page: Page, context: BrowserContext, root: string): Promise<void> {
  await context.setOffline(true);
  await page.goto(`${root}?lang=en`);
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
  await expect(page.locator('[data-run-state="ready"]').first()).toBeVisible({ timeout: 60_000 });
  await context.setOffline(false);
}

test('behind a host that sends Vary: Origin the site still works offline', async ({
  page,
  context,
}) => {
  const host = await hostOf(() => DIST, { vary: 'Origin' });
  try {
    await firstVisit(page, host.root);
    await worksOffline(page, context, host.root);
  } finally {
    await host.close();
  }
});

test('the worker caches the build’s own files and nothing else the origin serves', async ({
  page,
}) => {
  const host = await hostOf(() => DIST);
  try {
    await firstVisit(page, host.root);
    // Same-origin requests that are not the build: never stored.
    const statuses = await page.evaluate(() =>
      Promise.all(
        ['extra/data.json', 'extra/recording.jsonl?x=1', 'sw.js'].map((u) =>
          fetch(u).then((r) => r.status),
        ),
      ),
    );
    expect(statuses).toEqual([200, 200, 200]);
    const all = await cachesOf(page);
    expect(Object.values(all).flat().sort()).toEqual(
      buildFiles(DIST)
        .map((f) => new URL(f, host.root).href)
        .sort(),
    );
    // One cache, named for this copy of the site (another under another path keeps its own).
    expect(Object.keys(all)).toEqual([expect.stringContaining(host.root)]);
  } finally {
    await host.close();
  }
});

test('a deploy replaces the whole build at once, even where the HTTP cache still holds the old page', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  // The next build: a copy of dist/ whose entry chunk has another name (as any change to it
  // gives), so that the old page cannot load from the new deploy.
  const next = mkdtempSync(join(tmpdir(), 'sendpath-deploy-'));
  cpSync(DIST, next, { recursive: true });
  const entry = /src="\.\/assets\/(main-[^"]+)\.js"/.exec(
    readFileSync(join(next, 'index.html'), 'utf8'),
  )![1]!;
  for (const f of readdirSync(next, { recursive: true, withFileTypes: true })) {
    if (!f.isFile() || !/\.(js|html)$/.test(f.name) || f.name === 'sw.js') continue;
    const path = join(f.parentPath, f.name);
    const text = readFileSync(path, 'utf8');
    if (text.includes(entry)) writeFileSync(path, text.replaceAll(entry, `${entry}-next`));
  }
  renameSync(join(next, `assets/${entry}.js`), join(next, `assets/${entry}-next.js`));
  const nextBuild = writeOffline(next);
  const oldBuild = await (async () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    return /<meta name="sendpath-build" content="([^"]+)">/.exec(html)?.[1] ?? 'none';
  })();
  expect(nextBuild).not.toBe(oldBuild);

  let dir = DIST;
  // A host whose pages stay fresh in the HTTP cache for an hour.
  const host = await hostOf(() => dir, { 'cache-control': 'max-age=3600' });
  try {
    await test.step('the first build is saved', async () => {
      await firstVisit(page, host.root);
    });
    dir = next;
    await test.step('the new build installs beside the open page', async () => {
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
      await expect
        .poll(
          () =>
            page.evaluate(
              async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null,
            ),
          { timeout: 30_000 },
        )
        .toBe('installed');
    });
    await test.step('once the old page is closed, the new build opens whole, offline too', async () => {
      await page.close();
      const fresh = await context.newPage();
      await expect
        .poll(
          async () => {
            await fresh.goto(`${host.root}?lang=en`);
            return fresh.locator('meta[name="sendpath-build"]').getAttribute('content');
          },
          { timeout: 30_000 },
        )
        .toBe(nextBuild);
      await expect(fresh.getByRole('region', { name: 'Welcome' })).toBeVisible();
      // The old build's cache is gone; the new one holds exactly the new build.
      const all = await cachesOf(fresh);
      expect(Object.keys(all)).toEqual([`sendpath ${host.root} ${nextBuild}`]);
      expect(Object.values(all)[0]).toEqual(
        buildFiles(next)
          .map((f) => new URL(f, host.root).href)
          .sort(),
      );
      await worksOffline(fresh, context, host.root);
    });
  } finally {
    await host.close();
    rmSync(next, { recursive: true, force: true });
  }
});
