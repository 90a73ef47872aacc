// The time controls speak of the run and the kernel, not of the simulator (issue 17): a speed
// is slow motion against the kernel's time, the window is the part of the run that is traced.

import { describe, expect, it } from 'vitest';

import { en } from './messages.en';
import { zhCN } from './messages.zh-CN';

describe('the time controls in the kernel’s terms', () => {
  it('say how much kernel time one second on screen shows', () => {
    expect(en.player.speedValue(13_000)).toBe('slow motion: 1 s here is 13 µs in the kernel');
    expect(zhCN.player.speedValue(13_000)).toContain('内核中的 13 µs');
    expect(en.player.speedValue(2e9)).toBe('2× real time');
  });

  it('name the traced part of the run', () => {
    expect(en.run.window).toBe('Traced part of the run');
    expect(en.run.windowApply).toBe('Trace this part');
    expect(zhCN.run.window).toBe('跟踪的运行片段');
  });
});
