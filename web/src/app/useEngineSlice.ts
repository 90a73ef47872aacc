import { useEffect, useState } from 'react';

import { startEngine } from '../engine/bridge';

/** What the first slice shows: the engine starting, its answers, or why it failed. */
export type EngineSlice =
  | { phase: 'starting' }
  | { phase: 'ready'; version: string; wireBytesOfFullMssFrame: number }
  | { phase: 'failed'; error: string };

/**
 * Starts the engine in its worker, asks it for its version and one computation, and stops it
 * when the component unmounts.
 */
export function useEngineSlice(): EngineSlice {
  const [slice, setSlice] = useState<EngineSlice>({ phase: 'starting' });

  useEffect(() => {
    const engine = startEngine();
    let mounted = true;
    const load = async (): Promise<EngineSlice> => {
      try {
        const version = await engine.ready;
        const wireBytesOfFullMssFrame = await engine.call('wireBytesOfFullMssFrame');
        return { phase: 'ready', version, wireBytesOfFullMssFrame };
      } catch (err) {
        return { phase: 'failed', error: err instanceof Error ? err.message : String(err) };
      }
    };
    void load().then((s) => {
      if (mounted) setSlice(s);
    });
    return () => {
      mounted = false;
      engine.terminate();
    };
  }, []);

  return slice;
}
