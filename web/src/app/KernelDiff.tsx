// "Kernel differences": with side B on another kernel than A ("Compare kernels"), the keys
// whose value differs and the behaviour switches of the two kernel profiles that differ, with
// their commits (`sendpath diff`'s first two parts, from the engine: `kernelDiff`), and, once
// the run summary has run both sides, whether each switch's code path showed in each run.

import { useEffect, useState } from 'react';

import type { KernelDiff as Diff } from '../engine/generated/KernelDiff';
import { fired } from '../model/runSummary';
import { msg } from '../i18n/messages';
import { useSiteDeferred, useStore } from './context';
import { ScrollBox } from '../shared/ScrollBox';

export function KernelDiff() {
  const site = useSiteDeferred();
  const store = useStore();
  const [diff, setDiff] = useState<{ key: string; diff: Diff } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ka = site.a.info?.kernel;
  const kb = site.b?.info?.kernel;
  const key = JSON.stringify([site.state.a, site.state.b]);
  const differ = !!ka && !!kb && ka !== kb;
  useEffect(() => {
    if (!differ) return;
    let live = true;
    store.kernelDiff().then(
      (d) => live && (setDiff({ key, diff: d }), setError(null)),
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [store, key, differ]);
  if (!differ) return null;
  const x = msg.kernelDiff;
  const d = diff?.key === key ? diff.diff : null;
  const sums = site.runSummary.results;
  const current =
    sums.a &&
    sums.b &&
    JSON.stringify(sums.a.config) === JSON.stringify(site.state.a) &&
    JSON.stringify(sums.b.config) === JSON.stringify(site.state.b);
  return (
    <div className="kernel-diff" data-testid="kernel-diff">
      <h3>{x.region}</h3>
      <p className="muted">{x.intro(ka, kb)}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!d && !error && <p role="status">{x.loading}</p>}
      {d && (
        <>
          <ScrollBox className="table-scroll" label={x.keys}>
            <table className="diff" data-testid="kernel-diff-keys">
              <caption>{x.keys}</caption>
              <thead>
                <tr>
                  <th scope="col">{x.key}</th>
                  <th scope="col">A ({d.kernel_a})</th>
                  <th scope="col">B ({d.kernel_b})</th>
                </tr>
              </thead>
              <tbody>
                {d.keys.length === 0 && (
                  <tr>
                    <td colSpan={3} className="muted">
                      {x.noKeys}
                    </td>
                  </tr>
                )}
                {d.keys.map((k) => (
                  <tr key={k.key}>
                    <th scope="row">{k.key}</th>
                    <td>{k.a}</td>
                    <td>{k.b}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
          <ScrollBox className="table-scroll" label={x.switches}>
            <table className="diff" data-testid="kernel-diff-switches">
              <caption>{x.switches}</caption>
              <thead>
                <tr>
                  <th scope="col">{x.switchName}</th>
                  <th scope="col">A ({d.kernel_a})</th>
                  <th scope="col">B ({d.kernel_b})</th>
                  <th scope="col">{x.commit}</th>
                  <th scope="col">{x.what}</th>
                  <th scope="col">{x.fired}</th>
                </tr>
              </thead>
              <tbody>
                {d.switches.length === 0 && (
                  <tr>
                    <td colSpan={6} className="muted">
                      {x.noSwitches}
                    </td>
                  </tr>
                )}
                {d.switches.map((s) => {
                  const [what, name] = s.evidence.includes(':')
                    ? (s.evidence.split(':', 2) as [string, string])
                    : [s.evidence, ''];
                  const ea = current ? sums.a!.summary.evidence[s.evidence] : undefined;
                  const eb = current ? sums.b!.summary.evidence[s.evidence] : undefined;
                  const f = fired(ea, eb);
                  return (
                    <tr key={s.name} data-switch={s.name}>
                      <th scope="row">{s.name}</th>
                      <td>{s.a}</td>
                      <td>{s.b}</td>
                      <td>{s.commit}</td>
                      <td lang="en">{s.what}</td>
                      <td>
                        {s.evidence === ''
                          ? x.noEvidence
                          : !current
                            ? x.runSummaryFirst
                            : f === null
                              ? x.noEvidence
                              : `${x.firedHow[f]} (${x.evidence(x.evidenceName(what, name), ea ?? 0, eb ?? 0)})`}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollBox>
        </>
      )}
    </div>
  );
}
