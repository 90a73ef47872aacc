// "ss -ti and tc -s qdisc at the cursor": the sockets and qdiscs of each side at the time
// cursor as those tools print them, the engine's own text (`sendpath run --at TIME`, made in a
// jobs worker: the run from its start to that instant).

import { useState } from 'react';

import type { Side } from '../engine/protocol';
import { formatInstant } from '../model/format';
import { msg } from '../i18n/messages';
import { useCursor, useSiteDeferred, useStore } from './context';
import { ScrollBox } from '../shared/ScrollBox';

interface Shown {
  t: number;
  configs: string;
  texts: Partial<Record<Side, string>>;
}

export function AtTime() {
  const site = useSiteDeferred();
  const store = useStore();
  const cursor = useCursor();
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sides: Side[] = site.state.b ? ['a', 'b'] : ['a'];
  const x = msg.atTime;
  const ab = sides.length > 1;
  const configs = JSON.stringify(sides.map((s) => site.state[s]));
  const show = async () => {
    const t = Math.round(cursor.t);
    setBusy(true);
    setError(null);
    try {
      const texts: Partial<Record<Side, string>> = {};
      for (const s of sides) texts[s] = await store.atText(s, t);
      setShown({ t, configs, texts });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const stale = shown && (shown.t !== Math.round(cursor.t) || shown.configs !== configs);
  return (
    <section className="at-time" aria-labelledby="at-time-h" data-testid="at-time">
      <h2 id="at-time-h">{x.region}</h2>
      <p className="muted">{x.intro}</p>
      <div className="row">
        <button type="button" onClick={() => void show()} disabled={busy || !site.a.model}>
          {x.show(formatInstant(Math.round(cursor.t)))}
        </button>
        {busy && <span role="status">{x.working}</span>}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {stale && <p className="note">{x.stale}</p>}
      {shown &&
        sides.map((s) =>
          shown.texts[s] !== undefined ? (
            <figure key={s} className="at-text">
              <figcaption>
                {x.shownAt(ab ? msg.run.sideLabel(s) : '', formatInstant(shown.t))}
              </figcaption>
              <ScrollBox
                className="table-scroll"
                label={x.shownAt(ab ? msg.run.sideLabel(s) : '', formatInstant(shown.t))}
              >
                <pre data-testid={`at-text-${s}`} lang="en">
                  {shown.texts[s]}
                </pre>
              </ScrollBox>
            </figure>
          ) : null,
        )}
    </section>
  );
}
