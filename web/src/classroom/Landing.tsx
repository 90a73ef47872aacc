// The introduction a first visit sees above the simulator: what the site is, in two sentences,
// and the way into the autocorking lesson.

import { useState } from 'react';

import { withLang } from '../i18n/current';
import { useText } from '../shared/useLang';

const HIDDEN_KEY = 'sendpath.landing';

function readHidden(): boolean {
  try {
    return localStorage.getItem(HIDDEN_KEY) === 'hidden';
  } catch {
    return false; // no storage (a sandboxed frame): show it
  }
}

export function Landing() {
  const t = useText();
  const [hidden, setHidden] = useState(readHidden);
  if (hidden) return null;
  const hide = () => {
    try {
      localStorage.setItem(HIDDEN_KEY, 'hidden');
    } catch {
      // nothing to remember it in
    }
    setHidden(true);
  };
  return (
    <section className="landing" aria-labelledby="landing-h">
      <h2 id="landing-h" className="visually-hidden">
        {t.landing.region}
      </h2>
      <p className="landing-lead">
        {t.landing.lead} {t.landing.lead2}
      </p>
      <p className="landing-actions">
        <a className="button primary" href={withLang({ lesson: 'autocorking' })}>
          {t.landing.start}
        </a>
        <a className="button" href={withLang({ view: 'lessons' })}>
          {t.landing.lessons}
        </a>
        <a className="button" href={withLang({ view: 'about' })}>
          {t.landing.about}
        </a>
        <button type="button" className="link" onClick={hide}>
          {t.landing.dismiss}
        </button>
      </p>
    </section>
  );
}
