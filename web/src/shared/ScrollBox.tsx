// A box whose content (a wide table) scrolls sideways inside it on a narrow screen, so the page
// itself never does. While it scrolls it is a labelled region in the tab order, so a keyboard
// can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable); while everything fits it is
// a plain box and no tab stop.

import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export function ScrollBox({
  className,
  label,
  children,
}: {
  className: string;
  /** The region's name while it scrolls (what a screen reader announces on focus). */
  label: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const check = () => setScrolls(box.scrollWidth > box.clientWidth + 1);
    check();
    // The box narrows with the window; its content widens once its data arrives.
    const observer = new ResizeObserver(check);
    observer.observe(box);
    for (const child of box.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className={className}
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
