import { describe, expect, it } from 'vitest';

import { parseEmbed, embedQuery, DEFAULT_PANELS } from './embedParams';
import { componentSnippet, iframeSnippet, isResizeMessage } from './embedSnippet';
import { bundledLessons } from '../model/lessons';

const known = {
  scenarios: ['autocorking', 'nagle-delayed-ack'],
  lessons: bundledLessons().lessons,
};

describe('the embed URL', () => {
  it('reads every parameter', () => {
    const { config, problems } = parseEmbed(
      '?scenario=nagle-delayed-ack&variant=no_delay&set=app.rounds%3D5&set=receiver:TCP_NODELAY%3D1' +
        '&from_us=10&to_us=900&t_us=20&autoplay=1&theme=dark&lang=zh-CN&panels=pipeline,chart&chart=sizes',
      known,
    );
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      scenario: 'nagle-delayed-ack',
      variant: 'no_delay',
      sets: ['app.rounds=5', 'receiver:TCP_NODELAY=1'],
      fromUs: 10,
      toUs: 900,
      tUs: 20,
      autoplay: true,
      theme: 'dark',
      lang: 'zh-CN',
      panels: ['pipeline', 'chart'],
      chart: 'sizes',
    });
  });

  it('takes a lesson step for its configuration, and lets explicit parameters win', () => {
    const { config } = parseEmbed('?lesson=autocorking&step=2&chart=cwnd', known);
    expect(config).toMatchObject({
      lesson: 'autocorking',
      step: 2,
      scenario: 'autocorking',
      variant: 'on',
      sets: ['app.flows=1'],
      fromUs: 480,
      toUs: 640,
      chart: 'cwnd',
    });
  });

  it('reports what it cannot read, naming the parameter, and keeps the defaults', () => {
    const { config, problems } = parseEmbed(
      '?scenario=nope&from_us=x&to_us=5&theme=pink&panels=pipeline,radio&chart=pie&set=oops',
      known,
    );
    expect(problems).toEqual([
      'scenario: no scenario "nope"; scenarios: autocorking, nagle-delayed-ack',
      'set: expected KEY=VALUE or HOST:KEY=VALUE, got "oops"',
      'from_us: expected a whole number of µs, got "x"',
      'from_us, to_us: give both or neither',
      'theme: expected auto, light or dark, got "pink"',
      'panels: unknown radio; panels: pipeline, player, chart, counters',
      'chart: unknown "pie"; charts: throughput, queues, cwnd, sizes, segs, stevens, notsent',
    ]);
    expect(config.scenario).toBe('autocorking');
    expect(config.theme).toBe('auto');
    expect(config.panels).toEqual(['pipeline']);
    expect(config.fromUs).toBeNull();
  });

  it('reads back what embedQuery writes', () => {
    const { config } = parseEmbed(
      '?scenario=autocorking&variant=off&set=a.b%3D1&from_us=1&to_us=2&lang=en',
      known,
    );
    expect(parseEmbed(embedQuery(config), known).config).toEqual(config);
    expect(embedQuery({ ...config, panels: [...DEFAULT_PANELS] })).not.toContain('panels=');
  });
});

describe('the snippets', () => {
  const root = new URL('https://user.github.io/sendpath/');
  const { config } = parseEmbed('?scenario=autocorking&variant=off&lang=zh-CN', known);

  it('an iframe in a strict sandbox that loads lazily and sizes itself', () => {
    const s = iframeSnippet(root, config, 'sendpath: "autocorking"');
    expect(s).toContain(
      'src="https://user.github.io/sendpath/embed/?scenario=autocorking&amp;variant=off&amp;lang=zh-CN"',
    );
    expect(s).toContain('sandbox="allow-scripts"');
    expect(s).toContain('loading="lazy"');
    expect(s).toContain('title="sendpath: &quot;autocorking&quot;"');
    expect(s).toContain("d.sendpath !== 'resize'");
  });

  it('a web component from one script beside the site', () => {
    const s = componentSnippet(root, config);
    expect(s).toBe(
      '<script type="module" src="https://user.github.io/sendpath/sendpath-player.js"></script>\n' +
        '<sendpath-player scenario="autocorking" variant="off" lang="zh-CN"></sendpath-player>',
    );
  });

  it('knows its resize message', () => {
    expect(isResizeMessage({ sendpath: 'resize', height: 300 })).toBe(true);
    expect(isResizeMessage({ sendpath: 'resize', height: '300' })).toBe(false);
    expect(isResizeMessage(null)).toBe(false);
  });
});
