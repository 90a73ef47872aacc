import { useEffect, useState } from 'react';

import { startEngine } from '../engine/bridge';
import type { RunResult } from '../engine/generated/RunResult';
import { defaultScenario, type ScenarioFile } from '../model/scenarios';

/** The engine starting, then running the default scenario, then its result (or why not). */
export type DefaultRun =
  | { phase: 'starting'; scenario: ScenarioFile }
  | { phase: 'running'; scenario: ScenarioFile; version: string }
  | { phase: 'done'; scenario: ScenarioFile; version: string; result: RunResult }
  | { phase: 'failed'; scenario: ScenarioFile; version: string | null; error: string };

/**
 * Starts the engine in its worker and runs the default scenario in it; stops the engine when
 * the component unmounts.
 */
export function useDefaultRun(): DefaultRun {
  const [scenario] = useState(defaultScenario);
  const [state, setState] = useState<DefaultRun>({ phase: 'starting', scenario });

  useEffect(() => {
    const engine = startEngine();
    let mounted = true;
    const update = (s: DefaultRun) => {
      if (mounted) setState(s);
    };
    const go = async () => {
      let version: string | null = null;
      try {
        version = await engine.ready;
        update({ phase: 'running', scenario, version });
        const result = await engine.call('run', {
          source: scenario.source,
          file: scenario.path,
          variant: null,
          sets: [],
        });
        update({ phase: 'done', scenario, version, result });
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        update({ phase: 'failed', scenario, version, error });
      }
    };
    void go();
    return () => {
      mounted = false;
      engine.terminate();
    };
  }, [scenario]);

  return state;
}
