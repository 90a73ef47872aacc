// A/B: the counters of both runs side by side with their difference, for the recorded window
// and, once run, for the full experiment.

import type { RunResult } from '../engine/generated/RunResult';
import { counterDiff } from '../model/counters';
import { formatBitRate, formatCount } from '../model/format';
import { useSiteDeferred } from './context';
import { KernelDiff } from './KernelDiff';
import { msg } from '../i18n/messages';

function countersOf(r: RunResult): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [h, v] of Object.entries(r.hosts)) out[h] = v.counters;
  return out;
}

export function DiffTable({
  a,
  b,
  caption,
  order,
  testId,
  labels,
  highlight = false,
}: {
  a: RunResult;
  b: RunResult;
  caption: string;
  order: readonly string[];
  testId: string;
  /** Column names other than A, B and "B − A" (a recording against its simulation). */
  labels?: { host: string; counter: string; a: string; b: string; diff: string };
  /** Mark rows whose values differ by more than a quarter ("far") or at all ("differs"). */
  highlight?: boolean;
}) {
  const rows = counterDiff(countersOf(a), countersOf(b), order);
  const c = labels ?? { ...msg.compare, a: 'A', b: 'B' };
  return (
    <table className="diff" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{c.host}</th>
          <th scope="col">{c.counter}</th>
          <th scope="col">{c.a}</th>
          <th scope="col">{c.b}</th>
          <th scope="col">{c.diff}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const d = r.b - r.a;
          const far = Math.abs(d) > 0.25 * Math.max(Math.abs(r.a), Math.abs(r.b));
          const cls = d === 0 ? 'same' : highlight ? (far ? 'differs far' : 'differs') : undefined;
          return (
            <tr key={`${r.host}/${r.name}`} className={cls}>
              <td>{r.host}</td>
              <th scope="row">{r.name}</th>
              <td>{formatCount(r.a)}</td>
              <td>{formatCount(r.b)}</td>
              <td>
                {d > 0 ? '+' : ''}
                {formatCount(d)}
                {r.a > 0 && d !== 0 && (
                  <span className="muted"> ({((d / r.a) * 100).toFixed(0)} %)</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function AppsTable({ results }: { results: { side: string; r: RunResult }[] }) {
  const e = msg.experiment;
  return (
    <table className="apps">
      <caption>{msg.compare.apps}</caption>
      <thead>
        <tr>
          {results.length > 1 && <th scope="col">{msg.compare.run}</th>}
          <th scope="col">{msg.compare.host}</th>
          <th scope="col">{msg.compare.application}</th>
          <th scope="col">{msg.compare.flow}</th>
          <th scope="col">{e.throughput}</th>
          <th scope="col">{e.cpu}</th>
          <th scope="col">{e.ctx}</th>
        </tr>
      </thead>
      <tbody>
        {results.flatMap(({ side, r }) =>
          r.apps.map((app) => (
            <tr key={`${side}/${app.host}/${app.kind}/${app.flow}`}>
              {results.length > 1 && <td>{side}</td>}
              <td>{app.host}</td>
              <td>{app.kind}</td>
              <td>{app.flow}</td>
              <td>{app.bytes_written > 0 ? formatBitRate(app.throughput_bps) : '–'}</td>
              <td>{app.cpu_s.toFixed(3)} s</td>
              <td>{formatCount(app.voluntary_ctxt_switches)}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

export function Compare() {
  const site = useSiteDeferred();
  const a = site.a.model;
  const b = site.b?.model;
  if (!site.b) return null;
  const order = site.catalog?.counters ?? [];
  return (
    <section className="compare" aria-labelledby="compare-h">
      <h2 id="compare-h">{msg.compare.region}</h2>
      {a && b && (
        <DiffTable
          a={a.summary.result}
          b={b.summary.result}
          caption={msg.compare.window}
          order={order}
          testId="diff-window"
        />
      )}
      <KernelDiff />
    </section>
  );
}
