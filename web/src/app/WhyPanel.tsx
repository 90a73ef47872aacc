// "Why is it waiting?": for a selected skb or byte range, a small timeline of every gate that
// held its bytes, from the write() that brought them to the ACK that freed them; beside it the
// per-gate totals of this skb, and the per-gate waits of the recorded window. D3 computes the scale; React draws.

import { scaleLinear } from 'd3-scale';
import { useMemo, useState } from 'react';

import type { Side } from '../engine/protocol';
import type { TraceSchema } from '../model/catalog';
import type { RunModel } from '../model/derive';
import { formatCount, formatNs, formatInstant } from '../model/format';
import { bucketAt } from '../model/derive';
import { gateWaits, skbTotals, skbsInRange, spanName, whyRows } from '../model/why';
import { parseSelection, serializeSelection } from '../model/urlstate';
import { useClock, useCursor, useSiteDeferred, useStore } from './context';
import { msg } from '../i18n/messages';
import { logSide } from './Player';

function gateLabel(name: string): string {
  return msg.why.gates[name] ?? name;
}

function Timeline({ m, skb, schema }: { m: RunModel; skb: number; schema: TraceSchema }) {
  const clock = useClock();
  const rows = whyRows(m, skb);
  const s = m.skbs;
  const t0 = Math.min(s.tWrite[skb]!, ...rows.flatMap((r) => r.spans.map((x) => x.t0)));
  const freed = s.tFreed[skb]!;
  const t1 = Math.max(
    Number.isNaN(freed) ? m.summary.toNs : freed,
    ...rows.flatMap((r) => r.spans.map((x) => x.t1)),
  );
  const width = 520;
  const rowH = 18;
  const left = 150;
  const x = scaleLinear()
    .domain([t0, Math.max(t1, t0 + 1)])
    .range([left, width - 8]);
  const ticks = x.ticks(4);
  const totals = [...skbTotals(m, skb).entries()].sort((a, b) => b[1] - a[1]);
  const P = m.packets;
  return (
    <div className="why-skb">
      <h3>{msg.why.skbTitle(s.id[skb]!, s.seqStart[skb]!, s.seqEnd[skb]!, m.skbs.sk[skb]!)}</h3>
      <svg
        width="100%"
        viewBox={`0 0 ${width} ${rows.length * rowH + 24}`}
        role="img"
        aria-label={`${msg.why.region}: ${totals.map(([g, ns]) => `${gateLabel(spanName(schema, g))} ${formatNs(ns)}`).join(', ')}`}
      >
        {ticks.map((tk) => (
          <g key={tk} transform={`translate(${x(tk)},0)`}>
            <line y1={0} y2={rows.length * rowH} className="tick" />
            <text y={rows.length * rowH + 14} textAnchor="middle" className="axis">
              {formatNs(tk - t0)}
            </text>
          </g>
        ))}
        {rows.map((r, i) => (
          <g key={r.pkt} transform={`translate(0,${i * rowH})`}>
            <text x={0} y={rowH * 0.7} className="axis">
              {r.pkt < 0
                ? msg.why.skbRow(s.id[skb]!)
                : msg.why.pktRow(P.id[r.pkt]!, P.segs[r.pkt]!)}
            </text>
            {r.spans.map((sp, k) => {
              const name = spanName(schema, sp.gate);
              return (
                <rect
                  key={k}
                  x={x(sp.t0)}
                  y={2}
                  width={Math.max(1, x(sp.t1) - x(sp.t0))}
                  height={rowH - 4}
                  className={`gate g-${name}`}
                  onClick={() => clock.seek(sp.t0)}
                >
                  <title>{`${gateLabel(name)}: ${formatNs(sp.t1 - sp.t0)} (${formatInstant(sp.t0)} → ${formatInstant(sp.t1)})`}</title>
                </rect>
              );
            })}
          </g>
        ))}
      </svg>
      <p className="muted">
        {msg.why.from(formatInstant(s.tWrite[skb]!))} ·{' '}
        {Number.isNaN(freed) ? msg.why.notFreed : msg.why.freed(formatInstant(freed))}
      </p>
      <table className="totals">
        <caption>{msg.why.totalsSkb}</caption>
        <thead>
          <tr>
            <th scope="col">{msg.why.gate}</th>
            <th scope="col">{msg.why.time}</th>
          </tr>
        </thead>
        <tbody>
          {totals.map(([g, ns]) => (
            <tr key={g}>
              <td>
                <span className={`swatch g-${spanName(schema, g)}`} aria-hidden="true" />{' '}
                {gateLabel(spanName(schema, g))}
              </td>
              <td>{formatNs(ns)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function RunTotals({ side }: { side: Side }) {
  const site = useSiteDeferred();
  const m = site[side]?.model;
  const schema = site.catalog?.trace;
  if (!m || !schema) return null;
  const waits = gateWaits(m, schema);
  return (
    <table className="totals" data-testid="gate-waits">
      <caption>
        {msg.why.totalsRun(formatNs(m.summary.toNs - m.summary.fromNs))}
        {site.b && ` (${msg.run.sideLabel(side)})`}
      </caption>
      <thead>
        <tr>
          <th scope="col">{msg.why.gate}</th>
          <th scope="col">{msg.why.held}</th>
          <th scope="col">{msg.why.median}</th>
          <th scope="col">{msg.why.longest}</th>
          <th scope="col">{msg.why.busy}</th>
        </tr>
      </thead>
      <tbody>
        {waits.map((g) => (
          <tr key={g.gate} data-gate={g.name}>
            <td>
              <span className={`swatch g-${g.name}`} aria-hidden="true" /> {gateLabel(g.name)}
            </td>
            <td>{formatCount(g.held)}</td>
            <td>{formatNs(g.medianNs)}</td>
            <td>{formatNs(g.maxNs)}</td>
            <td data-col="busy">{(g.busy * 100).toFixed(1)} %</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WhyPanel() {
  const site = useSiteDeferred();
  const store = useStore();
  const cursor = useCursor();
  const side = logSide(site);
  const m = site[side]?.model ?? null;
  const schema = site.catalog?.trace;
  const sel = parseSelection(site.state.sel);
  const senders = useMemo(
    () =>
      m ? m.summary.result.sockets.flatMap((_, i) => (m.socks.sends[i] === 1 ? [i] : [])) : [],
    [m],
  );
  const [sk, setSk] = useState<number | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const chosenSk = sk ?? senders[0] ?? 0;
  const w = msg.why;

  const selected: number[] = useMemo(() => {
    if (!m || !sel) return [];
    if (sel.kind === 'skb') {
      for (let i = 0; i < m.skbs.n; i++) if (m.skbs.id[i] === sel.id) return [i];
      return [];
    }
    return skbsInRange(m, sel.sk, sel.from, sel.to).slice(0, 12);
  }, [m, sel?.kind, site.state.sel]); // eslint-disable-line react-hooks/exhaustive-deps

  // The skbs in the write queues at the cursor, for choosing one without a pointer.
  const atCursor = useMemo(() => {
    if (!m) return [];
    const out: number[] = [];
    for (const i of bucketAt(m.skbIndex, cursor.t)) {
      if (m.skbs.tCreate[i]! <= cursor.t && !(m.skbs.tFreed[i]! <= cursor.t)) out.push(i);
    }
    return out.sort((a, b) => m.skbs.id[a]! - m.skbs.id[b]!).slice(0, 40);
  }, [m, cursor.t]);

  if (!m || !schema) return null;
  return (
    <section className="why" aria-labelledby="why-h">
      <h2 id="why-h">
        {w.region}
        {site.b && <span className="muted"> ({msg.run.sideLabel(side)})</span>}
      </h2>
      <p className="muted">{w.intro}</p>
      <form
        className="why-pick"
        onSubmit={(e) => {
          e.preventDefault();
          const a = Number(from);
          const b = Number(to);
          if (Number.isInteger(a) && Number.isInteger(b) && b > a) {
            store.setView({
              sel: serializeSelection({ kind: 'bytes', sk: chosenSk, from: a, to: b }),
            });
          }
        }}
      >
        <label className="inline">
          {w.socket}{' '}
          <select value={chosenSk} onChange={(e) => setSk(Number(e.target.value))}>
            {senders.map((s) => (
              <option key={s} value={s}>
                sk{s}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          {w.bytesFrom}{' '}
          <input
            type="text"
            inputMode="numeric"
            size={9}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </label>
        <label className="inline">
          {w.bytesTo}{' '}
          <input
            type="text"
            inputMode="numeric"
            size={9}
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        </label>
        <button type="submit">{w.show}</button>
      </form>
      {atCursor.length > 0 && (
        <ul className="skb-chips" aria-label="skbs at the cursor">
          {atCursor.map((i) => (
            <li key={i}>
              <button
                type="button"
                aria-pressed={sel?.kind === 'skb' && sel.id === m.skbs.id[i]}
                onClick={() =>
                  store.setView({ sel: serializeSelection({ kind: 'skb', id: m.skbs.id[i]! }) })
                }
              >
                skb #{m.skbs.id[i]} <span className="muted">sk{m.skbs.sk[i]}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {sel && selected.length === 0 && <p>{w.none}</p>}
      {selected.map((i) => (
        <Timeline key={i} m={m} skb={i} schema={schema} />
      ))}
    </section>
  );
}
