// Native mode on the page: opening a recording (file picker, drop, the sample menu, a
// `?capture=` link) with its progress and errors, its intro, and what it says about its host
// (the side panel, with "Simulate this"). NativePanel.tsx is the panel below the pipeline. The
// data side is in capture/ (parsed and replayed in a worker); nothing here parses.

import { useEffect, useRef, useState } from 'react';

import { SAMPLE_FILES, SAMPLES_PATH } from '../capture/samples';
import { CAPTURE_LIMITS, sizeText } from '../capture/limits';
import { formatBytes } from '../model/format';
import { useSite, useStore } from './context';
import { msg } from '../i18n/messages';
import type { SiteStore } from './store';

/** The value the sample menu gives a recording. */
export const CAPTURE_OPTION = 'capture:';

/** Opens a sample of public/samples (the link keeps it). */
export function openSample(store: SiteStore, file: string): void {
  const url = `${SAMPLES_PATH}${file}`;
  void store.openCapture({ url: new URL(url, location.href).href }, url);
}

/** The sample menu's entries: an optgroup for the Experiment select. */
export function SampleOptions() {
  const n = msg.native;
  return (
    <optgroup label={n.recordings}>
      {SAMPLE_FILES.map((f) => (
        <option key={f} value={`${CAPTURE_OPTION}${f}`}>
          {n.samples[f]?.title ?? f}
        </option>
      ))}
    </optgroup>
  );
}

/** The header's "Open a recording…" button and its hidden file input. */
export function OpenRecording() {
  const store = useStore();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} title={msg.native.openHint}>
        {msg.native.open}
      </button>
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={msg.native.open}
        data-testid="capture-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void store.openCapture({ blob: file, name: file.name }, null);
        }}
      />
    </>
  );
}

/** Files dropped anywhere on the page open as recordings; an overlay says so while dragging. */
export function DropZone() {
  const store = useStore();
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const file = e.dataTransfer?.files[0];
      // A scenario file runs; anything else is read as a recording.
      if (file && /\.toml$/i.test(file.name))
        void file.text().then((text) => store.openScenarioFile(file.name, text));
      else if (file) void store.openCapture({ blob: file, name: file.name }, null);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, [store]);
  if (!over) return null;
  return (
    <div className="drop-zone" aria-hidden="true">
      <p>{msg.native.dropHere}</p>
    </div>
  );
}

/** A recording being read (progress), or why the last one could not be replayed. */
export function CaptureStatus() {
  const site = useSite();
  const store = useStore();
  const load = site.captureLoad;
  const n = msg.native;
  if (!load) return null;
  if (load.status === 'loading') {
    const pct = load.totalBytes ? (load.bytesRead / load.totalBytes) * 100 : null;
    return (
      <div className="note capture-load" role="status" data-testid="capture-progress">
        {n.reading(load.name)}{' '}
        <progress max={100} value={pct ?? undefined} aria-label={n.reading(load.name)} />{' '}
        <span className="muted">
          {n.progress(
            formatBytes(load.bytesRead),
            load.totalBytes === null ? null : formatBytes(load.totalBytes),
            pct,
          )}
        </span>{' '}
        <button type="button" onClick={() => store.cancelCaptureLoad()}>
          {n.cancel}
        </button>
      </div>
    );
  }
  if (load.status === 'confirm') {
    return (
      <div
        className="note capture-confirm"
        role="alertdialog"
        aria-labelledby="capture-confirm-q"
        data-testid="capture-confirm"
      >
        <p id="capture-confirm-q">{n.otherSite(load.name, load.origin ?? '')}</p>
        <p className="muted">
          {n.otherSiteWhy(sizeText(CAPTURE_LIMITS.maxBytes), CAPTURE_LIMITS.idleMs / 1000)}
        </p>
        <button type="button" onClick={() => store.confirmCapture()}>
          {n.otherSiteOpen}
        </button>{' '}
        <button type="button" onClick={() => store.declineCapture()}>
          {n.otherSiteDecline}
        </button>
      </div>
    );
  }
  const e = load.error;
  return (
    <div className="note capture-error" role="alert" data-testid="capture-error">
      <p className="error">{n.failed(load.name)}</p>
      {e && (
        <p>
          {e.line !== null && !e.message.startsWith(`line ${e.line}`) ? n.atLine(e.line) : ''}
          {e.message}
        </p>
      )}
      <button type="button" onClick={() => store.dismissCaptureError()}>
        OK
      </button>
    </div>
  );
}
