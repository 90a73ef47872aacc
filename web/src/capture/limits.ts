// What the capture reader accepts (issue 15; docs/capture.md, "Limits"). A small module of its
// own: the page states the limits (app/Native.tsx) without loading the reader.

export interface CaptureLimits {
  /** The largest capture, file or URL, in bytes. */
  maxBytes: number;
  /** How long a capture URL may send nothing (before its headers, or between chunks), ms. */
  idleMs: number;
}

export const CAPTURE_LIMITS: CaptureLimits = { maxBytes: 256 * 1024 * 1024, idleMs: 20_000 };

/** A size as the limits and their errors state it: bytes, KiB or MiB (`256 MiB`, `1.5 KiB`). */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const [v, unit] = n < 1024 * 1024 ? [n / 1024, 'KiB'] : [n / (1024 * 1024), 'MiB'];
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit}`;
}
