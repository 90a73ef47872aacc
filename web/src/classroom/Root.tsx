// The page's views, chosen by the URL:
//
//   ?lesson=<id>&step=<n>   a lesson, in presenter mode (LessonView)
//   ?view=about             "About the model" (docs/model-vs-linux.md)
//   ?view=lessons           the list of lessons
//   ?view=conform           "Model vs Linux": the recorded experiments beside the model's runs
//                           (`&scenario=<name>`: only those that mirror one scenario)
//   ?view=packetdrill       the packetdrill player: a .pkt script run by the engine, line by line
//                           (`&script=<path>`: an upstream script of scenarios/packetdrill/)
//   (anything else)         the simulator (app/App.tsx); when the URL sets nothing, the landing:
//                           the picture plays, the A/B figures of autocorking on and off sit
//                           under its time controls (LandingEffect), the introduction lower
//
// Every view has the footer (version, offline state, language). Moving between views loads
// the page anew (plain links), so each view starts from its URL alone.

import { lazy, Suspense, useEffect, useState } from 'react';

import { App } from '../app/App';
import { pageSettled, registerOffline, type OfflineState } from '../offline/register';
import { Footer } from './Footer';
import { Landing } from './Landing';
import { LandingEffect } from './LandingEffect';
import { useText } from '../shared/useLang';

const LessonView = lazy(() => import('./LessonView').then((m) => ({ default: m.LessonView })));
const LessonsList = lazy(() => import('./LessonsList').then((m) => ({ default: m.LessonsList })));
const About = lazy(() => import('./About').then((m) => ({ default: m.About })));
const ConformView = lazy(() => import('./ConformView').then((m) => ({ default: m.ConformView })));
const PacketdrillView = lazy(() =>
  import('./PacketdrillView').then((m) => ({ default: m.PacketdrillView })),
);

/** Where index.html is: the root of the site, under whatever sub-path it is served. */
export function siteRoot(): URL {
  return new URL('./', location.href);
}

/** The URL sets nothing but (perhaps) the language: a first visit. */
export function isBare(params: URLSearchParams): boolean {
  return [...params.keys()].every((k) => k === 'lang');
}

export function Root() {
  const t = useText();
  // The view is chosen once, from the URL the page opened with: the views rewrite their own
  // parameters as the reader works (the simulator's state, the lesson's step).
  const [params] = useState(() => new URLSearchParams(location.search));
  const lesson = params.get('lesson');
  const view = params.get('view');
  const [offline, setOffline] = useState<OfflineState>('unsupported');
  // The site is saved for offline use once the page is up (pageSettled), not while its first
  // run competes for the machine.
  const runs =
    lesson !== null ||
    (view !== 'about' && view !== 'lessons' && view !== 'conform' && view !== 'packetdrill');
  useEffect(() => {
    let live = true;
    void pageSettled(runs).then(() => {
      if (live) registerOffline(siteRoot(), setOffline);
    });
    return () => {
      live = false;
    };
  }, [runs]);

  let body;
  if (lesson !== null) body = <LessonView id={lesson} askedStep={params.get('step')} />;
  else if (view === 'about') body = <About />;
  else if (view === 'conform') body = <ConformView />;
  else if (view === 'packetdrill') body = <PacketdrillView />;
  else if (view === 'lessons')
    body = (
      <main className="page-narrow">
        <LessonsList headingLevel={1} />
      </main>
    );
  else if (isBare(params))
    body = <App intro={<Landing />} effect={<LandingEffect />} autoplay firstRun />;
  else body = <App />;
  return (
    <>
      <Suspense fallback={<p role="status">{t.lesson.loading}</p>}>{body}</Suspense>
      <Footer offline={offline} language={lesson === null} />
    </>
  );
}
