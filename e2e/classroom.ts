// Page objects of the classroom views (lessons in presenter mode, the landing, the footer) and
// the helpers the language and accessibility tests share.
import { readFileSync, readdirSync } from 'node:fs';

import { test as base, expect, type Locator, type Page } from '@playwright/test';

import { collectErrors } from './fixtures';

/** Where the sub-path server mounts dist/ (playwright.config.ts). */
export { SUBPATH_PREFIX } from '../playwright.config';

/** The `## ` step titles of a lesson's text in one language, read from the files themselves. */
export function stepTitles(lesson: string, lang: 'en' | 'zh-CN'): string[] {
  const md = readFileSync(
    new URL(`../scenarios/lessons/${lesson}/${lang}.md`, import.meta.url),
    'utf8',
  );
  return [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
}

/** Every lesson folder. */
export function lessonIds(): string[] {
  return readdirSync(new URL('../scenarios/lessons/', import.meta.url), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** A lesson in presenter mode. */
export class LessonPage {
  readonly stepHeading: Locator;
  readonly stepOf: Locator;
  readonly next: Locator;
  readonly prev: Locator;
  /** Uncaught exceptions and console errors seen since the page object was made. */
  readonly errors: string[];

  constructor(readonly page: Page) {
    this.errors = collectErrors(page);
    this.stepHeading = page.locator('#step-h');
    this.stepOf = page.getByTestId('step-of');
    this.next = page
      .getByRole('navigation', { name: /Steps|步骤/ })
      .getByRole('button', { name: /Next step|下一步/ });
    this.prev = page
      .getByRole('navigation', { name: /Steps|步骤/ })
      .getByRole('button', { name: /Previous step|上一步/ });
  }

  async open(lesson: string, step?: number, base = './'): Promise<void> {
    const q = new URLSearchParams({ lesson, lang: 'en' });
    if (step !== undefined) q.set('step', String(step));
    await this.page.goto(`${base}?${q}`);
    await expect(this.stepHeading).toBeVisible();
  }

  /** The step the URL names now. */
  urlStep(): string | null {
    return new URL(this.page.url()).searchParams.get('step');
  }
}

/**
 * The visible text of the page, node by node, leaving out what is the same in every language by
 * design: code and key names (`<code>`, `<kbd>`), text marked `lang="en"` or `translate="no"`
 * inside a page in another language, and the language switch's own options.
 */
export async function visibleStrings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim() ?? '';
      const el = n.parentElement;
      if (!text || !el) continue;
      if (el.closest('code, kbd, pre, option, script, style, [translate="no"]')) continue;
      if (el.closest('[lang="en"]') && document.documentElement.lang !== 'en') continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      out.push(text);
    }
    for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder]'))
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(a)?.trim();
        if (v && el.checkVisibility()) out.push(v);
      }
    return out;
  });
}

/** Words that read the same in English and Chinese text: names, units, letters. */
const NEUTRAL_WORDS = new Set([
  // Names the scenario files give their hosts, and the kernel's own word.
  'sender',
  'receiver',
  'localhost',
  'Socket',
  // Units.
  'bit',
  'kbit',
  'Mbit',
  'Gbit',
  'ns',
  'kB',
  'MB',
  'GB',
  'sendpath',
  'TCP',
  'TSQ',
  'ACK',
  'skb',
  'µs',
  'ms',
  'qdisc',
  'NIC',
  'TX',
  'MSS',
  'fq',
]);

/** Whether `s` is made only of language-neutral words, numbers and symbols. */
export function isLanguageNeutral(s: string): boolean {
  // Socket ids (sk0) and nstat counter names (TcpOutSegs) are the kernel's.
  if (/^(sk\d*|(Ip|IpExt|Tcp|TcpExt|Udp|Icmp)[A-Z]\w*)$/.test(s.trim())) return true;
  return (s.match(/\p{L}+/gu) ?? []).every((w) => w.length < 2 || NEUTRAL_WORDS.has(w));
}

export const test = base.extend<{ lesson: LessonPage }>({
  lesson: async ({ page }, use) => {
    await use(new LessonPage(page));
  },
});

export { expect };
