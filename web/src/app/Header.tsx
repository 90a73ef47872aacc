// The page's header: the experiment (every file of scenarios/), its variant, the A/B
// comparison, the theme, and the engine's status.

import { scenarioText } from '../i18n/content';
import { currentLang } from '../i18n/current';
import { useState } from 'react';

import type { Theme } from '../model/urlstate';
import { useSite, useStore } from './context';
import { msg } from './messages';

export function Header() {
  const site = useSite();
  const store = useStore();
  const [copied, setCopied] = useState(false);
  const h = msg.header;
  const state = site.state;
  const preset = site.presets.find((p) => p.name === state.a.scenario);
  const variants = site.a.info?.variants ?? preset?.variants ?? [];
  const others = variants.filter((v) => v.name !== state.a.variant);
  return (
    <header className="site-header">
      <div className="brand">
        <h1>{msg.appTitle}</h1>
        <p className="muted">{msg.tagline}</p>
      </div>
      <div className="header-controls">
        <label className="inline">
          {h.preset}{' '}
          <select
            aria-label={h.preset}
            value={state.a.scenario}
            onFocus={() => void store.loadPresets()}
            onPointerDown={() => void store.loadPresets()}
            onChange={(e) => void store.setScenario(e.target.value)}
          >
            {site.presets.map((p) => (
              <option key={p.name} value={p.name}>
                {
                  scenarioText(
                    currentLang(),
                    p.name,
                    p.name === state.a.scenario && site.a.info ? site.a.info : p,
                  ).title
                }
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          {h.variant}{' '}
          <select
            aria-label={h.variant}
            value={state.a.variant ?? ''}
            onChange={(e) => store.setVariant('a', e.target.value || null)}
          >
            <option value="">{h.fileAsWritten}</option>
            {variants.map((v) => (
              <option key={v.name} value={v.name}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
        {state.b ? (
          <>
            <label className="inline">
              B{' '}
              <select
                aria-label={`B: ${h.variant}`}
                value={state.b.variant ?? ''}
                onChange={(e) => store.setVariant('b', e.target.value || null)}
              >
                <option value="">{h.fileAsWritten}</option>
                {(site.b?.info?.variants ?? variants).map((v) => (
                  <option key={v.name} value={v.name}>
                    {v.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" onClick={() => store.closeCompare()}>
              {h.closeCompare}
            </button>
          </>
        ) : (
          <>
            {others.slice(0, 2).map((v) => (
              <button key={v.name} type="button" onClick={() => store.compare(v.name)}>
                {h.compareWith(v.label)}
              </button>
            ))}
            <button type="button" onClick={() => store.compare()}>
              {h.fork}
            </button>
          </>
        )}
        <label className="inline">
          {h.theme}{' '}
          <select
            aria-label={h.theme}
            value={state.theme}
            onChange={(e) => store.setView({ theme: e.target.value as Theme })}
          >
            {(['auto', 'light', 'dark'] as const).map((t) => (
              <option key={t} value={t}>
                {h.themes[t]}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(location.href).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? h.linkCopied : h.copyLink}
        </button>
      </div>
    </header>
  );
}
