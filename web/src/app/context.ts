// React's access to the page store and the playback clock.

import { createContext, useContext, useDeferredValue, useSyncExternalStore } from 'react';

import type { Clock } from './clock';
import type { SiteStore, Snapshot } from './store';

export const StoreContext = createContext<SiteStore | null>(null);
export const ClockContext = createContext<Clock | null>(null);

export function useStore(): SiteStore {
  const s = useContext(StoreContext);
  if (!s) throw new Error('useStore outside <StoreContext>');
  return s;
}

export function useClock(): Clock {
  const c = useContext(ClockContext);
  if (!c) throw new Error('useClock outside <ClockContext>');
  return c;
}

/** The store's snapshot; re-renders on every change. */
export function useSite(): Snapshot {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/** The time cursor, at most ten updates a second while playing. */
export function useCursor(): { t: number; row: number | null; playing: boolean; speed: number } {
  const clock = useClock();
  const t = useSyncExternalStore(
    (fn) => clock.subscribeSlow(fn),
    () => clock.t,
  );
  const playing = useSyncExternalStore(
    (fn) => clock.subscribeSlow(fn),
    () => clock.playing,
  );
  const speed = useSyncExternalStore(
    (fn) => clock.subscribeSlow(fn),
    () => clock.speed,
  );
  const row = useSyncExternalStore(
    (fn) => clock.subscribeSlow(fn),
    () => clock.row,
  );
  return { t, row, playing, speed };
}

/**
 * The store's snapshot for panels that may lag a frame behind: after a run they render in a
 * second, interruptible pass, once the pipeline and the charts are on screen.
 */
export function useSiteDeferred(): Snapshot {
  return useDeferredValue(useSite());
}
