// Every scenario key as a control, grouped as the kernel groups them, under its real name with
// its one-line explanation and its default for the chosen kernel profile, all from the
// engine's key registry. A change re-runs the side being edited; a value the engine refuses
// shows the engine's error beside the control, and the last good run stays on screen.

import { memo, useId, useState } from 'react';

import { useLang } from '../shared/useLang';
import { keyMeaning } from '../i18n/content';
import { currentLang } from '../i18n/current';

import type { KeyValue } from '../engine/generated/KeyValue';
import type { Side } from '../engine/protocol';
import { keysByGroup, type KeyDef } from '../model/catalog';
import { setValue } from '../model/urlstate';
import { useSite, useStore } from './context';
import { msg } from '../i18n/messages';

interface ControlProps {
  def: KeyDef;
  side: Side;
  value: KeyValue | undefined;
  override: string | undefined;
  kernel: string;
  hosts: string[];
  error: string | null;
}

function KeyControlImpl({ def, side, value, override, kernel, hosts, error }: ControlProps) {
  useLang(); // memo: re-render on a language switch too
  const store = useStore();
  const id = useId();
  const shown = override ?? value?.values[0] ?? def.defaults[kernel] ?? '';
  // The reader's choice, shown from the click until the engine's values come back with its run
  // (a key set back to the scenario's value has no override to show meanwhile).
  const [chosen, setChosen] = useState<{ base: string; value: string } | null>(null);
  // Once the values move on, they are shown (and the choice forgotten: the same values again
  // later, from the URL or a reset, are not the reader's choice).
  if (chosen !== null && chosen.base !== shown) setChosen(null);
  const current = chosen !== null && chosen.base === shown ? chosen.value : shown;
  const choose = (v: string) => {
    setChosen({ base: shown, value: v });
    store.setKey(side, def.name, v);
  };
  // What the reader is typing; a new value from outside (a run, the URL) replaces it.
  const [edit, setEdit] = useState({ base: current, text: current });
  const draft = edit.base === current ? edit.text : current;
  const setDraft = (text: string) => setEdit({ base: current, text });
  const commit = (v: string) => {
    if (v.trim() === current) return;
    store.setKey(side, def.name, v.trim());
  };
  const c = msg.controls;
  const origin = override !== undefined ? 'set' : (value?.origins[0] ?? 'default');
  const perHostDiffers =
    value && value.values.length > 1 && value.values.some((v) => v !== value.values[0]);
  const describedBy = `${id}-doc${error ? ` ${id}-err` : ''}`;
  let input: React.ReactNode;
  switch (def.kind.type) {
    case 'bool':
      input = (
        <input
          id={id}
          type="checkbox"
          checked={current === '1'}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(e) => choose(e.target.checked ? '1' : '0')}
        />
      );
      break;
    case 'choice':
      input = (
        <select
          id={id}
          value={current}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(e) => choose(e.target.value)}
        >
          {!def.kind.choices.includes(current) && <option value={current}>{current}</option>}
          {def.kind.choices.map((ch) => (
            <option key={ch} value={ch}>
              {ch === '' ? '—' : ch}
            </option>
          ))}
        </select>
      );
      break;
    default:
      input = (
        <input
          id={id}
          type="text"
          inputMode={def.kind.type === 'int' ? 'numeric' : 'text'}
          value={draft}
          size={def.kind.type === 'triple' ? 22 : 12}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => commit(draft)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(draft);
            if (e.key === 'Escape') setDraft(current);
          }}
        />
      );
  }
  return (
    <div
      className={`key ${origin !== 'default' ? `from-${origin}` : ''} ${value?.absent ? 'absent' : ''}`}
    >
      <div className="key-head">
        <label htmlFor={id}>
          <code>{def.name}</code>
        </label>
        {input}
        {override !== undefined && (
          <button type="button" className="link" onClick={() => store.setKey(side, def.name, null)}>
            {c.reset}
            <span className="visually-hidden"> {def.name}</span>
          </button>
        )}
      </div>
      <p id={`${id}-doc`} className="doc">
        {keyMeaning(currentLang(), def.name, def.doc)}
        {def.kind.type === 'int' && (
          <span className="muted">
            {' '}
            [{def.kind.min}..{def.kind.max}]
          </span>
        )}
        <span className="muted">
          {' · '}
          {c.defaultFor(kernel, value?.default ?? def.defaults[kernel] ?? '')}
          {origin === 'file' && ` · ${c.fromFile}`}
          {origin === 'variant' && ` · ${c.fromVariant}`}
          {origin === 'set' && ` · ${c.fromSet}`}
          {perHostDiffers &&
            ` · ${c.perHost(value.values.map((v, i) => `${hosts[i]}=${v}`).join(', '))}`}
          {value?.absent && ` · ${c.absent(kernel)}`}
        </span>
      </p>
      {error && (
        <p id={`${id}-err`} className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Values equal by content: a re-run brings new objects, mostly with the same values. */
function sameValue(a: KeyValue | undefined, b: KeyValue | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.default === b.default &&
    a.absent === b.absent &&
    a.values.join('\n') === b.values.join('\n') &&
    a.origins.join() === b.origins.join()
  );
}

/** A key's control re-renders only when what it shows changes. */
const KeyControl = memo(
  KeyControlImpl,
  (a, b) =>
    a.def === b.def &&
    a.side === b.side &&
    a.override === b.override &&
    a.kernel === b.kernel &&
    a.error === b.error &&
    a.hosts.join() === b.hosts.join() &&
    sameValue(a.value, b.value),
);

/** A group of keys, open when it holds something set (or in error); the reader may toggle it. */
function Group({
  title,
  count,
  relevant,
  children,
}: {
  title: string;
  count: number;
  relevant: boolean;
  children: React.ReactNode;
}) {
  const [userOpen, setUserOpen] = useState<boolean | null>(null);
  const open = userOpen ?? relevant;
  return (
    <details
      open={open}
      onToggle={(e) => {
        const now = (e.target as HTMLDetailsElement).open;
        if (now !== open) setUserOpen(now);
      }}
    >
      <summary>
        {title} <span className="muted">({count})</span>
      </summary>
      {open && children}
    </details>
  );
}

export function Controls() {
  const site = useSite();
  const store = useStore();
  const catalog = site.catalog;
  const side: Side = site.state.edit === 'b' && site.state.b ? 'b' : 'a';
  const view = site[side];
  const cfg = site.state[side];
  if (!catalog || !cfg) return null;
  const info = view?.info ?? null;
  const kernel = info?.kernel ?? catalog.keys.kernels[catalog.keys.kernels.length - 1]!;
  const hosts = info?.hosts ?? [];
  const error = view?.error ?? null;
  const c = msg.controls;
  const groups = keysByGroup(catalog.keys.keys);
  return (
    <section className="controls" aria-labelledby="controls-h">
      <h2 id="controls-h">{c.region}</h2>
      {site.state.b && (
        <fieldset className="edit-side">
          <legend>{c.editing}</legend>
          {(['a', 'b'] as const).map((s) => (
            <label key={s} className="inline">
              <input
                type="radio"
                name="edit-side"
                checked={side === s}
                onChange={() => store.setView({ edit: s })}
              />{' '}
              {msg.run.sideLabel(s)}
            </label>
          ))}
        </fieldset>
      )}
      {error && error.key === null && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      {cfg.sets.length > 0 && (
        <button type="button" onClick={() => store.resetSets(side)}>
          {c.resetAll}
        </button>
      )}
      {groups.map((g) => {
        const relevant = g.keys.some(
          (k) =>
            setValue(cfg.sets, k.name) !== undefined ||
            (info?.keys[k.name]?.origins ?? []).some((o) => o !== 'default') ||
            error?.key === k.name,
        );
        return (
          <Group
            key={g.group}
            title={c.groups[g.group] ?? g.group}
            count={g.keys.length}
            relevant={relevant}
          >
            {g.keys.map((k) => (
              <KeyControl
                key={k.name}
                def={k}
                side={side}
                value={info?.keys[k.name]}
                override={setValue(cfg.sets, k.name)}
                kernel={kernel}
                hosts={hosts}
                error={error?.key === k.name ? error.message : null}
              />
            ))}
          </Group>
        );
      })}
    </section>
  );
}
