// The time cursor and playback, outside React: the pipeline canvas reads it every animation
// frame; React components hear about it at most ten times a second while it plays
// (`subscribeSlow`), at once when it jumps.

import { advance } from '../model/playback';

type Listener = () => void;

export class Clock {
  t = 0;
  start = 0;
  end = 0;
  speed = 1e5;
  playing = false;
  /**
   * The event row the cursor stands on, when set by stepping (several events may share an
   * instant); null when the cursor was moved by time.
   */
  row: number | null = null;
  private frame: number | null = null;
  private last = 0;
  private fast = new Set<Listener>();
  private slow = new Set<Listener>();
  private slowTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSlow = 0;

  /** Every animation frame while playing, and on every jump. */
  subscribe(fn: Listener): () => void {
    this.fast.add(fn);
    return () => this.fast.delete(fn);
  }

  /** At most every 100 ms while playing; at once on jumps and on pause. */
  subscribeSlow(fn: Listener): () => void {
    this.slow.add(fn);
    return () => this.slow.delete(fn);
  }

  setRange(start: number, end: number): void {
    this.start = start;
    this.end = end;
    this.t = Math.min(end, Math.max(start, this.t));
    this.emit(true);
  }

  seek(t: number, row: number | null = null): void {
    this.t = Math.min(this.end, Math.max(this.start, t));
    this.row = row;
    this.emit(true);
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    this.emit(true);
  }

  play(): void {
    if (this.playing) return;
    if (this.t >= this.end) this.t = this.start;
    this.playing = true;
    this.row = null;
    this.last = performance.now();
    this.frame = requestAnimationFrame(this.tick);
    this.emit(true);
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
    this.emit(true);
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  private tick = (now: number): void => {
    const dt = Math.min(100, now - this.last);
    this.last = now;
    this.t = advance(this.t, this.speed, dt, this.end);
    if (this.t >= this.end) {
      this.playing = false;
      this.frame = null;
      this.emit(true);
      return;
    }
    this.frame = requestAnimationFrame(this.tick);
    this.emit(false);
  };

  private emit(now: boolean): void {
    for (const fn of this.fast) fn();
    const t = performance.now();
    if (now || t - this.lastSlow >= 100) {
      if (this.slowTimer) clearTimeout(this.slowTimer);
      this.slowTimer = null;
      this.lastSlow = t;
      for (const fn of this.slow) fn();
    } else if (!this.slowTimer) {
      this.slowTimer = setTimeout(
        () => {
          this.slowTimer = null;
          this.lastSlow = performance.now();
          for (const fn of this.slow) fn();
        },
        100 - (t - this.lastSlow),
      );
    }
  }
}
