// The parameter sweep: side A's configuration run once per value of one key (a line plot per
// metric) or of two keys (a heat map per metric), on one Web Worker per core (store.runSweep),
// with a progress bar and a cancel button. A point opens the run it came from; the plots export
// as SVG or PNG and the numbers as CSV; the settings live in the URL (`sweep=`, `metric=`).
// D3 computes the scales and the line (useMemo); React renders the SVG.

import { extent } from 'd3-array';
import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { Fragment, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';

import type { SweepGrid } from '../engine/generated/SweepGrid';
import { msg } from '../i18n/messages';
import { formatSeconds } from '../model/format';
import {
  heatOf,
  lineOf,
  numericValues,
  sweepCsv,
  sweepNumber,
  type SweepResults,
} from '../model/sweep';
import { DEFAULT_SWEEP_METRIC, varyKey, type SweepSettings } from '../model/urlstate';
import { useSite, useStore } from './context';
import { download } from './download';

const W = 560;
const H = 220;
const M = { l: 70, r: 16, t: 14, b: 40 };

/** The form's fields: key and values of each varied key, and the metrics, as typed. */
interface Form {
  key1: string;
  values1: string;
  key2: string;
  values2: string;
  metrics: string;
}

function formOf(s: SweepSettings | null): Form {
  const split = (v: string | undefined) =>
    v === undefined ? ['', ''] : [varyKey(v), v.slice(v.indexOf('=') + 1)];
  const [key1, values1] = split(s?.vary[0]);
  const [key2, values2] = split(s?.vary[1]);
  return {
    key1: key1 || 'app.write_size_bytes',
    values1: values1 || '128..3200:128',
    key2: key2!,
    values2: values2!,
    metrics: (s?.metrics ?? [DEFAULT_SWEEP_METRIC, 'cpu_per_byte_ns']).join(', '),
  };
}

function settingsOf(f: Form): SweepSettings {
  const vary = [`${f.key1.trim()}=${f.values1.trim()}`];
  if (f.key2.trim()) vary.push(`${f.key2.trim()}=${f.values2.trim()}`);
  const metrics = f.metrics
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  return { vary, metrics: metrics.length > 0 ? metrics : [DEFAULT_SWEEP_METRIC] };
}

export function Sweep() {
  const site = useSite();
  const store = useStore();
  const sw = site.sweep;
  const [form, setForm] = useState(() => formOf(site.state.sweep));
  const plots = useRef<HTMLDivElement>(null);
  const x = msg.sweep;
  const keys = useMemo(
    () =>
      (site.catalog?.keys.keys ?? [])
        .filter((k) => k.kind.type !== 'triple')
        .map((k) => k.name)
        .sort(),
    [site.catalog],
  );

  // A link with a sweep in it shows that sweep: it runs once the engine is up.
  const ranFromLink = useRef(false);
  useEffect(() => {
    if (ranFromLink.current || !site.state.sweep || site.engine !== 'ready' || !site.a.model)
      return;
    ranFromLink.current = true;
    void store.runSweep();
  }, [site.state.sweep, site.engine, site.a.model, store]);

  const run = () => {
    store.setSweep(settingsOf(form));
    void store.runSweep();
  };
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const total = sw.grid?.points.length ?? 0;
  const stale =
    sw.base !== null && JSON.stringify(sw.base) !== JSON.stringify(site.state.a) && !sw.running;

  return (
    <section className="sweep" aria-labelledby="sweep-h">
      <h2 id="sweep-h">{x.region}</h2>
      <p className="muted">{x.intro}</p>
      <form
        className="sweep-form"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <datalist id="sweep-keys">
          {keys.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        {([1, 2] as const).map((n) => {
          const [k, v] = n === 1 ? (['key1', 'values1'] as const) : (['key2', 'values2'] as const);
          return (
            <Fragment key={n}>
              <label>
                {x.key(n)}
                <input
                  list="sweep-keys"
                  value={form[k]}
                  placeholder={n === 2 ? x.none : undefined}
                  onChange={(e) => set({ [k]: e.target.value })}
                  spellCheck={false}
                />
              </label>
              <label>
                {x.values(n)}
                <input
                  value={form[v]}
                  onChange={(e) => set({ [v]: e.target.value })}
                  spellCheck={false}
                  disabled={n === 2 && !form.key2.trim()}
                  aria-describedby="sweep-values-hint"
                />
              </label>
            </Fragment>
          );
        })}
        <p id="sweep-values-hint" className="muted hint">
          {x.valuesHint}
        </p>
        <label className="wide">
          {x.metrics}
          <input
            value={form.metrics}
            onChange={(e) => set({ metrics: e.target.value })}
            spellCheck={false}
            aria-describedby="sweep-metrics-hint"
          />
        </label>
        <p id="sweep-metrics-hint" className="muted hint">
          {x.metricsHint}
        </p>
        <div className="row">
          <button type="submit" disabled={sw.running || site.engine !== 'ready'}>
            {x.run}
          </button>
          {sw.running && (
            <button type="button" onClick={() => store.cancelSweep()}>
              {x.cancel}
            </button>
          )}
          {sw.grid && (
            <label
              className="inline"
              data-testid="sweep-progress"
              data-ms={sw.ms === null ? undefined : Math.round(sw.ms)}
            >
              {sw.running || sw.done === total
                ? sw.ms !== null
                  ? x.done(total, formatSeconds(sw.ms / 1000))
                  : x.progress(sw.done, total, sw.workers)
                : x.cancelled(sw.done, total)}{' '}
              <progress max={total} value={sw.done} />
            </label>
          )}
        </div>
      </form>
      {sw.error && (
        <p className="error" role="alert">
          {sw.error}
        </p>
      )}
      {stale && <p className="note">{x.stale}</p>}
      {sw.grid && sw.done > 0 && (
        <>
          <div className="row sweep-export">
            <button
              type="button"
              aria-label={x.exportLabel('SVG')}
              onClick={() => plots.current && exportSvg(plots.current)}
            >
              {x.exportSvg}
            </button>
            <button
              type="button"
              aria-label={x.exportLabel('PNG')}
              onClick={() => plots.current && void exportPng(plots.current)}
            >
              {x.exportPng}
            </button>
            <button
              type="button"
              aria-label={x.exportLabel('CSV')}
              onClick={() =>
                download(
                  'sweep.csv',
                  new Blob([sweepCsv(sw.grid!, sw.results)], { type: 'text/csv' }),
                )
              }
            >
              {x.exportCsv}
            </button>
          </div>
          <p className="muted">{x.openHint}</p>
          <div className="chart-grid" ref={plots}>
            {sw.grid.metrics.map((m, i) =>
              sw.grid!.vary.length === 1 ? (
                <LinePlot key={m} grid={sw.grid!} results={sw.results} m={i} />
              ) : (
                <HeatMap key={m} grid={sw.grid!} results={sw.results} m={i} />
              ),
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** The x axis's title: the varied key. */
function XTitle({ text }: { text: string }) {
  return (
    <text x={(M.l + W - M.r) / 2} y={H - 6} textAnchor="middle" fontSize={11} fill="currentColor">
      {text}
    </text>
  );
}

/** What makes a plot's mark a button that opens the run of point `i` (click, Enter, Space). */
function pointButton(
  store: ReturnType<typeof useStore>,
  grid: SweepGrid,
  i: number,
  metric: string,
  value: string,
) {
  const open = () => store.openSweepPoint(i);
  return {
    className: 'sweep-point',
    role: 'button',
    tabIndex: 0,
    'aria-label': msg.sweep.point(pointText(grid, i), metric, value),
    onClick: open,
    onKeyDown: (e: KeyboardEvent<SVGElement>) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open();
      }
    },
  };
}

/** The values of point `i` as `KEY=V, KEY=V`. */
function pointText(grid: SweepGrid, i: number): string {
  const p = grid.points[i]!;
  return grid.vary.map((v, k) => `${v.key}=${p.values[k]}`).join(', ');
}

function LinePlot({ grid, results, m }: { grid: SweepGrid; results: SweepResults; m: number }) {
  const store = useStore();
  const metric = grid.metrics[m]!;
  const key = grid.vary[0]!;
  const numeric = numericValues(key.values);
  const pts = useMemo(() => lineOf(grid, results, m), [grid, results, m]);
  const { xs, ys, path } = useMemo(() => {
    const xDomain: [number, number] = numeric
      ? (extent(key.values.map(Number)) as [number, number])
      : [0, Math.max(1, key.values.length - 1)];
    const xs = scaleLinear()
      .domain(xDomain[0] === xDomain[1] ? [xDomain[0] - 1, xDomain[1] + 1] : xDomain)
      .range([M.l, W - M.r]);
    const [lo, hi] = extent(pts, (p) => p.y) as [number | undefined, number | undefined];
    const ys = scaleLinear()
      .domain([Math.min(0, lo ?? 0), hi === undefined || hi === lo ? (hi ?? 0) + 1 : hi])
      .nice()
      .range([H - M.b, M.t]);
    const path =
      line<{ x: number; y: number }>()
        .x((p) => xs(p.x))
        .y((p) => ys(p.y))(pts) ?? '';
    return { xs, ys, path };
  }, [pts, numeric, key.values]);
  const title = msg.sweep.plot(metric, key.key);
  return (
    <figure data-testid="sweep-plot">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="sweep-svg">
        <line x1={M.l} x2={W - M.r} y1={H - M.b} y2={H - M.b} stroke="currentColor" />
        <line x1={M.l} x2={M.l} y1={M.t} y2={H - M.b} stroke="currentColor" />
        {ys.ticks(4).map((t) => (
          <g key={t}>
            <line
              x1={M.l}
              x2={W - M.r}
              y1={ys(t)}
              y2={ys(t)}
              stroke="currentColor"
              strokeOpacity={0.15}
            />
            <text x={M.l - 4} y={ys(t) + 3} textAnchor="end" fontSize={10} fill="currentColor">
              {sweepNumber(t)}
            </text>
          </g>
        ))}
        {(numeric ? xs.ticks(6) : key.values.map((_, i) => i)).map((t) => (
          <text
            key={t}
            x={xs(t)}
            y={H - M.b + 14}
            textAnchor="middle"
            fontSize={10}
            fill="currentColor"
          >
            {numeric ? sweepNumber(t) : key.values[t]}
          </text>
        ))}
        <XTitle text={key.key} />
        <path d={path} fill="none" stroke="#1a56c4" strokeWidth={2} />
        {pts.map((p) => (
          <circle
            key={p.point}
            cx={xs(p.x)}
            cy={ys(p.y)}
            r={5}
            fill="#1a56c4"
            {...pointButton(store, grid, p.point, metric, sweepNumber(p.y))}
          >
            <title>{`${pointText(grid, p.point)}: ${sweepNumber(p.y)}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}

function HeatMap({ grid, results, m }: { grid: SweepGrid; results: SweepResults; m: number }) {
  const store = useStore();
  const metric = grid.metrics[m]!;
  const [rowKey, colKey] = [grid.vary[0]!, grid.vary[1]!];
  const cells = useMemo(() => heatOf(grid, results, m), [grid, results, m]);
  const { xb, yb, color, lo, hi } = useMemo(() => {
    const xb = scaleBand<number>()
      .domain(colKey.values.map((_, i) => i))
      .range([M.l, W - M.r])
      .padding(0.05);
    const yb = scaleBand<number>()
      .domain(rowKey.values.map((_, i) => i))
      .range([M.t, H - M.b])
      .padding(0.05);
    const [lo, hi] = extent(
      cells.filter((c) => c.v !== null),
      (c) => c.v!,
    ) as [number | undefined, number | undefined];
    const color = scaleLinear<string>()
      .domain([lo ?? 0, hi === lo ? (hi ?? 0) + 1 : (hi ?? 1)])
      .range(['#e8eefc', '#123a82']);
    return { xb, yb, color, lo, hi };
  }, [cells, rowKey.values, colKey.values]);
  const title = msg.sweep.heat(metric, rowKey.key, colKey.key);
  const every = (n: number) => Math.max(1, Math.ceil(n / 10));
  return (
    <figure data-testid="sweep-plot">
      <figcaption>
        {title}
        {lo !== undefined && (
          <span className="muted">
            {' '}
            ({sweepNumber(lo)} … {sweepNumber(hi)})
          </span>
        )}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="sweep-svg">
        {cells.map((c) => (
          <rect
            key={c.point}
            x={xb(c.col)}
            y={yb(c.row)}
            width={xb.bandwidth()}
            height={yb.bandwidth()}
            fill={c.v === null ? 'none' : color(c.v)}
            stroke={c.v === null ? 'currentColor' : 'none'}
            strokeOpacity={0.2}
            {...pointButton(
              store,
              grid,
              c.point,
              metric,
              c.v === null ? msg.sweep.noValue : sweepNumber(c.v),
            )}
          >
            <title>{`${pointText(grid, c.point)}: ${sweepNumber(c.v)}`}</title>
          </rect>
        ))}
        {colKey.values.map((v, i) =>
          i % every(colKey.values.length) === 0 ? (
            <text
              key={v}
              x={xb(i)! + xb.bandwidth() / 2}
              y={H - M.b + 14}
              textAnchor="middle"
              fontSize={10}
              fill="currentColor"
            >
              {v}
            </text>
          ) : null,
        )}
        {rowKey.values.map((v, i) =>
          i % every(rowKey.values.length) === 0 ? (
            <text
              key={v}
              x={M.l - 4}
              y={yb(i)! + yb.bandwidth() / 2 + 3}
              textAnchor="end"
              fontSize={10}
              fill="currentColor"
            >
              {v}
            </text>
          ) : null,
        )}
        <XTitle text={colKey.key} />
        <text
          x={12}
          y={(M.t + H - M.b) / 2}
          textAnchor="middle"
          fontSize={11}
          fill="currentColor"
          transform={`rotate(-90 12 ${(M.t + H - M.b) / 2})`}
        >
          {rowKey.key}
        </text>
      </svg>
    </figure>
  );
}

/** The plots as one SVG document: each figure's SVG stacked, with its caption as a title. */
function svgDocument(root: HTMLElement): { text: string; width: number; height: number } {
  const figures = [...root.querySelectorAll('figure')];
  const parts = figures.map((f, i) => {
    const svg = f.querySelector('svg')!;
    const caption = f.querySelector('figcaption')?.textContent ?? '';
    const esc = caption.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return `<g transform="translate(0 ${i * (H + 24)})"><text x="8" y="14" font-size="12">${esc}</text><g transform="translate(0 20)">${svg.innerHTML}</g></g>`;
  });
  const height = figures.length * (H + 24);
  const text =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" ` +
    `font-family="system-ui, sans-serif" style="color:#1d1d1f;background:#ffffff">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>${parts.join('')}</svg>`;
  return { text, width: W, height };
}

function exportSvg(root: HTMLElement): void {
  download('sweep.svg', new Blob([svgDocument(root).text], { type: 'image/svg+xml' }));
}

async function exportPng(root: HTMLElement): Promise<void> {
  const { text, width, height } = svgDocument(root);
  const img = new Image();
  // A data: URL, which the page's Content-Security-Policy allows for images (blob: it does not).
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('the SVG did not load as an image'));
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  });
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  const g = canvas.getContext('2d')!;
  g.scale(scale, scale);
  g.drawImage(img, 0, 0);
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
  if (blob) download('sweep.png', blob);
}
