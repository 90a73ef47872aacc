import { describe, expect, it } from 'vitest';

import { LANGS } from '../i18n/lang';
import {
  DEFAULT_PLAY_SECONDS,
  LessonError,
  parseLesson,
  scenarioMeta,
  splitMarkdown,
  stepNumber,
  type LessonFiles,
  type ScenarioMeta,
} from './lesson';
import { bundledLessons, lessonFolders, scenarioMetas } from './lessons';

const SCENARIO = `
title = "t"
[source]
name = "a commit"
compare = ["on/off"]
[source.on]
throughput_mbit = 10.5
"sender:IpOutRequests" = 3
[source.off]
throughput_mbit = 7
[variants.on]
x = 1
[variants.off]
x = 0
`;

const scenarios = new Map<string, ScenarioMeta>([
  ['demo', scenarioMeta(SCENARIO, 'scenarios/demo.toml')],
]);

const TWO_STEPS = `
scenario = "demo"
order = 3

[[step]]
variant = "on"
set = ["app.flows=1", "receiver:TCP_NODELAY=1"]
from_us = 10
to_us = 20
highlight = ["qdisc", "counter:TcpExtTCPAutoCorking"]
chart = "sizes"
focus = "autocork"

[[step]]
compare = ["on", "off"]
`;

const md = (title: string, steps: string[]) =>
  `# ${title}\n\nA summary.\n\n${steps.map((s, i) => `## ${s}\n\nText of step ${i + 1}.\n`).join('\n')}`;

function files(toml: string, markdown?: Partial<Record<(typeof LANGS)[number], string>>) {
  return {
    id: 'demo-lesson',
    dir: 'scenarios/lessons/demo-lesson',
    toml,
    markdown: markdown ?? { en: md('Demo', ['One', 'Two']), 'zh-CN': md('演示', ['一', '二']) },
  } satisfies LessonFiles;
}

/** The LessonError a bad lesson gives. */
function errorOf(f: LessonFiles): LessonError {
  try {
    parseLesson(f, scenarios);
  } catch (e) {
    if (e instanceof LessonError) return e;
    throw e;
  }
  throw new Error('the lesson parsed');
}

describe('a valid lesson', () => {
  it('reads every field of a step and the text of every language', () => {
    const l = parseLesson(files(TWO_STEPS), scenarios);
    expect(l.id).toBe('demo-lesson');
    expect(l.scenario).toBe('demo');
    expect(l.order).toBe(3);
    expect(l.title).toEqual({ en: 'Demo', 'zh-CN': '演示' });
    expect(l.summary.en).toBe('A summary.');
    const [s1, s2] = l.steps;
    expect(s1).toMatchObject({
      number: 1,
      variant: 'on',
      sets: ['app.flows=1', 'receiver:TCP_NODELAY=1'],
      fromUs: 10,
      toUs: 20,
      playSeconds: DEFAULT_PLAY_SECONDS,
      chart: 'sizes',
      focus: 'autocork',
      compare: null,
    });
    expect(s1!.highlights).toEqual([
      { kind: 'element', element: 'qdisc' },
      { kind: 'counter', name: 'TcpExtTCPAutoCorking' },
    ]);
    expect(s1!.text['zh-CN']).toEqual({ title: '一', body: 'Text of step 1.' });
    expect(s2!.compare).toEqual({ a: 'on', b: 'off' });
  });

  it('reads the side a run step draws beside its own', () => {
    const toml = TWO_STEPS.replace('focus = "autocork"', 'focus = "autocork"\nbeside = "off"');
    const l = parseLesson(files(toml), scenarios);
    expect(l.steps[0]!.beside).toBe('off');
    expect(l.steps[1]!.beside).toBeNull();
  });

  it("takes an A/B step's metrics from the scenario's [source] when the step lists none", () => {
    const l = parseLesson(files(TWO_STEPS), scenarios);
    expect(l.steps[1]!.metrics).toEqual(['throughput_mbit', 'sender:IpOutRequests']);
  });

  it('keeps the metrics an A/B step lists', () => {
    const toml = TWO_STEPS.replace(
      'compare = ["on", "off"]',
      'compare = ["on", "off"]\nmetrics = ["elapsed_s", "sender:qdisc_backlog_bytes"]',
    );
    const l = parseLesson(files(toml), scenarios);
    expect(l.steps[1]!.metrics).toEqual(['elapsed_s', 'sender:qdisc_backlog_bytes']);
  });

  it('reads the [source] table of a scenario as numbers per variant', () => {
    const s = scenarios.get('demo')!.source!;
    expect(s.name).toBe('a commit');
    expect(s.compare).toEqual([['on', 'off']]);
    expect(s.values.get('on')?.get('sender:IpOutRequests')).toBe(3);
    expect(s.values.get('off')?.get('throughput_mbit')).toBe(7);
  });
});

describe('a bad lesson names the file and the field', () => {
  const cases: [string, LessonFiles, string][] = [
    [
      'invalid TOML',
      files('scenario = "demo"\n[[step]\n'),
      'scenarios/lessons/demo-lesson/lesson.toml: not valid TOML',
    ],
    [
      'a misspelt step field',
      files(TWO_STEPS.replace('highlight =', 'higlight =')),
      'scenarios/lessons/demo-lesson/lesson.toml: step[1].higlight: unknown field; did you mean "highlight"?',
    ],
    [
      'a missing scenario',
      files(TWO_STEPS.replace('"demo"', '"dmeo"')),
      'lesson.toml: scenario: no scenarios/dmeo.toml; did you mean "demo"?',
    ],
    [
      'an unknown variant',
      files(TWO_STEPS.replace('variant = "on"', 'variant = "onn"')),
      'lesson.toml: step[1].variant: scenarios/demo.toml has no variant "onn"; did you mean "on"?; variants: on, off',
    ],
    [
      'an unknown pipeline element',
      files(TWO_STEPS.replace('"qdisc",', '"qdsic",')),
      'lesson.toml: step[1].highlight[1]: unknown element "qdsic"; did you mean "qdisc"?',
    ],
    [
      "a side beside that is the step's own variant",
      files(TWO_STEPS.replace('focus = "autocork"', 'focus = "autocork"\nbeside = "on"')),
      'lesson.toml: step[1].beside: is the step\'s own variant "on"',
    ],
    [
      'a side beside of an unknown variant',
      files(TWO_STEPS.replace('focus = "autocork"', 'focus = "autocork"\nbeside = "ofg"')),
      'lesson.toml: step[1].beside: scenarios/demo.toml has no variant "ofg"; did you mean "off"?; variants: on, off',
    ],
    [
      'an unknown chart',
      files(TWO_STEPS.replace('chart = "sizes"', 'chart = "pie"')),
      'lesson.toml: step[1].chart: unknown chart "pie"',
    ],
    [
      'a range without its end',
      files(TWO_STEPS.replace('to_us = 20\n', '')),
      'lesson.toml: step[1].to_us: from_us and to_us go together',
    ],
    [
      'a range that ends before it starts',
      files(TWO_STEPS.replace('to_us = 20', 'to_us = 5')),
      'lesson.toml: step[1].to_us: must be after from_us (10)',
    ],
    [
      'an override that is not KEY=VALUE',
      files(TWO_STEPS.replace('"app.flows=1"', '"app.flows"')),
      'lesson.toml: step[1].set[1]: expected KEY=VALUE or HOST:KEY=VALUE, got "app.flows"',
    ],
    [
      'an A/B of one variant with itself',
      files(TWO_STEPS.replace('compare = ["on", "off"]', 'compare = ["on", "on"]')),
      'lesson.toml: step[2].compare: compares a variant with itself',
    ],
    [
      'metrics on a step that is not an A/B',
      files(TWO_STEPS.replace('focus = "autocork"', 'focus = "autocork"\nmetrics = ["elapsed_s"]')),
      'lesson.toml: step[1].metrics: only an A/B step (compare = [...]) has metrics',
    ],
    [
      'a missing language',
      files(TWO_STEPS, { en: md('Demo', ['One', 'Two']) }),
      'scenarios/lessons/demo-lesson/zh-CN.md: missing: every lesson is written in en and zh-CN',
    ],
    [
      'a language with a step too few',
      files(TWO_STEPS, { en: md('Demo', ['One', 'Two']), 'zh-CN': md('演示', ['一']) }),
      'scenarios/lessons/demo-lesson/zh-CN.md: step 2: has 1 "## " step sections, lesson.toml has 2 [[step]]',
    ],
    [
      'a step heading without text',
      files(TWO_STEPS, {
        en: '# Demo\n\n## One\n\n## Two\n\nText.',
        'zh-CN': md('演示', ['一', '二']),
      }),
      'scenarios/lessons/demo-lesson/en.md: step 1 (## One): has no text',
    ],
    [
      'a folder name the URL cannot carry',
      { ...files(TWO_STEPS), id: 'Demo Lesson' },
      'lesson.toml: the folder name "Demo Lesson" must be lower case letters, digits and dashes',
    ],
  ];
  for (const [what, f, message] of cases)
    it(`${what}`, () => {
      expect(errorOf(f).message).toContain(message);
    });

  it('an A/B step without metrics where the source measured neither variant', () => {
    const bare = new Map<string, ScenarioMeta>([
      ['demo', scenarioMeta('title = "t"\n[variants.on]\n[variants.off]\n', 'scenarios/demo.toml')],
    ]);
    expect(() => parseLesson(files(TWO_STEPS), bare)).toThrow(
      'lesson.toml: step[2].metrics: scenarios/demo.toml has no [source] measurements of "on" or "off": list the metrics to show',
    );
  });
});

describe('the Markdown of a lesson', () => {
  it('ignores headings inside code fences', () => {
    const parts = splitMarkdown(
      '# T\n\n## S\n\n```sh\n# not a title\n## nor a step\n```\n',
      'x.md',
    );
    expect(parts.steps).toHaveLength(1);
    expect(parts.steps[0]!.body).toContain('## nor a step');
  });

  it('refuses text before the title, naming the line', () => {
    expect(() => splitMarkdown('hello\n# T\n', 'x.md')).toThrow(
      'x.md: line 1: text before the "# " title',
    );
  });

  it('refuses a second title', () => {
    expect(() => splitMarkdown('# T\n# U\n', 'x.md')).toThrow('x.md: line 2: a second "# " title');
  });
});

describe('?step=N', () => {
  const l = parseLesson(files(TWO_STEPS), scenarios);
  it('opens the step the URL names, within the lesson', () => {
    expect(stepNumber(l, '2')).toBe(2);
    expect(stepNumber(l, '9')).toBe(2);
    expect(stepNumber(l, '0')).toBe(1);
    expect(stepNumber(l, 'x')).toBe(1);
    expect(stepNumber(l, null)).toBe(1);
  });
});

describe('the lessons of scenarios/lessons/', () => {
  it('all parse, in both languages', () => {
    const { lessons, errors } = bundledLessons();
    expect(errors).toEqual([]);
    expect(lessons.map((l) => l.id)).toEqual([
      'autocorking',
      'nagle-delayed-ack',
      'tso-autosizing',
      'tcp-small-queues',
      'notsent-lowat',
      'fq-pacing-autocorking',
      'loss-recovery',
    ]);
    for (const l of lessons) for (const lang of LANGS) expect(l.title[lang]).not.toBe('');
  });

  it('each ends with an A/B comparison', () => {
    for (const l of bundledLessons().lessons)
      expect(l.steps[l.steps.length - 1]!.compare, l.id).not.toBeNull();
  });

  it('each ends with a check question whose answer is a row of its last A/B table, in every language', () => {
    // docs/lesson-format.md: the last step's text ends with a block quote that starts with the
    // language's "Check" and names, in code, a metric of that step's table.
    const marker: Record<(typeof LANGS)[number], string> = {
      en: '> **Check:**',
      'zh-CN': '> **检验：**',
    };
    for (const l of bundledLessons().lessons) {
      const last = l.steps[l.steps.length - 1]!;
      for (const lang of LANGS) {
        const body = last.text[lang].body;
        const at = body.lastIndexOf(marker[lang]);
        expect(
          at,
          `${l.id} (${lang}): no "${marker[lang]}" in the last step`,
        ).toBeGreaterThanOrEqual(0);
        const question = body.slice(at);
        expect(
          last.metrics.some((m) => question.includes(`\`${m}\``)),
          `${l.id} (${lang}): the check question names none of the table's rows ${last.metrics.join(', ')}`,
        ).toBe(true);
      }
    }
  });

  it('every folder holds lesson.toml and a text per language', () => {
    for (const f of lessonFolders()) {
      expect(f.toml, f.dir).not.toBe('');
      for (const lang of LANGS) expect(f.markdown[lang], `${f.dir}/${lang}.md`).toBeDefined();
    }
  });

  it('the Chinese text is Chinese: each step of zh-CN differs from its English step', () => {
    for (const l of bundledLessons().lessons)
      for (const s of l.steps) {
        expect(s.text['zh-CN'].body, `${l.id} step ${s.number}`).not.toBe(s.text.en.body);
        expect(s.text['zh-CN'].body, `${l.id} step ${s.number}`).toMatch(/[\u4e00-\u9fff]/);
      }
  });

  it('scenarios/ files all read', () => {
    expect(scenarioMetas().size).toBeGreaterThanOrEqual(6);
  });
});
