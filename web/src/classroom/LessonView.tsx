// A lesson in presenter mode: large type for the back of the room, one step at a time, the
// step's run beside its text, and the keyboard of a slide deck (`?` lists the keys):
//
//   Space, →, PageDown   next step          ←, PageUp   previous step
//   1 … 9                step N             P           play / pause the step's run
//   ] or +, [ or -       faster, slower     R           reset the step's run
//   M                    to the step's moment (marked on the time line)
//   B                    the other side of the lesson's A/B (the step's variant is A)
//   N                    show the numbers   L           laser pointer
//   F                    full screen        ?           the keys      Esc  close, else leave
//
// The URL names the lesson and the step (`?lesson=autocorking&step=3`), so a teacher's slides
// can link to a step; moving between steps replaces the URL's step.

import { useCallback, useEffect, useRef, useState } from 'react';

import { KeyList } from '../app/KeyList';
import { withLang } from '../i18n/current';
import { msg } from '../i18n/messages';
import { lessonById, bundledLessons } from '../model/lessons';
import { stepNumber, type Lesson, type LessonStep } from '../model/lesson';
import { LanguageSwitch } from './Footer';
import { Laser } from './Laser';
import { Markdown } from './Markdown';
import { StepStage, type StageControl } from './StepStage';
import { useLang, useText } from '../shared/useLang';
import './presenter.css';

function useFullscreen(): [boolean, () => void] {
  const [full, setFull] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const on = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => {});
  }, []);
  return [full, toggle];
}

export function LessonView({ id, askedStep }: { id: string; askedStep: string | null }) {
  const t = useText();
  const lesson = lessonById(id);
  if (!lesson) {
    const broken = bundledLessons().errors.find((e) => e.id === id);
    return (
      <main className="page-narrow">
        <p role="alert">
          {broken ? (
            <>
              {t.lessons.broken} <code>{broken.message}</code>
            </>
          ) : (
            t.lessons.notFound(id)
          )}
        </p>
        <p>
          <a href={withLang({ view: 'lessons' })}>{t.landing.lessons}</a>
        </p>
      </main>
    );
  }
  return <Presenter lesson={lesson} first={stepNumber(lesson, askedStep)} />;
}

function Presenter({ lesson, first }: { lesson: Lesson; first: number }) {
  const t = useText();
  const lang = useLang();
  const [n, setN] = useState(first);
  const [laser, setLaser] = useState(false);
  const [menu, setMenu] = useState(false);
  const [keys, setKeys] = useState(false);
  const [numbers, setNumbers] = useState(false);
  // The A/B side a run step shows; every step opens on its own variant (A).
  const [sideB, setSideB] = useState<{ step: number; b: boolean }>({ step: first, b: false });
  const showB = sideB.step === n && sideB.b;
  const stage = useRef<StageControl | null>(null);
  const setStage = useCallback((c: StageControl | null) => {
    stage.current = c;
  }, []);
  const [full, toggleFull] = useFullscreen();
  const total = lesson.steps.length;
  const step = lesson.steps[n - 1]!;

  const go = useCallback(
    (to: number) => {
      const k = Math.min(Math.max(1, to), total);
      setN(k);
      const url = new URL(location.href);
      url.searchParams.set('step', String(k));
      history.replaceState(history.state, '', url);
    },
    [total],
  );

  useEffect(() => {
    document.title = `${lesson.title[lang]} · ${t.lesson.stepOf(n, total)} · sendpath`;
  }, [lesson, lang, n, total, t]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const el = e.target as HTMLElement | null;
      const tag = el?.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || el?.isContentEditable)
        return;
      // Space on a focused button presses it, as everywhere else.
      if (e.key === ' ' && (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY')) return;
      const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (k === 'Escape' && keys) setKeys(false);
      else if (keys) return;
      else if (k === ' ' || k === 'ArrowRight' || k === 'PageDown') go(n + 1);
      else if (k === 'ArrowLeft' || k === 'PageUp') go(n - 1);
      else if (/^[1-9]$/.test(k)) go(Number(k));
      else if (k === 'p') stage.current?.toggle();
      else if (k === ']' || k === '+' || k === '=') stage.current?.speed(1);
      else if (k === '[' || k === '-') stage.current?.speed(-1);
      else if (k === 'r') stage.current?.reset();
      else if (k === 'm') stage.current?.moment();
      else if (k === 'b') setSideB({ step: n, b: !showB });
      else if (k === 'n') setNumbers((v) => !v);
      else if (k === 'l') setLaser((l) => !l);
      else if (k === 'f') toggleFull();
      else if (k === '?') setKeys(true);
      else if (k === 'Escape' && menu) setMenu(false);
      else if (e.key === 'Escape' && !document.fullscreenElement)
        location.assign(withLang({ s: lesson.scenario }));
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, n, toggleFull, lesson.scenario, menu, keys, showB]);

  const text = step.text[lang];
  return (
    <div className={`presenter ${laser ? 'laser-on' : ''}`} data-step={n}>
      <header className="presenter-bar">
        <p className="presenter-title">
          <span className="lesson-name">{lesson.title[lang]}</span>{' '}
          <span className="muted" data-testid="step-of">
            {t.lesson.stepOf(n, total)}
          </span>
        </p>
        <nav aria-label={t.lesson.steps} className="step-nav">
          <button
            type="button"
            aria-label={t.lesson.prev}
            onClick={() => go(n - 1)}
            disabled={n === 1}
          >
            <span aria-hidden="true">←</span>
          </button>
          <ol className="step-dots">
            {lesson.steps.map((s) => (
              <li key={s.number}>
                <button
                  type="button"
                  aria-current={s.number === n ? 'step' : undefined}
                  aria-label={t.lesson.goToStep(s.number, s.text[lang].title)}
                  onClick={() => go(s.number)}
                >
                  {s.number}
                </button>
              </li>
            ))}
          </ol>
          <button
            type="button"
            aria-label={t.lesson.next}
            onClick={() => go(n + 1)}
            disabled={n === total}
          >
            <span aria-hidden="true">→</span>
          </button>
        </nav>
        <div className="presenter-tools">
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={menu}
            aria-controls="presenter-menu"
            onClick={() => setMenu((m) => !m)}
          >
            {t.lesson.menu}
          </button>
          {/* The tools: a sheet that drops down from the bar (from the bottom on a phone). */}
          <div id="presenter-menu" className="presenter-menu" hidden={!menu}>
            <button type="button" aria-pressed={laser} onClick={() => setLaser((l) => !l)}>
              {t.lesson.laser}
            </button>
            <button type="button" aria-pressed={full} onClick={toggleFull}>
              {full ? t.lesson.exitFullscreen : t.lesson.fullscreen}
            </button>
            <LanguageSwitch />
            <a className="button" href={withLang({ s: lesson.scenario })}>
              {t.lesson.exit}
            </a>
            <button
              type="button"
              aria-keyshortcuts="?"
              onClick={() => {
                setMenu(false);
                setKeys(true);
              }}
            >
              {t.lesson.keys} (?)
            </button>
          </div>
        </div>
      </header>
      <main className="presenter-main">
        <StepStage
          key={`${lesson.id}/${n}`}
          lesson={lesson}
          step={step}
          control={setStage}
          sideB={showB}
          numbers={numbers}
        />
        <article className="step-text" aria-labelledby="step-h">
          <h1 id="step-h">{text.title}</h1>
          <Markdown text={n === 1 ? `${lesson.summary[lang]}\n\n${text.body}` : text.body} />
          <StepFacts lesson={lesson} step={step} />
        </article>
      </main>
      {keys && <KeysDialog onClose={() => setKeys(false)} />}
      <Laser on={laser} />
    </div>
  );
}

/** `?`: every key of presenter mode, in large type. */
function KeysDialog({ onClose }: { onClose: () => void }) {
  const t = useText();
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="presenter-keys-h"
        className="dialog presenter-keys-dialog"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="presenter-keys-h">{t.lesson.keys}</h2>
        <KeyList keys={t.lesson.keyList} />
        <button type="button" onClick={onClose} autoFocus>
          {t.lesson.close}
        </button>
      </div>
    </div>
  );
}

/** What the step runs and what to look at, in words. */
function StepFacts({ lesson, step }: { lesson: Lesson; step: LessonStep }) {
  const t = useText();
  const look = [
    ...step.highlights.map((h) =>
      h.kind === 'element' ? t.lesson.elements[h.element] : t.lesson.counter(h.name),
    ),
    ...(step.chart ? [t.lesson.chart(msg.charts[step.chart])] : []),
  ];
  return (
    <dl className="step-facts">
      <dt>{t.lesson.config}</dt>
      <dd>
        <code>scenarios/{lesson.scenario}.toml</code>
        {step.compare ? (
          <>
            {' '}
            A = <code>{step.compare.a}</code>, B = <code>{step.compare.b}</code>
          </>
        ) : (
          <>
            {' · '}
            {t.lesson.variant} {step.variant ? <code>{step.variant}</code> : t.lesson.fileAsWritten}
          </>
        )}
        {step.sets.length > 0 && (
          <>
            {' · '}
            {t.lesson.overrides} <code>{step.sets.join(' ')}</code>
          </>
        )}
      </dd>
      {look.length > 0 && (
        <>
          <dt>{t.lesson.highlights}</dt>
          <dd>{look.join(' · ')}</dd>
        </>
      )}
    </dl>
  );
}
