// The page's header: the experiment (every file of scenarios/), its variant, the A/B
// comparison, the theme, and the engine's status; for a scenario with recordings of the real
// kernel, the link to them in "Model vs Linux" (classroom/ConformView.tsx).

import { ShareEmbedButton } from './ShareEmbedButton';
import { scenarioText } from '../i18n/content';
import { currentLang, withLang } from '../i18n/current';
import { useState } from 'react';

import { SAMPLES_PATH } from '../capture/samples';
import type { Theme } from '../model/urlstate';
import { useSite, useStore } from './context';
import { msg } from '../i18n/messages';
import { CAPTURE_OPTION, OpenRecording, openSample, SampleOptions } from './Native';
import { OpenScenario } from './ScenarioFile';
import { entryOf, isUserScenario } from '../model/scenarioIndex';

/** The kernel "Compare kernels" puts on side B: today's, or 3.14 when A already runs it. */
function otherKernel(kernel: string): string {
  return kernel === '6.18' ? '3.14' : '6.18';
}

export function Header() {
  const site = useSite();
  const store = useStore();
  const [copied, setCopied] = useState(false);
  // Below 640 px the controls fold behind a menu button, so the picture is on the first screen.
  const [menu, setMenu] = useState(false);
  const h = msg.header;
  const state = site.state;
  const preset = site.presets.find((p) => p.name === state.a.scenario);
  const variants = site.a.info?.variants ?? preset?.variants ?? [];
  const others = variants.filter((v) => v.name !== state.a.variant);
  const cap = site.capture;
  const sample =
    cap?.url?.startsWith(SAMPLES_PATH) === true ? cap.url.slice(SAMPLES_PATH.length) : null;
  const menuValue = cap
    ? sample
      ? `${CAPTURE_OPTION}${sample}`
      : CAPTURE_OPTION
    : state.a.scenario;
  return (
    <header className="site-header">
      <div className="brand">
        <h1>{msg.appTitle}</h1>
        <p className="muted">{msg.tagline}</p>
      </div>
      <button
        type="button"
        className="header-menu-toggle"
        aria-expanded={menu}
        aria-controls="header-controls"
        onClick={() => setMenu((m) => !m)}
      >
        {msg.header.menu}
      </button>
      <div id="header-controls" className={`header-controls ${menu ? 'open' : ''}`}>
        <label className="inline">
          {h.preset}{' '}
          <select
            aria-label={h.preset}
            value={menuValue}
            onFocus={() => void store.loadPresets()}
            onPointerDown={() => void store.loadPresets()}
            onChange={(e) => {
              const v = e.target.value;
              if (v.startsWith(CAPTURE_OPTION)) {
                if (v.length > CAPTURE_OPTION.length)
                  openSample(store, v.slice(CAPTURE_OPTION.length));
                return;
              }
              store.closeCapture();
              void store.setScenario(v);
            }}
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
            {/* The reader's own file, while it runs (each edit is a version of its own). */}
            {(isUserScenario(state.a.scenario) ? [entryOf(state.a.scenario)] : []).map((e) => (
              <option key={e.name} value={e.name}>
                {e.file}
              </option>
            ))}
            <SampleOptions />
            {cap && !sample && <option value={CAPTURE_OPTION}>{msg.native.title(cap.name)}</option>}
          </select>
        </label>
        {!cap && (__SENDPATH_CONFORM__[state.a.scenario] ?? 0) > 0 && (
          <a
            className="conform-link"
            href={withLang({
              view: 'conform',
              scenario: state.a.scenario,
              ...(state.theme === 'auto' ? {} : { theme: state.theme }),
            })}
          >
            {h.conform(__SENDPATH_CONFORM__[state.a.scenario] ?? 0)}
          </a>
        )}
        <OpenScenario />
        <OpenRecording />
        {!cap && (
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
        )}
        {cap ? null : state.b ? (
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
            {site.a.info && (
              <button
                type="button"
                onClick={() => store.compareKernels(otherKernel(site.a.info!.kernel))}
              >
                {h.compareKernels(otherKernel(site.a.info.kernel))}
              </button>
            )}
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
            // The last change's entry may still be on its way to the URL (store.pushUrlLater).
            store.flushUrl();
            void navigator.clipboard?.writeText(location.href).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? h.linkCopied : h.copyLink}
        </button>
        <ShareEmbedButton />
      </div>
    </header>
  );
}
