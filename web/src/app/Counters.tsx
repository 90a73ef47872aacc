// nstat and `ss -ti` at the time cursor, and the per-gate waits of the recorded window.

import { useMemo, useState } from 'react';

import type { Side } from '../engine/protocol';
import { countersAt, sampleTimes } from '../model/counters';
import { formatBytes, formatCount, formatNs, formatSsRate } from '../model/format';
import { sockStateAt } from '../model/sockstate';
import { useCursor, useSiteDeferred } from './context';
import { msg } from '../i18n/messages';
import { RunTotals } from './WhyPanel';

const DELTAS_NS = [1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3];

function Nstat({ side, deltaNs }: { side: Side; deltaNs: number }) {
  const site = useSiteDeferred();
  const cursor = useCursor();
  const m = site[side]?.model;
  const times = useMemo(() => (m ? sampleTimes(m.samples, m.summary.samples.stride) : null), [m]);
  if (!m || !times) return null;
  const layout = m.summary.samples;
  const c = msg.counters;
  return (
    <>
      {layout.hosts.map((host, h) => {
        const rows = countersAt(m.samples, layout, times, h, cursor.t, deltaNs);
        return (
          <table key={host} className="nstat" data-testid={`nstat-${side}-${host}`}>
            <caption>
              {c.nstat(host)}
              {site.b && ` (${msg.run.sideLabel(side)})`}
            </caption>
            <thead>
              <tr>
                <th scope="col">{c.name}</th>
                <th scope="col">{c.value}</th>
                <th scope="col">{c.delta(formatNs(deltaNs))}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={3} className="muted">
                    {c.noCounters}
                  </td>
                </tr>
              )}
              {rows.map((r) => (
                <tr key={r.name}>
                  <th scope="row">{r.name}</th>
                  <td>{formatCount(r.value)}</td>
                  <td>{r.delta === 0 ? '' : `+${formatCount(r.delta)}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
    </>
  );
}

function Ss({ side }: { side: Side }) {
  const site = useSiteDeferred();
  const cursor = useCursor();
  const m = site[side]?.model;
  if (!m) return null;
  const sockets = m.summary.result.sockets;
  const hosts = m.summary.result.host_names;
  const acks = m.socks.acks;
  const shown = sockets
    .map((s, i) => ({ s, i }))
    // A recording also lists the sockets tcp_probe saw (their writes may not be attributable).
    .filter(
      ({ i }) =>
        m.socks.sends[i] === 1 || (m.recording && (acks.off[i + 1] ?? 0) > (acks.off[i] ?? 0)),
    )
    .slice(0, 16);
  return (
    <div className="ss" data-testid={`ss-${side}`}>
      <h3>
        {msg.counters.ss}
        {site.b && ` (${msg.run.sideLabel(side)})`}
      </h3>
      <pre>
        {shown
          .map(({ s, i }) => {
            const st = sockStateAt(m, i, cursor.t);
            return (
              `${st.established ? 'ESTAB' : 'SYN-SENT'} ${hosts[s.host]}:sk${i} -> ${hosts[sockets[s.peer]?.host ?? 0]}:sk${s.peer}\n` +
              `\t mss:${st.mss} cwnd:${st.cwnd}${st.ssthresh !== null ? ` ssthresh:${st.ssthresh}` : ''} rtt:${(st.srttUs / 1000).toFixed(3)}ms` +
              (m.recording
                ? ''
                : ` pacing_rate ${formatSsRate(st.pacingRate)} unacked:${st.packetsOut}`) +
              ` bytes_in_flight:${st.bytesInFlight} notsent:${st.notsent} wmem_alloc:${formatBytes(st.wmemAlloc).replace(' B', '')}` +
              (st.delackDueNs !== null ? ` delack:${formatNs(st.delackDueNs - cursor.t)}` : '')
            );
          })
          .join('\n')}
      </pre>
    </div>
  );
}

export function Counters() {
  const site = useSiteDeferred();
  const m = site.a.model;
  const span = m ? m.summary.toNs - m.summary.fromNs : 1e9;
  const auto = DELTAS_NS.find((d) => d <= span / 4) ?? 1e3;
  const [delta, setDelta] = useState<number | null>(null);
  const deltaNs = delta ?? auto;
  const sides: Side[] = site.b ? ['a', 'b'] : ['a'];
  return (
    <section className="counters" aria-labelledby="counters-h">
      <h2 id="counters-h">{msg.counters.region}</h2>
      <label className="inline">
        {msg.counters.deltaOver}{' '}
        <select value={deltaNs} onChange={(e) => setDelta(Number(e.target.value))}>
          {DELTAS_NS.map((d) => (
            <option key={d} value={d}>
              {formatNs(d)}
            </option>
          ))}
        </select>
      </label>
      <div className="counter-grid">
        {sides.map((s) => (
          <Nstat key={s} side={s} deltaNs={deltaNs} />
        ))}
      </div>
      {sides.map((s) => (
        <Ss key={s} side={s} />
      ))}
      <div className="counter-grid">
        {sides.map((s) => (
          <RunTotals key={s} side={s} />
        ))}
      </div>
    </section>
  );
}
