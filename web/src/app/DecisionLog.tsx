// The decision log: every event of the run in words, with the kernel function that made it
// (the engine writes the words, on demand, only for the rows on screen). Filterable by host,
// flow, function and reason; a click moves the time cursor to the event.

import { useEffect, useMemo, useRef, useState } from 'react';

import type { RecordedFacts } from '../capture/replay';
import { useLang } from '../shared/useLang';
import { ackReasonText, logLine } from '../i18n/log';
import { formatInstant } from '../model/format';
import {
  filterRows,
  functionOptions,
  parseLogFilter,
  reasonOptions,
  schemaOf,
  serializeLogFilter,
  type LogFilter,
} from '../model/log';
import { simRow } from '../model/logRow';
import { lowerBound } from '../model/trace';
import { useClock, useCursor, useSiteDeferred, useStore } from './context';
import { msg } from '../i18n/messages';
import { cursorRow, goToRow, logSide } from './Player';

const ROW_PX = 22;
/**
 * A row's English words and what other languages need besides its fields: for a recording,
 * what it recorded; for a counted autocork, the running count.
 */
interface Words {
  text: string;
  facts: RecordedFacts | null;
  autocorking: number | null;
}

const EMPTY = new Map<number, Words>();
const VIEW_ROWS = 14;

export function DecisionLog() {
  const site = useSiteDeferred();
  const store = useStore();
  const clock = useClock();
  const cursor = useCursor();
  const side = logSide(site);
  const view = site[side];
  const m = view?.model ?? null;
  const schema = schemaOf(m, site.catalog?.trace);
  const filter = parseLogFilter(site.state.log);
  const rows = useMemo(
    () => (m && schema ? filterRows(m, schema, filter) : new Uint32Array(0)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [m, schema, site.state.log],
  );
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [follow, setFollow] = useState(true);
  const runKey = `${side}:${view?.runId ?? 0}`;
  const lang = useLang();
  const [cache, setCache] = useState<{ key: string; texts: Map<number, Words> }>({
    key: runKey,
    texts: new Map(),
  });
  const texts = cache.key === runKey ? cache.texts : EMPTY;
  const current = m ? cursorRow(site, cursor.t, cursor.row) : -1;
  const currentIdx = Math.min(rows.length - 1, Math.max(0, lowerBound(rows, current + 1) - 1));
  const first = Math.max(0, Math.floor(scrollTop / ROW_PX) - 2);
  const last = Math.min(rows.length, first + VIEW_ROWS + 6);

  // Follow the cursor.
  useEffect(() => {
    const el = listRef.current;
    if (!el || !follow || rows.length === 0) return;
    const top = currentIdx * ROW_PX;
    if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - ROW_PX) {
      el.scrollTop = Math.max(0, top - ROW_PX * 3);
    }
  }, [currentIdx, follow, rows.length]);

  // Words for the rows on screen.
  useEffect(() => {
    const wanted: number[] = [];
    for (let i = first; i < last; i++) {
      const r = rows[i]!;
      if (!texts.has(r)) wanted.push(r);
    }
    if (wanted.length === 0) return;
    let live = true;
    const key = runKey;
    void store.describe(side, wanted).then((words) => {
      if (!live) return;
      setCache((prev) => {
        const next = new Map(prev.key === key ? prev.texts : undefined);
        wanted.forEach((r, i) =>
          next.set(r, {
            text: words.texts[i] ?? '',
            facts: words.facts[i] ?? null,
            autocorking: words.autocorking?.[i] ?? null,
          }),
        );
        return { key, texts: next };
      });
    });
    return () => {
      live = false;
    };
  }, [first, last, rows, texts, store, side, runKey]);

  // On the store's filter, not this panel's (which hears of changes a frame late): two
  // filters chosen within a frame both apply.
  const setFilter = (patch: Partial<LogFilter>) =>
    store.setView({
      log: serializeLogFilter({ ...parseLogFilter(store.getSnapshot().state.log), ...patch }),
    });
  const l = msg.log;
  const hosts = m?.summary.result.host_names ?? [];
  const flows = [...new Set(m?.summary.result.sockets.map((s) => s.flow) ?? [])].sort(
    (a, b) => a - b,
  );
  const num = (v: string) => (v === '' ? null : Number(v));

  return (
    <section className="log" aria-labelledby="log-h">
      <h2 id="log-h">
        {l.region}
        {site.b && <span className="muted"> ({msg.run.sideLabel(side)})</span>}
      </h2>
      <div className="filters">
        <FilterSelect
          label={l.host}
          any={l.any}
          value={filter.host}
          options={hosts.map((h, i) => ({ value: String(i), label: h }))}
          onChange={(v) => setFilter({ host: num(v) })}
        />
        <FilterSelect
          label={l.flow}
          any={l.any}
          value={filter.flow}
          options={flows.map((f) => ({ value: String(f), label: String(f) }))}
          onChange={(v) => setFilter({ flow: num(v) })}
        />
        <FilterSelect
          label={l.func}
          any={l.any}
          value={filter.func}
          options={(schema ? functionOptions(schema) : []).map((f) => ({ value: f, label: f }))}
          onChange={(v) => setFilter({ func: v || null })}
        />
        <FilterSelect
          label={l.reason}
          any={l.any}
          value={filter.reason}
          options={
            schema && !m?.recording ? reasonOptions(schema, (r) => ackReasonText(lang, r)) : []
          }
          onChange={(v) => setFilter({ reason: v || null })}
        />
        <label className="inline">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} />{' '}
          {l.follow}
        </label>
        <span className="muted">{l.rows(rows.length, m?.cols.t.length ?? 0)}</span>
      </div>
      <div
        className="log-list"
        ref={listRef}
        style={{ height: VIEW_ROWS * ROW_PX }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        tabIndex={-1}
      >
        <ol aria-label={l.listLabel} style={{ height: rows.length * ROW_PX }}>
          {m &&
            Array.from({ length: last - first }, (_, k) => {
              const i = first + k;
              const r = rows[i]!;
              const sk = m.cols.sk[r]!;
              const isCur = i === currentIdx && rows[i] === current;
              const words = texts.get(r);
              // Until the words arrive, the kernel function (the same in every language).
              const line = words
                ? logLine(lang, words.text, words.facts, () =>
                    schema
                      ? simRow(
                          schema,
                          m.cols,
                          r,
                          words.autocorking,
                          m.summary.result.sockets[sk]?.active ?? true,
                        )
                      : null,
                  )
                : { text: schema?.kinds[m.cols.kind[r]!]?.func ?? '', lang: 'en' as const };
              return (
                <li key={r} style={{ top: i * ROW_PX }} className={isCur ? 'current' : undefined}>
                  <button
                    type="button"
                    aria-current={isCur ? 'step' : undefined}
                    data-row={r}
                    onClick={() => goToRow(site, clock, r)}
                  >
                    <span className="t">{formatInstant(m.cols.t[r]!)}</span>
                    <span className="h">{hosts[m.cols.host[r]!]}</span>
                    <span className="s">{sk === schema?.noSock ? '–' : `sk${sk}`}</span>
                    <span className="d" lang={line.lang}>
                      {line.text}
                    </span>
                  </button>
                </li>
              );
            })}
        </ol>
      </div>
    </section>
  );
}

/** One of the log's filters: a labelled select whose empty value means "any". */
function FilterSelect({
  label,
  any,
  value,
  options,
  onChange,
}: {
  label: string;
  any: string;
  value: string | number | null;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <label className="inline">
      {label}{' '}
      <select aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
