import { SUBPATH_PREFIX } from '../playwright.config';
import { expect, nativeRun, test, workspaceVersion } from './fixtures';

test('the page runs the engine in a worker and shows its version', async ({ sendpath, page }) => {
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));
  await sendpath.goto();
  await sendpath.ready();
  await expect(sendpath.engineVersion).toHaveText(workspaceVersion());
  // The landing's prerendered first run is read in a worker of its own (firstRunWorker.ts);
  // then the page's engine, and the landing's two whole runs (LandingEffect) in workers of the
  // same script, once its first run is on screen.
  expect(workers[0]).toMatch(/\/assets\/firstRunWorker-[\w-]+\.js$/);
  const engines = workers.slice(1);
  expect(engines.length).toBeGreaterThanOrEqual(1);
  expect(engines.length).toBeLessThanOrEqual(3);
  for (const w of engines) expect(w).toMatch(/\/assets\/worker-[\w-]+\.js$/);
  const response = await wasm;
  expect(response.ok()).toBe(true);
  expect(response.headers()['content-type']).toBe('application/wasm');
  expect(sendpath.errors).toEqual([]);
});

test('the full experiment runs in a second worker to the result of `sendpath run --json`', async ({
  sendpath,
  page,
}) => {
  test.setTimeout(120_000);
  await sendpath.goto('./?s=autocorking&v=on');
  await sendpath.ready();
  await sendpath.reveal('Full experiment');
  const section = page.getByRole('region', { name: 'Full experiment' });
  await section.getByRole('button', { name: 'Run the full experiment' }).click();
  await expect(section.getByRole('status')).toHaveText('Finished', { timeout: 90_000 });
  const native = nativeRun('scenarios/autocorking.toml', ['--variant', 'on']);
  const table = section.getByTestId('counters-full');
  for (const [host, h] of Object.entries(native.hosts)) {
    for (const [name, value] of Object.entries(h.counters)) {
      const row = table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
        .filter({ hasText: host });
      await expect(row.getByRole('cell').last()).toHaveText(value.toLocaleString('en-US'));
    }
  }
  expect(sendpath.errors).toEqual([]);
});

test('the built site works under a sub-path of a plain static host', async ({ sendpath }) => {
  const port = Number(process.env.SENDPATH_SUBPATH_PORT ?? 4180);
  await sendpath.goto(`http://127.0.0.1:${port}${SUBPATH_PREFIX}`);
  await sendpath.ready();
  await expect(sendpath.pipeline()).toBeVisible();
  expect(sendpath.errors).toEqual([]);
});
