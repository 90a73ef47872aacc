// Registers the service worker of the built site (dist/sw.js, made by
// scripts/vite-plugin-offline.ts), which keeps the site working offline after the first visit.
// Only production builds register it: the dev server must never be served from a cache.
//
// A page in a sandboxed cross-origin iframe (the embed) has an opaque origin and no service
// worker: that is reported as 'unsupported', never thrown.

import { perf } from '../app/perf';

export type OfflineState =
  /** No service worker here (old browser, dev server, sandboxed frame). */
  | 'unsupported'
  /** Installing: the files are being cached. */
  | 'installing'
  /** Every file of this build is cached: the site works without network. */
  | 'ready'
  | 'failed';

/** The version of this build: package version and commit (vite.config.ts `define`). */
export const BUILD_VERSION: string = __SENDPATH_VERSION__;

/**
 * Registers `sw.js` at the site's root (`rootUrl`, where index.html is) and reports the
 * worker's state as it changes.
 */
export function registerOffline(rootUrl: URL, onState: (s: OfflineState) => void): void {
  let sw: ServiceWorkerContainer;
  try {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) {
      onState('unsupported');
      return;
    }
    sw = navigator.serviceWorker;
    // When the install started, for the test that it waits for the first run (pageSettled).
    performance.mark('sp:offline');
  } catch {
    onState('unsupported');
    return;
  }
  const track = (w: ServiceWorker | null) => {
    if (!w) return;
    const report = () =>
      onState(
        w.state === 'activated' ? 'ready' : w.state === 'redundant' ? 'failed' : 'installing',
      );
    report();
    w.addEventListener('statechange', report);
  };
  sw.register(new URL('sw.js', rootUrl), { scope: rootUrl.pathname })
    .then((reg) => {
      // An active worker already serves this build or an older one; a new one may be waiting.
      if (reg.active) onState('ready');
      else track(reg.installing ?? reg.waiting);
      reg.addEventListener('updatefound', () => {
        if (!reg.active) track(reg.installing);
      });
    })
    .catch(() => onState('failed'));
}

/**
 * Resolves when the page no longer needs the machine for itself: once the first run's pipeline
 * is painted in a view that runs the engine (`runs`), once the page has loaded in one that does
 * not. Installing the worker fetches and caches the whole build (about 1.25 MB); started with
 * the page, it put the default page's time to interactive at a median of 1318 ms against
 * 1010 ms with no worker (8 loads each, alternated, on the 2-core CI machine).
 */
export function pageSettled(runs: boolean): Promise<void> {
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((resolve) => addEventListener('load', () => resolve(), { once: true }));
  if (!runs) return loaded;
  // A run that never paints (the engine refused the scenario) must not keep the site from
  // working offline.
  const late = loaded.then(() => new Promise<void>((resolve) => setTimeout(resolve, 10_000)));
  return Promise.race([perf.interactive, late]);
}
