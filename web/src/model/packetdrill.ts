// The packetdrill player's model, no React: the upstream scripts the site carries
// (scenarios/packetdrill/, each loaded when chosen), and how a script's report
// (`sendpath packetdrill --json`, engine/generated/PacketdrillReport.ts) plays: which lines
// have run, which runs now, where the script stopped and why, and how long to wait before the
// next event. Only the player's chunk imports it.

import type { PacketdrillLine } from '../engine/generated/PacketdrillLine';
import type { PacketdrillReport } from '../engine/generated/PacketdrillReport';

const loaders = import.meta.glob<string>('../../../scenarios/packetdrill/**/*.pkt', {
  query: '?raw',
  import: 'default',
});

const PREFIX = '/scenarios/packetdrill/';

/** The upstream scripts, by path under scenarios/packetdrill/ (`nagle/sendmsg_msg_more.pkt`). */
export const upstreamScripts: readonly string[] = Object.keys(loaders)
  .map((k) => k.slice(k.indexOf(PREFIX) + PREFIX.length))
  .sort();

/** The text of an upstream script; rejects a path the site does not carry. */
export async function loadUpstream(path: string): Promise<string> {
  const key = Object.keys(loaders).find((k) => k.endsWith(PREFIX + path));
  if (!key) throw new Error(`scenarios/packetdrill/${path}: no such script`);
  return loaders[key]!();
}

/** Where and why a script stopped (none for a pass). */
export interface Stop {
  line: number;
  kind: 'fail' | 'unsupported' | 'error';
  message: string;
  expected: string | null;
  actual: string | null;
}

export function stopOf(r: PacketdrillReport): Stop | null {
  const o = r.outcome;
  switch (o.kind) {
    case 'pass':
      return null;
    case 'fail':
      return {
        line: o.line,
        kind: 'fail',
        message: o.message,
        expected: o.expected,
        actual: o.actual,
      };
    case 'unsupported':
      return { line: o.line, kind: 'unsupported', message: o.what, expected: null, actual: null };
    case 'error':
      return { line: o.line, kind: 'error', message: o.message, expected: null, actual: null };
  }
}

/** How a script line shows at a step of the playback. */
export type LineState = 'idle' | 'done' | 'current' | 'fail' | 'unsupported' | 'error';

/**
 * The state of each line (index 0 = line 1) after `step` events of the report have run (0: none,
 * `report.lines.length`: all, and then the line the script stopped at shows why).
 */
export function lineStates(r: PacketdrillReport, step: number, lineCount: number): LineState[] {
  const states: LineState[] = Array.from({ length: lineCount }, () => 'idle');
  const mark = (e: PacketdrillLine, s: LineState) => {
    for (let l = e.line; l <= e.last_line && l <= lineCount; l++) states[l - 1] = s;
  };
  const shown = Math.min(step, r.lines.length);
  for (let k = 0; k < shown; k++) mark(r.lines[k]!, k === shown - 1 ? 'current' : 'done');
  const stop = stopOf(r);
  if (stop && step >= r.lines.length && stop.line >= 1 && stop.line <= lineCount)
    states[stop.line - 1] = stop.kind;
  return states;
}

/** The event that ran last at `step` (null before the first). */
export function currentEvent(r: PacketdrillReport, step: number): PacketdrillLine | null {
  return step > 0 ? (r.lines[Math.min(step, r.lines.length) - 1] ?? null) : null;
}

/** Playback speeds: milliseconds of the page per millisecond of the script. */
export const SPEEDS = { slow: 4, real: 1, fast: 0.25 } as const;
export type Speed = keyof typeof SPEEDS;

/** A gap the page never waits less or more than (an event is seen; a long idle period is not sat through). */
export const MIN_WAIT_MS = 120;
export const MAX_WAIT_MS = 1500;

/** How long the page waits before showing event `step` (the script's gap, scaled and bounded). */
export function waitBefore(r: PacketdrillReport, step: number, speed: Speed): number {
  const next = r.lines[step];
  if (!next) return 0;
  const prev = step > 0 ? r.lines[step - 1]!.t_us : 0;
  const gapMs = ((next.t_us - prev) / 1000) * SPEEDS[speed];
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, gapMs));
}

/** Seconds as packetdrill prints them (`0.070000`). */
export function seconds(us: number): string {
  return (us / 1e6).toFixed(6);
}
