// Prints the size of the built site (dist/), raw and gzip-compressed (level 6, what static
// hosts commonly serve), file by file and in total. Run after `npm run build`:
//
//   node scripts/size.mjs
//
// Today every file in dist/ is fetched on the first load, so the total is the first-load
// transfer size.

import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

import { ROOT } from './lib.mjs';

const DIST = join(ROOT, 'dist');
const files = readdirSync(DIST, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => join(e.parentPath, e.name))
  .sort();
const kB = (n) => `${(n / 1000).toFixed(1)} kB`.padStart(10);
let raw = 0;
let gz = 0;
for (const file of files) {
  const bytes = readFileSync(file);
  const gzBytes = gzipSync(bytes, { level: 6 }).length;
  raw += bytes.length;
  gz += gzBytes;
  console.log(`${kB(bytes.length)} ${kB(gzBytes)} gzip  ${relative(ROOT, file)}`);
}
console.log(`${kB(raw)} ${kB(gz)} gzip  total (${files.length} files)`);
