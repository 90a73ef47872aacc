import { describe, expect, test } from 'vitest';

import {
  defaultState,
  parseSelection,
  parseState,
  sameRuns,
  serializeSelection,
  serializeState,
  setValue,
  keysThatDiffer,
  parseSet,
  pruneSets,
  withChange,
  withSet,
} from './urlstate';

const NAMES = ['autocorking', 'nagle-delayed-ack'];
const first = (s: string) => (s === 'autocorking' ? 'on' : 'default');
const parse = (q: string) => parseState(q, NAMES, 'autocorking', first);

describe('the page state in the URL', () => {
  test('an empty query opens the default scenario with its first variant', () => {
    const { state, problems } = parse('');
    expect(state).toEqual(defaultState('autocorking', 'on'));
    expect(problems).toEqual([]);
  });

  test('a state survives a round trip through its query string', () => {
    const s = {
      ...defaultState('autocorking', 'off'),
      a: {
        scenario: 'autocorking',
        variant: 'off',
        sets: ['net.ipv4.tcp_autocorking=1', 'ethtool.tx=64'],
      },
      b: { scenario: 'autocorking', variant: null, sets: ['TCP_NODELAY=1'] },
      fromNs: 1000,
      toNs: 2_500_000,
      t: 1_234_567,
      row: 86,
      speed: 120_000,
      focus: 2,
      edit: 'b' as const,
      theme: 'dark' as const,
      step: 'xmit_hold:tsq',
      log: 'host:0,func:tcp_push',
      sel: 'skb:42',
    };
    expect(parse(serializeState(s)).state).toEqual(s);
  });

  test('values that cannot be read are reported and replaced by defaults', () => {
    const { state, problems } = parse('?s=nope&t=-5&speed=1&to=abc&theme=pink');
    expect(state.a.scenario).toBe('autocorking');
    expect(state.t).toBeNull();
    expect(state.speed).toBeNull();
    expect(state.toNs).toBeNull();
    expect(state.theme).toBe('auto');
    expect(problems.map((p) => p.param)).toEqual(['s', 'to', 't', 'speed', 'theme']);
  });

  test('scenario keys pass through untouched: the engine judges them', () => {
    const { state, problems } = parse('?set=net.ipv4.tcp_autocorking%3D7&set=bogus');
    expect(state.a.sets).toEqual(['net.ipv4.tcp_autocorking=7', 'bogus']);
    expect(problems).toEqual([]);
  });

  test('a window end before its start is refused', () => {
    const { state, problems } = parse('?from=500&to=100');
    expect(state.toNs).toBeNull();
    expect(problems[0]?.param).toBe('to');
  });

  test('changing the cursor or the theme does not change the runs; a set does', () => {
    const s = defaultState('autocorking', 'on');
    expect(sameRuns(s, { ...s, t: 5, theme: 'dark' })).toBe(true);
    expect(sameRuns(s, { ...s, a: { ...s.a, sets: ['TCP_NODELAY=1'] } })).toBe(false);
  });
});

describe('overrides', () => {
  test('a new value of a key replaces its earlier override; null removes it', () => {
    const sets = withSet(['a.b=1', 'c=2'], 'a.b', '3');
    expect(sets).toEqual(['c=2', 'a.b=3']);
    expect(setValue(sets, 'a.b')).toBe('3');
    expect(withSet(sets, 'a.b', null)).toEqual(['c=2']);
    expect(setValue(['x = 5'], 'x')).toBe('5');
  });

  test('a key set back to the scenario’s own value leaves no override in the link', () => {
    const on = withChange([], 'net.ipv4.tcp_autocorking', '0', '1');
    expect(on).toEqual(['net.ipv4.tcp_autocorking=0']);
    expect(withChange(on, 'net.ipv4.tcp_autocorking', '1', '1')).toEqual([]);
    // Without a known base value the override stays, as before.
    expect(withChange(on, 'net.ipv4.tcp_autocorking', '1', undefined)).toEqual([
      'net.ipv4.tcp_autocorking=1',
    ]);
    expect(withChange(['c=2'], 'c', null, '2')).toEqual([]);
  });

  test('a recording’s keys keep only those the scenario does not already have', () => {
    const kv = (...values: string[]) => ({
      values,
      origins: values.map(() => 'default' as const),
      default: values[0]!,
      absent: false,
    });
    const base = {
      title: '',
      summary: '',
      variants: [],
      kernel: '6.18',
      hosts: ['sender', 'receiver'],
      keys: {
        'net.ipv4.tcp_autocorking': kv('1', '1'),
        'link.rate_mbit': kv('1000'),
        'net.core.default_qdisc': kv('fq_codel', 'pfifo_fast'),
      },
    };
    expect(parseSet('sender:net.ipv4.tcp_autocorking = 0')).toEqual({
      host: 'sender',
      key: 'net.ipv4.tcp_autocorking',
      value: '0',
    });
    expect(
      pruneSets(
        [
          'kernel=6.18',
          'net.ipv4.tcp_autocorking=1',
          'link.rate_mbit=10000',
          'sender:net.core.default_qdisc=fq_codel',
          'receiver:net.core.default_qdisc=fq_codel',
          'net.core.default_qdisc=fq_codel',
          'app.unknown=3',
        ],
        base,
        '6.18',
      ),
    ).toEqual([
      'link.rate_mbit=10000',
      'receiver:net.core.default_qdisc=fq_codel',
      'net.core.default_qdisc=fq_codel',
      'app.unknown=3',
    ]);
    // The kernel stays when the scenario's own is another (base is resolved with it).
    expect(pruneSets(['kernel=6.18'], base, '3.14')).toEqual(['kernel=6.18']);
    expect(pruneSets(['kernel=6.18'], base, '6.18')).toEqual([]);
    const other = { ...base, keys: { ...base.keys, 'link.rate_mbit': kv('10000') } };
    expect(keysThatDiffer(base, other)).toEqual(['link.rate_mbit']);
    expect(keysThatDiffer(base, { ...base, kernel: '3.14' })).toEqual(['kernel']);
    expect(keysThatDiffer(base, base)).toEqual([]);
  });
});

describe('selections', () => {
  test('an skb or a byte range round-trips; nonsense is no selection', () => {
    expect(parseSelection(serializeSelection({ kind: 'skb', id: 7 }))).toEqual({
      kind: 'skb',
      id: 7,
    });
    const range = { kind: 'bytes' as const, sk: 2, from: 100, to: 5000 };
    expect(parseSelection(serializeSelection(range))).toEqual(range);
    expect(parseSelection('bytes:2:9:3')).toBeNull();
    expect(parseSelection('skb:x')).toBeNull();
    expect(parseSelection('')).toBeNull();
  });
});

describe('the bad-URL corpus (issue 15)', () => {
  // Each link a reader might be given, the exact problems the page shows, and what it opens
  // instead: the rest of the link is kept.
  const cases: Array<
    [string, string[], (s: ReturnType<typeof parse>['state']) => unknown, unknown]
  > = [
    [
      '?s=no-such-experiment&v=on',
      [
        's=no-such-experiment: no scenario "no-such-experiment"; scenarios: autocorking, nagle-delayed-ack; showing autocorking',
      ],
      (s) => [s.a.scenario, s.a.variant],
      ['autocorking', 'on'],
    ],
    [
      `?s=${'x'.repeat(5000)}`,
      [
        `s=${'x'.repeat(60)}… (5000 characters): no scenario "${'x'.repeat(60)}… (5000 characters)"; scenarios: autocorking, nagle-delayed-ack; showing autocorking`,
      ],
      (s) => s.a.scenario,
      'autocorking',
    ],
    [
      '?b=1&bs=nope&set=ethtool.tx%3D64',
      [
        'bs=nope: no scenario "nope"; scenarios: autocorking, nagle-delayed-ack; showing autocorking',
      ],
      (s) => [s.b?.scenario, s.a.sets],
      ['autocorking', ['ethtool.tx=64']],
    ],
    ['?t=-5&e=2', ['t=-5 must be 0 or more; ignored'], (s) => [s.t, s.row], [null, 2]],
    ['?t=1.6', [], (s) => s.t, 2],
    ['?to=abc', ['to=abc is not a number; ignored'], (s) => s.toNs, null],
    [
      '?from=500&to=100',
      ['to=100 is not after from=500; ignored'],
      (s) => [s.fromNs, s.toNs],
      [500, null],
    ],
    ['?from=1.5', ['from=1.5 must be a whole number, 0 or more; ignored'], (s) => s.fromNs, 0],
    ['?speed=1', ['speed=1 must be between 1000 and 10000000000; ignored'], (s) => s.speed, null],
    ['?sk=NaN', ['sk=NaN is not a number; ignored'], (s) => s.focus, null],
    ['?e=1e400', ['e=1e400 is not a number; ignored'], (s) => s.row, null],
    ['?edit=c', ['edit=c must be a or b; ignored'], (s) => s.edit, 'a'],
    [
      '?theme=pink',
      ['theme=pink must be light, dark or auto; showing auto'],
      (s) => s.theme,
      'auto',
    ],
    [
      '?theme=%E0%A4%A',
      ['theme=\uFFFD%A must be light, dark or auto; showing auto'],
      (s) => s.theme,
      'auto',
    ],
  ];
  for (const [q, problems, pick, kept] of cases) {
    test(`${q.slice(0, 60)} gives its exact problems and keeps the rest`, () => {
      const r = parse(q);
      expect(r.problems.map((p) => p.message)).toEqual(problems);
      expect(pick(r.state)).toEqual(kept);
    });
  }
});
