import { describe, expect, it } from 'vitest';

import { langFromBrowser, langOfTag, pickLang } from './lang';

describe('the page language', () => {
  it('reads Chinese tags as Simplified Chinese and English tags as English', () => {
    expect(langOfTag('zh-CN')).toBe('zh-CN');
    expect(langOfTag('zh')).toBe('zh-CN');
    expect(langOfTag('zh-Hans-SG')).toBe('zh-CN');
    expect(langOfTag('zh-TW')).toBe('zh-CN');
    expect(langOfTag('en-GB')).toBe('en');
    expect(langOfTag('fr-FR')).toBeNull();
  });

  it("follows the browser's first language the site has", () => {
    expect(langFromBrowser(['fr-FR', 'zh-CN', 'en'])).toBe('zh-CN');
    expect(langFromBrowser(['de'])).toBe('en');
    expect(langFromBrowser([])).toBe('en');
  });

  it('lets ?lang= win over the browser, and ignores a language it does not have', () => {
    expect(pickLang('?lang=en', ['zh-CN'])).toBe('en');
    expect(pickLang('?lesson=x&lang=zh-CN', ['en-US'])).toBe('zh-CN');
    expect(pickLang('?lang=zh', ['en-US'])).toBe('zh-CN');
    expect(pickLang('?lang=klingon', ['zh-CN'])).toBe('zh-CN');
  });
});
