// The charts: D3 computes scales and path strings (in useMemo), React renders the SVG. Runs A
// and B are overlaid (B dashed). The cursor line is its own small component, so playback
// re-renders one line, not the paths.

import { notsentLowat, type ChartName } from '../model/charts';
import { useLang } from '../shared/useLang';
import { max } from 'd3-array';
import { scaleBand, scaleLinear, type ScaleLinear } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import { memo, useEffect, useMemo } from 'react';

import type { Side } from '../engine/protocol';
import { groupRange, LEN_EDGES, type RunModel } from '../model/derive';
import { hostRates } from '../model/rates';
import { formatBitRate, formatBytes, formatNs } from '../model/format';
import { useClock, useCursor, useSite, useStore } from './context';
import { msg } from '../i18n/messages';
import { perf } from './perf';

const W = 560;
const H = 190;
// The top margin holds the axis titles above the highest tick label, never over it.
const M = { l: 64, r: 58, t: 22, b: 26 };

interface SideModel {
  side: Side;
  m: RunModel;
  sk: number;
}

function focusSocket(m: RunModel, focus: number | null): number {
  if (focus !== null && focus < m.socks.n && m.socks.sends[focus] === 1) return focus;
  const i = Array.from(m.socks.sends).indexOf(1);
  return i < 0 ? 0 : i;
}

function Cursor({ x }: { x: ScaleLinear<number, number> }) {
  const c = useCursor();
  const [a, b] = x.domain() as [number, number];
  if (c.t < a || c.t > b) return null;
  return <line className="cursor" x1={x(c.t)} x2={x(c.t)} y1={M.t} y2={H - M.b} />;
}

function XAxis({ x, from }: { x: ScaleLinear<number, number>; from: number }) {
  return (
    <g>
      <line className="axis-line" x1={M.l} x2={W - M.r} y1={H - M.b} y2={H - M.b} />
      {x.ticks(5).map((t) => (
        <text key={t} x={x(t)} y={H - M.b + 14} textAnchor="middle" className="axis">
          {formatNs(t - from)}
        </text>
      ))}
    </g>
  );
}

function YAxis({
  y,
  fmt,
  right = false,
  label,
}: {
  y: ScaleLinear<number, number>;
  fmt: (v: number) => string;
  right?: boolean;
  label: string;
}) {
  const x = right ? W - M.r : M.l;
  return (
    <g>
      <line className="axis-line" x1={x} x2={x} y1={M.t} y2={H - M.b} />
      {y.ticks(4).map((v) => (
        <g key={v}>
          {!right && <line className="grid" x1={M.l} x2={W - M.r} y1={y(v)} y2={y(v)} />}
          <text
            x={right ? x + 4 : x - 4}
            y={y(v) + 3}
            textAnchor={right ? 'start' : 'end'}
            className="axis"
          >
            {fmt(v)}
          </text>
        </g>
      ))}
      <text
        className="axis-title"
        x={right ? W - 2 : 2}
        y={M.t - 10}
        textAnchor={right ? 'end' : 'start'}
      >
        {label}
      </text>
    </g>
  );
}

/** Clicking a time chart moves the cursor there. */
function useSeek(x: ScaleLinear<number, number>) {
  const clock = useClock();
  return (e: React.MouseEvent<SVGSVGElement>) => {
    const svg = e.currentTarget;
    const r = svg.getBoundingClientRect();
    const px = ((e.clientX - r.left) / r.width) * W;
    if (px < M.l || px > W - M.r) return;
    clock.pause();
    clock.seek(x.invert(px));
  };
}

function Legend({ items }: { items: { label: string; cls: string; testId?: string }[] }) {
  return (
    <ul className="legend">
      {items.map((i) => (
        <li key={i.label} data-testid={i.testId}>
          <svg width="18" height="8" aria-hidden="true">
            <line x1="0" x2="18" y1="4" y2="4" className={i.cls} />
          </svg>{' '}
          {i.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * `line().curve(curveStepAfter)` of the points (px(i), py(i)), i < n, written as D3 writes it
 * (three decimals), without building the points: the charts draw a few thousand of them per run.
 */
export function stepAfterPath(
  n: number,
  px: (i: number) => number,
  py: (i: number) => number,
): string {
  if (n <= 0) return '';
  const r = (v: number) => Math.round(v * 1000) / 1000;
  let y = +py(0);
  let d = `M${r(+px(0))},${r(y)}`;
  // D3 closes a path of one point.
  if (n === 1) return `${d}Z`;
  for (let i = 1; i < n; i++) {
    const nx = r(+px(i));
    const ny = +py(i);
    d += `L${nx},${r(y)}L${nx},${r(ny)}`;
    y = ny;
  }
  return d;
}

function binsPath(
  values: Float64Array,
  offset: number,
  bins: number,
  from: number,
  binNs: number,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
  scale = 1,
): string {
  // The bins, and the last one's value again at the window's end.
  return stepAfterPath(
    bins + 1,
    (i) => x(from + i * binNs),
    (i) => y(values[offset + Math.min(i, bins - 1)]! * scale),
  );
}

/** Like `binsPath`, for a series that is NaN where it has no value: drawn only where it has. */
function definedBinsPath(
  values: Float64Array,
  bins: number,
  from: number,
  binNs: number,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
): string {
  const pts: [number, number, boolean][] = [];
  for (let i = 0; i < bins; i++)
    pts.push([x(from + i * binNs), y(values[i]!), !Number.isNaN(values[i]!)]);
  pts.push([x(from + bins * binNs), y(values[bins - 1]!), !Number.isNaN(values[bins - 1]!)]);
  return (
    line<[number, number, boolean]>()
      .defined((p) => p[2])
      .curve(curveStepAfter)(pts) ?? ''
  );
}

const Throughput = memo(function Throughput({
  runs,
  x,
}: {
  runs: SideModel[];
  x: ScaleLinear<number, number>;
}) {
  useLang(); // memo: re-render on a language switch too
  const seek = useSeek(x);
  // Rates over a trailing window of at least one packet's serialization, never above the link
  // (model/rates.ts).
  const series = runs.map(({ side, m, sk }) => {
    const host = m.summary.result.sockets[sk]?.host ?? 0;
    return { side, c: m.charts, r: hostRates(m.charts, host) };
  });
  const links = series.map((s) => s.r.linkBps).filter((v) => v > 0);
  const top =
    max(
      series.flatMap((s) => [max(s.r.goodputBps) ?? 0, max(s.r.wireBps) ?? 0, s.r.linkBps || 0]),
    ) ?? 1;
  const windowNs = max(series, (s) => s.r.windowNs) ?? 0;
  const y = scaleLinear()
    .domain([0, top || 1])
    .nice()
    .range([H - M.b, M.t]);
  return (
    <figure>
      <figcaption>{msg.charts.throughput}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={msg.charts.throughput} onClick={seek}>
        <YAxis y={y} fmt={formatBitRate} label={msg.charts.rateAxis(formatNs(windowNs))} />
        <XAxis x={x} from={x.domain()[0]!} />
        {[...new Set(links)].map((bps) => (
          <line
            key={bps}
            className="s-link"
            data-testid="link-rate"
            x1={M.l}
            x2={W - M.r}
            y1={y(bps)}
            y2={y(bps)}
          />
        ))}
        {series.map((s) => (
          <g key={s.side} className={`side-${s.side}`}>
            <path
              className="s-wire"
              d={binsPath(s.r.wireBps, 0, s.c.bins, s.c.from, s.c.binNs, x, y)}
            />
            <path
              className="s-main"
              d={binsPath(s.r.goodputBps, 0, s.c.bins, s.c.from, s.c.binNs, x, y)}
            />
          </g>
        ))}
        <Cursor x={x} />
      </svg>
      <Legend
        items={runs
          .flatMap((r) => [
            {
              label: `${label(runs, r.side)}${msg.charts.throughput.split(' (')[0]}`,
              cls: `side-${r.side} s-main`,
            },
            { label: `${label(runs, r.side)}${msg.charts.wire}`, cls: `side-${r.side} s-wire` },
          ])
          .concat(
            [...new Set(links)].map((bps) => ({
              label: msg.charts.linkRate(formatBitRate(bps)),
              cls: 's-link',
            })),
          )}
      />
    </figure>
  );
});

/** Which lines are A and which B, in every chart of an A/B view: a chart is often read alone. */
function sideItems(runs: SideModel[]): { label: string; cls: string }[] {
  return runs.length > 1
    ? runs.map((r) => ({ label: msg.run.sideLabel(r.side), cls: `side-${r.side} s-main` }))
    : [];
}

function label(runs: SideModel[], side: Side): string {
  return runs.length > 1 ? `${msg.run.sideLabel(side)}: ` : '';
}

const Queues = memo(function Queues({
  runs,
  x,
  tsqKey,
}: {
  runs: SideModel[];
  x: ScaleLinear<number, number>;
  tsqKey: number[];
}) {
  useLang(); // memo: re-render on a language switch too
  const seek = useSeek(x);
  const series = runs.map(({ side, m, sk }) => {
    const c = m.charts;
    const host = m.summary.result.sockets[sk]?.host ?? 0;
    return {
      side,
      c,
      q: c.qdiscBytes.subarray(host * c.bins, (host + 1) * c.bins),
      n: c.nicBytes.subarray(host * c.bins, (host + 1) * c.bins),
      w: c.wmemMax.subarray(sk * c.bins, (sk + 1) * c.bins),
      lim: c.tsqLimit.subarray(sk * c.bins, (sk + 1) * c.bins),
    };
  });
  // A limit far above the bytes (TSQ set out of reach, as a lesson does) would flatten them:
  // the scale follows the bytes, and such a limit is named at the top instead of drawn.
  const dataTop = max(series.flatMap((s) => [max(s.q) ?? 0, max(s.n) ?? 0, max(s.w) ?? 0])) ?? 0;
  const onScale = (v: number) => dataTop === 0 || v <= 4 * dataTop;
  const limits = [
    ...series.map((s) => max(s.lim.filter((v) => !Number.isNaN(v))) ?? 0),
    ...tsqKey,
  ].filter(onScale);
  const top = max([dataTop, ...limits]) ?? 1;
  const y = scaleLinear()
    .domain([0, top || 1])
    .nice()
    .range([H - M.b, M.t]);
  return (
    <figure>
      <figcaption>{msg.charts.queues}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={msg.charts.queues} onClick={seek}>
        <YAxis y={y} fmt={(v) => formatBytes(v).replace(' B', '')} label={msg.charts.bytes} />
        <XAxis x={x} from={x.domain()[0]!} />
        {series.map((s, i) => (
          <g key={s.side} className={`side-${s.side}`}>
            <path className="s-qdisc" d={binsPath(s.q, 0, s.c.bins, s.c.from, s.c.binNs, x, y)} />
            <path className="s-nic" d={binsPath(s.n, 0, s.c.bins, s.c.from, s.c.binNs, x, y)} />
            <path className="s-wmem" d={binsPath(s.w, 0, s.c.bins, s.c.from, s.c.binNs, x, y)} />
            <path
              className="s-limit"
              d={definedBinsPath(s.lim, s.c.bins, s.c.from, s.c.binNs, x, y)}
            />
            {tsqKey[i] !== undefined && onScale(tsqKey[i]!) && (
              <line
                className="s-limit-sysctl"
                x1={M.l}
                x2={W - M.r}
                y1={y(tsqKey[i]!)}
                y2={y(tsqKey[i]!)}
              />
            )}
          </g>
        ))}
        <Cursor x={x} />
      </svg>
      <Legend
        items={[
          { label: msg.charts.qdisc, cls: 's-qdisc' },
          { label: msg.charts.nic, cls: 's-nic' },
          { label: msg.charts.wmem, cls: 's-wmem' },
          { label: msg.charts.tsqLimit, cls: 's-limit' },
          { label: msg.charts.tsqSysctl, cls: 's-limit-sysctl' },
          // A sysctl far above the bytes is not drawn: the legend says where it is (a note
          // in the plot lay over the lines).
          ...[...new Set(tsqKey.filter((v) => !onScale(v)))].map((v) => ({
            label: msg.charts.limitAbove(formatBytes(v)),
            cls: 's-limit-sysctl s-undrawn',
            testId: 'limit-above',
          })),

          ...sideItems(runs),
        ]}
      />
    </figure>
  );
});

/**
 * A socket's unsent bytes (`write_seq - snd_nxt`) against its TCP_NOTSENT_LOWAT limit, the
 * number `tcp_stream_memory_free` compares, beside the bytes in flight: the write queue's two
 * parts. `lowat[i]` is run i's limit for the socket drawn (null: no limit).
 */
const Notsent = memo(function Notsent({
  runs,
  x,
  lowat,
}: {
  runs: SideModel[];
  x: ScaleLinear<number, number>;
  lowat: (number | null)[];
}) {
  useLang(); // memo: re-render on a language switch too
  const seek = useSeek(x);
  const series = runs.map(({ side, m, sk }) => {
    const c = m.charts;
    return {
      side,
      c,
      u: c.notsentMax.subarray(sk * c.bins, (sk + 1) * c.bins),
      f: c.inflightMax.subarray(sk * c.bins, (sk + 1) * c.bins),
    };
  });
  // As in the queues chart: a limit far above the bytes is named at the top, not drawn.
  const dataTop = max(series.flatMap((s) => [max(s.u) ?? 0, max(s.f) ?? 0])) ?? 0;
  const onScale = (v: number) => dataTop === 0 || v <= 4 * dataTop;
  const limits = lowat.filter((v): v is number => v !== null && onScale(v));
  const top = max([dataTop, ...limits]) ?? 1;
  const y = scaleLinear()
    .domain([0, top || 1])
    .nice()
    .range([H - M.b, M.t]);
  const notes = runs.flatMap((r, i) => {
    const v = lowat[i];
    const prefix = label(runs, r.side);
    if (v === undefined) return [];
    if (v === null) return [`${prefix}${msg.charts.lowatOff}`];
    return onScale(v) ? [] : [`${prefix}${msg.charts.lowatAbove(formatBytes(v))}`];
  });
  return (
    <figure>
      <figcaption>{msg.charts.notsent}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={msg.charts.notsent} onClick={seek}>
        <YAxis y={y} fmt={(v) => formatBytes(v).replace(' B', '')} label={msg.charts.bytes} />
        <XAxis x={x} from={x.domain()[0]!} />
        {series.map((s, i) => (
          <g key={s.side} className={`side-${s.side}`}>
            <path
              className="s-inflight"
              d={binsPath(s.f, 0, s.c.bins, s.c.from, s.c.binNs, x, y)}
            />
            <path
              className="s-notsent"
              data-testid="notsent-line"
              d={binsPath(s.u, 0, s.c.bins, s.c.from, s.c.binNs, x, y)}
            />
            {lowat[i] != null && onScale(lowat[i]) && (
              <line
                className="s-lowat"
                data-testid="lowat-line"
                data-bytes={lowat[i]}
                x1={M.l}
                x2={W - M.r}
                y1={y(lowat[i])}
                y2={y(lowat[i])}
              />
            )}
          </g>
        ))}
        <Cursor x={x} />
      </svg>
      <Legend
        items={[
          { label: msg.charts.notsentSeries, cls: 's-notsent' },
          { label: msg.charts.inflight, cls: 's-inflight' },
          ...lowat.flatMap((v) =>
            v !== null && v !== undefined && onScale(v)
              ? [{ label: msg.charts.lowat(formatBytes(v)), cls: 's-lowat' }]
              : [],
          ),
          // A limit not drawn says why, where the limit's line would be named.
          ...notes.map((n) => ({ label: n, cls: 's-lowat s-undrawn', testId: 'lowat-note' })),
          ...sideItems(runs),
        ].filter((item, i, all) => all.findIndex((o) => o.label === item.label) === i)}
      />
    </figure>
  );
});

const Cwnd = memo(function Cwnd({
  runs,
  x,
}: {
  runs: SideModel[];
  x: ScaleLinear<number, number>;
}) {
  useLang(); // memo: re-render on a language switch too
  const seek = useSeek(x);
  const [from, to] = x.domain() as [number, number];
  const series = runs.map(({ side, m, sk }) => {
    const [a, b] = groupRange(m.socks.acks, sk);
    const w = m.socks.acks.width;
    const cw: [number, number][] = [];
    const pr: [number, number][] = [];
    for (let j = a; j < b; j++) {
      cw.push([m.socks.acks.t[j]!, m.socks.acks.v[j * w + 1]!]);
      const p = m.socks.acks.v[j * w + 4]!;
      if (Number.isFinite(p)) pr.push([m.socks.acks.t[j]!, p * 8]);
    }
    const s0 = m.summary.socketsAtStart[sk];
    if (cw.length === 0 && s0) cw.push([from, s0.snd_cwnd]);
    if (cw.length > 0) cw.push([to, cw[cw.length - 1]![1]]);
    if (pr.length > 0) pr.push([to, pr[pr.length - 1]![1]]);
    return { side, cw, pr };
  });
  const y = scaleLinear()
    .domain([0, (max(series.flatMap((s) => s.cw.map((p) => p[1]))) ?? 10) || 10])
    .nice()
    .range([H - M.b, M.t]);
  const y2 = scaleLinear()
    .domain([0, (max(series.flatMap((s) => s.pr.map((p) => p[1]))) ?? 1) || 1])
    .nice()
    .range([H - M.b, M.t]);
  const mk = (pts: [number, number][], yy: ScaleLinear<number, number>) =>
    stepAfterPath(
      pts.length,
      (i) => x(pts[i]![0]),
      (i) => yy(pts[i]![1]),
    );
  return (
    <figure>
      <figcaption>{msg.charts.cwnd}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={msg.charts.cwnd} onClick={seek}>
        <YAxis y={y} fmt={(v) => String(v)} label={msg.charts.packets} />
        <YAxis y={y2} fmt={formatBitRate} right label="bit/s" />
        <XAxis x={x} from={from} />
        {series.map((s) => (
          <g key={s.side} className={`side-${s.side}`}>
            <path className="s-cwnd" d={mk(s.cw, y)} />
            <path className="s-pacing" d={mk(s.pr, y2)} />
          </g>
        ))}
        <Cursor x={x} />
      </svg>
      <Legend
        items={[
          { label: msg.charts.cwndSeries, cls: 's-cwnd' },
          { label: msg.charts.pacing, cls: 's-pacing' },

          ...sideItems(runs),
        ]}
      />
    </figure>
  );
});

const Histogram = memo(function Histogram({
  runs,
  title,
  pick,
  labels,
}: {
  runs: SideModel[];
  title: string;
  pick: (m: RunModel) => Float64Array;
  labels: string[];
}) {
  useLang(); // memo: re-render on a language switch too
  const data = runs.map((r) => ({ side: r.side, v: pick(r.m) }));
  const n = labels.length;
  const shares = data.map((d) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d.v[i]!;
    return Array.from({ length: n }, (_, i) => (sum > 0 ? d.v[i]! / sum : 0));
  });
  const xb = scaleBand<number>()
    .domain(Array.from({ length: n }, (_, i) => i))
    .range([M.l, W - 10])
    .padding(0.15);
  const inner = scaleBand<number>()
    .domain(data.map((_, i) => i))
    .range([0, xb.bandwidth()]);
  const y = scaleLinear()
    .domain([0, max(shares.flat()) || 1])
    .nice()
    .range([H - M.b, M.t]);
  return (
    <figure>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
        <YAxis y={y} fmt={(v) => `${Math.round(v * 100)}%`} label={msg.charts.shareOfPackets} />
        {labels.map((l, i) => (
          <text
            key={l}
            x={xb(i)! + xb.bandwidth() / 2}
            y={H - M.b + 14}
            textAnchor="middle"
            className="axis"
          >
            {l}
          </text>
        ))}
        {data.map((d, k) => (
          <g key={d.side} className={`side-${d.side}`}>
            {shares[k]!.map((s, i) =>
              s > 0 ? (
                <rect
                  key={i}
                  className="bar"
                  x={xb(i)! + inner(k)!}
                  width={inner.bandwidth()}
                  y={y(s)}
                  height={H - M.b - y(s)}
                >
                  <title>{`${labels[i]}: ${d.v[i]} (${(s * 100).toFixed(1)} %)`}</title>
                </rect>
              ) : null,
            )}
          </g>
        ))}
      </svg>
      {runs.length > 1 && <Legend items={sideItems(runs)} />}
    </figure>
  );
});

const Stevens = memo(function Stevens({
  runs,
  x,
}: {
  runs: SideModel[];
  x: ScaleLinear<number, number>;
}) {
  useLang(); // memo: re-render on a language switch too
  const seek = useSeek(x);
  const series = runs.map(({ side, m, sk }) => {
    const X = m.socks.xmits;
    const [a, b] = groupRange(X, sk);
    const [ca, cb] = groupRange(m.socks.copies, sk);
    const [aa, ab] = groupRange(m.socks.acks, sk);
    let lo = Infinity;
    let hi = 0;
    for (let j = a; j < b; j++) {
      lo = Math.min(lo, X.v[j * X.width]!);
      hi = Math.max(hi, X.v[j * X.width + 1]!);
    }
    for (let j = ca; j < cb; j++) {
      lo = Math.min(lo, m.socks.copies.v[j * 2]!);
      hi = Math.max(hi, m.socks.copies.v[j * 2 + 1]!);
    }
    return { side, m, sk, a, b, ca, cb, aa, ab, lo, hi };
  });
  const lo = Math.min(...series.map((s) => s.lo));
  const hi = Math.max(...series.map((s) => s.hi));
  const y = scaleLinear()
    .domain([Number.isFinite(lo) ? lo : 0, hi > lo ? hi : 1])
    .range([H - M.b, M.t]);
  const paths = series.map((s) => {
    const X = s.m.socks.xmits;
    let sent = '';
    for (let j = s.a; j < s.b; j++) {
      const px = x(X.t[j]!).toFixed(1);
      sent += `M${px},${y(X.v[j * X.width]!).toFixed(1)}V${y(X.v[j * X.width + 1]!).toFixed(1)}`;
    }
    const ackPts: [number, number][] = [];
    for (let j = s.aa; j < s.ab; j++)
      ackPts.push([s.m.socks.acks.t[j]!, s.m.socks.acks.v[j * s.m.socks.acks.width]!]);
    const wrPts: [number, number][] = [];
    for (let j = s.ca; j < s.cb; j++)
      wrPts.push([s.m.socks.copies.t[j]!, s.m.socks.copies.v[j * 2 + 1]!]);
    const step = (pts: [number, number][]) =>
      stepAfterPath(
        pts.length,
        (i) => x(pts[i]![0]),
        (i) => y(pts[i]![1]),
      );
    return { side: s.side, sent, acked: step(ackPts), written: step(wrPts) };
  });
  return (
    <figure>
      <figcaption>
        {msg.charts.stevens} <span className="muted">sk{runs[0]?.sk}</span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={msg.charts.stevens} onClick={seek}>
        <YAxis y={y} fmt={(v) => String(Math.round(v))} label={msg.charts.seq} />
        <XAxis x={x} from={x.domain()[0]!} />
        {paths.map((p) => (
          <g key={p.side} className={`side-${p.side}`}>
            <path className="s-written" d={p.written} />
            <path className="s-acked" d={p.acked} />
            <path className="s-sent" d={p.sent} />
          </g>
        ))}
        <Cursor x={x} />
      </svg>
      <Legend
        items={[
          { label: msg.charts.stevensSeries.sent, cls: 's-sent' },
          { label: msg.charts.stevensSeries.acked, cls: 's-acked' },
          { label: msg.charts.stevensSeries.written, cls: 's-written' },

          ...sideItems(runs),
        ]}
      />
    </figure>
  );
});

const SEGS_LABELS = ['1', '2', '3–4', '5–8', '9–16', '17–32', '33–64'];
function segsBuckets(m: RunModel): Float64Array {
  const h = m.charts.segsHist;
  const out = new Float64Array(SEGS_LABELS.length);
  for (let s = 1; s < h.length; s++) {
    const b = s === 1 ? 0 : Math.min(SEGS_LABELS.length - 1, Math.ceil(Math.log2(s)));
    out[b]! += h[s]!;
  }
  return out;
}
const lenBuckets = (m: RunModel) => m.charts.lenHist;
const LEN_LABELS = LEN_EDGES.slice(0, -1).map((e, i) =>
  i === LEN_EDGES.length - 2 ? `≥${e}` : `${e}`,
);

/** The runs the charts draw, their shared time scale and the TSQ limits of the runs. */
function useChartRuns() {
  const site = useSite();
  const ma = site.a.model;
  const mb = site.b?.model ?? null;
  const focus = site.state.focus;
  const runs = useMemo(() => {
    const out: SideModel[] = [];
    if (ma) out.push({ side: 'a', m: ma, sk: focusSocket(ma, focus) });
    if (mb) out.push({ side: 'b', m: mb, sk: focusSocket(mb, focus) });
    return out;
  }, [ma, mb, focus]);
  const runIds = `${site.a.runId}:${site.b?.runId ?? 0}`;
  useEffect(() => {
    if (runs.length > 0) perf.chartsRendered();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runIds]);
  const from = runs[0]?.m.summary.fromNs ?? 0;
  const to = Math.max(...runs.map((r) => r.m.summary.toNs), from + 1);
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([from, to])
        .range([M.l, W - M.r]),
    [from, to],
  );
  const limA = site.a.info?.keys['net.ipv4.tcp_limit_output_bytes']?.values[0];
  const limB = site.b?.info?.keys['net.ipv4.tcp_limit_output_bytes']?.values[0];
  const tsqKey = useMemo(
    () =>
      [limA, limB]
        .filter((v) => v !== undefined)
        .map(Number)
        .filter(Number.isFinite),
    [limA, limB],
  );
  const infoA = site.a.info;
  const infoB = site.b?.info;
  const lowat = useMemo(
    () =>
      runs.map((r) => {
        const info = r.side === 'a' ? infoA : infoB;
        const host = r.m.summary.result.sockets[r.sk]?.host ?? 0;
        return info ? notsentLowat(info, host) : null;
      }),
    [runs, infoA, infoB],
  );
  // A run that sets TCP_NOTSENT_LOWAT (the sysctl or the option, on or off) gets its chart.
  const setsLowat = [infoA, infoB].some((info) =>
    ['net.ipv4.tcp_notsent_lowat', 'TCP_NOTSENT_LOWAT'].some((k) =>
      info?.keys[k]?.origins.some((o) => o !== 'default'),
    ),
  );
  return { runs, x, tsqKey, lowat, setsLowat };
}

/**
 * The sides whose figures are stale: the engine refused the configuration now asked for, so the
 * run on screen is the one before it (until a valid value runs).
 */
function useStaleSides(): Side[] {
  const site = useSite();
  return (['a', 'b'] as const).filter((side) => {
    const v = site[side];
    return !!v?.model && v.error !== null && v.baseRun === null;
  });
}

/**
 * What says the figures are stale: a live region (announced when it fills) that names the
 * sides, empty while the figures are current.
 */
function StaleNote({ stale, compared }: { stale: Side[]; compared: boolean }) {
  return (
    <p role="status" className={stale.length > 0 ? 'stale-note' : 'visually-hidden'}>
      {stale.length > 0
        ? msg.charts.stale(compared ? stale.map((s) => msg.run.sideLabel(s)).join(', ') : null)
        : ''}
    </p>
  );
}

/** One chart by name, for a lesson step or the embed (the same charts as the Charts panel). */
export function OneChart({ name }: { name: ChartName }) {
  const { runs, x, tsqKey, lowat } = useChartRuns();
  const stale = useStaleSides();
  if (runs.length === 0) return null;
  return (
    <div className={stale.length > 0 ? 'stale' : undefined} data-stale={stale.length > 0}>
      <StaleNote stale={stale} compared={runs.length > 1} />
      <ChartByName name={name} runs={runs} x={x} tsqKey={tsqKey} lowat={lowat} />
    </div>
  );
}

function ChartByName({
  name,
  runs,
  x,
  tsqKey,
  lowat,
}: {
  name: ChartName;
  runs: SideModel[];
  x: ScaleLinear<number, number>;
  tsqKey: number[];
  lowat: (number | null)[];
}) {
  switch (name) {
    case 'throughput':
      return <Throughput runs={runs} x={x} />;
    case 'queues':
      return <Queues runs={runs} x={x} tsqKey={tsqKey} />;
    case 'cwnd':
      return <Cwnd runs={runs} x={x} />;
    case 'stevens':
      return <Stevens runs={runs} x={x} />;
    case 'notsent':
      return <Notsent runs={runs} x={x} lowat={lowat} />;
    case 'sizes':
      return (
        <Histogram runs={runs} title={msg.charts.sizes} pick={lenBuckets} labels={LEN_LABELS} />
      );
    case 'segs':
      return (
        <Histogram runs={runs} title={msg.charts.segs} pick={segsBuckets} labels={SEGS_LABELS} />
      );
  }
}

export function Charts() {
  const store = useStore();
  const { runs, x, tsqKey, lowat, setsLowat } = useChartRuns();
  const stale = useStaleSides();
  if (runs.length === 0) return null;
  const m0 = runs[0]!.m;
  const senders = m0.summary.result.sockets.flatMap((_, i) => (m0.socks.sends[i] === 1 ? [i] : []));
  return (
    <section
      className={stale.length > 0 ? 'charts stale' : 'charts'}
      aria-labelledby="charts-h"
      data-stale={stale.length > 0}
    >
      <h2 id="charts-h">{msg.charts.region}</h2>
      <StaleNote stale={stale} compared={runs.length > 1} />
      <label className="inline">
        {msg.charts.focus}{' '}
        <select
          value={runs[0]!.sk}
          onChange={(e) => store.setView({ focus: Number(e.target.value) })}
        >
          {senders.map((s) => (
            <option key={s} value={s}>
              {msg.charts.flow(s, m0.summary.result.sockets[s]?.flow ?? 0)}
            </option>
          ))}
        </select>
      </label>
      {runs.length > 1 && (
        <Legend
          items={runs.map((r) => ({
            label: `${msg.run.sideLabel(r.side)}`,
            cls: `side-${r.side} s-main`,
          }))}
        />
      )}
      <div className="chart-grid">
        <Throughput runs={runs} x={x} />
        <Queues runs={runs} x={x} tsqKey={tsqKey} />
        <Cwnd runs={runs} x={x} />
        <Stevens runs={runs} x={x} />
        <Histogram runs={runs} title={msg.charts.sizes} pick={lenBuckets} labels={LEN_LABELS} />
        <Histogram runs={runs} title={msg.charts.segs} pick={segsBuckets} labels={SEGS_LABELS} />
        {setsLowat && <Notsent runs={runs} x={x} lowat={lowat} />}
      </div>
    </section>
  );
}
