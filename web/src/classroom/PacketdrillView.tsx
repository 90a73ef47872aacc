// The packetdrill player (`?view=packetdrill`, `&script=<path>` opens an upstream script of
// scenarios/packetdrill/): open a `.pkt` file (file picker, or drop it on the script) or pick an
// upstream script, and watch the engine run it: each event's lines are highlighted as it
// happens, at the script's pace, with what the engine sent or returned, and where the script
// stopped (a mismatch, expected beside actual, or something the engine does not model) is shown
// on its line.
//
// The engine runs the whole script at once in "Model vs Linux"'s worker (startConformEngine:
// verb `packetdrill`, the report of `sendpath packetdrill --json`); the page then plays the
// report back (model/packetdrill.ts). With reduced motion the page shows the end at once, and the
// reader steps through the events with the buttons. This module is a chunk of its own, with the
// scripts and the view's strings (i18n/packetdrill.ts): none of it is on the first load.

import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';

import { startConformEngine, type EngineBridge } from '../engine/bridge';
import type { PacketdrillReport } from '../engine/generated/PacketdrillReport';
import { withLang } from '../i18n/current';
import { packetdrillText, type PacketdrillMessages } from '../i18n/packetdrill';
import {
  currentEvent,
  lineStates,
  loadUpstream,
  seconds,
  stopOf,
  upstreamScripts,
  waitBefore,
  type Speed,
  type Stop,
} from '../model/packetdrill';
import { prefersReducedMotion } from '../shared/motion';
import { useLang } from '../shared/useLang';
import './packetdrill.css';

/** A script the reader opened: its name and text. */
interface Script {
  name: string;
  text: string;
}

/** What the page shows about the run: nothing yet, running, its report, or an error. */
type RunState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; report: PacketdrillReport }
  | { kind: 'failed'; error: string };

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The status line for a finished run. */
function outcomeText(t: PacketdrillMessages, r: PacketdrillReport): string {
  const o = r.outcome;
  switch (o.kind) {
    case 'pass':
      return t.pass(r.name, r.lines.length);
    case 'fail':
      return t.fail(r.name, o.line);
    case 'unsupported':
      return t.unsupported(r.name, o.line);
    case 'error':
      return t.error(r.name, o.line);
  }
}

export function PacketdrillView() {
  const lang = useLang();
  const t = packetdrillText(lang);
  const [params] = useState(() => new URLSearchParams(location.search));
  const [script, setScript] = useState<Script | null>(null);
  const [run, setRun] = useState<RunState>({ kind: 'idle' });
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<Speed>('real');
  const [readError, setReadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState(() => params.get('script') ?? '');
  const engine = useRef<EngineBridge | null>(null);

  useEffect(() => {
    const e = startConformEngine();
    engine.current = e;
    return () => {
      engine.current = null;
      e.terminate();
    };
  }, []);

  // A script is opened: the page starts over, and the engine runs it (below).
  const fresh = useCallback(
    (s: Script) => {
      setScript(s);
      setReadError(null);
      setRun({ kind: 'running' });
      setStep(0);
      setPlaying(false);
    },
    [setScript, setReadError, setRun, setStep, setPlaying],
  );

  useEffect(() => {
    const e = engine.current;
    if (!script || !e) return;
    let live = true;
    e.call('packetdrill', { text: script.text, name: script.name }).then(
      (report) => {
        if (!live) return;
        setRun({ kind: 'done', report });
        if (prefersReducedMotion()) setStep(report.lines.length);
        else setPlaying(true);
      },
      (err: unknown) => {
        if (live) setRun({ kind: 'failed', error: message(err) });
      },
    );
    return () => {
      live = false;
    };
  }, [script]);

  const openUpstream = (path: string) => {
    setChosen(path);
    if (!path) return;
    loadUpstream(path).then(
      (text) => fresh({ name: path, text }),
      (err: unknown) => setReadError(message(err)),
    );
  };

  // `&script=<path>`: an upstream script opened from a link.
  useEffect(() => {
    const path = params.get('script');
    if (!path) return;
    let live = true;
    loadUpstream(path).then(
      (text) => {
        if (live) fresh({ name: path, text });
      },
      (err: unknown) => {
        if (live) setReadError(message(err));
      },
    );
    return () => {
      live = false;
    };
  }, [params, fresh]);

  const openFile = (file: File | undefined) => {
    if (!file) return;
    setChosen('');
    file.text().then(
      (text) => fresh({ name: file.name, text }),
      (err: unknown) => setReadError(message(err)),
    );
  };

  const report = run.kind === 'done' ? run.report : null;
  const total = report?.lines.length ?? 0;

  // Playback: the next event after the script's gap (scaled), until the last.
  const active = playing && report !== null && step < total;
  useEffect(() => {
    if (!active || !report) return;
    const timer = setTimeout(() => setStep((s) => s + 1), waitBefore(report, step, speed));
    return () => clearTimeout(timer);
  }, [active, report, step, speed]);

  const lines = useMemo(() => script?.text.split('\n') ?? [], [script]);
  const states = useMemo(
    () => (report ? lineStates(report, step, lines.length) : lines.map(() => 'idle' as const)),
    [report, step, lines],
  );
  const stop = report ? stopOf(report) : null;
  const showStop = stop !== null && step >= total;
  const current = report ? currentEvent(report, step) : null;

  // Keep the current line in view as the script plays.
  const scriptRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = scriptRef.current?.querySelector('[aria-current="step"], .pd-fail, .pd-unsupported');
    if (el && 'scrollIntoView' in el)
      el.scrollIntoView({ block: 'nearest', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  }, [step, showStop]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    openFile(e.dataTransfer.files[0]);
  };

  return (
    <main className="page-narrow pd">
      <p>
        <a href={withLang({})}>{t.back}</a>
      </p>
      <h1>{t.title}</h1>
      <p className="lead">{t.intro}</p>

      <div className="pd-open">
        <label className="pd-file">
          {t.open}
          <input
            type="file"
            accept=".pkt,text/plain"
            onChange={(e) => openFile(e.currentTarget.files?.[0])}
          />
        </label>
        <label>
          {t.upstream}{' '}
          <select value={chosen} onChange={(e) => openUpstream(e.currentTarget.value)}>
            <option value="">{t.choose}</option>
            {upstreamScripts.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
      </div>

      <p role="status" aria-live="polite" className={`pd-status pd-status-${run.kind}`}>
        {readError !== null
          ? t.readFailed(readError)
          : run.kind === 'idle'
            ? t.empty
            : run.kind === 'running'
              ? t.running(script?.name ?? '')
              : run.kind === 'failed'
                ? t.engineFailed(run.error)
                : step >= total
                  ? outcomeText(t, run.report)
                  : t.progress(step, total, seconds(current?.t_us ?? 0))}
      </p>

      {report && (
        <div className="pd-controls" role="group" aria-label={t.controls}>
          <button
            type="button"
            onClick={() => {
              if (active) {
                setPlaying(false);
                return;
              }
              if (step >= total) setStep(0);
              setPlaying(true);
            }}
          >
            {active ? t.pause : t.play}
          </button>
          <button
            type="button"
            disabled={step >= total}
            onClick={() => {
              setPlaying(false);
              setStep((s) => Math.min(total, s + 1));
            }}
          >
            {t.step}
          </button>
          <button
            type="button"
            onClick={() => {
              setPlaying(false);
              setStep(0);
            }}
          >
            {t.restart}
          </button>
          <button
            type="button"
            onClick={() => {
              setPlaying(false);
              setStep(total);
            }}
          >
            {t.end}
          </button>
          <label>
            {t.speed}{' '}
            <select value={speed} onChange={(e) => setSpeed(e.currentTarget.value as Speed)}>
              <option value="slow">{t.speeds.slow}</option>
              <option value="real">{t.speeds.real}</option>
              <option value="fast">{t.speeds.fast}</option>
            </select>
          </label>
        </div>
      )}

      <section
        className="pd-script-box"
        aria-label={t.script}
        onDragOver={(e) => e.preventDefault()}
        onDrop={onDrop}
        data-testid="pd-drop"
        // The script scrolls: the keyboard can reach and scroll it.
        tabIndex={0}
      >
        {script === null ? (
          <p className="pd-drop-hint">{t.drop}</p>
        ) : (
          <ol className="pd-script" ref={scriptRef}>
            {lines.map((text, i) => {
              const n = i + 1;
              const state = states[i] ?? 'idle';
              const isCurrentStart = current !== null && current.line === n && step <= total;
              return (
                <li
                  key={n}
                  value={n}
                  data-line={n}
                  className={`pd-${state}`}
                  aria-current={state === 'current' ? 'step' : undefined}
                >
                  <code>{text || ' '}</code>
                  {isCurrentStart && current.detail && (
                    <span className="pd-detail">
                      {current.kind === 'outbound' ? t.engineSent : t.returned}
                      <code>{current.detail}</code>
                    </span>
                  )}
                  {showStop && stop.line === n && <StopNote stop={stop} t={t} />}
                </li>
              );
            })}
          </ol>
        )}
      </section>

      {report && report.notes.length > 0 && (
        <section aria-labelledby="pd-notes-h">
          <h2 id="pd-notes-h">{t.notes}</h2>
          <ul>
            {report.notes.map((n) => (
              <li key={n} lang="en">
                {n}
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

/** Why the script stopped, on its line: the engine's message (English, as packetdrill prints). */
function StopNote({ stop, t }: { stop: Stop; t: PacketdrillMessages }) {
  const heading =
    stop.kind === 'fail'
      ? t.stopFail(stop.line)
      : stop.kind === 'unsupported'
        ? t.stopUnsupported(stop.line)
        : t.stopError(stop.line);
  return (
    <div className="pd-stop" role="alert" data-testid="pd-stop">
      <strong>{heading}</strong>
      {stop.expected !== null && (
        <span className="pd-vs">
          {t.expected}
          <code>{stop.expected}</code>
        </span>
      )}
      {stop.actual !== null && (
        <span className="pd-vs">
          {t.actual}
          <code>{stop.actual}</code>
        </span>
      )}
      <pre lang="en">{stop.message}</pre>
    </div>
  );
}
