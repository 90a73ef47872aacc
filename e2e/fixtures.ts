// Page objects for the end-to-end suite, given to tests as fixtures.
import { readFileSync } from 'node:fs';

import { test as base, expect, type Locator, type Page } from '@playwright/test';

/** The engine's version as engine/Cargo.toml states it (what the page must show). */
export function workspaceVersion(): string {
  const toml = readFileSync(new URL('../engine/Cargo.toml', import.meta.url), 'utf8');
  const version = /\[workspace\.package\][^[]*?version\s*=\s*"([^"]+)"/.exec(toml)?.[1];
  if (!version) throw new Error('engine/Cargo.toml: no [workspace.package] version');
  return version;
}

/** The sendpath page: what a visitor sees of the engine. */
export class SendpathPage {
  readonly engineStatus: Locator;
  readonly engineVersion: Locator;
  readonly wireBytesOfFullMssFrame: Locator;
  /** Uncaught exceptions and console errors seen since the page object was made. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    const engine = page.getByRole('region', { name: 'Engine' });
    this.engineStatus = engine.getByRole('status');
    // <dd aria-labelledby="<its dt>">: labelled by the term a reader sees beside it.
    this.engineVersion = engine.getByLabel('Engine version', { exact: true });
    this.wireBytesOfFullMssFrame = engine.getByLabel(/^Wire bytes of one full-MSS segment/);
    page.on('pageerror', (err) => this.errors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.errors.push(msg.text());
    });
  }

  async goto(url = './'): Promise<void> {
    await this.page.goto(url);
  }

  /** Waits for the explicit "engine ready" signal. */
  async engineReady(): Promise<void> {
    await expect(this.engineStatus).toHaveText('Engine ready');
  }
}

export const test = base.extend<{ sendpath: SendpathPage }>({
  sendpath: async ({ page }, use) => {
    await use(new SendpathPage(page));
  },
});

export { expect };
