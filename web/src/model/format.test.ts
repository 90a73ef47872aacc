import { describe, expect, test } from 'vitest';

import { formatBitRate, formatCount, formatNs, formatSeconds } from './format';

describe('number formats', () => {
  test('counts group thousands', () => {
    expect(formatCount(23936)).toBe('23,936');
    expect(formatCount(0)).toBe('0');
  });

  test('seconds keep milliseconds', () => {
    expect(formatSeconds(7.917645399)).toBe('7.918 s');
    expect(formatSeconds(0)).toBe('0.000 s');
  });

  test('bit rates pick the unit that keeps three significant digits', () => {
    expect(formatBitRate(101040.14)).toBe('101 kbit/s');
    expect(formatBitRate(9_412_000_000)).toBe('9.41 Gbit/s');
    expect(formatBitRate(1_000_000)).toBe('1 Mbit/s');
    expect(formatBitRate(512)).toBe('512 bit/s');
  });
});

describe('numbers that end in zeros keep them', () => {
  test('500 Mbit/s is not 5 Mbit/s', () => {
    expect(formatBitRate(500e6)).toBe('500 Mbit/s');
    expect(formatBitRate(1.5e9)).toBe('1.5 Gbit/s');
  });

  test('durations pick their unit and keep three digits', () => {
    expect(formatNs(500_000)).toBe('500 µs');
    expect(formatNs(2_500_000)).toBe('2.5 ms');
    expect(formatNs(40)).toBe('40 ns');
    expect(formatNs(1e9)).toBe('1 s');
  });
});
