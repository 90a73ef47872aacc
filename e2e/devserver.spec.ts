// The dev server that `npm start` starts (issue 17): the README's first command must show the
// picture. Every other spec runs against the production build; this one against `vite` in
// development mode (playwright.config.ts's last web server), where React's StrictMode mounts
// each component twice and modules and the worker are served one by one.
import { DEV_URL } from '../playwright.config';
import { expect, test } from './fixtures';

test.use({ baseURL: DEV_URL });

test('the dev server paints the send path once the first run is done', async ({ sendpath }) => {
  await sendpath.goto('./?lang=en');
  // The first visit compiles the modules on demand: more time than the build needs.
  await sendpath.ready(80_000);
  const pipeline = sendpath.pipeline('A');
  await expect(pipeline).toBeVisible();
  // A blank canvas holds one colour; the pipeline's stages, labels and skbs hold dozens.
  await expect.poll(() => sendpath.colours(pipeline), { timeout: 15_000 }).toBeGreaterThan(8);
  expect(await sendpath.draws()).toBeGreaterThan(0);
  expect(sendpath.errors).toEqual([]);
});
