// The panel below the pipeline while a recording is shown (loaded when scrolled near): what
// the recording cannot show and what the replay infers, its window, "Simulate this" with the
// scenario keys it used, and the counters of recording and simulation side by side.

import { useState } from 'react';

import type { MappedKey } from '../capture/scenario';
import { groupRange, type RecordedStage, type RunModel } from '../model/derive';
import { formatCount, formatNs } from '../model/format';
import { DiffTable } from './Compare';
import { useSiteDeferred, useStore } from './context';
import { msg } from '../i18n/messages';

/** Bytes the recorded writes copied (the replay's byte count), or a dash when not counted. */
function written(m: RunModel): string {
  const c = m.socks.copies;
  let total = 0;
  for (let sk = 0; sk < m.socks.n; sk++) {
    const [a, b] = groupRange(c, sk);
    if (b > a) total += c.v[(b - 1) * c.width + 1]! - c.v[a * c.width]!;
  }
  return total > 0 ? formatCount(total) : '—';
}

const STAGE_ORDER: RecordedStage[] = ['app', 'wq', 'qdisc', 'ring', 'wire', 'rx', 'acks'];

function Coverage({ m }: { m: RunModel }) {
  const rec = m.recording!;
  const n = msg.native;
  return (
    <div className="coverage">
      <h3>{n.notRecorded}</h3>
      <ul data-testid="capture-coverage">
        {STAGE_ORDER.map((s) => (
          <li key={s} className={rec.stages[s].recorded ? 'recorded' : 'not-recorded'}>
            <strong>{n.stageNames[s]}</strong>: {rec.stages[s].reason}
          </li>
        ))}
      </ul>
      <h3>{n.inferred}</h3>
      <ul>
        {rec.inferred.map((t) => (
          <li key={t}>{t}</li>
        ))}
      </ul>
    </div>
  );
}

function WindowPicker({ m }: { m: RunModel }) {
  const store = useStore();
  const rec = m.recording!;
  const [from, setFrom] = useState(String(m.summary.fromNs / 1e6));
  const [to, setTo] = useState(String(m.summary.toNs / 1e6));
  const r = msg.run;
  if (rec.events === rec.totalEvents) return null;
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        const a = Number(from) * 1e6;
        const b = Number(to) * 1e6;
        if (Number.isFinite(a) && Number.isFinite(b) && b > a)
          void store.replayWindow({ fromNs: Math.max(0, a), toNs: b });
      }}
    >
      <p className="muted">{msg.native.window(rec.events, rec.totalEvents)}</p>
      <label className="inline">
        {r.windowFrom} <input value={from} onChange={(e) => setFrom(e.target.value)} size={8} />
      </label>
      <label className="inline">
        {r.windowTo} <input value={to} onChange={(e) => setTo(e.target.value)} size={8} />
      </label>
      <button type="submit">{msg.native.windowApply}</button>
    </form>
  );
}

function KeysTable({ keys, kernel }: { keys: MappedKey[]; kernel: string }) {
  const n = msg.native;
  const used = keys.filter((k) => k.source !== 'default');
  const defaults = keys.filter((k) => k.source === 'default');
  const row = (k: MappedKey) => (
    <tr key={`${k.host ?? ''}:${k.key}`} className={`src-${k.source}`}>
      <th scope="row">
        <code>{k.host ? `${k.host}:${k.key}` : k.key}</code>
      </th>
      <td>
        <code>{k.value}</code>
      </td>
      <td>{n.sources[k.source]}</td>
      <td>{k.why}</td>
    </tr>
  );
  const head = (
    <thead>
      <tr>
        <th scope="col">{n.keyCols.key}</th>
        <th scope="col">{n.keyCols.value}</th>
        <th scope="col">{n.keyCols.source}</th>
        <th scope="col">{n.keyCols.why}</th>
      </tr>
    </thead>
  );
  return (
    <div className="keys-table">
      <table data-testid="capture-keys">
        <caption>{n.keys}</caption>
        {head}
        <tbody>{used.map(row)}</tbody>
      </table>
      <details>
        <summary>{n.defaultsUsed(defaults.length, kernel)}</summary>
        <table data-testid="capture-defaults">
          {head}
          <tbody>{defaults.map(row)}</tbody>
        </table>
      </details>
    </div>
  );
}

/** Recording (A) and simulation (B): counters of the whole runs, differences highlighted. */
function SideBySide() {
  const site = useSiteDeferred();
  const cap = site.capture;
  const a = site.a.model;
  const n = msg.native;
  const sim = cap?.simulation;
  if (!cap || !a || !sim) return null;
  if (sim.error) return <p className="error">{n.simFailed(sim.error)}</p>;
  if (!sim.result)
    return (
      <p role="status">
        {n.simProgress(sim.progress * 100)} <progress max={1} value={sim.progress} />
      </p>
    );
  const modelled = new Set(site.catalog?.counters ?? []);
  const rec = a.summary.result;
  const simResult = sim.result.summary.result;
  // The counters the model keeps; the recording's others have nothing to compare with.
  const keep = (r: typeof rec) => ({
    ...r,
    hosts: Object.fromEntries(
      Object.entries(r.hosts)
        .filter(([h]) => simResult.host_names.includes(h))
        .map(([h, v]) => [
          h,
          {
            ...v,
            counters: Object.fromEntries(
              Object.entries(v.counters).filter(([c]) => modelled.has(c)),
            ),
          },
        ]),
    ),
  });
  // The hosts the recording sampled (the receiver only when recorded with -n).
  const recorded = (r: typeof simResult) => ({
    ...r,
    hosts: Object.fromEntries(Object.entries(r.hosts).filter(([h]) => h in rec.hosts)),
  });
  const dropped = new Set<string>();
  for (const v of Object.values(rec.hosts))
    for (const c of Object.keys(v.counters)) if (!modelled.has(c)) dropped.add(c);
  const app = simResult.apps.find((x) => x.bytes_written > 0);
  const lab = cap.head.workload;
  return (
    <div className="side-by-side">
      <h3>{n.compare}</h3>
      <table className="diff">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{n.counterCols.a}</th>
            <th scope="col">{n.counterCols.b}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{n.elapsed}</th>
            <td>{lab ? formatNs(lab.end_t_ns - lab.t_ns) : '—'}</td>
            <td>{app?.finished_s != null ? formatNs(app.finished_s * 1e9) : '—'}</td>
          </tr>
          <tr>
            <th scope="row">{n.written}</th>
            <td>{written(a)}</td>
            <td>{app ? formatCount(app.bytes_written) : '—'}</td>
          </tr>
        </tbody>
      </table>
      <DiffTable
        a={keep(rec)}
        b={recorded(simResult)}
        caption={n.compareCaption}
        order={site.catalog?.counters ?? []}
        testId="capture-compare"
        labels={n.counterCols}
        highlight
      />
      {dropped.size > 0 && <p className="muted">{n.notModelled(dropped.size)}</p>}
    </div>
  );
}

/** The panel below the pipeline while a recording is shown. */
export function NativePanel() {
  const site = useSiteDeferred();
  const store = useStore();
  const cap = site.capture;
  const m = site.a.model;
  const n = msg.native;
  if (!cap || !m?.recording) return null;
  return (
    <section className="native" aria-labelledby="native-h">
      <h2 id="native-h">{n.region}</h2>
      <WindowPicker key={`${m.summary.fromNs}:${m.summary.toNs}`} m={m} />
      <Coverage m={m} />
      <div className="row">
        {!site.b ? (
          <button type="button" className="primary" onClick={() => void store.simulateCapture()}>
            {n.simulate}
          </button>
        ) : (
          <>
            <button
              type="button"
              disabled={cap.simulation?.running}
              onClick={() => site.state.b && void store.runCaptureSimulation(site.state.b)}
            >
              {cap.simulation?.running ? n.simulating : n.simulateAgain}
            </button>
            <button type="button" onClick={() => store.closeCaptureSimulation()}>
              {n.stopSimulating}
            </button>
          </>
        )}
      </div>
      <SideBySide />
      <KeysTable keys={cap.scenario.keys} kernel={cap.scenario.kernel} />
    </section>
  );
}
