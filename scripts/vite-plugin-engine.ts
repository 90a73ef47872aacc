// Vite plugin for `npm start`: rebuilds the wasm engine when a Rust source changes and reloads
// the page. TypeScript edits go through Vite's own hot reload; this only covers engine/.
//
// A change under engine/ (a .rs file, a Cargo.toml, Cargo.lock or .cargo/config.toml; never
// engine/target/) schedules `node scripts/build-wasm.mjs --no-types`; when it succeeds the
// client's module graph is invalidated (web/src/engine/pkg/ is not watched, so Vite would
// otherwise keep the old wasm-bindgen glue) and the page fully reloads. Then the generated
// TypeScript types are brought up to date (`node scripts/build-wasm.mjs`). Changes arriving
// during a build queue exactly one more build. A failed build shows Vite's error overlay.

import { spawn } from 'node:child_process';
import { basename, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Plugin, ViteDevServer } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENGINE = join(ROOT, 'engine');
const BUILD_SCRIPT = join(ROOT, 'scripts', 'build-wasm.mjs');
const ENGINE_FILES = new Set(['Cargo.toml', 'Cargo.lock', 'config.toml']);

/** Whether a changed path is an engine source whose change needs a wasm rebuild. */
export function isEngineSource(file: string): boolean {
  if (!file.startsWith(ENGINE + sep) || file.includes(`${sep}target${sep}`)) return false;
  return file.endsWith('.rs') || ENGINE_FILES.has(basename(file));
}

function runBuild(args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BUILD_SCRIPT, ...args], { cwd: ROOT, stdio: 'inherit' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

export function engineRebuild(): Plugin {
  return {
    name: 'sendpath:engine-rebuild',
    apply: 'serve',
    configureServer(server: ViteDevServer) {
      const client = server.environments.client;
      let building = false;
      let again = false;
      let timer: ReturnType<typeof setTimeout> | undefined;

      const build = async (): Promise<void> => {
        if (building) {
          again = true;
          return;
        }
        building = true;
        server.config.logger.info('[engine] Rust source changed: rebuilding the wasm engine');
        const ok = await runBuild(['--no-types']);
        if (ok) {
          client.moduleGraph.invalidateAll();
          client.hot.send({ type: 'full-reload' });
          server.config.logger.info('[engine] rebuilt; page reloaded');
          await runBuild([]);
        } else {
          client.hot.send({
            type: 'error',
            err: {
              message: 'The engine failed to build: see the terminal running `npm start`.',
              stack: '',
            },
          });
        }
        building = false;
        if (again) {
          again = false;
          void build();
        }
      };

      const onChange = (file: string): void => {
        if (!isEngineSource(file)) return;
        clearTimeout(timer);
        timer = setTimeout(() => void build(), 150);
      };
      server.watcher.add(ENGINE);
      server.watcher.on('change', onChange);
      server.watcher.on('add', onChange);
      server.watcher.on('unlink', onChange);
    },
  };
}
