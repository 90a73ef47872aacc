// Types of serve-static.mjs for the TypeScript that imports it (e2e/offline.spec.ts).
import type { RequestListener } from 'node:http';

export function staticHandler(options: {
  dir: () => string;
  prefix: string;
  headers?: Record<string, string>;
}): RequestListener;
