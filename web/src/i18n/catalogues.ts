// The site's catalogues, named once: what a language has (`Catalogues`, each in the shape of its
// English) and how a language's catalogues are loaded. English is part of the page: the
// simulator's and the classroom's strings (messages.en.ts, classroom.en.ts) and the engine's own
// texts (scenario titles, key meanings, the decision log). Every other language is one chunk of its
// own (zh-CN.ts), loaded before the page switches to it.
//
// A catalogue (`*.en.ts`, `*.zh-CN.ts`) imports no other module of i18n/; the readers
// (messages.ts, classroom.ts, content.ts, log.ts) import it and this module, and
// web/src/layers.test.ts keeps it so. No React.

import type { RecordedFacts } from '../capture/replay';
import type { SimRow } from '../model/logRow';
import type { ClassroomMessages } from './classroom.en';
import type { ConformMessages } from './conform.en';
import type { Lang } from './lang';
import type { Messages } from './messages.en';
import type { PacketdrillMessages } from './packetdrill.en';

/** A language's decision-log templates (log.ts): null for a row it has no words for. */
export interface LogTemplates {
  /** An ACK reason, by the engine's English name. */
  ackReason(reason: string): string | null;
  /** A simulated row; `gateName` names a gate in this language. */
  simLine(r: SimRow, gateName: (gate: string) => string): string | null;
  /** A recorded event. */
  recordedLine(r: RecordedFacts): string | null;
}

/** The catalogues of a language other than English. */
export interface Catalogues {
  /** The simulator's strings (messages.ts). */
  messages: Messages;
  /** The classroom's, the embed's and the footer's strings (classroom.ts). */
  classroom: ClassroomMessages;
  /** The "Model vs Linux" view's strings (conform.ts). */
  conform: ConformMessages;
  /** The packetdrill player's strings (packetdrill.ts). */
  packetdrill: PacketdrillMessages;
  /** Scenario file name (without .toml) -> its title and summary (content.ts). */
  scenarios: Record<string, { title: string; summary: string }>;
  /** Key -> its one-line meaning (content.ts). */
  keys: Record<string, string>;
  /** The decision log's lines (log.ts). */
  log: LogTemplates;
}

const loaded: Partial<Record<Lang, Catalogues>> = {};

/** `lang`'s catalogues if they are loaded (never for English, whose text is in the page). */
export function loadedCatalogues(lang: Lang): Catalogues | undefined {
  return loaded[lang];
}

/**
 * Loads `lang`'s catalogues (once): its chunk, whose module is typed as `Catalogues` here, so a
 * chunk that lacks a catalogue, or a catalogue a key of English's, fails to compile.
 */
export async function loadCatalogues(lang: Lang): Promise<void> {
  if (lang === 'zh-CN' && !loaded[lang]) loaded[lang] = await import('./zh-CN');
}
