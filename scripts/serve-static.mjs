// A minimal static file server for the end-to-end tests: serves dist/ at
// http://127.0.0.1:PORT/PREFIX/ and nothing else, as a plain static host would (the built site
// must work under a sub-path of any such host).
//
//   node scripts/serve-static.mjs --port 4180 --prefix /courses/net/sendpath/
//
// e2e/offline.spec.ts also uses staticHandler() in-process, to play hosts that send
// `Vary: Origin`, long HTTP cache lifetimes, or a new deploy. Node built-ins only. Not for
// production use.

import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { ROOT } from './lib.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.toml': 'text/plain; charset=utf-8',
};

/**
 * A request handler serving the files of `dir()` (a function: a test may switch directories,
 * as a deploy does) under `prefix`, with `headers` on every answer.
 *
 * @param {{ dir: () => string, prefix: string, headers?: Record<string, string> }} options
 * @returns {import('node:http').RequestListener}
 */
export function staticHandler({ dir: dirOf, prefix: rawPrefix, headers = {} }) {
  const prefix = rawPrefix.endsWith('/') ? rawPrefix : `${rawPrefix}/`;
  return (req, res) => {
    const dir = normalize(dirOf()).replace(/(.)[\\/]+$/, '$1');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (!path.startsWith(prefix)) {
      res.writeHead(404).end(`not under ${prefix}`);
      return;
    }
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      ...headers,
    });
    createReadStream(file).pipe(res);
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4180' },
      prefix: { type: 'string', default: '/' },
      dir: { type: 'string', default: join(ROOT, 'dist') },
      // Answer with `Access-Control-Allow-Origin: *`, as GitHub Pages does: the embed in a
      // sandboxed iframe has an opaque origin, so its module scripts, worker and wasm are
      // cross-origin fetches.
      cors: { type: 'boolean', default: false },
    },
  });
  const dir = normalize(values.dir);
  const handler = staticHandler({
    dir: () => dir,
    prefix: values.prefix,
    headers: values.cors ? { 'access-control-allow-origin': '*' } : {},
  });
  createServer(handler).listen(Number(values.port), '127.0.0.1', () => {
    console.log(`serving ${dir} at http://127.0.0.1:${values.port}${values.prefix}`);
  });
}
