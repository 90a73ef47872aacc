// The packetdrill player (?view=packetdrill): a .pkt script opened with the file picker, dropped
// on the script or picked from the upstream ones runs in the engine (in the browser's worker),
// its lines are highlighted event by event as the native engine's report lists them, and where
// the script stops (a mismatch, expected beside actual, or something unsupported) shows on its
// line. In English and Chinese, with no serious axe violation.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect, nativePacketdrill, seriousViolations, test } from './fixtures';

const CORK = 'scenarios/packetdrill/nagle/sockopt_cork_nodelay.pkt';
const CORK_TEXT = readFileSync(new URL(`../${CORK}`, import.meta.url), 'utf8');
// Upstream's script replaces the root qdisc with `pfifo limit 0` mid-run, which the engine
// models; the same script replacing it with fq mid-run is something it does not (settings other
// than a new pfifo hold from the start of a run).
const MIDRUN_TC_TEXT = readFileSync(
  new URL(
    '../scenarios/packetdrill/cubic/cubic-rack-reo-timeout-retrans-failed-incoming-data.pkt',
    import.meta.url,
  ),
  'utf8',
).replace('root pfifo limit 0', 'root fq');
const MIDRUN_TC = join(mkdtempSync(join(tmpdir(), 'sendpath-pd-')), 'midrun-fq.pkt');
writeFileSync(MIDRUN_TC, MIDRUN_TC_TEXT);

test('a .pkt file from the picker plays event by event, as the native engine ran it', async ({
  sendpath,
  page,
}) => {
  const native = nativePacketdrill(CORK);
  expect(native.outcome.kind).toBe('pass');
  // Reduced motion: the page shows the end at once; the reader steps with the buttons.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await sendpath.goto('./?view=packetdrill&lang=en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'packetdrill scripts in the engine',
  );
  await page.getByLabel('Open a .pkt file').setInputFiles({
    name: 'sockopt_cork_nodelay.pkt',
    mimeType: 'text/plain',
    buffer: Buffer.from(CORK_TEXT),
  });
  const status = page.getByRole('status');
  await expect(status).toHaveText(
    `sockopt_cork_nodelay.pkt: pass. All ${native.lines.length} events happened as the script says.`,
  );
  const script = page.getByRole('region', { name: 'The script' });
  await test.step('stepping highlights each event’s lines in the native report’s order', async () => {
    await page.getByRole('button', { name: 'Back to the start' }).click();
    await expect(script.locator('[aria-current="step"]')).toHaveCount(0);
    for (const e of native.lines.slice(0, 14)) {
      await page.getByRole('button', { name: 'Next event' }).click();
      const current = script.locator('[aria-current="step"]');
      await expect(current.first()).toHaveAttribute('data-line', String(e.line));
      await expect(current).toHaveCount(e.last_line - e.line + 1);
      if (e.kind === 'outbound')
        await expect(current.first()).toContainText(`the engine sent: ${e.detail}`);
    }
  });
});

test('a script changed to expect another packet stops there, expected beside actual', async ({
  sendpath,
  page,
}) => {
  const changed = CORK_TEXT.replace('   +0 > P. 1:81(80) ack 1', '   +0 > . 1:81(80) ack 1');
  await sendpath.goto('./?view=packetdrill&lang=en');
  await page.getByLabel('Open a .pkt file').setInputFiles({
    name: 'changed.pkt',
    mimeType: 'text/plain',
    buffer: Buffer.from(changed),
  });
  // It plays at the script's pace, then shows the mismatch on its line.
  await expect(page.getByRole('status')).toHaveText(
    'changed.pkt: mismatch at line 23. The engine did not do what the script expects.',
    { timeout: 30_000 },
  );
  const stop = page.getByRole('alert');
  await expect(stop).toContainText('Line 23: mismatch');
  await expect(stop).toContainText('script expects: . 1:81(80) ack 1');
  await expect(stop).toContainText('engine did: P. 1:81(80) ack 1');
  await expect(stop).toContainText(
    'live packet field tcp_psh: expected: 0 (0x0) vs actual: 1 (0x1)',
  );
  await expect(page.locator('li[data-line="23"]')).toHaveClass('pd-fail');
});

test('a dropped script the engine cannot model is unsupported at its line, never a pass', async ({
  sendpath,
  page,
}) => {
  const native = nativePacketdrill(MIDRUN_TC);
  expect(native.outcome.kind).toBe('unsupported');
  const line = native.outcome.kind === 'unsupported' ? native.outcome.line : 0;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await sendpath.goto('./?view=packetdrill&lang=en&script=nagle/sockopt_cork_nodelay.pkt');
  await expect(page.getByRole('status')).toContainText('nagle/sockopt_cork_nodelay.pkt: pass');
  const drop = page.getByTestId('pd-drop');
  const data = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'midrun-fq.pkt', { type: 'text/plain' }));
    return dt;
  }, MIDRUN_TC_TEXT);
  await drop.dispatchEvent('drop', { dataTransfer: data });
  await expect(page.getByRole('status')).toHaveText(
    `midrun-fq.pkt: unsupported at line ${line}. The script uses something the engine does not model; nothing after it ran.`,
  );
  await expect(page.getByRole('alert')).toContainText('a shell command after the socket exists');
  await expect(page.locator(`li[data-line="${line}"]`)).toHaveClass('pd-unsupported');
});

test('an upstream script plays by itself, in Chinese, with no serious axe violation', async ({
  sendpath,
  page,
}) => {
  await sendpath.goto('./?view=packetdrill&lang=zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('在引擎中运行 packetdrill 脚本');
  await page.getByLabel('或选择一个上游脚本').selectOption('nagle/sockopt_cork_nodelay.pkt');
  await page.getByLabel('速度').selectOption('fast');
  // While it plays, one event at a time is current; at the end the status says it passed.
  await expect(page.locator('[aria-current="step"]').first()).toBeVisible();
  await expect(page.getByRole('status')).toContainText('通过', { timeout: 30_000 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page)).toEqual([]);
  }
});
