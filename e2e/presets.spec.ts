// Every scenario file opens, and its animation really moves.
import { expect, scenarioNames, test } from './fixtures';

for (const name of scenarioNames()) {
  test(`the ${name} preset loads, plays, and its pipeline changes as it plays`, async ({
    sendpath,
    page,
  }) => {
    test.setTimeout(60_000);
    await sendpath.goto(`./?s=${name}`);
    await sendpath.ready(45_000);
    const pipeline = sendpath.pipeline();
    await expect(pipeline).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 }).first()).not.toHaveText(name);
    await sendpath.play.click();
    await sendpath.expectMoving(pipeline);
    expect(sendpath.errors).toEqual([]);
  });
}

test('the default page opens the autocorking experiment', async ({ sendpath, page }) => {
  await sendpath.goto();
  await sendpath.ready();
  await expect(page.getByRole('heading', { level: 2, name: /autocorking/i }).first()).toBeVisible();
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue('autocorking');
});
