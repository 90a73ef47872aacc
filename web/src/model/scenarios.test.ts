import { readdirSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { DEFAULT_SCENARIO, defaultScenario, scenarioFiles } from './scenarios';

const onDisk = readdirSync(new URL('../../../scenarios/', import.meta.url))
  .filter((name) => name.endsWith('.toml'))
  .sort();

describe('scenario files', () => {
  test('every .toml file of /scenarios is bundled, with its path and text', () => {
    expect(scenarioFiles.map((f) => f.name)).toEqual(onDisk);
    for (const f of scenarioFiles) {
      expect(f.path).toBe(`scenarios/${f.name}`);
      expect(f.source).toMatch(/^title\s*=/m);
    }
  });

  test('the default is autocorking.toml when it exists, else the first file by name', () => {
    const a = { name: 'a.toml', path: 'scenarios/a.toml', source: '' };
    const auto = { name: DEFAULT_SCENARIO, path: `scenarios/${DEFAULT_SCENARIO}`, source: '' };
    const z = { name: 'z.toml', path: 'scenarios/z.toml', source: '' };
    expect(defaultScenario([a, auto, z])).toBe(auto);
    expect(defaultScenario([a, z])).toBe(a);
    expect(() => defaultScenario([])).toThrow('scenarios/ holds no .toml file');
  });
});
