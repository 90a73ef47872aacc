// Performance marks the benchmarks (scripts/bench/site.mjs, scripts/bench-web.mjs) read in the real browser:
//
//   sp:change       a control changed a run's configuration
//   sp:update       measure: from the last sp:change to the charts painted with its run
//   sp:engine       measure: from the last sp:change to the run's model arriving from the
//                   worker (the engine's run and the derivation, in the worker)
//   sp:render       measure: from the model's arrival to the charts painted (main thread)
//   sp:interactive  mark: the first run's pipeline painted, its controls live (time to
//                   interactive)
//   sp:offline      mark: the service worker's registration started (after sp:interactive,
//                   web/src/offline/register.ts)
//
// "Painted" is approximated as the first task after the next animation frame that follows
// the React commit.

let pending = false;
let interactive = false;
let resolveInteractive: () => void = () => {};
/** Resolves when `sp:interactive` is marked: the first run's pipeline is on screen. */
const interactivePromise = new Promise<void>((resolve) => {
  resolveInteractive = resolve;
});

function afterPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

export const perf = {
  /** Resolves once the first run's pipeline is painted (the mark `sp:interactive`). */
  interactive: interactivePromise,
  markChange(): void {
    performance.mark('sp:change');
    pending = true;
  },
  /** A run's model arrived from the worker. */
  modelArrived(timing: { runMs: number; columnsMs: number; deriveMs: number }): void {
    if (!pending) return;
    // The worker's own split of its time rides on the mark.
    performance.mark('sp:model', { detail: timing });
    try {
      performance.measure('sp:engine', 'sp:change', 'sp:model');
    } catch {
      /* cleared */
    }
  },
  /** The change never produced a run (the engine refused it). */
  changeRejected(): void {
    pending = false;
  },
  /** Called by the pipeline after painting a run. */
  pipelinePainted(): void {
    if (!interactive) {
      interactive = true;
      afterPaint(() => {
        performance.mark('sp:interactive');
        resolveInteractive();
      });
    }
  },
  /** Called by the charts after committing a new run. */
  chartsRendered(): void {
    if (pending) {
      pending = false;
      afterPaint(() => {
        try {
          performance.measure('sp:update', 'sp:change');
          performance.measure('sp:render', 'sp:model');
        } catch {
          /* the mark was cleared by the benchmark between runs */
        }
      });
    }
  },
};
