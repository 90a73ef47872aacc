// One visual language (issue 17): in every theme of styles.css, each thing the pipeline's legend
// names has a colour of its own, and packets (one colour family, a shade per flow) share no
// colour with an skb state, a gate or a timer. Before, flow 1's packets were the orange-red of a
// TSQ-held skb, flow 5's the pink of a Nagle hold, and the delayed-ACK timer the blue of a
// filling skb.

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('./styles.css', import.meta.url), 'utf8');

/** The custom properties of the first block that `selector` opens. */
function block(selector: string): Map<string, string> {
  const at = css.indexOf(selector);
  if (at < 0) throw new Error(`styles.css: no ${selector}`);
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  return new Map(
    [...body.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g)].map((m) => [m[1]!, m[2]!]),
  );
}

const light = block(':root {');
const themes: [string, Map<string, string>][] = [
  ['light', light],
  // The dark themes override some colours and keep the light ones for the rest.
  ['dark (system)', new Map([...light, ...block(":root:not([data-theme='light'])")])],
  ['dark (chosen)', new Map([...light, ...block(":root[data-theme='dark']")])],
];

/** What the pipeline's legend names (app/App.tsx, Legend), each a colour of its own. */
const LEGEND = [
  '--skb-filling',
  '--skb-full',
  '--skb-autocork',
  '--held-nagle',
  '--held-tsq',
  '--held-cwnd',
  '--held-pacing',
  '--skb-sent',
  '--app-writing',
  '--app-sleeping',
  '--delack',
  '--drop',
];
const FLOWS = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `--flow-${i}`);

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
const distance = (a: string, b: string) => {
  const [x, y] = [rgb(a), rgb(b)];
  return Math.hypot(x[0]! - y[0]!, x[1]! - y[1]!, x[2]! - y[2]!);
};
/** HSL saturation, 0..1. */
const saturation = (hex: string) => {
  const [r, g, b] = rgb(hex).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  return max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
};

/** Far enough apart to tell at a glance (RGB distance, 0..441). */
const APART = 40;

describe('the palette', () => {
  for (const [name, theme] of themes) {
    it(`${name}: every colour the legend names is its own`, () => {
      const close: string[] = [];
      for (const [i, a] of LEGEND.entries())
        for (const b of LEGEND.slice(i + 1))
          if (distance(theme.get(a)!, theme.get(b)!) < APART)
            close.push(`${a} ${theme.get(a)} ~ ${b} ${theme.get(b)}`);
      expect(close).toEqual([]);
    });

    it(`${name}: packets are one family, apart from every state, gate and timer`, () => {
      const states = [...theme.keys()].filter((k) => /^--(skb|held|app|delack|tsq)/.test(k));
      const clashes: string[] = [];
      for (const f of FLOWS) {
        const c = theme.get(f)!;
        // Muted steel blue, where every state colour is saturated (or grey, and far).
        expect(saturation(c), `${f} ${c}`).toBeLessThan(0.5);
        for (const s of states)
          if (distance(c, theme.get(s)!) < APART) clashes.push(`${f} ${c} ~ ${s} ${theme.get(s)}`);
      }
      expect(clashes).toEqual([]);
      // Neighbouring flows differ in lightness.
      for (let i = 0; i + 1 < FLOWS.length; i++)
        expect(distance(theme.get(FLOWS[i]!)!, theme.get(FLOWS[i + 1]!)!)).toBeGreaterThanOrEqual(
          APART,
        );
    });
  }
});
