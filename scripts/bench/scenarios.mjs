// The workloads `npm run bench` runs in every engine (native, wasm in Node, wasm in Chromium):
// the same scenario text, variant and sets in each, so each one processes the same events.
//
// `quick` shortens each to a few thousand events (`npm run bench -- --quick`, which `npm test`
// runs to check that the benchmark still works; its times mean nothing).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../lib.mjs';

const file = (path) => ({ path, source: readFileSync(join(ROOT, path), 'utf8') });

/** `{ name, what, path, source, variant, sets }` of each workload. */
export function benchScenarios({ quick = false } = {}) {
  const bulk = file('engine/cli/src/bench.toml');
  const list = [
    {
      name: 'bulk-10g',
      what: 'one 10 Gbit/s bulk flow, 20 s (sendpath bench)',
      ...bulk,
      variant: null,
      sets: [],
      quickSets: ['sim.duration_ms=50'],
    },
    {
      name: 'bulk-10g-tso-off',
      what: 'one 10 Gbit/s flow, 100 µs RTT, TSO/GSO off, 1 s',
      ...bulk,
      variant: null,
      sets: ['sim.duration_ms=1000', 'ethtool.tso=0', 'ethtool.gso=0'],
      quickSets: ['sim.duration_ms=5'],
    },
    {
      name: 'notsent-lowat-200',
      what: '200 flows, NOTSENT_LOWAT on, 1 s',
      ...file('scenarios/notsent-lowat.toml'),
      variant: 'on',
      sets: [],
      quickSets: ['sim.duration_ms=2'],
    },
    {
      name: 'autocorking-4',
      what: '4 flows of 128-byte writes, autocorking on, 0.5 s',
      ...file('scenarios/autocorking.toml'),
      variant: 'on',
      sets: [],
      quickSets: ['sim.duration_ms=2'],
    },
    {
      name: 'pingpong',
      what: 'ping-pong over loopback, TCP_NODELAY, 3000 rounds',
      ...file('scenarios/nagle-delayed-ack.toml'),
      variant: 'no_delay',
      sets: ['app.rounds=3000'],
      quickSets: ['app.rounds=3'],
    },
  ];
  return list.map(({ quickSets, ...s }) => (quick ? { ...s, sets: [...s.sets, ...quickSets] } : s));
}
