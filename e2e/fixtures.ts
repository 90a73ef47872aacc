// Page objects for the end-to-end suite, given to tests as fixtures, and the native engine's
// answers to compare the page against.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

import type { PacketdrillReport } from '../web/src/engine/generated/PacketdrillReport';
import type { Row } from '../web/src/engine/generated/Row';
import type { RunResult } from '../web/src/engine/generated/RunResult';

/** The engine's version as engine/Cargo.toml states it (what the page must show). */
export function workspaceVersion(): string {
  const toml = readFileSync(new URL('../engine/Cargo.toml', import.meta.url), 'utf8');
  const version = /\[workspace\.package\][^[]*?version\s*=\s*"([^"]+)"/.exec(toml)?.[1];
  if (!version) throw new Error('engine/Cargo.toml: no [workspace.package] version');
  return version;
}

/** The Cargo workspace. */
export const ENGINE_DIR = fileURLToPath(new URL('../engine/', import.meta.url));

/**
 * The result of running `scenarioPath` with the native engine: `sendpath run FILE --json`, the
 * CLI's documented contract (the binary is built by global-setup.ts), with extra arguments
 * (`--variant`, `--set`).
 */
export function nativeRun(scenarioPath: string, args: string[] = []): RunResult {
  const file = fileURLToPath(new URL(`../${scenarioPath}`, import.meta.url));
  const json = execFileSync(`${ENGINE_DIR}target/e2e/sendpath`, ['run', file, ...args, '--json'], {
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(json) as RunResult;
}

/**
 * The rows of conformance experiment `id` (scenarios/conformance/ID.toml) as the native engine
 * computes them: `sendpath conform --json --only ID`, whose exit status says only whether every
 * value is in band or explained.
 */
export function nativeConform(id: string): Row[] {
  const r = spawnSync(`${ENGINE_DIR}target/e2e/sendpath`, ['conform', '--json', '--only', id], {
    cwd: fileURLToPath(new URL('../', import.meta.url)),
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`sendpath conform: status ${r.status}`);
  return JSON.parse(r.stdout) as Row[];
}

/**
 * The native engine's report of a packetdrill script (a path under the repository, or a file):
 * `sendpath packetdrill --json`, whose exit status says only whether the script passed.
 */
export function nativePacketdrill(path: string): PacketdrillReport {
  const r = spawnSync(`${ENGINE_DIR}target/e2e/sendpath`, ['packetdrill', '--json', path], {
    cwd: fileURLToPath(new URL('../', import.meta.url)),
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`sendpath packetdrill: status ${r.status}`);
  return (JSON.parse(r.stdout) as PacketdrillReport[])[0]!;
}

/** The uncaught exceptions and console errors `page` has from now on (the array fills up). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return errors;
}

/**
 * The serious and critical axe violations on `page` as it is now, one line each.
 *
 * axe runs inside the page (AxeBuilder's legacy mode). Its default mode also opens a blank page
 * to merge the results of cross-origin frames, which took about as long as the audit: 4.7 s
 * against 2.4 s for About, 4.9 s against 2.7 s for the main page. None of the pages we audit has
 * a frame, and the check below fails if one gets one, so the two modes audit the same document.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await expect(page.locator('iframe, frame'), 'axe in legacy mode skips frames').toHaveCount(0);
  const r = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Every scenario file name without `.toml`. */
export function scenarioNames(): string[] {
  const dir = fileURLToPath(new URL('../scenarios/', import.meta.url));
  return execFileSync('ls', [dir], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.toml'))
    .map((f) => f.replace(/\.toml$/, ''));
}

/** The sendpath page: what a visitor sees. */
export class SendpathPage {
  readonly runState: Locator;
  readonly engineVersion: Locator;
  readonly play: Locator;
  readonly pause: Locator;
  readonly controls: Locator;
  readonly log: Locator;
  readonly currentLogRow: Locator;
  readonly eventIndex: Locator;
  readonly time: Locator;
  /** Uncaught exceptions and console errors seen since the page object was made. */
  readonly errors: string[];

  constructor(readonly page: Page) {
    this.errors = collectErrors(page);
    this.runState = page.locator('[data-run-state]');
    this.engineVersion = page.getByTestId('engine-version');
    const player = page.getByRole('region', { name: 'Time controls' });
    this.play = player.getByRole('button', { name: 'Play' });
    this.pause = player.getByRole('button', { name: 'Pause' });
    this.controls = page.getByRole('region', { name: 'Controls' });
    this.log = page.getByRole('region', { name: /^Decision log/ });
    this.currentLogRow = this.log.locator('[aria-current="step"]');
    this.eventIndex = page.getByTestId('event-index');
    this.time = player.getByRole('status', { name: 'Time' }).or(player.locator('output.time'));
  }

  async goto(url = './'): Promise<void> {
    await this.page.goto(url);
  }

  /** Waits for the explicit "ready" signal: the engine is up and every run on screen is done. */
  async ready(timeout = 30_000): Promise<void> {
    await expect(this.runState).toHaveAttribute('data-run-state', 'ready', { timeout });
  }

  /**
   * Scrolls a region into view: panels below the first screen load their code when the reader
   * scrolls near them (Deferred.tsx).
   */
  async reveal(name: string | RegExp): Promise<void> {
    // The placeholder is replaced by the panel as it loads: retry on a detached element.
    await expect(async () => {
      await this.page
        .getByRole('region', { name })
        .first()
        .scrollIntoViewIfNeeded({ timeout: 2_000 });
    }).toPass();
  }

  /** Scrolls through the whole page, so that every deferred panel loads. */
  async revealAll(): Promise<void> {
    for (const name of [
      'Why is it waiting?',
      'Charts',
      /^Decision log/,
      'Counters',
      'Full experiment',
    ]) {
      await this.reveal(name);
    }
  }

  /** The pipeline canvas of run `side`. */
  pipeline(side: 'A' | 'B' = 'A'): Locator {
    return this.page.getByRole('img', { name: new RegExp(`^Animated pipeline of run ${side}`) });
  }

  /** Opens the controls' group `group` (if closed) and returns the control of `key`. */
  async control(group: RegExp | string, key: string): Promise<Locator> {
    const details = this.controls.locator('details').filter({
      has: this.page.locator('summary', { hasText: group }),
    });
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) {
      await details.locator('summary').click();
    }
    return this.controls.getByLabel(key, { exact: true });
  }

  /** The error shown beside the control of `key`. */
  controlError(key: string): Locator {
    return this.controls
      .locator('.key')
      .filter({ has: this.page.getByLabel(key, { exact: true }) })
      .getByRole('alert');
  }

  /** nstat's table of `host` (of run `side` when comparing). */
  nstat(host: string, side: 'a' | 'b' = 'a'): Locator {
    return this.page.getByTestId(`nstat-${side}-${host}`);
  }

  /** The value nstat shows for `counter` on `host` at the cursor (0 when not listed). */
  async counter(host: string, counter: string, side: 'a' | 'b' = 'a'): Promise<number> {
    await this.reveal('Counters');
    await expect(this.nstat(host, side)).toBeVisible();
    const row = this.nstat(host, side)
      .getByRole('row')
      .filter({
        has: this.page.getByRole('rowheader', { name: counter, exact: true }),
      });
    if ((await row.count()) === 0) return 0;
    return Number((await row.getByRole('cell').first().innerText()).replace(/,/g, ''));
  }

  /** Moves the cursor to the end of the window with the keyboard shortcut. */
  async toEnd(): Promise<void> {
    await this.page.locator('body').press('End');
  }

  /**
   * Waits until `target` looks different in two screenshots in a row, twice: it is moving, not
   * redrawn once. Polls instead of sleeping a fixed time, so a slow machine waits longer and a
   * fast one not at all.
   */
  async expectMoving(target: Locator): Promise<void> {
    let last = await target.screenshot();
    for (let change = 1; change <= 2; change++) {
      await expect
        .poll(
          async () => {
            const now = await target.screenshot();
            const moved = !now.equals(last);
            last = now;
            return moved;
          },
          { message: `change ${change} of 2 in the picture`, intervals: [100], timeout: 15_000 },
        )
        .toBe(true);
    }
  }

  /**
   * How many different colours the canvas `target` holds (sampling every 7th pixel): 1 for a
   * blank picture, dozens for a painted pipeline.
   */
  colours(target: Locator): Promise<number> {
    return target.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < d.length; i += 4 * 7) {
        seen.add(((d[i]! << 24) | (d[i + 1]! << 16) | (d[i + 2]! << 8) | d[i + 3]!) >>> 0);
      }
      return seen.size;
    });
  }

  /** Reads the number of frames the pipelines have painted. */
  draws(): Promise<number> {
    return this.page.evaluate(
      () => (window as unknown as { __sendpath: { draws: number } }).__sendpath.draws,
    );
  }
}

export const test = base.extend<{ sendpath: SendpathPage }>({
  sendpath: async ({ page }, use) => {
    await use(new SendpathPage(page));
  },
});

export { expect };
