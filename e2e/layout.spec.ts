// The screenshot suite (issue 17): every lesson's first step (and second, where the issue asks)
// at a projector's 1024 x 768, a laptop's 1280 x 800, a phone's 390 x 844 in light and in dark,
// and a 1920 x 1080 screen, and the simulator's landing page at each (the lesson list, About, Model
// vs Linux and the packetdrill player too, for sideways scroll and theme). It fails on a page that
// scrolls sideways, panels laid over one another or spilling out of their box, a picture below
// its share of the first screen, stage names laid over each other or over the lanes or cut, touch
// targets under 44 px on the phone, controls that do not fold into a sheet there, and a dark
// system theme the page ignores. Each page's screenshot is attached to the test's results.
//
// One browser context per size. Reduced motion makes the steps open paused on their focus
// decision, so the screenshots are the same on every run: `npm run screenshots` writes the four
// in docs/screenshots/ (the autocorking lesson at each size) with SENDPATH_SCREENSHOTS=1.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Page } from '@playwright/test';

import { expect, lessonIds, test } from './classroom';

interface Size {
  name: string;
  width: number;
  height: number;
  dark?: boolean;
  /** The lesson steps measured at this size. */
  steps: number[];
  /** The least share of the first screen a lesson step's picture must cover. */
  share: number;
  /** The file in docs/screenshots/ this size's autocorking step 1 refreshes, if any. */
  doc?: string;
}

const SIZES: Size[] = [
  {
    name: '1024x768',
    width: 1024,
    height: 768,
    steps: [1, 2],
    share: 0.35,
    doc: 'projector-1024x768',
  },
  { name: '1280x800', width: 1280, height: 800, steps: [1], share: 0.3, doc: 'laptop-1280x800' },
  { name: '390x844', width: 390, height: 844, steps: [1, 2], share: 0.2 },
  {
    name: '390x844 dark',
    width: 390,
    height: 844,
    dark: true,
    steps: [1],
    share: 0.2,
    doc: 'phone-390x844-dark',
  },
  { name: '1920x1080', width: 1920, height: 1080, steps: [1], share: 0.3, doc: 'wide-1920x1080' },
];

const PHONE_WIDTH = 640;
const DOCS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** What the page's layout does wrong, measured in the page (empty lists when nothing). */
interface Layout {
  /** How far the page scrolls sideways, px. */
  sideways: number;
  /** The pipeline pictures' area on the first screen over the screen's area. */
  share: number;
  /** The first picture's box. */
  picture: { top: number; bottom: number } | null;
  /** Pairs of panels whose boxes overlap, and panels whose content spills out sideways. */
  overlaps: string[];
  /** Stage names over one another, over the lanes, or cut. */
  labels: string[];
  /** Touch targets on the first screen under 44 px. */
  small: string[];
  /** The page background's luminance, 0 (black) .. 255 (white), and the picture's mean. */
  bg: number;
  canvas: number;
}

/** Panels of the lesson view and of the simulator page that must never overlap. */
const PANELS = [
  '.presenter-bar',
  '.step-text',
  '.step-stage > *',
  '.site-header',
  '.pipelines > *',
  '.sim-main > aside',
  '.sim-main > .player',
  '.sim-main > .legend',
  '.sim-main > .intro',
  '.sim-main > .landing',
  '.sim-main > .landing-effect',
];

function measure(page: Page, panels: string[]): Promise<Layout> {
  return page.evaluate(
    ({ panels, phone }) => {
      const vw = innerWidth;
      const vh = innerHeight;
      const name = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}${
          el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''
        }`;
      const lum = (css: string) => {
        const [r, g, b] = css.match(/\d+(\.\d+)?/g)!.map(Number) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const shown = (el: Element) =>
        (el as HTMLElement).checkVisibility({ visibilityProperty: true }) &&
        getComputedStyle(el).position !== 'fixed';

      // The pictures' share of the first screen.
      const canvases = [...document.querySelectorAll<HTMLCanvasElement>('canvas[role="img"]')];
      let area = 0;
      for (const c of canvases) {
        const b = c.getBoundingClientRect();
        const w = Math.min(vw, b.right) - Math.max(0, b.left);
        const h = Math.min(vh, b.bottom) - Math.max(0, b.top);
        if (w > 0 && h > 0) area += w * h;
      }
      const first = canvases[0]?.getBoundingClientRect();

      // Panels: pairwise overlap of their boxes, and content wider than its box.
      const els = [...new Set(panels.flatMap((s) => [...document.querySelectorAll(s)]))].filter(
        shown,
      );
      const overlaps: string[] = [];
      for (let i = 0; i < els.length; i++) {
        const a = els[i]!;
        const ra = a.getBoundingClientRect();
        if (ra.width === 0 || ra.height === 0) continue;
        const cs = getComputedStyle(a);
        if (cs.overflowX === 'visible' && a.scrollWidth > a.clientWidth + 1)
          overlaps.push(`${name(a)} spills out: ${a.scrollWidth} px in ${a.clientWidth} px`);
        for (let j = i + 1; j < els.length; j++) {
          const b = els[j]!;
          if (a.contains(b) || b.contains(a)) continue;
          const rb = b.getBoundingClientRect();
          const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
          const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
          if (w > 1 && h > 1) overlaps.push(`${name(a)} × ${name(b)}: ${w | 0} × ${h | 0} px`);
        }
      }

      // Stage names: apart, off the lanes, whole.
      const labels: string[] = [];
      for (const pipe of document.querySelectorAll<HTMLElement>('.pipeline[data-lanes]')) {
        const canvas = pipe.querySelector('canvas')!.getBoundingClientRect();
        const [lx, ly, lw, lh] = pipe.dataset.lanes!.split(' ').map(Number) as number[];
        const lanes = {
          left: canvas.left + lx!,
          top: canvas.top + ly!,
          right: canvas.left + lx! + lw!,
          bottom: canvas.top + ly! + lh!,
        };
        const ls = [...pipe.querySelectorAll<HTMLElement>('.stage-label')];
        // The words' extent against the box (scrollWidth and scrollHeight round to whole
        // pixels, which hid a name cut by half a pixel).
        const cut = (el: HTMLElement) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const words = range.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          const cs = getComputedStyle(el);
          const px = (v: string) => Number.parseFloat(v) || 0;
          // Along the line only: across it the line box is a little taller than the letters.
          return cs.writingMode.startsWith('horizontal')
            ? words.width > box.width - px(cs.paddingLeft) - px(cs.paddingRight) + 0.5
            : words.height > box.height - px(cs.paddingTop) - px(cs.paddingBottom) + 0.5;
        };
        const meets = (
          a: { left: number; right: number; top: number; bottom: number },
          b: typeof a,
        ) =>
          Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
        // A lesson's rings around stages: the band their outline draws, between `inner` (the
        // box grown by the outline's offset) and `outer` (by its width too).
        const rings = [...pipe.querySelectorAll<HTMLElement>('.stage-highlight')].map((el) => {
          const r = el.getBoundingClientRect();
          const cs = getComputedStyle(el);
          const off = Number.parseFloat(cs.outlineOffset) || 0;
          const out = off + (Number.parseFloat(cs.outlineWidth) || 0);
          const grow = (d: number) => ({
            left: r.left - d,
            top: r.top - d,
            right: r.right + d,
            bottom: r.bottom + d,
          });
          return { inner: grow(off), outer: grow(out) };
        });
        const inside = (
          a: DOMRect,
          b: { left: number; right: number; top: number; bottom: number },
        ) => a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
        ls.forEach((a, i) => {
          const ra = a.getBoundingClientRect();
          if (cut(a)) labels.push(`"${a.textContent}" is cut`);
          if (meets(ra, lanes)) labels.push(`"${a.textContent}" lies over the lanes`);
          if (rings.some((r) => meets(ra, r.outer) && !inside(ra, r.inner)))
            labels.push(`"${a.textContent}" lies under a lesson's ring`);
          for (const b of ls.slice(i + 1))
            if (meets(ra, b.getBoundingClientRect()))
              labels.push(`"${a.textContent}" overlaps "${b.textContent}"`);
        });
      }

      // Touch targets on the first screen (the stage names are descriptions of the picture
      // under them, which takes the touch).
      const small: string[] = [];
      if (phone)
        for (const el of document.querySelectorAll<HTMLElement>(
          'button:not(.stage-label), select, input, summary, a.button',
        )) {
          if (!shown(el)) continue;
          const r = el.getBoundingClientRect();
          if (r.bottom <= 0 || r.top >= vh || r.width === 0) continue;
          const tall = r.height >= 43.5;
          const wide = r.width >= 43.5 || el.tagName === 'INPUT' || el.tagName === 'SELECT';
          if (!tall || !wide)
            small.push(
              `${name(el)} "${(el.textContent ?? '').trim().slice(0, 30)}": ${r.width | 0} × ${r.height | 0}`,
            );
        }

      // The picture's mean luminance (every 13th pixel).
      let canvasLum = -1;
      const c = canvases[0];
      if (c && c.width > 0) {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let sum = 0;
        let n = 0;
        const bg = lum(getComputedStyle(c).backgroundColor);
        for (let i = 0; i < d.length; i += 4 * 13) {
          // Transparent pixels show the canvas's background colour.
          const a = d[i + 3]! / 255;
          sum += a * (0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!) + (1 - a) * bg;
          n++;
        }
        canvasLum = sum / n;
      }

      return {
        sideways: document.documentElement.scrollWidth - vw,
        share: area / (vw * vh),
        picture: first ? { top: first.top, bottom: first.bottom } : null,
        overlaps,
        labels,
        small,
        bg: lum(getComputedStyle(document.body).backgroundColor),
        canvas: canvasLum,
      };
    },
    { panels, phone: page.viewportSize()!.width <= PHONE_WIDTH },
  );
}

/** The checks every page gets at every size. */
function expectSound(l: Layout, size: Size, what: string): void {
  expect(l.sideways, `${what}: scrolls sideways`).toBeLessThanOrEqual(0);
  expect(l.overlaps, `${what}: panels overlap`).toEqual([]);
  expect(l.labels, `${what}: stage names`).toEqual([]);
  expect(l.small, `${what}: touch targets under 44 px`).toEqual([]);
  expect(l.picture, `${what}: no picture`).not.toBeNull();
  if (size.dark) {
    expect(l.bg, `${what}: the page is not dark`).toBeLessThan(60);
    expect(l.canvas, `${what}: the picture is not dark`).toBeLessThan(100);
  } else {
    expect(l.bg, `${what}: the page is not light`).toBeGreaterThan(200);
    expect(l.canvas, `${what}: the picture is not light`).toBeGreaterThan(150);
  }
}

async function shoot(page: Page, file: string, doc?: string): Promise<void> {
  const shot = await page.screenshot();
  await test.info().attach(file, { body: shot, contentType: 'image/png' });
  if (doc && process.env.SENDPATH_SCREENSHOTS) {
    mkdirSync(DOCS, { recursive: true });
    await page.screenshot({ path: `${DOCS}${doc}.png` });
  }
}

for (const size of SIZES) {
  test(`layout at ${size.name}: lessons and the simulator`, async ({ browser }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      colorScheme: size.dark ? 'dark' : 'light',
      reducedMotion: 'reduce',
      baseURL: test.info().project.use.baseURL,
    });
    const page = await context.newPage();
    const phone = size.width <= PHONE_WIDTH;

    for (const id of lessonIds())
      for (const n of size.steps)
        await test.step(`${id} step ${n}`, async () => {
          await page.goto(`./?lesson=${id}&step=${n}&lang=en`);
          const stage = page.getByTestId('step-stage');
          await expect(stage.locator('[data-run-state="ready"]')).toBeVisible({ timeout: 60_000 });
          // The picture is painted (a blank canvas has one colour).
          await expect
            .poll(() =>
              stage.locator('canvas[role="img"]').evaluate((c: HTMLCanvasElement) => {
                const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
                const seen = new Set<number>();
                for (let i = 0; i < d.length; i += 4 * 7)
                  seen.add(d[i]! * 65536 + d[i + 1]! * 256 + d[i + 2]!);
                return seen.size;
              }),
            )
            .toBeGreaterThan(4);
          const l = await measure(page, PANELS);
          const what = `${id} step ${n} at ${size.name}`;
          expectSound(l, size, what);
          expect(
            l.share,
            `${what}: the picture's share of the first screen`,
          ).toBeGreaterThanOrEqual(size.share);
          // The picture is the first thing: it starts right under the bar.
          expect(l.picture!.top, `${what}: the picture starts too far down`).toBeLessThan(
            phone ? 160 : 100,
          );
          await shoot(
            page,
            `${id}-${n}.png`,
            id === 'autocorking' && n === 1 ? size.doc : undefined,
          );
        });

    await test.step('the presenter menu opens as a sheet and closes with Escape', async () => {
      await page.goto('./?lesson=autocorking&step=1&lang=en');
      const menu = page.locator('#presenter-menu');
      await expect(menu).toBeHidden();
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(menu.getByRole('button', { name: 'Laser pointer' })).toBeVisible();
      const box = (await menu.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
    });

    await test.step('the other pages: no sideways scroll, in the system theme', async () => {
      for (const q of [
        '?view=lessons&lang=en',
        '?view=about&lang=en',
        '?view=about&lang=zh-CN',
        '?view=conform&lang=en',
        '?view=packetdrill&lang=en',
      ]) {
        await page.goto(`./${q}`);
        await expect(page.locator('footer')).toBeVisible();
        if (q.includes('about')) await expect(page.locator('article h2').first()).toBeVisible();
        if (q.includes('conform'))
          await expect(page.locator('.conform-table').first()).toBeVisible();
        if (q.includes('packetdrill'))
          await expect(page.getByLabel('Or an upstream script')).toBeVisible();
        const l = await page.evaluate(() => {
          const [r, g, b] = getComputedStyle(document.body)
            .backgroundColor.match(/\d+/g)!
            .map(Number) as [number, number, number];
          return {
            sideways: document.documentElement.scrollWidth - innerWidth,
            bg: 0.2126 * r + 0.7152 * g + 0.0722 * b,
          };
        });
        const what = `${q} at ${size.name}`;
        expect(l.sideways, `${what}: scrolls sideways`).toBeLessThanOrEqual(0);
        if (size.dark) expect(l.bg, `${what}: the page is not dark`).toBeLessThan(60);
        else expect(l.bg, `${what}: the page is not light`).toBeGreaterThan(200);
        await shoot(page, `${q.replace(/\W+/g, '-')}.png`);
      }
    });

    await test.step('the simulator: the picture first, above the fold', async () => {
      await page.goto('./?lang=en');
      await expect(page.locator('main [data-run-state="ready"]').first()).toBeVisible({
        timeout: 60_000,
      });
      const l = await measure(page, PANELS);
      const what = `the simulator at ${size.name}`;
      expectSound(l, size, what);
      expect(l.picture!.top, `${what}: the picture starts too far down`).toBeLessThan(
        phone ? 160 : 220,
      );
      if (!phone)
        expect(l.picture!.bottom, `${what}: the picture ends below the fold`).toBeLessThanOrEqual(
          size.height,
        );
      // The time controls sit right under the picture.
      const player = (await page.getByRole('region', { name: 'Time controls' }).boundingBox())!;
      expect(
        player.y - l.picture!.bottom,
        `${what}: time controls far from the picture`,
      ).toBeLessThan(120);
      await shoot(page, 'simulator.png');
    });

    if (size.width <= 1100)
      await test.step('the controls fold into a sheet the reader opens', async () => {
        const controls = page.getByRole('region', { name: 'Controls', exact: true });
        await expect(controls).toBeHidden();
        await page.getByRole('button', { name: 'Controls', exact: true }).click();
        await expect(controls).toBeVisible();
        const box = (await page.locator('#side-panel').boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(size.height + 1);
        expect(box.width).toBeLessThanOrEqual(size.width);
        if (phone) {
          // Its own controls are touch targets too.
          const small = await page.locator('#side-panel').evaluate((panel) =>
            [
              ...panel.querySelectorAll<HTMLElement>(
                'button, select, input:not([type="checkbox"]), summary',
              ),
            ]
              .filter((el) => el.checkVisibility())
              .map((el) => [el, el.getBoundingClientRect()] as const)
              .filter(([, r]) => r.height < 43.5)
              .map(
                ([el, r]) =>
                  `${el.tagName} "${el.textContent?.trim().slice(0, 30)}": ${r.height | 0}`,
              ),
          );
          expect(small).toEqual([]);
        }
        await page.locator('#side-panel').getByRole('button', { name: 'OK' }).click();
        await expect(controls).toBeHidden();
      });

    await context.close();
  });
}
