// The reader's own scenario files, kept apart from scenarioIndex.ts (which lists the files of
// /scenarios through Vite) so that the URL state (urlstate.ts) and Node-side tests can use them.
//
// A scenario file opened or dropped on the page (or carried by a link's `toml=`) is a scenario
// like the others for the rest of the site: its name is `file:` + its file name without
// `.toml` + `@` + a hash of its text, so each edit is a run of its own in the history; its path
// is the file's name, which the engine names in its errors as `sendpath run` does.

/** The prefix of a user scenario's name. */
export const USER_PREFIX = 'file:';

export interface ScenarioEntry {
  /** Name in the URL: the file name without `.toml`, e.g. `autocorking`. */
  name: string;
  /** File name, e.g. `autocorking.toml`. */
  file: string;
  /** Path as the engine names it in errors, e.g. `scenarios/autocorking.toml`. */
  path: string;
}

const userFiles = new Map<string, { entry: ScenarioEntry; text: string }>();

/** FNV-1a of the text, 8 hex digits: a short name for one version of a file. */
function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Registers the text of a file the reader opened; returns its entry. */
export function registerUserScenario(fileName: string, text: string): ScenarioEntry {
  const file = fileName.replace(/^.*[\\/]/, '') || 'scenario.toml';
  const base = file.replace(/\.toml$/i, '').replace(/[^A-Za-z0-9_.-]/g, '_') || 'scenario';
  const name = `${USER_PREFIX}${base}@${textHash(text)}`;
  const entry: ScenarioEntry = { name, file, path: file };
  userFiles.set(name, { entry, text });
  return entry;
}

/** The text of a user scenario, if `name` is one. */
export function userScenarioText(name: string): string | undefined {
  return userFiles.get(name)?.text;
}

/** Whether `name` names a file the reader opened. */
export function isUserScenario(name: string): boolean {
  return name.startsWith(USER_PREFIX);
}

/** The user scenarios registered so far (the experiment menu lists them). */
export function userEntries(): ScenarioEntry[] {
  return [...userFiles.values()].map((u) => u.entry);
}

/** A text as base64url of its UTF-8, for a link's `toml=`. */
export function encodeText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text of a link's `toml=`; null when it is not base64url of UTF-8. */
export function decodeText(encoded: string): string | null {
  try {
    const bin = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A user scenario's entry and text, if `name` is one. */
export function userFile(name: string): { entry: ScenarioEntry; text: string } | undefined {
  return userFiles.get(name);
}
