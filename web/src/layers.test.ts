// The layers of web/src (README.md's folder map): every import points to its own folder or down
// the layers, never up and never sideways to a folder of the same layer, so no import cycle
// crosses a folder; no import cycle at all, inside a folder either; and no i18n catalogue
// imports another module of i18n/. Every import counts: values, types, re-exports, dynamic
// imports and workers (`new URL('./worker.ts', import.meta.url)`).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/**
 * The layers, top first. Each entry is a folder (`app/`) or a file (`i18n/lang.ts`), relative to
 * web/src; a file belongs to its longest matching entry. An import from one entry to another is
 * allowed only when the other is in a lower layer: entries of one layer never import each other.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // The site's entry (and this test, which imports nothing of the site).
  ['main.tsx', 'layers.test.ts'],
  // The views: the classroom (which view, lessons, About, footer) and the embed.
  ['classroom/', 'embed/'],
  // The service worker's registration, which waits for the simulator's first paint (app/perf.ts).
  ['offline/'],
  // The simulator: its store, clock, panels and pipeline; what the views show of it.
  ['app/'],
  // What every view uses: the language in React, reduced motion, the embed's URL, base styles.
  ['shared/'],
  // Languages: the catalogues and the page's language (no React).
  ['i18n/'],
  // Native mode's data side, and the engine's worker, protocol and bridge (no React).
  ['capture/', 'engine/'],
  // The data model (no React).
  ['model/'],
  // What everything may use: the list of languages, and the engine's generated types and glue.
  ['i18n/lang.ts', 'engine/generated/', 'engine/pkg/'],
];

/** A catalogue: a language's text (`messages.en.ts`, `log.zh-CN.ts`). */
const CATALOGUE = /^i18n\/[^/]+\.(?:en|[a-z]{2}-[A-Z]{2})\.ts$/;

const SOURCE = /\.(?:ts|tsx|js|css)$/;

/** Every source file of web/src, relative to it (not the wasm-bindgen output, not fixtures). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    const rel = relative(SRC, path).split('\\').join('/');
    if (e.isDirectory())
      return rel === 'engine/pkg' || e.name === 'fixtures' || e.name === 'node_modules'
        ? []
        : sourceFiles(path);
    return SOURCE.test(e.name) ? [rel] : [];
  });
}

/** The entry a file belongs to, and its layer (0 is the top). */
export function entryOf(file: string): { entry: string; layer: number } | null {
  let best: { entry: string; layer: number } | null = null;
  LAYERS.forEach((entries, layer) => {
    for (const entry of entries) {
      const match = entry.endsWith('/') ? file.startsWith(entry) : file === entry;
      if (match && (!best || entry.length > best.entry.length)) best = { entry, layer };
    }
  });
  return best;
}

const exists = new Set<string>();

/** `spec` imported by `from`, as a path relative to web/src (null: outside web/src). */
function resolve(from: string, spec: string): string | null {
  const path = normalize(join(dirname(from), spec.split('?')[0]!))
    .split('\\')
    .join('/');
  if (path.startsWith('..')) return null;
  for (const p of [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`])
    if (exists.has(p)) return p;
  return path; // not on disk (engine/pkg before a build): its entry is still known by its path
}

/** The relative imports of `file` (web/src-relative), resolved. */
export function importsOf(file: string, text: string): string[] {
  const specs = file.endsWith('.css')
    ? [...text.matchAll(/@import\s+(?:url\()?['"]([^'"]+)['"]/g)].map((m) => m[1]!)
    : ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  for (const m of text.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g))
    specs.push(m[1]!);
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => resolve(file, s))
    .filter((p): p is string => p !== null);
}

/** What points up or sideways: `from -> to (why)`. */
export function layerViolations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const a = entryOf(from);
    for (const to of targets) {
      const b = entryOf(to);
      if (!a || !b || a.entry === b.entry || b.layer > a.layer) continue;
      const why =
        b.layer === a.layer
          ? `${a.entry} and ${b.entry} are one layer and never import each other`
          : `${b.entry} is a layer above ${a.entry}`;
      out.push(`${from} -> ${to} (${why})`);
    }
  }
  return out.sort();
}

/** The import cycles (strongly connected components of more than one file), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const files = sourceFiles();
for (const f of files) exists.add(f);
const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(join(SRC, f), 'utf8'))]));

describe('the layers of web/src', () => {
  it('finds the imports it checks (values, types, dynamic imports, workers)', () => {
    expect(graph.get('i18n/catalogues.ts')).toEqual(
      expect.arrayContaining(['capture/replay.ts', 'i18n/messages.en.ts', 'i18n/zh-CN.ts']),
    );
    expect(graph.get('engine/bridge.ts')).toContain('engine/worker.ts');
    expect(graph.get('main.tsx')).toContain('shared/styles.css');
  });

  it('puts every file in a layer', () => {
    expect(files.filter((f) => !entryOf(f))).toEqual([]);
  });

  it('has every import point to its own folder or down the layers', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no i18n catalogue import another module of i18n/', () => {
    const bad = [...graph]
      .filter(([f]) => CATALOGUE.test(f))
      .flatMap(([f, targets]) =>
        targets.filter((t) => t.startsWith('i18n/')).map((t) => `${f} -> ${t}`),
      );
    expect(files.filter((f) => CATALOGUE.test(f)).length).toBeGreaterThan(4);
    expect(bad).toEqual([]);
  });

  it('catches an upward import, a sideways one and a cycle', () => {
    const bad = new Map([
      ['model/format.ts', ['app/perf.ts']],
      ['embed/EmbedApp.tsx', ['classroom/Laser.tsx']],
      ['app/a.ts', ['app/b.ts']],
      ['app/b.ts', ['app/a.ts']],
    ]);
    expect(layerViolations(bad)).toEqual([
      'embed/EmbedApp.tsx -> classroom/Laser.tsx (embed/ and classroom/ are one layer and never import each other)',
      'model/format.ts -> app/perf.ts (app/ is a layer above model/)',
    ]);
    expect(cycles(bad)).toEqual([['app/a.ts', 'app/b.ts']]);
  });
});
