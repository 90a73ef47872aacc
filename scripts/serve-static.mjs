// A minimal static file server for the end-to-end test that the built site works under a
// sub-path of any static host: serves dist/ at http://127.0.0.1:PORT/PREFIX/ and nothing else.
//
//   node scripts/serve-static.mjs --port 4180 --prefix /courses/net/sendpath/
//
// Node built-ins only. Not for production use.

import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { parseArgs } from 'node:util';

import { ROOT } from './lib.mjs';

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
const prefix = values.prefix.endsWith('/') ? values.prefix : `${values.prefix}/`;
const dir = normalize(values.dir);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.toml': 'text/plain; charset=utf-8',
};

createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
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
    ...(values.cors ? { 'access-control-allow-origin': '*' } : {}),
  });
  createReadStream(file).pipe(res);
}).listen(Number(values.port), '127.0.0.1', () => {
  console.log(`serving ${dir} at http://127.0.0.1:${values.port}${prefix}`);
});
