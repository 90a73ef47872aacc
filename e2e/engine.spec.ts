import { SUBPATH_PREFIX } from '../playwright.config';
import { expect, test, workspaceVersion } from './fixtures';

test('the page starts the wasm engine in a worker and shows its version and a computed result', async ({
  sendpath,
  page,
}) => {
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));

  await test.step('load the page and wait for the engine', async () => {
    await sendpath.goto();
    await sendpath.engineReady();
  });

  await test.step('the engine answered from its worker', async () => {
    await expect(sendpath.engineVersion).toHaveText(workspaceVersion());
    // 1514-byte frame + preamble, delimiter, FCS and gap: computed by sendpath_core in wasm.
    await expect(sendpath.wireBytesOfFullMssFrame).toHaveText('1538');
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatch(/\/assets\/worker-[\w-]+\.js$/);
    const response = await wasm;
    expect(response.ok()).toBe(true);
    expect(response.headers()['content-type']).toBe('application/wasm');
  });

  expect(sendpath.errors).toEqual([]);
});

test('the built site works under a sub-path of a plain static host', async ({ sendpath }) => {
  const port = Number(process.env.SENDPATH_SUBPATH_PORT ?? 4180);
  await sendpath.goto(`http://127.0.0.1:${port}${SUBPATH_PREFIX}`);
  await sendpath.engineReady();
  await expect(sendpath.wireBytesOfFullMssFrame).toHaveText('1538');
  expect(sendpath.errors).toEqual([]);
});
