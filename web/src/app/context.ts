// React's access to the page store and the playback clock.

import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
} from 'react';

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
 * The store's snapshot for panels that may lag a frame behind: a change reaches them once the
 * frame that shows it in the pipeline and the charts is painted, and they render it in a
 * second, interruptible pass.
 */
export function useSiteDeferred(): Snapshot {
  const store = useStore();
  const [snap, setSnap] = useState(store.getSnapshot);
  useEffect(() => {
    const catchUp = () => startTransition(() => setSnap(store.getSnapshot()));
    const off = store.subscribeLate(catchUp);
    // A change between this render and the subscription.
    if (store.getSnapshot() !== snap) catchUp();
    return off;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
  return snap;
}
