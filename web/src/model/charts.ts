// The charts a lesson step or the embed can show, by name (app/Charts.tsx draws them). No React.

export const CHARTS = [
  'throughput',
  'queues',
  'cwnd',
  'sizes',
  'segs',
  'stevens',
  'notsent',
] as const;
export type ChartName = (typeof CHARTS)[number];

/** No limit: net.ipv4.tcp_notsent_lowat's -1 (UINT_MAX), or any value no queue reaches. */
const LOWAT_OFF = 0xffffffff;

/**
 * The TCP_NOTSENT_LOWAT limit of a socket on `host` (`tcp_notsent_lowat()`: the socket option
 * if set, else the sysctl), null when there is none (-1, or a kernel before 3.12).
 */
export function notsentLowat(
  info: { keys: Record<string, { values: string[]; absent: boolean } | undefined> },
  host: number,
): number | null {
  const read = (name: string) => {
    const k = info.keys[name];
    if (!k || k.absent) return null;
    const v = Number(k.values[host] ?? k.values[0]);
    return Number.isFinite(v) ? v : null;
  };
  const so = read('TCP_NOTSENT_LOWAT');
  const v = so !== null && so > 0 ? so : read('net.ipv4.tcp_notsent_lowat');
  return v === null || v >= LOWAT_OFF ? null : v;
}
