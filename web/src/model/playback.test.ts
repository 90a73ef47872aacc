import { describe, expect, test } from 'vitest';

import {
  advance,
  defaultSpeed,
  roundSpeed,
  sliderMax,
  sliderToSpeed,
  speedToSlider,
} from './playback';
import { SPEED_MAX, SPEED_MIN } from './urlstate';

describe('playback speed', () => {
  test('the slider spans 1 µs per second to 10 s per second on a log scale', () => {
    expect(sliderToSpeed(0)).toBe(SPEED_MIN);
    expect(sliderToSpeed(sliderMax())).toBe(SPEED_MAX);
    expect(SPEED_MIN).toBe(1e3);
    expect(SPEED_MAX).toBeGreaterThan(1e9); // faster than real time
  });

  test('slider positions and speeds map back and forth', () => {
    for (let v = 0; v <= sliderMax(); v += 7) {
      expect(Math.abs(speedToSlider(sliderToSpeed(v)) - v)).toBeLessThanOrEqual(1);
    }
  });

  test('speeds are rounded to numbers a person reads', () => {
    expect(roundSpeed(123_456)).toBe(120_000);
    expect(roundSpeed(9_000)).toBe(8_000);
    expect(defaultSpeed(2_500_000)).toBe(120_000);
  });

  test('the cursor advances by speed times screen time and stops at the end', () => {
    expect(advance(0, 1e5, 500, 1e9)).toBe(5e4);
    expect(advance(900, 1e5, 1000, 1000)).toBe(1000);
  });
});
