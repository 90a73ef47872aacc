// The run summary: `sendpath run`'s summary of the whole configuration (per flow, per device,
// holds per gate) for each side, computed by the engine's own collector in a jobs worker
// (`runSummary`, engine/wasm/src/jobs.rs), with the CSV time series of `sendpath run --csv`.

import { useState } from 'react';

import type { RunSummary as Summary } from '../engine/generated/RunSummary';
import type { Side } from '../engine/protocol';
import { formatNs } from '../model/format';
import {
  CSV_INTERVALS_NS,
  csvName,
  csvRows,
  deviceRows,
  flowName,
  mbit,
  minAvgMax,
  tsoBuckets,
  usOf,
} from '../model/runSummary';
import type { SideConfig } from '../model/urlstate';
import { msg } from '../i18n/messages';
import { useSite, useStore } from './context';
import { download } from './download';
import { fileOf } from './store';
import { ScrollBox } from '../shared/ScrollBox';

export interface SummaryResult {
  config: SideConfig;
  summary: Summary;
}

export function RunSummary() {
  const site = useSite();
  const store = useStore();
  const [intervalNs, setIntervalNs] = useState<number>(1_000_000);
  const [saved, setSaved] = useState('');
  const { running, progress, results, error } = site.runSummary;
  const sides: Side[] = site.state.b ? ['a', 'b'] : ['a'];
  const x = msg.runSummary;
  const ab = sides.length > 1;
  const label = (s: Side) => (ab ? msg.run.sideLabel(s) : '');

  const run = () => {
    setSaved('');
    void store.runSummaries(intervalNs);
  };
  const cancel = () => store.cancelRunSummary();
  const shown = sides.flatMap((s) => (results[s] ? [{ s, r: results[s] }] : []));
  const stale = shown.some(
    ({ s, r }) => JSON.stringify(site.state[s]) !== JSON.stringify(r.config),
  );
  const save = (s: Side, r: SummaryResult, what: 'flows' | 'devices') => {
    const name = csvName(fileOf(r.config.scenario).name, ab ? s : null, r.summary.intervalNs, what);
    const text = what === 'flows' ? r.summary.flowsCsv : r.summary.devicesCsv;
    download(name, new Blob([text], { type: 'text/csv' }));
    setSaved(x.csvReady(name, csvRows(text)));
  };

  return (
    <section className="run-summary" aria-labelledby="run-summary-h" data-testid="run-summary">
      <h2 id="run-summary-h">{x.region}</h2>
      <p className="muted">{x.intro}</p>
      <div className="row">
        <label className="inline">
          {x.interval}{' '}
          <select
            value={intervalNs}
            onChange={(e) => setIntervalNs(Number(e.target.value))}
            disabled={running}
          >
            {CSV_INTERVALS_NS.map((ns) => (
              <option key={ns} value={ns}>
                {formatNs(ns)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={run} disabled={running || !site.catalog}>
          {x.run}
        </button>
        {running && (
          <button type="button" onClick={cancel}>
            {x.cancel}
          </button>
        )}
        {running &&
          sides.map((s) =>
            progress[s] !== undefined ? (
              <label key={s} className="inline">
                {x.progress(msg.run.sideLabel(s), (progress[s] ?? 0) * 100)}{' '}
                <progress max={1} value={progress[s]} />
              </label>
            ) : null,
          )}
        {!running && shown.length === sides.length && <span role="status">{x.done}</span>}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {stale && <p className="note">{x.stale}</p>}
      {shown.length > 0 && (
        <>
          <p className="muted">
            {x.elapsed(((shown[0]!.r.summary.result.summary?.elapsed_ns ?? 0) / 1e9).toFixed(6))}
          </p>
          <FlowsTable shown={shown} label={label} />
          <div className="histograms">
            {shown.map(({ s, r }) =>
              (r.summary.result.summary?.flows ?? []).map((f) => (
                <Histogram
                  key={`${s}/${f.sk}`}
                  caption={x.histogram(`${flowName(f)}${ab ? ` (${label(s)})` : ''}`)}
                  hist={f.tso_histogram}
                  testId={`tso-hist-${s}-${f.sk}`}
                />
              )),
            )}
          </div>
          <DevicesTable shown={shown} label={label} />
          <HoldsTable shown={shown} label={label} />
          <p className="muted">{x.csvIntro(formatNs(shown[0]!.r.summary.intervalNs))}</p>
          <div className="row">
            {shown.map(({ s, r }) =>
              (['flows', 'devices'] as const).map((what) => (
                <button key={`${s}/${what}`} type="button" onClick={() => save(s, r, what)}>
                  {x.csv(what, label(s))}
                </button>
              )),
            )}
            {saved && <span role="status">{saved}</span>}
          </div>
        </>
      )}
    </section>
  );
}

type Shown = { s: Side; r: SummaryResult }[];

function FlowsTable({ shown, label }: { shown: Shown; label: (s: Side) => string }) {
  const x = msg.runSummary;
  const ab = shown.length > 1 || label('a') !== '';
  return (
    <ScrollBox className="table-scroll" label={x.flows}>
      <table className="summary-table" data-testid="summary-flows">
        <caption>{x.flows}</caption>
        <thead>
          <tr>
            {ab && <th scope="col">{x.side}</th>}
            <th scope="col">{x.flow}</th>
            <th scope="col">{x.app}</th>
            <th scope="col">{x.throughput}</th>
            <th scope="col">{x.goodput}</th>
            <th scope="col">{x.retrans}</th>
            <th scope="col">{x.srtt}</th>
            <th scope="col">{x.cwnd}</th>
            <th scope="col">{x.tso}</th>
          </tr>
        </thead>
        <tbody>
          {shown.flatMap(({ s, r }) =>
            (r.summary.result.summary?.flows ?? []).map((f) => (
              <tr key={`${s}/${f.sk}`} data-flow={`${s}/${f.flow}/${f.sk}`}>
                {ab && <td>{label(s)}</td>}
                <th scope="row">{flowName(f)}</th>
                <td>{f.app}</td>
                <td data-col="throughput">{mbit(f.throughput_bps)}</td>
                <td data-col="goodput">{mbit(f.goodput_bps)}</td>
                <td>{f.retrans_bytes}</td>
                <td data-col="srtt">{minAvgMax(f.srtt_us)}</td>
                <td data-col="cwnd">{minAvgMax(f.cwnd)}</td>
                <td data-col="tso">
                  {`${f.tso_segs.count}, ${f.tso_segs.mean.toFixed(1)}, ${f.tso_segs.p50}, ${f.tso_segs.p90}, ${f.tso_segs.p99}, ${f.tso_segs.max}`}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function Histogram({
  caption,
  hist,
  testId,
}: {
  caption: string;
  hist: readonly (readonly [number, number])[];
  testId: string;
}) {
  const x = msg.runSummary;
  const b = tsoBuckets(hist);
  const most = Math.max(1, ...b.map(([, n]) => n));
  return (
    <ScrollBox className="table-scroll" label={caption}>
      <table className="summary-table histogram" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{x.segs}</th>
            <th scope="col">{x.skbs}</th>
            <th scope="col" aria-hidden="true"></th>
          </tr>
        </thead>
        <tbody>
          {b.map(([segs, n]) => (
            <tr key={segs}>
              <th scope="row">{segs}</th>
              <td>{n}</td>
              <td aria-hidden="true">
                <span className="bar" style={{ width: `${(n / most) * 10}rem` }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function DevicesTable({ shown, label }: { shown: Shown; label: (s: Side) => string }) {
  const x = msg.runSummary;
  const ab = label('a') !== '';
  const rows = shown.flatMap(({ s, r }) =>
    (r.summary.result.summary?.devices ?? []).flatMap((d) =>
      deviceRows(d).map((row) => ({ s, host: d.host, ...row })),
    ),
  );
  return (
    <ScrollBox className="table-scroll" label={x.devices}>
      <table className="summary-table" data-testid="summary-devices">
        <caption>{x.devices}</caption>
        <thead>
          <tr>
            {ab && <th scope="col">{x.side}</th>}
            <th scope="col">{x.host}</th>
            <th scope="col">{x.queue}</th>
            <th scope="col">avg</th>
            <th scope="col">p50</th>
            <th scope="col">p99</th>
            <th scope="col">max</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={ab ? 7 : 6} className="muted">
                {x.none}
              </td>
            </tr>
          )}
          {rows.map(({ s, host, queue, level }) => (
            <tr key={`${s}/${host}/${queue}`} data-queue={`${s}/${host}/${queue}`}>
              {ab && <td>{label(s)}</td>}
              <td>{host}</td>
              <th scope="row">{x.queues[queue]}</th>
              <td>{level.avg.toFixed(1)}</td>
              <td>{level.p50}</td>
              <td>{level.p99}</td>
              <td>{level.max}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function HoldsTable({ shown, label }: { shown: Shown; label: (s: Side) => string }) {
  const x = msg.runSummary;
  const ab = label('a') !== '';
  return (
    <>
      <ScrollBox className="table-scroll" label={x.holds}>
        <table className="summary-table" data-testid="summary-holds">
          <caption>{x.holds}</caption>
          <thead>
            <tr>
              {ab && <th scope="col">{x.side}</th>}
              <th scope="col">{x.gate}</th>
              <th scope="col">{x.per}</th>
              <th scope="col">{x.held}</th>
              <th scope="col">{x.total}</th>
              <th scope="col">{x.mean}</th>
              <th scope="col">p50</th>
              <th scope="col">p90</th>
              <th scope="col">p99</th>
              <th scope="col">max</th>
            </tr>
          </thead>
          <tbody>
            {shown.flatMap(({ s, r }) =>
              (r.summary.result.summary?.holds ?? [])
                .filter((h) => h.ns.count > 0)
                .map((h) => (
                  <tr key={`${s}/${h.gate}`} data-gate={`${s}/${h.gate}`}>
                    {ab && <td>{label(s)}</td>}
                    <th scope="row">{h.gate}</th>
                    <td>{h.per === 'packet' ? x.perPacket : 'skb'}</td>
                    <td>{h.ns.count}</td>
                    <td>{(h.total_ns / 1e6).toFixed(3)}</td>
                    <td>{(h.ns.mean / 1e3).toFixed(1)}</td>
                    <td>{usOf(h.ns.p50)}</td>
                    <td>{usOf(h.ns.p90)}</td>
                    <td>{usOf(h.ns.p99)}</td>
                    <td>{usOf(h.ns.max)}</td>
                  </tr>
                )),
            )}
          </tbody>
        </table>
      </ScrollBox>
      {shown.map(({ s, r }) => {
        const n = r.summary.result.summary?.holds_open_at_end ?? 0;
        return n > 0 ? (
          <p key={s} className="muted">
            {ab ? `${label(s)}: ` : ''}
            {x.openAtEnd(n)}
          </p>
        ) : null;
      })}
    </>
  );
}
