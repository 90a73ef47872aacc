// The decision log in Chinese: every event kind of the engine and every kind a recording records
// has a Chinese template, and each template words real rows (of real engine runs, of the real
// recordings) in Chinese, with the row's numbers and no English word but kernel names.

import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import { EVENT_KINDS, type EventKind, type ReplayModel } from '../capture/model';
import { describeRecorded, replayRowFacts, replayRun } from '../capture/replay';
import { FIXTURES, modelOf, parseBytes, SAMPLE_NAMES, SAMPLES } from '../capture/testing';
import type { Described } from '../engine/generated/Described';
import type { SessionSummary } from '../engine/generated/SessionSummary';
import * as wasm from '../engine/pkg/sendpath_wasm';
import type { Catalog } from '../model/catalog';
import { scenarioFiles } from '../model/scenarios';
import type { TraceColumns } from '../model/trace';
import { loadCatalogues } from './catalogues';
import { reasonOptions } from '../model/log';
import { simRow } from '../model/logRow';
import { ackReasonText, logLine } from './log';
import { ACK_REASONS, RECORDED_TEMPLATES, SIM_TEMPLATES } from './log.zh-CN';

wasm.initSync({
  module: readFileSync(new URL('../engine/pkg/sendpath_wasm_bg.wasm', import.meta.url)),
});
const catalog = JSON.parse(wasm.engine_catalog()) as Catalog;
const schema = catalog.trace;

/** Kernel names written in lower case (struct fields, functions without `_`) and units. */
const KERNEL_WORDS = new Set([
  'skb',
  'qdisc',
  'send',
  'cwnd',
  'ssthresh',
  'srtt',
  'truesize',
  'mss',
  'ato',
  'quick',
  'pingpong',
  'tid',
  'jiffies',
  'setsockopt',
  'cork',
  'pacing',
  'Nagle',
  'ns',
  'ms',
  'Mbit',
]);

/** The Latin words of a line. */
function latinWords(text: string): string[] {
  return (text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).filter((w) => w.length > 1);
}

/** A name with `_` or a digit (`size_goal`, `TCP_CORK`) or an nstat counter (`TcpExtTCPAutoCorking`). */
function isIdentifier(w: string): boolean {
  return /[_0-9]/.test(w) || /^(Tcp|TcpExt|Ip|IpExt)[A-Z]\w*$/.test(w);
}

/**
 * The words of `text` that are neither kernel names nor units: an identifier (isIdentifier), an
 * upper-case flag or acronym (`ACK`, `TSO`) or one of KERNEL_WORDS. `names` (a device, a TCP
 * state as the recording spells it) are left out first.
 */
function englishWords(text: string, names: string[] = []): string[] {
  let t = text;
  for (const n of names) t = t.split(n).join(' ');
  return latinWords(t).filter(
    (w) => !isIdentifier(w) && !/^[A-Z]+$/.test(w) && !KERNEL_WORDS.has(w),
  );
}

/** KERNEL_WORDS that a line may also put in words (`send` as a verb, `pacing` as a noun). */
const TRANSLATABLE = new Set(['send', 'cork', 'pacing', 'Nagle']);

/**
 * The names of `text` a translation keeps as they are, each once: `names`, identifiers and
 * KERNEL_WORDS (not acronyms such as `ACK`, which may be translated, nor TRANSLATABLE).
 */
function kernelNames(text: string, names: string[] = []): string[] {
  const words = latinWords(text).filter(
    (w) => isIdentifier(w) || (KERNEL_WORDS.has(w) && !TRANSLATABLE.has(w)),
  );
  return [...new Set([...names.filter((n) => text.includes(n)), ...words])];
}

/** The numbers of `text`, sorted (not the digits inside a name such as `0x10000`'s `x`). */
function numbers(text: string): string[] {
  return (text.match(/(?<![A-Za-z_])\d+(?:[.,]\d+)*/g) ?? []).sort();
}

/** Whether every number of `english` is in `zh`, as many times. */
function missingNumbers(english: string, zh: string): string[] {
  const left = numbers(zh);
  const missing: string[] = [];
  for (const n of numbers(english)) {
    const i = left.indexOf(n);
    if (i < 0) missing.push(n);
    else left.splice(i, 1);
  }
  return missing;
}

/** One real row: its English line and its Chinese line. */
interface Worded {
  where: string;
  english: string;
  zh: { text: string; lang: string };
  names: string[];
}

/** Runs that emit the kinds the scenario files' variants do not: TSO off, drops, probes. */
const EXTRA_RUNS: [string, string, string[]][] = [
  ['autocorking', 'on', ['ethtool.tso=false']],
  ['tcp-small-queues', 'off', ['link.txqueuelen=5']],
  ['nagle-delayed-ack', 'default', ['TCP_CORK=true']],
  // Retransmission timeouts: since SACK recovery repairs a qdisc's drops without one, the
  // ping-pong through a bottleneck whose queue holds one packet loses the tails RACK cannot see.
  [
    'nagle-delayed-ack',
    'default',
    ['link.kind=ethernet', 'path.bottleneck_mbit=10', 'path.queue_packets=1'],
  ],
  // Tail loss probes: the same on 6.18, which probes (4.4 does not).
  [
    'nagle-delayed-ack',
    'default',
    ['kernel=6.18', 'link.kind=ethernet', 'path.bottleneck_mbit=10', 'path.queue_packets=1'],
  ],
];

/** Kinds the engine defines but emits nowhere (trace.rs: no `Ev::CpuWait` is emitted). */
const NEVER_EMITTED = ['cpu_wait'];

/**
 * The recorded kinds the real recordings hold (samples and bpftrace fixtures); none holds a
 * retransmission, so one is added to the bpftrace fixture in sendpath.bt's own line format
 * (`RETRANS_LINE`) and read by the real parser.
 */
const RECORDINGS_HOLD = [
  'delack_fire',
  'delack_start',
  'dequeue',
  'drop',
  'enqueue',
  'free',
  'probe',
  'queue',
  'retrans',
  'sendmsg',
  'state',
  'xmit',
];
const RETRANS_LINE =
  'retrans t=2730328600000 sport=42066 dport=8000 skbaddr=0xffff8882e29b4a00 state=1\n';

/** Up to this many rows of each kind and case (gate, reason, flags) per run. */
const PER_CASE = 3;

const simRows = new Map<string, Worded[]>();
const recordedRows = new Map<EventKind, Worded[]>();

beforeAll(async () => {
  await loadCatalogues('zh-CN');
  const runs: [string, string, string[]][] = [];
  for (const f of scenarioFiles)
    for (const m of f.source.matchAll(/^\[variants\.([\w-]+)\]/gm))
      runs.push([f.name.replace(/\.toml$/, ''), m[1]!, []]);
  runs.push(...EXTRA_RUNS);
  for (const [name, variant, sets] of runs) {
    const file = scenarioFiles.find((f) => f.name === `${name}.toml`)!;
    const s = new wasm.WasmSession(
      file.source,
      file.path,
      variant,
      sets,
      true,
      0,
      undefined,
      20_000,
      400_000,
      100,
      0,
    );
    while (!s.advance(100_000)) {
      /* run through */
    }
    const cols: TraceColumns = {
      t: s.col_t_ns(),
      host: s.col_host(),
      sk: s.col_sk(),
      kind: s.col_kind(),
      values: s.col_values(),
      stride: schema.maxFields,
    };
    const picked: number[] = [];
    const perCase = new Map<string, number>();
    for (let r = 0; r < cols.kind.length; r++) {
      const info = schema.kinds[cols.kind[r]!]!;
      const v = (f: string) => cols.values[r * cols.stride + info.fields.indexOf(f)];
      const key = [
        info.name,
        ...['gate', 'reason', 'counted', 'new_skb', 'msg_more', 'tsq_queued'].map(v),
        v('segs') === 1,
      ].join();
      const n = perCase.get(key) ?? 0;
      if (n >= PER_CASE) continue;
      perCase.set(key, n + 1);
      picked.push(r);
    }
    const words = JSON.parse(s.describe(Uint32Array.from(picked))) as Described;
    const sockets = (JSON.parse(s.summary()) as SessionSummary).result.sockets;
    s.free();
    picked.forEach((r, i) => {
      const en = words.texts[i]!;
      const kind = schema.kinds[cols.kind[r]!]!.name;
      const zh = logLine('zh-CN', en, null, () =>
        simRow(schema, cols, r, words.autocorking[i] ?? null, sockets[cols.sk[r]!]?.active ?? true),
      );
      const list = simRows.get(kind) ?? [];
      list.push({
        where: `${name}/${variant} ${sets.join(' ')} row ${r}`,
        english: en,
        zh,
        names: [],
      });
      simRows.set(kind, list);
    });
  }

  const recordings = [
    ...SAMPLE_NAMES.map((n) => new URL(`${n}.jsonl`, SAMPLES)),
    new URL('real/bpftrace.ndjson', FIXTURES),
    new URL('real/bpftrace.txt', FIXTURES),
  ];
  const withRetrans = parseBytes(
    new TextEncoder().encode(
      readFileSync(new URL('real/bpftrace.txt', FIXTURES), 'utf8').replace(
        /^(state t=2730328587549 .*\n)/m,
        `$1${RETRANS_LINE}`,
      ),
    ),
  );
  if (!withRetrans.ok) throw new Error(withRetrans.error.message);
  const models: [string, ReplayModel][] = [
    ...recordings.map((url): [string, ReplayModel] => [url.pathname, modelOf(url)]),
    ['bpftrace.txt with a retransmission', withRetrans.model],
  ];
  for (const [path, m] of models) {
    const url = { pathname: path };
    const { rows } = replayRun(m, schema, url.pathname);
    const perKind = new Map<EventKind, number>();
    for (let r = 0; r < rows.kind.length; r++) {
      const facts = replayRowFacts(m, rows, r);
      if (!facts) continue;
      const n = perKind.get(facts.kind) ?? 0;
      if (n >= 20) continue;
      perKind.set(facts.kind, n + 1);
      const en = describeRecorded(facts);
      const zh = logLine('zh-CN', en, facts, () => null);
      const list = recordedRows.get(facts.kind) ?? [];
      list.push({
        where: `${url.pathname.split('/').pop()} row ${r}`,
        english: en,
        zh,
        names: Object.values(facts.s),
      });
      recordedRows.set(facts.kind, list);
    }
  }
}, 60_000); // every scenario and variant runs in wasm first: seconds on a loaded machine

/** The checks every Chinese line passes against its English. */
function expectChinese(rows: Worded[]): void {
  for (const { where, english, zh, names } of rows) {
    const what = `${where}: ${english} -> ${zh.text}`;
    expect(zh.lang, what).toBe('zh-CN');
    expect(zh.text, what).not.toBe(english);
    expect(zh.text, what).toMatch(/\p{Script=Han}/u);
    // The same kernel function or tracepoint leads the line, then the words.
    const lead = zh.text.slice(0, zh.text.indexOf('：'));
    expect(lead.replace('（', ' (').replace('）', ')'), what).toBe(
      english.slice(0, english.indexOf(': ')),
    );
    expect(missingNumbers(english, zh.text), what).toEqual([]);
    expect(englishWords(zh.text.slice(lead.length), names), what).toEqual([]);
    // ...and the kernel names of the English line are kept as they are.
    expect(
      kernelNames(english, names).filter((k) => !zh.text.includes(k)),
      what,
    ).toEqual([]);
  }
}

describe('the decision log in Chinese', () => {
  it("has a template for every event kind of the engine's catalog, and for no other", () => {
    const names = schema.kinds.map((k) => k.name).sort();
    expect(Object.keys(SIM_TEMPLATES).sort()).toEqual(names);
  });

  it('has words for every ACK reason of the engine, which the reason filter offers', () => {
    for (const r of schema.ackReasons) expect(ACK_REASONS[r], r).toBeDefined();
    const zh = reasonOptions(schema, (r) => ackReasonText('zh-CN', r)).filter((o) =>
      o.value.startsWith('ack:'),
    );
    expect(zh.map((o) => o.label)).toEqual(schema.ackReasons.map((r) => `ACK: ${ACK_REASONS[r]}`));
    expect(reasonOptions(schema, (r) => ackReasonText('en', r))).toEqual(reasonOptions(schema));
  });

  it('has a template for every event kind a recording records', () => {
    expect(Object.keys(RECORDED_TEMPLATES).sort()).toEqual([...EVENT_KINDS].sort());
  });

  it('gets real rows of every kind from the engine runs, but the kinds the engine never emits', () => {
    const unseen = schema.kinds.map((k) => k.name).filter((k) => !simRows.has(k));
    expect(unseen).toEqual(NEVER_EMITTED);
  });

  for (const k of schema.kinds.filter((k) => !NEVER_EMITTED.includes(k.name)))
    it(`words real ${k.name} rows in Chinese, with their numbers and only kernel names in Latin letters`, () => {
      const rows = simRows.get(k.name) ?? [];
      expect(rows.length).toBeGreaterThan(0);
      expectChinese(rows);
    });

  it('words real recorded rows of every kind the recordings hold in Chinese', () => {
    expect([...recordedRows.keys()].sort()).toEqual(RECORDINGS_HOLD);
    for (const rows of recordedRows.values()) expectChinese(rows);
  });

  it("keeps the engine's English in English, and marks a line without a template as English", () => {
    const row = () => ({
      kind: 'no_such_kind',
      func: 'f',
      f: {},
      gates: [],
      ackReasons: [],
      dropSites: [],
      autocorking: null,
    });
    expect(logLine('en', 'f: words', null, row)).toEqual({ text: 'f: words', lang: 'en' });
    expect(logLine('zh-CN', 'f: words', null, row)).toEqual({ text: 'f: words', lang: 'en' });
  });
});
