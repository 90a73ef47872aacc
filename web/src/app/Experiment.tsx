// The full experiment: the whole scenario run in a second worker, without the trace, with
// progress; its counters (A/B difference when comparing) and its applications' numbers.

import { useState } from 'react';

import type { PcapRequest, Side } from '../engine/protocol';
import { formatBytes, formatCount, formatNs } from '../model/format';
import { fileOf } from './store';
import { AppsTable, DiffTable } from './Compare';
import { download } from './download';
import { useSite, useStore } from './context';
import { msg } from '../i18n/messages';

export function Experiment() {
  const site = useSite();
  const store = useStore();
  const e = site.experiment;
  const sides: Side[] = site.state.b ? ['a', 'b'] : ['a'];
  const durationMs = Number(site.a.info?.keys['sim.duration_ms']?.values[0] ?? NaN);
  const results = sides.flatMap((s) => {
    const r = e.results[s];
    return r
      ? [{ side: msg.run.sideLabel(s), s, r: r.result.summary.result, config: r.config }]
      : [];
  });
  const stale = results.some((r) => {
    const now = site.state[r.s];
    return !now || JSON.stringify(now) !== JSON.stringify(r.config);
  });
  const x = msg.experiment;
  const order = site.catalog?.counters ?? [];
  return (
    <section className="experiment" aria-labelledby="experiment-h">
      <h2 id="experiment-h">{x.region}</h2>
      <p className="muted">
        {x.intro(
          Number.isFinite(durationMs)
            ? formatNs(durationMs * 1e6)
            : fileOf(site.state.a.scenario).name,
        )}
      </p>
      <div className="row">
        <button
          type="button"
          onClick={() => void store.runExperiment()}
          disabled={e.running || !site.catalog}
        >
          {x.run}
        </button>
        {e.running && (
          <button type="button" onClick={() => store.cancelExperiment()}>
            {x.cancel}
          </button>
        )}
        {sides.map((s) =>
          e.progress[s] !== undefined ? (
            <label key={s} className="inline">
              {x.progress(msg.run.sideLabel(s), (e.progress[s] ?? 0) * 100)}{' '}
              <progress max={1} value={e.progress[s]} />
            </label>
          ) : null,
        )}
        {!e.running && results.length === sides.length && <span role="status">{x.done}</span>}
      </div>
      {e.error && (
        <p className="error" role="alert">
          {e.error}
        </p>
      )}
      <PcapDownload />
      {stale && <p className="note">{x.stale}</p>}
      {results.length > 0 && <AppsTable results={results.map((r) => ({ side: r.side, r: r.r }))} />}
      {results.length === 2 && (
        <DiffTable
          a={results[0]!.r}
          b={results[1]!.r}
          caption={msg.compare.full}
          order={order}
          testId="diff-full"
        />
      )}
      {results.length === 1 && sides.length === 1 && (
        <table className="nstat" data-testid="counters-full">
          <caption>{msg.compare.full}</caption>
          <thead>
            <tr>
              <th scope="col">{msg.compare.host}</th>
              <th scope="col">{msg.compare.counter}</th>
              <th scope="col">{msg.counters.value}</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(results[0]!.r.hosts).flatMap(([host, h]) =>
              Object.entries(h.counters).map(([name, v]) => (
                <tr key={`${host}/${name}`}>
                  <td>{host}</td>
                  <th scope="row">{name}</th>
                  <td>{formatCount(v)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** "Download pcap": side A's packets from its start to the end of the window on screen. */
function PcapDownload() {
  const site = useSite();
  const store = useStore();
  const [frames, setFrames] = useState<PcapRequest['frames']>('tso');
  const [status, setStatus] = useState<{ busy: boolean; text: string; error: boolean }>({
    busy: false,
    text: '',
    error: false,
  });
  const x = msg.experiment;
  const toNs = site.a.model?.summary.toNs;
  const save = async () => {
    setStatus({ busy: true, text: x.pcapPreparing, error: false });
    try {
      const bytes = await store.pcapFile(frames);
      const name = `${fileOf(site.state.a.scenario).name}-${frames}.pcapng`;
      download(
        name,
        new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/vnd.tcpdump.pcap' }),
      );
      setStatus({ busy: false, text: x.pcapReady(name, formatBytes(bytes.length)), error: false });
    } catch (err) {
      setStatus({
        busy: false,
        text: err instanceof Error ? err.message : String(err),
        error: true,
      });
    }
  };
  return (
    <div className="pcap">
      <p className="muted">{x.pcapIntro(toNs === undefined ? '…' : formatNs(toNs))}</p>
      <div className="row">
        <label className="inline">
          {x.pcapFrames}{' '}
          <select
            value={frames}
            onChange={(e) => setFrames(e.target.value as PcapRequest['frames'])}
          >
            <option value="tso">{x.pcapTso}</option>
            <option value="wire">{x.pcapWire}</option>
          </select>
        </label>
        <button type="button" onClick={() => void save()} disabled={status.busy || !site.a.model}>
          {x.pcap}
        </button>
        {status.text && (
          <span role={status.error ? 'alert' : 'status'} className={status.error ? 'error' : ''}>
            {status.text}
          </span>
        )}
      </div>
    </div>
  );
}
