// Playback: the time cursor moves at `speed` simulated ns per second of screen time, over a
// logarithmic range from 1 µs per second (a packet's serialization stretched over seconds)
// to 10 s per second (faster than real time).

import { SPEED_MAX, SPEED_MIN } from './urlstate';

/** Slider positions per decade of speed. */
export const SLIDER_STEPS_PER_DECADE = 20;

export function sliderMax(): number {
  return Math.round(Math.log10(SPEED_MAX / SPEED_MIN) * SLIDER_STEPS_PER_DECADE);
}

export function speedToSlider(speed: number): number {
  const s = Math.min(SPEED_MAX, Math.max(SPEED_MIN, speed));
  return Math.round(Math.log10(s / SPEED_MIN) * SLIDER_STEPS_PER_DECADE);
}

export function sliderToSpeed(v: number): number {
  return roundSpeed(SPEED_MIN * 10 ** (v / SLIDER_STEPS_PER_DECADE));
}

/** Speeds read best as 1, 2 or 5 (or a few in between) times a power of ten. */
export function roundSpeed(speed: number): number {
  const e = Math.floor(Math.log10(speed));
  const m = speed / 10 ** e;
  const steps = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
  const best = steps.reduce((a, b) => (Math.abs(b - m) < Math.abs(a - m) ? b : a));
  return Math.min(SPEED_MAX, Math.max(SPEED_MIN, best * 10 ** e));
}

/** The speed that plays a window in about 20 seconds. */
export function defaultSpeed(windowNs: number): number {
  return roundSpeed(Math.max(SPEED_MIN, windowNs / 20));
}

/** Where the cursor is after `elapsedMs` of screen time at `speed`, clamped to the window. */
export function advance(t: number, speed: number, elapsedMs: number, end: number): number {
  return Math.min(end, t + (speed * elapsedMs) / 1000);
}
