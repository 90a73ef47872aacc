// "Copy embed code": the current view (scenario, variant, overrides, window, cursor, theme,
// language) as an <iframe> snippet and as a <sendpath-player> web component, in a dialog
// (a chunk of its own: ShareEmbedButton.tsx loads it when pressed).

import { useEffect, useRef, useState } from 'react';

import { useSite } from './context';
import { currentLang } from '../i18n/current';
import { DEFAULT_CHART, DEFAULT_PANELS, type EmbedConfig } from '../shared/embedParams';
import { componentSnippet, iframeSnippet } from '../shared/embedSnippet';
import { useLang, useText } from '../shared/useLang';
import './share.css';

/** The dialog, open from the moment it is mounted; `onClose` unmounts it. */
export function ShareEmbed({ onClose }: { onClose: () => void }) {
  const t = useText();
  useLang();
  const site = useSite();
  const dialog = useRef<HTMLDialogElement>(null);
  const [autoplay, setAutoplay] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const s = site.state;
  const config: EmbedConfig = {
    scenario: s.a.scenario,
    lesson: null,
    step: null,
    variant: s.a.variant,
    sets: [...s.a.sets],
    fromUs: s.toNs !== null ? Math.floor(s.fromNs / 1000) : null,
    toUs: s.toNs !== null ? Math.ceil(s.toNs / 1000) : null,
    tUs: s.t !== null ? Math.round(s.t / 1000) : null,
    autoplay,
    theme: s.theme,
    lang: currentLang(),
    panels: [...DEFAULT_PANELS],
    chart: DEFAULT_CHART,
  };
  const root = new URL('./', location.href);
  const title = `sendpath: ${site.a.info?.title ?? s.a.scenario}`;
  const snippets = [
    { id: 'iframe', label: t.share.iframe, text: iframeSnippet(root, config, title) },
    { id: 'component', label: t.share.component, text: componentSnippet(root, config) },
  ];
  const copy = (id: string, text: string) => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(id));
  };
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <>
      <dialog ref={dialog} className="share-dialog" aria-labelledby="share-h" onClose={onClose}>
        <h2 id="share-h">{t.share.title}</h2>
        <p>{t.share.intro}</p>
        <label className="inline">
          <input
            type="checkbox"
            checked={autoplay}
            onChange={(e) => setAutoplay(e.target.checked)}
          />{' '}
          {t.share.autoplay}
        </label>
        {snippets.map((sn) => (
          <div key={sn.id} className="snippet">
            <label htmlFor={`share-${sn.id}`}>{sn.label}</label>
            <textarea
              id={`share-${sn.id}`}
              readOnly
              rows={sn.id === 'iframe' ? 12 : 3}
              value={sn.text}
              data-testid={`snippet-${sn.id}`}
            />
            <button type="button" onClick={() => copy(sn.id, sn.text)}>
              {copied === sn.id ? t.share.copied : t.share.copy}
            </button>
          </div>
        ))}
        <form method="dialog">
          <button type="submit">{t.share.close}</button>
        </form>
      </dialog>
    </>
  );
}
