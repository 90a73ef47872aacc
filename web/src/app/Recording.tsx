// A replayed recording's intro (above the pipeline) and its side panel (what it says of its
// host, with "Simulate this"). Shown only while a recording is open, so they load with it,
// not with the page (App.tsx imports them lazily).

import { formatNs } from '../model/format';
import { useSite, useStore } from './context';
import { msg } from '../i18n/messages';

/** The intro of a replayed recording: its name, how it was made, its warnings. */
export function CaptureIntro() {
  const site = useSite();
  const store = useStore();
  const cap = site.capture;
  const m = site.a.model;
  const n = msg.native;
  if (!cap) return null;
  const problems = cap.diagnostics.filter((d) => d.severity !== 'info');
  const rec = m?.recording;
  return (
    <>
      <h2 id="scenario-h">{n.title(cap.name)}</h2>
      {cap.head.config.note && <p className="summary">{cap.head.config.note}</p>}
      <p className="muted engine-line">
        {rec && m && (
          <span data-testid="capture-line">
            {n.line(rec.kernel ?? '?', rec.totalEvents, formatNs(rec.endNs - rec.startNs))}
          </span>
        )}{' '}
        <button type="button" onClick={() => store.closeCapture()}>
          {n.close}
        </button>
      </p>
      {cap.url === null && <p className="muted">{n.fromFile}</p>}
      {(problems.length > 0 || cap.diagnosticsDropped > 0) && (
        <div className="note" role="alert" data-testid="capture-warnings">
          {n.problems(problems.length, cap.diagnosticsDropped)}
          <ul>
            {problems.slice(0, 8).map((d, i) => (
              <li key={i}>
                {d.line !== null && !d.message.startsWith(`line ${d.line}`) ? n.atLine(d.line) : ''}
                {d.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {cap.head.truncated && (
        <p className="note" role="alert">
          {n.truncated}
        </p>
      )}
    </>
  );
}

/** The side panel while a recording is shown and not being compared: what it says of its host. */
export function RecordingSummary() {
  const site = useSite();
  const store = useStore();
  const cap = site.capture;
  const n = msg.native;
  if (!cap) return null;
  const c = cap.head.config;
  const dev = c.filters?.dev ?? c.devices[0]?.dev ?? '—';
  const qdisc = /\bqdisc (\S+)/.exec(c.devices.find((d) => d.dev === dev)?.link ?? '')?.[1];
  return (
    <section className="recording-summary" aria-labelledby="recording-h">
      <h2 id="recording-h">{n.region}</h2>
      <dl>
        <dt>{n.host}</dt>
        <dd>
          {n.hostValue(
            c.host?.hostname ?? '—',
            c.host?.kernelRelease ?? '—',
            String(c.host?.configHz ?? '—'),
            String(c.host?.cpus ?? '—'),
          )}
        </dd>
        <dt>{n.device}</dt>
        <dd>
          {dev}
          {c.devices.find((d) => d.dev === dev)?.driver?.['driver']
            ? ` (${c.devices.find((d) => d.dev === dev)!.driver!['driver']})`
            : ''}
          {qdisc && ` · ${n.qdisc} ${qdisc}`}
        </dd>
        {c.command && (
          <>
            <dt>{n.workload}</dt>
            <dd>
              <code>{c.command.map((a) => a.replace(/^\/tmp\/[^/]+\//, '')).join(' ')}</code>
            </dd>
          </>
        )}
      </dl>
      <p className="muted">{n.simulateIntro}</p>
      <button type="button" className="primary" onClick={() => void store.simulateCapture()}>
        {n.simulate}
      </button>
    </section>
  );
}
