// The pipeline's legend: every colour the picture uses and what it means, the same on the
// simulator's page and in a lesson step (shared/palette.test.ts keeps the colours apart).

import { msg } from '../i18n/messages';

export function Legend() {
  const s = msg.pipeline.states;
  const items: [string, string][] = [
    ['skb-filling', s.filling],
    ['skb-full', s.full],
    ['skb-autocork', s.autocorked],
    ['held-nagle', s.held('nagle')],
    ['held-tsq', s.held('tsq')],
    ['held-cwnd', s.held('cwnd')],
    ['held-pacing', s.held('pacing')],
    ['skb-sent', s.sent],
    ['app-writing', s.writing],
    ['app-sleeping', s.sleeping('sndbuf / notsent_lowat')],
    ['delack', s.delack],
    ['packet', s.packet],
    ['ack', s.ack],
    ['drop', s.dropped],
  ];
  return (
    <ul className="legend pipeline-legend" aria-label={msg.pipeline.legend}>
      {items.map(([cls, label]) => (
        <li key={cls}>
          <span className={`swatch sw-${cls}`} aria-hidden="true" /> {label}
        </li>
      ))}
    </ul>
  );
}
