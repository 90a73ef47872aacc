// The footer of every view: the build's version (and whether it works offline), links to the
// lessons, "About the model" and "Model vs Linux", and the language switch.

import { setLang, withLang } from '../i18n/current';
import { isLang, LANG_NAMES, LANGS } from '../i18n/lang';
import { BUILD_VERSION, type OfflineState } from '../offline/register';
import { useLang, useText } from '../shared/useLang';

export function LanguageSwitch() {
  const t = useText();
  const lang = useLang();
  return (
    <label className="lang-switch">
      {t.language}{' '}
      <select
        value={lang}
        onChange={(e) => {
          if (isLang(e.target.value)) void setLang(e.target.value);
        }}
      >
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANG_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** `language`: whether the footer has the language switch (presenter mode has its own). */
export function Footer({ offline, language }: { offline: OfflineState; language: boolean }) {
  const t = useText();
  useLang();
  const state = t.footer.offline[offline];
  return (
    <footer className="site-footer">
      <nav aria-label={t.lessons.region}>
        <a href={withLang({ view: 'lessons' })}>{t.landing.lessons}</a>
        {' · '}
        <a href={withLang({ view: 'about' })}>{t.landing.about}</a>
        {' · '}
        <a href={withLang({ view: 'conform' })}>{t.landing.conform}</a>
        {' · '}
        <a href={withLang({ view: 'packetdrill' })}>{t.landing.packetdrill}</a>
      </nav>
      <p>
        <span data-testid="build-version">{t.footer.version(BUILD_VERSION)}</span>
        {state && (
          <span data-testid="offline-state" data-state={offline}>
            {' · '}
            {state}
          </span>
        )}
      </p>
      {language && <LanguageSwitch />}
    </footer>
  );
}
