// The scenario files of /scenarios, bundled into the site as text. The engine parses them (in
// its worker); this module only lists them and picks the default.

/** One file of /scenarios. */
export interface ScenarioFile {
  /** File name, e.g. `autocorking.toml`. */
  name: string;
  /** Path as the engine names it in errors, e.g. `scenarios/autocorking.toml`. */
  path: string;
  /** The file's text (TOML). */
  source: string;
}

/** The scenario the site opens with. */
export const DEFAULT_SCENARIO = 'autocorking.toml';

const sources = import.meta.glob<string>('../../../scenarios/*.toml', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Every scenario file, by name. */
export const scenarioFiles: readonly ScenarioFile[] = Object.entries(sources)
  .map(([path, source]) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    return { name, path: `scenarios/${name}`, source };
  })
  .sort((a, b) => a.name.localeCompare(b.name));

/**
 * The scenario to open with: DEFAULT_SCENARIO, or, while that file does not exist yet, the
 * first file by name.
 */
export function defaultScenario(files: readonly ScenarioFile[] = scenarioFiles): ScenarioFile {
  const chosen = files.find((f) => f.name === DEFAULT_SCENARIO) ?? files[0];
  if (!chosen) throw new Error('scenarios/ holds no .toml file');
  return chosen;
}
