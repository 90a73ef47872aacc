// The embed before play: a poster (the scenario's title, a play button) that loads nothing
// heavy. The player (EmbedPlayer.tsx, with the engine and the simulator's components) loads
// when the reader presses play, or by itself with `autoplay` once the embed is on screen. The
// embed reports its height to the page around it (postMessage) and never takes focus or
// scrolls that page.

import { lazy, Suspense, useEffect, useRef, useState } from 'react';

import { useLang, useText } from '../shared/useLang';
import { scenarioText } from '../i18n/content';
import { scenarioEntries, loadScenario } from '../model/scenarioIndex';
import { parseEmbed, type EmbedConfig } from '../shared/embedParams';

const EmbedPlayer = lazy(() => import('./EmbedPlayer'));

/** Posts the document's height to the parent page whenever it changes. */
function useReportHeight(): void {
  useEffect(() => {
    if (window.parent === window) return;
    let last = -1;
    const post = () => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ sendpath: 'resize', height }, '*');
    };
    const ro = new ResizeObserver(post);
    ro.observe(document.documentElement);
    post();
    return () => ro.disconnect();
  }, []);
}

/** Whether `el` is (or has been) in the viewport. */
function useSeen(el: React.RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const node = el.current;
    if (!node || seen) return;
    const io = new IntersectionObserver((es) => {
      if (es.some((e) => e.isIntersecting)) setSeen(true);
    });
    io.observe(node);
    return () => io.disconnect();
  }, [el, seen]);
  return seen;
}

/** The configuration: the URL read once (a lesson's step needs the lessons, loaded then). */
function useConfig(): { config: EmbedConfig; problems: string[] } | null {
  const [asksLesson] = useState(() => new URLSearchParams(location.search).has('lesson'));
  const languages = () => navigator.languages ?? [navigator.language];
  const scenarios = () => scenarioEntries.map((e) => e.name);
  const [parsed, setParsed] = useState<{ config: EmbedConfig; problems: string[] } | null>(() =>
    asksLesson
      ? null
      : parseEmbed(location.search, { scenarios: scenarios(), lessons: [] }, languages()),
  );
  useEffect(() => {
    if (!asksLesson) return;
    void import('../model/lessons').then((m) =>
      setParsed(
        parseEmbed(
          location.search,
          { scenarios: scenarios(), lessons: m.bundledLessons().lessons },
          languages(),
        ),
      ),
    );
  }, [asksLesson]);
  return parsed;
}

/** The scenario's title from its file (`title = "…"`), translated when the page is not English. */
function useTitle(name: string | undefined): string {
  const lang = useLang();
  const [own, setOwn] = useState('');
  useEffect(() => {
    if (!name) return;
    void loadScenario(name).then((text) => {
      const m = /^title\s*=\s*"((?:[^"\\]|\\.)*)"/m.exec(text);
      setOwn(m ? JSON.parse(`"${m[1]}"`) : name);
    });
  }, [name]);
  return name ? scenarioText(lang, name, { title: own, summary: '' }).title : '';
}

export function EmbedApp() {
  const t = useText();
  const parsed = useConfig();
  const config = parsed?.config;
  const title = useTitle(config?.scenario);
  const box = useRef<HTMLElement>(null);
  const seen = useSeen(box);
  const [started, setStarted] = useState(false);
  useReportHeight();

  useEffect(() => {
    if (config) document.documentElement.dataset.theme = config.theme;
  }, [config]);
  // Autoplay starts once the embed is on screen, never before.
  const start = started || (config?.autoplay === true && seen);

  return (
    <main className="embed-box" ref={box} aria-label={t.embed.region}>
      <header className="embed-head">
        <h1>{title || '\u00a0'}</h1>
      </header>
      {parsed && parsed.problems.length > 0 && (
        <ul className="note" role="alert">
          {parsed.problems.map((p) => (
            <li key={p}>{t.embed.bad(p)}</li>
          ))}
        </ul>
      )}
      {config && !start && (
        <div className="embed-poster">
          <button type="button" className="embed-play" onClick={() => setStarted(true)}>
            <span aria-hidden="true">▶</span> {t.embed.play}
          </button>
          <p className="muted">{t.embed.poster}</p>
        </div>
      )}
      {config && start && (
        <Suspense fallback={<p role="status">{t.embed.loading}</p>}>
          <EmbedPlayer config={config} />
        </Suspense>
      )}
    </main>
  );
}
