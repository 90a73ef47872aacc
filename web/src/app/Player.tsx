// Time controls: play/pause, step one event, step to the next decision of a chosen kind, a
// log-scale speed slider, and a scrubber over the recorded window. The keyboard shortcuts
// (App.tsx) call the same functions.

import { useEffect, useMemo, useState, type ReactNode } from 'react';

import type { Side } from '../engine/protocol';
import { formatInstant, formatNs } from '../model/format';
import { schemaOf, stepKinds, stepMatcher } from '../model/log';
import { defaultSpeed, sliderMax, sliderToSpeed, speedToSlider } from '../model/playback';
import { nextRow, rowAtOrBefore } from '../model/trace';
import type { Clock } from './clock';
import { useClock, useCursor, useSite, useStore } from './context';
import { msg } from '../i18n/messages';
import type { SiteStore, Snapshot } from './store';

/** Steps the cursor to the next (or previous) event of the side the log shows. */
export function stepEvent(snap: Snapshot, clock: Clock, dir: 1 | -1): void {
  const m = snap[logSide(snap)]?.model;
  if (!m) return;
  const t = m.cols.t;
  // Events at the same instant are stepped through one by one: the clock keeps the row.
  const cur = cursorRow(snap, clock.t, clock.row);
  const next = Math.min(t.length - 1, Math.max(0, cur + dir));
  goToRow(snap, clock, next);
}

export function goToRow(snap: Snapshot, clock: Clock, row: number): void {
  const m = snap[logSide(snap)]?.model;
  if (!m || row < 0 || row >= m.cols.t.length) return;
  clock.pause();
  clock.seek(m.cols.t[row]!, row);
}

/** The decision row the cursor stands on: the stepped-to row, else the last at or before t. */
export function cursorRow(snap: Snapshot, t: number, row: number | null): number {
  const m = snap[logSide(snap)]?.model;
  if (!m) return -1;
  if (row !== null && row < m.cols.t.length && m.cols.t[row] === t) return row;
  return rowAtOrBefore(m.cols.t, t);
}

/** Steps to the next (previous) row of the chosen kind; returns false when there is none. */
export function stepKind(snap: Snapshot, clock: Clock, dir: 1 | -1): boolean {
  const m = snap[logSide(snap)]?.model;
  const schema = schemaOf(m, snap.catalog?.trace);
  if (!m || !schema) return false;
  const match = stepMatcher(m, schema, snap.state.step);
  if (!match) return false;
  const row = nextRow(m.cols, cursorRow(snap, clock.t, clock.row), match, dir);
  if (row < 0) return false;
  goToRow(snap, clock, row);
  return true;
}

export function logSide(snap: Snapshot): Side {
  return snap.state.edit === 'b' && snap.b?.model ? 'b' : 'a';
}

export function speedOf(snap: Snapshot): number {
  const m = snap.a.model;
  return snap.state.speed ?? defaultSpeed(m ? m.summary.toNs - m.summary.fromNs : 2e6);
}

export function changeSpeed(store: SiteStore, snap: Snapshot, factor: number): void {
  const v = speedToSlider(speedOf(snap)) + factor;
  store.setView({ speed: sliderToSpeed(Math.max(0, Math.min(sliderMax(), v))) });
}

/** The recorded window of the scenario, in ms: any stretch of the whole run can be recorded. */
function WindowPicker({
  fromNs,
  toNs,
  durationMs,
}: {
  fromNs: number;
  toNs: number;
  durationMs: number;
}) {
  const store = useStore();
  const [edit, setEdit] = useState<{ key: string; from: string; to: string } | null>(null);
  const key = `${fromNs}:${toNs}`;
  const from = edit?.key === key ? edit.from : String(fromNs / 1e6);
  const to = edit?.key === key ? edit.to : String(toNs / 1e6);
  const r = msg.run;
  const ok = (a: number, b: number) =>
    Number.isFinite(a) && Number.isFinite(b) && a >= 0 && b > a && b <= durationMs;
  return (
    <form
      className="window-picker"
      aria-label={r.window}
      onSubmit={(e) => {
        e.preventDefault();
        const a = Number(from);
        const b = Number(to);
        if (ok(a, b)) store.setWindow(Math.round(a * 1e6), Math.round(b * 1e6));
      }}
    >
      <span className="muted">{r.window}</span>
      <label className="inline">
        {r.windowFrom}{' '}
        <input
          type="text"
          inputMode="decimal"
          size={7}
          value={from}
          onChange={(e) => setEdit({ key, from: e.target.value, to })}
        />
      </label>
      <label className="inline">
        {r.windowTo}{' '}
        <input
          type="text"
          inputMode="decimal"
          size={7}
          value={to}
          onChange={(e) => setEdit({ key, from, to: e.target.value })}
        />
      </label>
      <button type="submit" disabled={!ok(Number(from), Number(to))}>
        {r.windowApply}
      </button>
      <span className="muted">{r.windowOf(durationMs)}</span>
    </form>
  );
}

/** A moment marked on the time line: a lesson step's decision (StepStage.tsx). */
export interface TimeMark {
  t: number;
  /** What happens there, in words (the marker's accessible name). */
  label: string;
}

export function Player({
  status,
  runState,
  marks = [],
}: {
  status: string;
  runState: string;
  marks?: readonly TimeMark[];
}) {
  const site = useSite();
  const store = useStore();
  const clock = useClock();
  const cursor = useCursor();
  const m = site.a.model;
  const lm = site[logSide(site)]?.model;
  const schema = schemaOf(lm, site.catalog?.trace);
  const holdAt = msg.player.holdAt;
  const kinds = useMemo(() => (schema ? stepKinds(schema, holdAt) : []), [schema, holdAt]);
  const speed = speedOf(site);
  useEffect(() => clock.setSpeed(speed), [clock, speed]);
  const from = m?.summary.fromNs ?? 0;
  const to = m?.summary.toNs ?? 1;
  const row = cursorRow(site, cursor.t, cursor.row);
  const total = lm?.cols.t.length ?? 0;
  const disabled = !m;
  const p = msg.player;

  return (
    <section className="player" aria-label={p.region}>
      <div className="player-row">
        <button
          type="button"
          onClick={() => clock.toggle()}
          disabled={disabled}
          aria-keyshortcuts="Space"
        >
          {cursor.playing ? p.pause : p.play}
        </button>
        <KeyButton
          keys="Home"
          label={p.start}
          disabled={disabled}
          onClick={() => goToRow(site, clock, 0)}
        >
          |◀
        </KeyButton>
        <KeyButton
          keys="ArrowLeft"
          label={p.stepBack}
          disabled={disabled}
          onClick={() => stepEvent(site, clock, -1)}
        >
          ◀
        </KeyButton>
        <KeyButton
          keys="ArrowRight"
          label={p.stepForward}
          disabled={disabled}
          onClick={() => stepEvent(site, clock, 1)}
        >
          ▶
        </KeyButton>
        <label className="inline">
          {p.stepKind}{' '}
          <select
            aria-label={p.stepKind}
            value={site.state.step}
            onChange={(e) => store.setView({ step: e.target.value })}
          >
            {kinds.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <KeyButton
          keys="Shift+ArrowLeft"
          label={p.prevOfKind}
          disabled={disabled}
          onClick={() => stepKind(site, clock, -1)}
        >
          ⇤
        </KeyButton>
        <KeyButton
          keys="Shift+ArrowRight"
          label={p.nextOfKind}
          disabled={disabled}
          onClick={() => stepKind(site, clock, 1)}
        >
          ⇥
        </KeyButton>
        <label className="inline speed">
          {p.speed}{' '}
          <input
            type="range"
            min={0}
            max={sliderMax()}
            step={1}
            value={speedToSlider(speed)}
            aria-valuetext={p.speedValue(speed)}
            onChange={(e) => store.setView({ speed: sliderToSpeed(Number(e.target.value)) })}
          />
          <output>{p.speedValue(speed)}</output>
        </label>
      </div>
      <div className="player-row">
        <label className="scrubber">
          <span className="visually-hidden">{p.scrubber}</span>
          <input
            type="range"
            min={from}
            max={to}
            step={Math.max(1, (to - from) / 10000)}
            value={cursor.t}
            disabled={disabled}
            aria-valuetext={`${formatInstant(cursor.t)}, ${p.event(row, total)}`}
            onChange={(e) => {
              clock.pause();
              clock.seek(Number(e.target.value));
            }}
          />
          {marks.map((mark) => {
            const frac = (mark.t - from) / Math.max(1, to - from);
            return (
              <span
                key={mark.t}
                className="time-mark"
                data-testid="time-mark"
                data-t={mark.t}
                role="img"
                aria-label={mark.label}
                title={mark.label}
                style={{ left: `${100 * frac}%`, ['--mark-frac' as string]: frac }}
              >
                ▼
              </span>
            );
          })}
        </label>
        <output className="time" aria-label={p.time}>
          {formatInstant(cursor.t)} <span className="muted">/ {formatNs(to - from)}</span>
        </output>
        {m && (
          <WindowPicker
            fromNs={m.summary.fromNs}
            toNs={m.summary.toNs}
            durationMs={Number(
              site.a.info?.keys['sim.duration_ms']?.values[0] ?? m.summary.toNs / 1e6,
            )}
          />
        )}
        <output className="muted event-no" data-testid="event-index">
          {p.event(row, total)}
        </output>
        <span role="status" className="muted status" data-run-state={runState}>
          {status}
        </span>
      </div>
    </section>
  );
}

/** A player button with its keyboard shortcut (`aria-keyshortcuts`) and accessible name. */
function KeyButton({
  keys,
  label,
  disabled,
  onClick,
  children,
}: {
  keys: string;
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-keyshortcuts={keys}
      aria-label={label}
    >
      {children}
    </button>
  );
}
