// How numbers read on the page (and in the end-to-end tests that compare them).

const count = new Intl.NumberFormat('en-US');

/** An integer count with thousands separators: `23,936`. */
export function formatCount(n: number): string {
  return count.format(n);
}

/** Seconds with millisecond precision: `7.918 s`. */
export function formatSeconds(s: number): string {
  return `${s.toFixed(3)} s`;
}

/** A bit rate in the unit that keeps 3 significant digits: `101 kbit/s`, `9.41 Gbit/s`. */
export function formatBitRate(bps: number): string {
  const units = ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s'];
  let value = bps;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${trimZeros(value.toPrecision(3))} ${units[unit]}`;
}

/** A duration in ns, in the unit that keeps it readable: `850 ns`, `12.5 µs`, `3.20 ms`, `1.50 s`. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return '∞';
  const a = Math.abs(ns);
  if (a < 1e3) return `${Math.round(ns)} ns`;
  if (a < 1e6) return `${trim3(ns / 1e3)} µs`;
  if (a < 1e9) return `${trim3(ns / 1e6)} ms`;
  return `${trim3(ns / 1e9)} s`;
}

/** An instant on the run's clock (ns since the run started), ms with µs precision: `1.234567 ms`. */
export function formatInstant(ns: number): string {
  return `${(ns / 1e6).toFixed(6)} ms`;
}

/** Bytes, grouped: `65,160 B`. */
export function formatBytes(n: number): string {
  return `${formatCount(Math.round(n))} B`;
}

/** A rate in bytes per second as `ss` prints pacing rates (bits): `2.22Gbps`. */
export function formatSsRate(bytesPerSecond: number | null): string {
  if (bytesPerSecond === null || !Number.isFinite(bytesPerSecond)) return 'unlimited';
  return formatBitRate(bytesPerSecond * 8)
    .replace(' ', '')
    .replace('bit/s', 'bps');
}

/** Three significant digits without trailing zeros: `1.5`, `500`, `0.125`. */
export function trim3(x: number): string {
  return trimZeros(x.toPrecision(3));
}

/** `1.50` -> `1.5`, `2.00` -> `2`, `500` stays `500`. */
function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
