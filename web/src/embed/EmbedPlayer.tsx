// The embed's player, loaded on play: the simulator's store (without URL history), its
// pipeline, one chart and the key counters, with compact time controls (play, step, scrub).
// Keys work only while the embed itself has the focus: the host page keeps its own.

import { useEffect, useMemo, useState } from 'react';

import { ClockContext, StoreContext, useClock, useCursor, useSite } from '../app/context';
import { Clock } from '../app/clock';
import { OneChart } from '../app/Charts';
import { msg } from '../i18n/messages';
import { Pipeline } from '../app/pipeline/Pipeline';
import { cursorRow, goToRow, stepEvent } from '../app/Player';
import { SiteStore } from '../app/store';
import { KeyCounters } from '../app/KeyCounters';
import { prefersReducedMotion } from '../shared/motion';
import { useText } from '../shared/useLang';
import { currentLang } from '../i18n/current';
import { formatInstant, formatNs } from '../model/format';
import { defaultState, serializeState } from '../model/urlstate';
import type { EmbedConfig } from '../shared/embedParams';

/** Seconds of screen time the window plays in. */
const PLAY_SECONDS = 20;

/** The simulator's URL state for the embed's configuration. */
export function embedState(c: EmbedConfig): string {
  const s = defaultState(c.scenario, c.variant);
  s.a.sets = [...c.sets];
  s.theme = c.theme;
  if (c.fromUs !== null && c.toUs !== null) {
    s.fromNs = c.fromUs * 1000;
    s.toNs = c.toUs * 1000;
    s.speed = ((c.toUs - c.fromUs) * 1000) / PLAY_SECONDS;
  }
  if (c.tUs !== null) s.t = c.tUs * 1000;
  return serializeState(s);
}

export default function EmbedPlayer({ config }: { config: EmbedConfig }) {
  const [store] = useState(() => new SiteStore(embedState(config), { history: false }));
  const [clock] = useState(() => new Clock());
  useEffect(() => {
    void store.start();
    return () => store.stop();
  }, [store]);
  return (
    <StoreContext.Provider value={store}>
      <ClockContext.Provider value={clock}>
        <PlayerView config={config} />
      </ClockContext.Provider>
    </StoreContext.Provider>
  );
}

function PlayerView({ config }: { config: EmbedConfig }) {
  const t = useText();
  const site = useSite();
  const clock = useClock();
  const a = site.a.model;

  // A run: the clock spans its window from the configured instant and plays (unless the reader
  // asked for reduced motion and did not press play: autoplay then waits for a press).
  useEffect(() => {
    if (!a) return;
    clock.setRange(a.summary.fromNs, a.summary.toNs);
    clock.setSpeed(site.state.speed ?? (a.summary.toNs - a.summary.fromNs) / PLAY_SECONDS);
    if (config.tUs !== null) clock.seek(config.tUs * 1000);
    if (!(config.autoplay && prefersReducedMotion())) clock.play();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [a, clock]);

  // Space plays and pauses, arrows step, while the embed has the focus.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement | null)?.tagName;
      if (tag === 'INPUT' || tag === 'BUTTON' || tag === 'A' || tag === 'SELECT') return;
      const snap = site;
      if (e.key === ' ') clock.toggle();
      else if (e.key === 'ArrowRight') stepEvent(snap, clock, 1);
      else if (e.key === 'ArrowLeft') stepEvent(snap, clock, -1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [clock, site]);

  const open = useMemo(() => {
    const q = new URLSearchParams(embedState(config));
    q.set('lang', currentLang());
    return `../?${q.toString()}`;
  }, [config]);

  const panels = new Set(config.panels);
  const runState = site.engine === 'failed' ? 'failed' : site.a.running || !a ? 'running' : 'ready';
  return (
    <div className="embed-player" data-run-state={runState}>
      {site.engine === 'failed' && (
        <p role="alert" className="note">
          {t.embed.failed(site.engineError ?? '')}
        </p>
      )}
      {site.a.error && (
        <p role="alert" className="note">
          {t.embed.bad(site.a.error.message)}
        </p>
      )}
      {!a && site.engine !== 'failed' && <p role="status">{t.embed.loading}</p>}
      {panels.has('player') && a && <Controls />}
      {panels.has('pipeline') && <Pipeline side="a" />}
      {panels.has('chart') && a && <OneChart name={config.chart} />}
      {panels.has('counters') && a && <KeyCounters names={[]} />}
      <p className="embed-open">
        <a href={open} target="_blank" rel="noopener noreferrer">
          {t.embed.openFull}
        </a>
      </p>
    </div>
  );
}

/** Play/pause, next event and the scrubber: the compact time controls. */
function Controls() {
  const t = useText();
  const site = useSite();
  const clock = useClock();
  const cursor = useCursor();
  const m = site.a.model!;
  const from = m.summary.fromNs;
  const to = m.summary.toNs;
  const row = cursorRow(site, cursor.t, cursor.row);
  return (
    <div className="embed-controls" role="group" aria-label={msg.player.region}>
      <button type="button" onClick={() => clock.toggle()}>
        {cursor.playing ? t.embed.pause : t.embed.play}
      </button>
      <button type="button" onClick={() => stepEvent(site, clock, 1)} aria-label={t.embed.step}>
        ▶|
      </button>
      <label className="scrubber">
        <span className="visually-hidden">{t.embed.scrub}</span>
        <input
          type="range"
          min={from}
          max={to}
          step={Math.max(1, (to - from) / 10000)}
          value={cursor.t}
          aria-valuetext={`${formatInstant(cursor.t)}, ${msg.player.event(row, m.cols.t.length)}`}
          onChange={(e) => {
            clock.pause();
            clock.seek(Number(e.target.value));
          }}
        />
      </label>
      <output>
        {formatInstant(cursor.t)} / {formatNs(to - from)}
      </output>
      <button type="button" onClick={() => goToRow(site, clock, 0)} aria-label={msg.player.start}>
        |◀
      </button>
    </div>
  );
}
