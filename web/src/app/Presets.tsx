// Every file of scenarios/ with its title and its one-paragraph explanation.

import { scenarioText } from '../i18n/content';
import { currentLang } from '../i18n/current';
import { useEffect } from 'react';

import { useSite, useStore } from './context';
import { msg } from './messages';

export function Presets() {
  const site = useSite();
  const store = useStore();
  useEffect(() => {
    void store.loadPresets();
  }, [store, site.engine]);
  return (
    <details className="presets">
      <summary>{msg.header.presets}</summary>
      <ul>
        {site.presets.map((p) => (
          <li key={p.name}>
            <button
              type="button"
              onClick={() => store.setScenario(p.name)}
              aria-current={p.name === site.state.a.scenario ? 'true' : undefined}
            >
              {scenarioText(currentLang(), p.name, p).title}
            </button>
            <p className="muted">{scenarioText(currentLang(), p.name, p).summary}</p>
          </li>
        ))}
      </ul>
    </details>
  );
}
