import { describe, expect, it } from 'vitest';

import { decodeText, encodeText, registerUserScenario, userScenarioText } from './userFiles';
import { defaultState, registerLinkedFiles, serializeState } from './urlstate';

describe("the reader's own scenario files", () => {
  it('travel in the link and come back as the same scenario, text and file name', () => {
    const text = 'title = "延迟 ACK + Nagle"\nkernel = "4.4"\n';
    const e = registerUserScenario('C:\\\\work\\\\my file.toml', text);
    expect(e.file).toBe('my file.toml');
    expect(e.name).toMatch(/^file:my_file@[0-9a-f]{8}$/);
    const search = serializeState(defaultState(e.name, null));
    const p = new URLSearchParams(search);
    expect(p.get('tomlfile')).toBe('my file.toml');
    expect(decodeText(p.get('toml')!)).toBe(text);
    expect(registerLinkedFiles(search)).toEqual([]);
    expect(userScenarioText(e.name)).toBe(text);
    // Another text is another version with a name of its own.
    expect(registerUserScenario('my file.toml', `${text}\n`).name).not.toBe(e.name);
  });

  it('name a link whose file is not base64url of UTF-8 as a problem', () => {
    const problems = registerLinkedFiles(`?toml=${encodeText('x').slice(0, 1)}%FF%FE`);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.param).toBe('toml');
    expect(problems[0]!.message).toMatch(/not a scenario file's text/);
  });
});
