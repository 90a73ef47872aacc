// `vite build`: writes dist/sw.js, the service worker that keeps the site working offline
// after the first visit (web/src/offline/sw.template.js says what it does). It lists every file
// of the build to cache at install (the recorded samples in samples/ excepted: they are cached
// when first opened) and a build id derived from the files' contents, so that any change to the
// build installs a new worker. Each page of the build (index.html, embed/index.html) carries the
// id as <meta name="sendpath-build">: the worker checks it at install, so that it never caches
// an older page beside newer assets.
//
// The worker itself is plain code, filled in here: no service-worker library, nothing
// downloaded. writeOffline() also serves e2e/offline.spec.ts, which makes a second build (a
// "deploy") from a copy of dist/.

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

import type { Plugin, ResolvedConfig } from 'vite';

/** Files fetched only when a reader opens them; cached then, not at install. */
const ON_DEMAND = [/^samples\//];

const BUILD_META = / {2}<meta name="sendpath-build" content="[^"]*">\n {2}/;

/** The pages of a build: where the build id goes. */
const isPage = (f: string) => f === 'index.html' || f.endsWith('/index.html');

/**
 * Writes the build id into every page of the build in `out` and `out/sw.js` (replacing what an
 * earlier call wrote). Returns the build id.
 */
export function writeOffline(out: string): string {
  const files = readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(out, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((f) => f !== 'sw.js' && !ON_DEMAND.some((re) => re.test(f)))
    .sort();
  const pages = new Map<string, string>();
  const hash = createHash('sha256');
  for (const f of files) {
    let bytes: Buffer | string = readFileSync(join(out, f));
    if (isPage(f)) {
      bytes = bytes.toString('utf8').replace(BUILD_META, '');
      pages.set(f, bytes);
    }
    hash.update(f).update('\0').update(bytes);
  }
  const build = hash.digest('hex').slice(0, 16);
  for (const [f, html] of pages) {
    const withId = html.replace(
      /<\/head>/,
      `  <meta name="sendpath-build" content="${build}">\n  </head>`,
    );
    if (withId === html) throw new Error(`${f}: no </head> to put the build id before`);
    writeFileSync(join(out, f), withId);
  }
  const template = readFileSync(
    new URL('../web/src/offline/sw.template.js', import.meta.url),
    'utf8',
  );
  const sw = template
    .replace('/*FILES*/ []', JSON.stringify(files, null, 2))
    .replace("/*BUILD*/ 'dev'", JSON.stringify(build));
  if (sw.includes('/*FILES*/') || sw.includes('/*BUILD*/'))
    throw new Error('sw.template.js lost its /*FILES*/ or /*BUILD*/ marker');
  writeFileSync(join(out, 'sw.js'), sw);
  return build;
}

export function offline(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'sendpath-offline',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    closeBundle() {
      writeOffline(resolve(config.root, config.build.outDir));
    },
  };
}
