// Helpers shared by the build scripts. Node built-ins only: bootstrap.mjs imports this before
// node_modules exists.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import chromium from './chromium.json' with { type: 'json' };

/** The repository root (the folder holding package.json). */
export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** The Cargo workspace. */
export const ENGINE = join(ROOT, 'engine');

/** Prints one line prefixed by the script's name, so interleaved output stays readable. */
export function say(who, message) {
  console.log(`[${who}] ${message}`);
}

/** An error whose message is enough for the user: the scripts print it without a stack trace. */
export class UserError extends Error {}

/**
 * Runs a command with inherited stdio; throws a UserError naming the command if it fails.
 * `opts.env` is merged over process.env.
 */
export function run(cmd, args, opts = {}) {
  const shown = [cmd, ...args].join(' ');
  const res = spawnSync(cmd, args, {
    stdio: 'inherit',
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
  });
  if (res.error) {
    throw new UserError(`could not start \`${shown}\`: ${res.error.message}`);
  }
  if (res.status !== 0) {
    const how = res.signal ? `was killed by ${res.signal}` : `exited with status ${res.status}`;
    throw new UserError(`\`${shown}\` ${how}`);
  }
}

/** Runs a command and returns its stdout, or null when it cannot start or fails. */
export function capture(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', cwd: opts.cwd ?? ROOT });
  if (res.error || res.status !== 0) return null;
  return res.stdout;
}

/** A program of an npm package in node_modules/.bin (`wasm-opt` of `binaryen`). */
export function nodeBin(name) {
  return join(ROOT, 'node_modules', '.bin', name);
}

/** Cargo's bin folder, where `cargo install` puts wasm-bindgen. */
export function cargoBin() {
  return join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin');
}

/**
 * The wasm-bindgen executable: the one on PATH, else the one in Cargo's bin folder (a fresh
 * rustup install may not have put that folder on PATH of this shell yet).
 */
export function wasmBindgenExe() {
  if (capture('wasm-bindgen', ['--version']) !== null) return 'wasm-bindgen';
  const inCargo = join(cargoBin(), 'wasm-bindgen');
  return existsSync(inCargo) ? inCargo : 'wasm-bindgen';
}

/** The version X of the `wasm-bindgen = "=X"` pin in engine/wasm/Cargo.toml. */
export function wasmBindgenPin() {
  const manifest = join(ENGINE, 'wasm', 'Cargo.toml');
  const text = readFileSync(manifest, 'utf8');
  const m = text.match(/^\s*wasm-bindgen\s*=\s*(?:\{[^}]*?version\s*=\s*)?"=([0-9][^"]*)"/m);
  if (!m) {
    throw new UserError(
      `${manifest}: no exact pin of wasm-bindgen found; expected a line like wasm-bindgen = "=0.2.130" ` +
        '(the wasm-bindgen CLI must match the crate version exactly)',
    );
  }
  return m[1];
}

/**
 * The newest modification time (ms) among the engine's sources: every .rs file, every
 * Cargo.toml, Cargo.lock and .cargo/config.toml under engine/, skipping build output.
 */
export function newestEngineSourceMs() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'target' || entry.name.startsWith('.git')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else if (
        entry.name.endsWith('.rs') ||
        entry.name === 'Cargo.toml' ||
        entry.name === 'Cargo.lock' ||
        entry.name === 'config.toml'
      ) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  walk(ENGINE);
  return newest;
}

/** A file's modification time (ms), or -1 when it does not exist. */
export function mtimeMs(path) {
  return existsSync(path) ? statSync(path).mtimeMs : -1;
}

/**
 * Runs a script's `main` and turns a UserError into its message and exit status 1 (anything
 * else keeps its stack trace). `main` may be async.
 */
export async function runMain(who, main) {
  try {
    await main();
  } catch (err) {
    if (err instanceof UserError) {
      console.error(`[${who}] FAILED: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `vite preview` of dist/ on a free port, once it answers: `{ base, server }` (kill `server`
 * when done).
 */
export async function startPreview() {
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'preview',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
    ],
    { cwd: ROOT, stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { base, server };
}

/**
 * How the benchmarks launch Debian's Chromium (Playwright's own download does not work on
 * these machines): chromium.json, which playwright.config.ts and bootstrap.mjs read too, plus
 * the long-animation-frame timing the benchmarks measure with.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: chromium.executablePath,
  args: [...chromium.args, '--enable-blink-features=LongAnimationFrameTiming'],
};
