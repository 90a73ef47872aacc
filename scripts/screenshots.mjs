// `npm run screenshots`: refreshes the README's screenshots in docs/screenshots/, the
// autocorking lesson's first step at 1024 x 768, 1280 x 800, 390 x 844 (dark) and 1920 x 1080.
// They are taken by the layout suite itself (e2e/layout.spec.ts, which checks each page before
// it shoots it), against the production build made first. Node built-ins only.

import { join } from 'node:path';

import { ROOT, freePort, run, runMain, say } from './lib.mjs';

const WHO = 'screenshots';

await runMain(WHO, async () => {
  run('npm', ['run', 'build']);
  const env = { SENDPATH_SCREENSHOTS: '1' };
  for (const name of ['PREVIEW', 'SUBPATH', 'EMBED', 'HOST', 'DEV'])
    env[`SENDPATH_${name}_PORT`] = String(await freePort());
  run(join(ROOT, 'node_modules', '.bin', 'playwright'), ['test', 'e2e/layout.spec.ts'], { env });
  say(WHO, 'docs/screenshots/ refreshed: review them with `git diff --stat docs/screenshots`');
});
