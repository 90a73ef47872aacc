// Native mode in the browser: each sample recording replays in the same pipeline (the
// animation moves), its "Simulate this" puts the counters of recording and simulation side by
// side, a file that cannot be read leaves the page as it was, a damaged one replays with a
// warning, and nothing is fetched from outside the page's origin.
import { readFileSync } from 'node:fs';

import { expect, test, type SendpathPage } from './fixtures';

const SAMPLES = new URL('../public/samples/', import.meta.url);

/** The recording's sums of nstat deltas (sendpath namespace), as docs/capture.md lists them. */
const RECORDED_IP_OUT_REQUESTS: Record<string, number> = {
  'autocork-on.jsonl': 518,
  'autocork-off.jsonl': 752,
  'bulk-40ms.jsonl': 165,
};

const SAMPLE_TITLES: Record<string, RegExp> = {
  'autocork-on.jsonl': /autocorking on/,
  'autocork-off.jsonl': /autocorking off/,
  'pingpong-default.jsonl': /Nagle and delayed ACK/,
  'pingpong-nodelay.jsonl': /TCP_NODELAY/,
  'bulk-40ms.jsonl': /2 MB write/,
};

/** The counter table of recording and simulation, as numbers by "host counter". */
async function compareTable(sendpath: SendpathPage): Promise<Map<string, [number, number]>> {
  // One round trip for the whole table: reading cell by cell took 2 s.
  const rows = await sendpath.page
    .getByTestId('capture-compare')
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => {
        const td = [...tr.querySelectorAll('td')].map((c) => (c as HTMLElement).innerText);
        return { name: (tr.querySelector('th') as HTMLElement).innerText, td };
      }),
    );
  const out = new Map<string, [number, number]>();
  const num = (text: string | undefined) => Number((text ?? '').replace(/,/g, ''));
  for (const { name, td } of rows) out.set(`${td[0]} ${name}`, [num(td[1]), num(td[2])]);
  return out;
}

for (const file of Object.keys(SAMPLE_TITLES)) {
  test(`the ${file} sample replays from the sample menu, moves as it plays, and its simulation sits beside it`, async ({
    sendpath,
    page,
  }) => {
    test.setTimeout(180_000);
    await sendpath.goto();
    await sendpath.ready();
    const menu = page.getByLabel('Experiment', { exact: true });
    await expect(menu.locator(`option[value="capture:${file}"]`)).toHaveText(SAMPLE_TITLES[file]!);
    await menu.selectOption(`capture:${file}`);
    await expect(page.getByRole('heading', { level: 2, name: `Recording: ${file}` })).toBeVisible({
      timeout: 60_000,
    });
    await sendpath.ready();
    expect(new URL(page.url()).searchParams.get('capture')).toBe(`samples/${file}`);

    // The pipeline replays the recording and marks what it cannot show.
    const pipeline = sendpath.pipeline('A');
    await expect(pipeline).toBeVisible();
    await page.getByRole('button', { name: 'wire', exact: true }).first().focus();
    await expect(page.getByRole('tooltip').first()).toContainText('not recorded');
    await sendpath.play.click();
    await sendpath.expectMoving(pipeline);
    await sendpath.pause.click();

    // Simulate this: B runs the recording's configuration; the counters sit side by side.
    await page.getByRole('button', { name: 'Simulate this' }).first().click();
    await sendpath.ready(90_000);
    await expect(sendpath.pipeline('B')).toBeVisible();
    await sendpath.reveal('Recording');
    const table = page.getByTestId('capture-compare');
    await expect(table).toBeVisible({ timeout: 150_000 });
    await expect(table.locator('thead')).toContainText('Recording');
    await expect(table.locator('thead')).toContainText('Simulation');
    const rows = await compareTable(sendpath);
    const host = file.startsWith('pingpong') ? 'localhost' : 'sender';
    const out = rows.get(`${host} IpOutRequests`);
    expect(out, [...rows.keys()].join(', ')).toBeDefined();
    expect(out![1]).toBeGreaterThan(0);
    if (RECORDED_IP_OUT_REQUESTS[file] !== undefined)
      expect(out![0]).toBe(RECORDED_IP_OUT_REQUESTS[file]);
    // The keys the simulation used say where each value came from.
    await expect(page.getByTestId('capture-keys')).toContainText('recorded');
    await expect(page.getByTestId('capture-defaults')).toBeAttached();
    expect(sendpath.errors).toEqual([]);
  });
}

test('a file that is not a recording shows the line that gave it away and keeps the scenario on screen', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=nagle-delayed-ack&v=no_delay');
  await sendpath.ready();
  const heading = await page.locator('#scenario-h').innerText();
  const events = await sendpath.eventIndex.innerText();
  await page.getByTestId('capture-file').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('# Title\nsome notes that are no capture\n'),
  });
  const error = page.getByTestId('capture-error');
  await expect(error).toBeVisible();
  await expect(error).toContainText('notes.txt could not be replayed');
  await expect(error).toContainText(/line 1/);
  await expect(error).toContainText(/expected/);
  await expect(page.locator('#scenario-h')).toHaveText(heading);
  await expect(sendpath.eventIndex).toHaveText(events);
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue('nagle-delayed-ack');
  await sendpath.ready();
  expect(new URL(page.url()).searchParams.get('v')).toBe('no_delay');

  // Binary data: the same, naming the character.
  await page.getByTestId('capture-file').setInputFiles({
    name: 'image.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  });
  await expect(error).toContainText('image.png could not be replayed');
  await expect(error).toContainText(/binary data/);
  await expect(page.locator('#scenario-h')).toHaveText(heading);
  expect(sendpath.errors).toEqual([]);
});

test('a damaged recording replays what is valid, with a warning naming the lines skipped', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto();
  await sendpath.ready();
  const lines = readFileSync(new URL('autocork-on.jsonl', SAMPLES), 'utf8').split('\n');
  // Two damaged event lines in the middle, and the end cut off mid-line.
  lines[100] = '{"type": "printf", "data": "xmit t=oops dev=x\\n"}';
  lines[200] = 'garbage that is not JSON';
  const cut = lines.slice(0, 3000).join('\n');
  const damaged = cut.slice(0, cut.length - 20);
  await page.getByTestId('capture-file').setInputFiles({
    name: 'damaged.jsonl',
    mimeType: 'application/jsonl',
    buffer: Buffer.from(damaged),
  });
  await expect(
    page.getByRole('heading', { level: 2, name: 'Recording: damaged.jsonl' }),
  ).toBeVisible({ timeout: 60_000 });
  const warnings = page.getByTestId('capture-warnings');
  await expect(warnings).toContainText('line 101');
  await expect(warnings).toContainText('line 201');
  await expect(page.getByText('The file ends early')).toBeVisible();
  await sendpath.ready();
  await sendpath.play.click();
  await expect(sendpath.eventIndex).not.toHaveText(/^before the first/, { timeout: 10_000 });
  expect(sendpath.errors).toEqual([]);
});

test('a recording dropped on the page replays, and closing it brings the scenario back', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?s=autocorking&v=off');
  await sendpath.ready();
  const bytes = readFileSync(new URL('bulk-40ms.jsonl', SAMPLES)).toString('base64');
  const transfer = await page.evaluateHandle((b64) => {
    const bin = atob(b64);
    const buf = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) buf[i] = bin.charCodeAt(i);
    const dt = new DataTransfer();
    dt.items.add(new File([buf], 'bulk-40ms.jsonl', { type: 'application/jsonl' }));
    return dt;
  }, bytes);
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
  await expect(
    page.getByRole('heading', { level: 2, name: 'Recording: bulk-40ms.jsonl' }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Opened from a file')).toBeVisible();
  await page.getByRole('button', { name: 'Close the recording' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /autocorking/i })).toBeVisible();
  await sendpath.ready();
  expect(new URL(page.url()).searchParams.get('v')).toBe('off');
  expect(sendpath.errors).toEqual([]);
});

test('replaying and simulating a recording makes no request outside the page origin', async ({
  sendpath,
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const requests: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  page.on('worker', (w) => requests.push(w.url()));
  await sendpath.goto('./?capture=samples/autocork-off.jsonl');
  await expect(
    page.getByRole('heading', { level: 2, name: 'Recording: autocork-off.jsonl' }),
  ).toBeVisible({ timeout: 60_000 });
  await sendpath.ready();
  await page.getByRole('button', { name: 'Simulate this' }).first().click();
  await sendpath.ready(90_000);
  await sendpath.reveal('Recording');
  await expect(page.getByTestId('capture-compare')).toBeVisible({ timeout: 90_000 });
  const own = new URL(page.url()).origin;
  expect(requests.some((u) => u.endsWith('/samples/autocork-off.jsonl'))).toBe(true);
  for (const url of requests) {
    const u = new URL(url);
    if (u.protocol === 'data:' || u.protocol === 'blob:') continue;
    expect(u.origin, url).toBe(own);
  }
});

test('a ?capture= link to another site asks first, fetches nothing until the reader agrees, and can be declined', async ({
  sendpath,
  page,
  context,
}) => {
  test.setTimeout(120_000);
  // The embed's server: another origin that allows CORS, as a reader's own server might.
  const other = `http://127.0.0.1:${Number(process.env.SENDPATH_EMBED_PORT ?? 4181)}`;
  const link = `${other}/samples/autocork-on.jsonl`;
  const fetched: string[] = [];
  context.on('request', (r) => {
    if (r.url().startsWith(other)) fetched.push(r.url());
  });
  const ask = page.getByRole('alertdialog');

  await test.step('declined: the page runs its scenario and the link loses its recording', async () => {
    await sendpath.goto(`./?capture=${encodeURIComponent(link)}&lang=en`);
    await expect(ask).toContainText(
      `This link asks to open the recording autocork-on.jsonl from another site: ${other}. Open it?`,
    );
    await expect(ask).toContainText('At most 256 MiB, given up after 20 s without data.');
    await sendpath.ready();
    await page.getByRole('button', { name: 'Don’t open it' }).click();
    await expect(ask).toBeHidden();
    expect(new URL(page.url()).searchParams.get('capture')).toBeNull();
    expect(fetched).toEqual([]);
  });

  await test.step('confirmed: the recording is read from the other site and replays', async () => {
    await sendpath.goto(`./?capture=${encodeURIComponent(link)}&lang=en`);
    await expect(ask).toBeVisible();
    await sendpath.ready();
    expect(fetched).toEqual([]);
    await page.getByRole('button', { name: 'Open the recording' }).click();
    await expect(
      page.getByRole('heading', { level: 2, name: 'Recording: autocork-on.jsonl' }),
    ).toBeVisible({ timeout: 60_000 });
    expect(fetched).toEqual([link]);
    expect(new URL(page.url()).searchParams.get('capture')).toBe(link);
  });
});
