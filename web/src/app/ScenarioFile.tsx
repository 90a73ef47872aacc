// The reader's own scenario files: "Open a scenario file…" (a file picker; a dropped .toml goes
// the same way, app/Native.tsx's DropZone), and, while side A runs one, its text to edit in
// place with the engine's error under it, exactly as `sendpath run` words it. The file travels
// in the page's link (model/urlstate.ts, `toml=`).

import { useRef, useState } from 'react';

import { msg } from '../i18n/messages';
import { entryOf, isUserScenario, userScenarioText } from '../model/scenarioIndex';
import { useSite, useStore } from './context';

export function OpenScenario() {
  const store = useStore();
  const input = useRef<HTMLInputElement>(null);
  const f = msg.scenarioFile;
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} title={f.openHint}>
        {f.open}
      </button>
      <input
        ref={input}
        type="file"
        accept=".toml,text/plain"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={f.open}
        data-testid="scenario-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void file.text().then((text) => store.openScenarioFile(file.name, text));
        }}
      />
    </>
  );
}

/** The open file's text, editable, and the engine's verdict on it. */
export function ScenarioEditor() {
  const site = useSite();
  const name = site.state.a.scenario;
  const text = isUserScenario(name) ? userScenarioText(name) : undefined;
  if (text === undefined || site.capture) return null;
  // A new version of the file starts a new draft.
  return <Editor key={name} name={name} text={text} />;
}

function Editor({ name, text }: { name: string; text: string }) {
  const site = useSite();
  const store = useStore();
  const [draft, setDraft] = useState(text);
  const entry = entryOf(name);
  const f = msg.scenarioFile;
  const error = site.a.error;
  return (
    <details className="scenario-file" open>
      <summary>{f.edit(entry.file)}</summary>
      <textarea
        aria-label={f.text}
        value={draft}
        rows={Math.min(24, Math.max(6, draft.split('\n').length + 1))}
        spellCheck={false}
        onChange={(e) => setDraft(e.target.value)}
      />
      <p>
        <button
          type="button"
          disabled={draft === text}
          onClick={() => void store.openScenarioFile(entry.file, draft)}
        >
          {f.run}
        </button>{' '}
        <span className="muted">{f.inLink}</span>
      </p>
      {error && (
        <p className="error" role="alert" data-testid="scenario-file-error">
          {entry.path}: {error.key ? `${error.key}: ` : ''}
          {error.message}
        </p>
      )}
    </details>
  );
}
