// The conformance experiments of scenarios/conformance/ (issue 14), bundled as text. Only the
// "Model vs Linux" view imports this module (and the unit tests), so the files form one chunk
// that loads with that view, never on the first load. The engine parses them in its worker
// (`conformExperiment`); this module only lists them.
//
// Which scenarios have experiments is known on the first load without this chunk:
// `conformScenarios()` in vite.config.ts counts them at build time (`__SENDPATH_CONFORM__`).

/** A conformance experiment file (scenarios/conformance/<id>.toml). */
export interface ConformFile {
  /** The file's name without `.toml`, e.g. `pingpong-lo-default`. */
  id: string;
  /** Its path, as errors name it (`scenarios/conformance/pingpong-lo-default.toml`). */
  file: string;
  source: string;
}

/** The file of known failures beside the experiments: not an experiment. */
export const KNOWN_FAILURES_FILE = 'known-failures.toml';

const sources = import.meta.glob<string>('../../../scenarios/conformance/*.toml', {
  query: '?raw',
  import: 'default',
  eager: true,
});

function fileName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** Every experiment file, by id. */
export const conformFiles: readonly ConformFile[] = Object.entries(sources)
  .filter(([key]) => fileName(key) !== KNOWN_FAILURES_FILE)
  .map(([key, source]) => {
    const name = fileName(key);
    return { id: name.replace(/\.toml$/, ''), file: `scenarios/conformance/${name}`, source };
  })
  .sort((a, b) => a.id.localeCompare(b.id));

/**
 * Engine scenarios that live beside the experiments (scenarios/conformance/setups/…): setups an
 * experiment needs that are not among the simulator's scenarios. By path relative to scenarios/.
 */
const setups = import.meta.glob<string>('../../../scenarios/conformance/*/**/*.toml', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The text of the setup at `path` (relative to scenarios/), if the experiments have one there. */
export function setupSource(path: string): string | undefined {
  return Object.entries(setups).find(([key]) => key.endsWith(`/scenarios/${path}`))?.[1];
}

/** The text of known-failures.toml; '' when there is none. */
export const knownFailures: string =
  Object.entries(sources).find(([key]) => fileName(key) === KNOWN_FAILURES_FILE)?.[1] ?? '';
