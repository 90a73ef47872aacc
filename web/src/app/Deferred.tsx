// Panels below the first screen load their code only when the reader scrolls near them: the
// first load stays within its budget (docs/architecture.md) and the page is interactive
// sooner. Until then a placeholder holds the panel's heading (the same region name), so the
// page's outline and the keyboard path through it do not change when the code arrives.

import {
  memo,
  Suspense,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';

/**
 * Memoized: the page re-rendering (every change of the store) does not re-render the panel,
 * which hears about the changes it shows by itself.
 */
export const Deferred = memo(function Deferred({
  title,
  component: Component,
  armed,
}: {
  title: string;
  component: LazyExoticComponent<ComponentType>;
  /** Start watching only once the page above has its final height (the first run shown). */
  armed: boolean;
}) {
  const ref = useRef<HTMLElement>(null);
  // Without IntersectionObserver (old browsers, some test environments) load at once.
  const [near, setNear] = useState(() => typeof IntersectionObserver !== 'function');
  useEffect(() => {
    const el = ref.current;
    if (!el || near || !armed) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '0px 0px 100px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [near, armed]);
  const placeholder = (
    <section ref={ref} aria-label={title} className="deferred">
      <h2>{title}</h2>
    </section>
  );
  if (!near) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <Component />
    </Suspense>
  );
});
