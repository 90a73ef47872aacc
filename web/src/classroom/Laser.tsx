// A laser pointer for presenter mode: a bright dot under the pointer with a short fading
// trail, drawn on a canvas over the page that never takes a click. With reduced motion the
// trail is left out (the dot alone follows the pointer).

import { useEffect, useRef } from 'react';

import { prefersReducedMotion } from '../shared/motion';

/** How long a point of the trail stays visible, ms. */
const TRAIL_MS = 300;

export function Laser({ on }: { on: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = canvas.current;
    if (!on || !c) return;
    const reduced = prefersReducedMotion();
    const g = c.getContext('2d');
    if (!g) return;
    const trail: { x: number; y: number; t: number }[] = [];
    let frame = 0;
    const resize = () => {
      const dpr = window.devicePixelRatio || 1;
      c.width = Math.round(innerWidth * dpr);
      c.height = Math.round(innerHeight * dpr);
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
    };
    const draw = () => {
      frame = 0;
      const now = performance.now();
      while (trail.length > 1 && now - trail[0]!.t > TRAIL_MS) trail.shift();
      g.clearRect(0, 0, innerWidth, innerHeight);
      const head = trail[trail.length - 1];
      if (!head) return;
      if (!reduced)
        for (const [i, p] of trail.entries()) {
          const age = (now - p.t) / TRAIL_MS;
          g.fillStyle = `rgba(255, 30, 30, ${Math.max(0, 0.5 * (1 - age))})`;
          g.beginPath();
          g.arc(p.x, p.y, 4 + (6 * i) / trail.length, 0, 2 * Math.PI);
          g.fill();
        }
      g.shadowColor = 'rgba(255, 0, 0, 0.9)';
      g.shadowBlur = 18;
      g.fillStyle = 'rgb(255, 40, 40)';
      g.beginPath();
      g.arc(head.x, head.y, 9, 0, 2 * Math.PI);
      g.fill();
      g.shadowBlur = 0;
      // Keep fading the trail while it lasts.
      if (!reduced && trail.length > 1) frame = requestAnimationFrame(draw);
    };
    const move = (e: PointerEvent) => {
      trail.push({ x: e.clientX, y: e.clientY, t: performance.now() });
      if (reduced) trail.splice(0, trail.length - 1);
      if (!frame) frame = requestAnimationFrame(draw);
    };
    resize();
    window.addEventListener('resize', resize);
    window.addEventListener('pointermove', move);
    return () => {
      window.removeEventListener('resize', resize);
      window.removeEventListener('pointermove', move);
      if (frame) cancelAnimationFrame(frame);
      g.clearRect(0, 0, c.width, c.height);
    };
  }, [on]);
  return (
    <canvas
      ref={canvas}
      className={`laser ${on ? 'on' : ''}`}
      aria-hidden="true"
      data-testid="laser"
    />
  );
}
