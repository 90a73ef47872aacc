// Two whole runs of one scenario, A and B, each in an engine worker of its own and at once, as
// the lessons' A/B table and the landing page's figures need them (`sendpath compare`'s runs).

import { startEngine } from '../engine/bridge';
import type { ExperimentResult, Side } from '../engine/protocol';

export interface PairRequest {
  /** The scenario's text and its path as the engine names it in errors. */
  source: string;
  file: string;
  variants: Record<Side, string>;
  sets: string[];
  metrics: string[];
}

export interface PairListener {
  /** How far a side has got, 0..1. */
  progress(side: Side, done: number): void;
  result(side: Side, result: ExperimentResult): void;
  error(message: string): void;
  /** Both sides have their result. */
  done?(): void;
}

/** The least time between two progress reports of a side, ms. */
const PROGRESS_MS = 200;

/** Starts the pair; the function it returns stops it (nothing is heard after that). */
export function runExperimentPair(
  request: () => Promise<PairRequest>,
  on: PairListener,
): () => void {
  const engines = { a: startEngine(), b: startEngine() };
  let live = true;
  // Progress reaches the page at most every PROGRESS_MS per side: each report re-renders it,
  // and its main thread shares the machine's cores with the two runs.
  const shown = { a: -Infinity, b: -Infinity };
  const go = async () => {
    const req = await request();
    const run = async (side: Side) => {
      const result = await engines[side].callWithProgress(
        'experiment',
        (done, total) => {
          const now = performance.now();
          if (!live || now - shown[side] < PROGRESS_MS) return;
          shown[side] = now;
          on.progress(side, total > 0 ? done / total : 0);
        },
        { source: req.source, file: req.file, variant: req.variants[side], sets: req.sets },
        req.metrics,
      );
      engines[side].terminate();
      if (live) on.result(side, result);
    };
    await Promise.all([run('a'), run('b')]);
    if (live) on.done?.();
  };
  go().catch((err: unknown) => {
    if (live) on.error(err instanceof Error ? err.message : String(err));
  });
  return () => {
    live = false;
    engines.a.terminate();
    engines.b.terminate();
  };
}
