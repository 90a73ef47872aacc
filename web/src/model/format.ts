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
  return `${value.toPrecision(3).replace(/\.?0+$/, '')} ${units[unit]}`;
}
