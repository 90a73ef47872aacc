// Every file of scenarios/ with its title and its one-paragraph explanation.

import { scenarioText } from '../i18n/content';
import { currentLang } from '../i18n/current';
import { useEffect } from 'react';

import { SAMPLE_FILES } from '../capture/samples';
import { useSite, useStore } from './context';
import { msg } from '../i18n/messages';
import { openSample } from './Native';

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
      <h3>{msg.native.recordings}</h3>
      <ul>
        {SAMPLE_FILES.map((f) => (
          <li key={f}>
            <button type="button" onClick={() => openSample(store, f)}>
              {msg.native.samples[f]?.title ?? f}
            </button>
            <p className="muted">{msg.native.samples[f]?.summary}</p>
          </li>
        ))}
      </ul>
    </details>
  );
}
