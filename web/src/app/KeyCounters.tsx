// A few nstat counters of the sending host at the time cursor: those a lesson step names
// (outlined), else a default few. Lesson steps and the embed show it; it reads the simulator's
// store and clock (context.ts), so it lives with them.

import { useEffect, useMemo, useState } from 'react';

import { useClock, useSite } from './context';
import { countersAt, sampleTimes } from '../model/counters';
import { formatCount } from '../model/format';
import { useText } from '../shared/useLang';

/** Counters shown when the caller names none. */
const DEFAULT_COUNTERS = ['IpOutRequests', 'TcpOutSegs', 'IpExtOutOctets', 'TcpExtTCPAutoCorking'];

/** `all`: the default few as well as those named (presenter mode's "show the numbers"). */
export function KeyCounters({ names, all = false }: { names: string[]; all?: boolean }) {
  const t = useText();
  const site = useSite();
  const clock = useClock();
  const [now, setNow] = useState(clock.t);
  useEffect(() => clock.subscribeSlow(() => setNow(clock.t)), [clock]);
  const m = site.a.model;
  const times = useMemo(() => (m ? sampleTimes(m.samples, m.summary.samples.stride) : null), [m]);
  if (!m || !times) return null;
  const layout = m.summary.samples;
  const h = Math.max(0, layout.hosts.indexOf('sender'));
  const rows = countersAt(m.samples, layout, times, h, now, 0);
  const wanted =
    names.length === 0
      ? DEFAULT_COUNTERS
      : all
        ? [...names, ...DEFAULT_COUNTERS.filter((n) => !names.includes(n))]
        : names;
  const value = (n: string) => rows.find((r) => r.name === n)?.value ?? 0;
  return (
    <table className="key-counters" data-testid="key-counters">
      <caption>
        {t.embed.counters} · {layout.hosts[h]}
      </caption>
      <tbody>
        {wanted.map((n) => (
          <tr key={n} className={names.includes(n) ? 'lesson-highlight' : undefined}>
            <th scope="row">{n}</th>
            <td>{formatCount(value(n))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
