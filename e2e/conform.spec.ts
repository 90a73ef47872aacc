// "Model vs Linux" (?view=conform): reached from a recorded scenario in the simulator, it shows
// an experiment's recorded values beside what the engine computes (the native engine's
// `sendpath conform` rows), each with its verdict in words, opens the simulator on the
// experiment's scenario, variant and overrides, and has no serious axe violation in either theme.
import { readFileSync } from 'node:fs';

import { formatValue } from '../web/src/model/conform';
import { expect, nativeConform, seriousViolations, test } from './fixtures';

const ID = 'pingpong-lo-default';
const FILE = readFileSync(new URL(`../scenarios/conformance/${ID}.toml`, import.meta.url), 'utf8');
const TITLE = /^title\s*=\s*"([^"]+)"/m.exec(FILE)![1]!;
const SCENARIO = /^scenario\s*=\s*"([^"]+)"/m.exec(FILE)![1]!.replace(/\.toml$/, '');
const VARIANT = /^variant\s*=\s*"([^"]+)"/m.exec(FILE)?.[1];

test('Model vs Linux shows an experiment beside the model, and opens it in the simulator', async ({
  sendpath,
  page,
}) => {
  test.setTimeout(180_000);
  const rows = nativeConform(ID);
  expect(rows.length).toBeGreaterThan(0);

  await test.step('the simulator links a recorded scenario to its experiments', async () => {
    await sendpath.goto(`./?s=${SCENARIO}&lang=en`);
    await sendpath.ready();
    await page.getByRole('link', { name: /^Model vs Linux: \d+ recordings?$/ }).click();
    await expect(page).toHaveURL(new RegExp(`view=conform&scenario=${SCENARIO}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Model vs Linux' })).toBeVisible();
  });

  const experiment = page.getByRole('article', { name: TITLE });
  await test.step('each recorded value stands beside the model’s, with its verdict', async () => {
    await expect(page.getByRole('status')).toContainText('experiments ran in the engine', {
      timeout: 120_000,
    });
    for (const r of rows) {
      const row = experiment.locator(`tr[data-value="${r.value}"]`);
      await expect(row.getByTestId('real')).toHaveText(formatValue(r.real));
      await expect(row.getByTestId('model')).toHaveText(
        r.model === null ? 'not computed by the model' : formatValue(r.model),
      );
      await expect(row.getByTestId('verdict')).toContainText(
        r.in_band ? 'In band' : r.known_failure ? 'Miss, explained' : 'Miss, not yet explained',
      );
      if (!r.in_band && r.known_failure)
        await expect(row.getByTestId('verdict')).toContainText(r.known_failure);
    }
  });

  await test.step('the real setup opens from the keyboard', async () => {
    const summary = experiment.getByText('The real setup and the recording');
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(experiment.getByText('Repetitions')).toBeVisible();
  });

  for (const scheme of ['light', 'dark'] as const)
    await test.step(`no serious axe violation (${scheme})`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousViolations(page)).toEqual([]);
    });

  await test.step('the experiment opens the simulator on its scenario and overrides', async () => {
    await experiment.getByRole('link', { name: `Open in the simulator: ${TITLE}` }).click();
    await sendpath.ready(60_000);
    const url = new URL(page.url());
    expect(url.searchParams.get('s')).toBe(SCENARIO);
    if (VARIANT) expect(url.searchParams.get('v')).toBe(VARIANT);
    const sets = /^set\s*=\s*\[(.*)\]/m.exec(FILE)?.[1] ?? '';
    for (const m of sets.matchAll(/"([^"]+)"/g))
      expect(url.searchParams.getAll('set')).toContain(m[1]);
  });
});
