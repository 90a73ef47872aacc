// Page objects for the end-to-end suite, given to tests as fixtures, and the native engine's
// answers to compare the page against.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { test as base, expect, type Locator, type Page } from '@playwright/test';

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
 * CLI's documented contract (the binary is built by global-setup.ts).
 */
export function nativeRun(scenarioPath: string): RunResult {
  const file = fileURLToPath(new URL(`../${scenarioPath}`, import.meta.url));
  const json = execFileSync(`${ENGINE_DIR}target/e2e/sendpath`, ['run', file, '--json'], {
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(json) as RunResult;
}

/** The sendpath page: what a visitor sees of the engine and the default scenario's run. */
export class SendpathPage {
  readonly engineStatus: Locator;
  readonly engineVersion: Locator;
  readonly scenario: Locator;
  readonly runStatus: Locator;
  readonly kernel: Locator;
  readonly simulatedTime: Locator;
  readonly events: Locator;
  readonly apps: Locator;
  /** Uncaught exceptions and console errors seen since the page object was made. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    const engine = page.getByRole('region', { name: 'Engine' });
    this.engineStatus = engine.getByRole('status');
    // <dd aria-labelledby="<its dt>">: labelled by the term a reader sees beside it.
    this.engineVersion = engine.getByLabel('Engine version', { exact: true });
    this.scenario = page.getByRole('region', { name: /^Scenario / });
    this.runStatus = this.scenario.getByRole('status');
    this.kernel = this.scenario.getByLabel('Kernel profile', { exact: true });
    this.simulatedTime = this.scenario.getByLabel('Simulated time', { exact: true });
    this.events = this.scenario.getByLabel('Events processed', { exact: true });
    this.apps = this.scenario.getByRole('table', { name: 'Applications' });
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

  /** Waits for the default scenario's run to finish (seconds of wasm work for millions of events). */
  async runFinished(): Promise<void> {
    await expect(this.runStatus).toHaveText('Finished', { timeout: 60_000 });
  }

  /** The path of the scenario the page ran, as its heading shows it. */
  async scenarioPath(): Promise<string> {
    return (await this.scenario.getByRole('heading').getByRole('code').innerText()).trim();
  }
}

export const test = base.extend<{ sendpath: SendpathPage }>({
  sendpath: async ({ page }, use) => {
    await use(new SendpathPage(page));
  },
});

export { expect };
