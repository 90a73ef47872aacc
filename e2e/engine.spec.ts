import { SUBPATH_PREFIX } from '../playwright.config';
import { formatCount, formatSeconds } from '../web/src/model/format';
import { expect, nativeRun, test, workspaceVersion } from './fixtures';

test('the page runs the default scenario in the wasm engine, in a worker, as the native engine does', async ({
  sendpath,
  page,
}) => {
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));

  await test.step('load the page; the engine starts in its worker', async () => {
    await sendpath.goto();
    await sendpath.engineReady();
    await expect(sendpath.engineVersion).toHaveText(workspaceVersion());
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatch(/\/assets\/worker-[\w-]+\.js$/);
    const response = await wasm;
    expect(response.ok()).toBe(true);
    expect(response.headers()['content-type']).toBe('application/wasm');
  });

  await test.step('the default scenario runs to the same result as `sendpath run --json`', async () => {
    await sendpath.runFinished();
    const native = nativeRun(await sendpath.scenarioPath());
    await expect(sendpath.kernel).toHaveText(native.kernel);
    await expect(sendpath.simulatedTime).toHaveText(formatSeconds(native.elapsed_s));
    await expect(sendpath.events).toHaveText(formatCount(native.events));
    const rows = sendpath.apps.getByRole('row');
    await expect(rows).toHaveCount(native.apps.length + 1);
    for (const [i, app] of native.apps.entries()) {
      const cells = rows.nth(i + 1).getByRole('cell');
      await expect(cells.nth(0)).toHaveText(app.host);
      await expect(cells.nth(1)).toHaveText(app.kind);
      await expect(cells.nth(3)).toHaveText(formatCount(app.bytes_written));
      await expect(cells.nth(4)).toHaveText(formatCount(app.bytes_read));
    }
  });

  expect(sendpath.errors).toEqual([]);
});

test('the built site works under a sub-path of a plain static host', async ({ sendpath }) => {
  const port = Number(process.env.SENDPATH_SUBPATH_PORT ?? 4180);
  await sendpath.goto(`http://127.0.0.1:${port}${SUBPATH_PREFIX}`);
  await sendpath.engineReady();
  await sendpath.runFinished();
  await expect(sendpath.events).not.toBeEmpty();
  expect(sendpath.errors).toEqual([]);
});
