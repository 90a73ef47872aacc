// `vite build`: writes dist/sw.js, the service worker that keeps the site working offline
// after the first visit. It lists every file of the build to cache at install (the recorded
// samples in samples/ excepted: they are cached when first opened) and a cache name derived
// from the files' contents, so that any change to the build installs a new worker.
//
// The worker itself is plain code (web/src/offline/sw.template.js), filled in here: no
// service-worker library, nothing downloaded.

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

import type { Plugin, ResolvedConfig } from 'vite';

/** Files fetched only when a reader opens them; cached then, not at install. */
const ON_DEMAND = [/^samples\//];

export function offline(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'sendpath-offline',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    closeBundle() {
      const out = resolve(config.root, config.build.outDir);
      const files = readdirSync(out, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(out, join(e.parentPath, e.name)).split(sep).join('/'))
        .filter((f) => f !== 'sw.js' && !ON_DEMAND.some((re) => re.test(f)))
        .sort();
      const hash = createHash('sha256');
      for (const f of files)
        hash
          .update(f)
          .update('\0')
          .update(readFileSync(join(out, f)));
      const template = readFileSync(
        new URL('../web/src/offline/sw.template.js', import.meta.url),
        'utf8',
      );
      const sw = template
        .replace('/*FILES*/ []', JSON.stringify(files, null, 2))
        .replace("/*CACHE*/ 'dev'", JSON.stringify(`sendpath-${hash.digest('hex').slice(0, 16)}`));
      if (sw === template) throw new Error('sw.template.js lost its /*FILES*/ or /*CACHE*/ marker');
      writeFileSync(join(out, 'sw.js'), sw);
    },
  };
}
