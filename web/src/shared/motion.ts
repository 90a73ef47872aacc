// The reader's motion preference: the embed, a lesson's step and the laser pointer start no
// animation of their own and draw no trail when it asks for less motion.

/** True when the reader asks for reduced motion (`prefers-reduced-motion: reduce`). */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
