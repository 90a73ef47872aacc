// Installs whatever sendpath needs and is missing, and nothing else. Run by `npm start`,
// `npm test` and `npm run build` before anything that needs a tool.
//
//   node scripts/bootstrap.mjs           npm packages, the wasm32 Rust target, wasm-bindgen CLI
//   node scripts/bootstrap.mjs --test    the same, plus rustfmt, clippy and Chromium (Playwright)
//
// Node built-ins only: this runs before node_modules exists. Each check is local (no network)
// so that a machine that has everything gets through in well under a second.

import { existsSync } from 'node:fs';
import { join } from 'node:path';

import {
  CHROMIUM_LAUNCH,
  ROOT,
  UserError,
  capture,
  cargoBin,
  mtimeMs,
  run,
  runMain,
  say,
  wasmBindgenExe,
  wasmBindgenPin,
} from './lib.mjs';

const WHO = 'bootstrap';
const WASM_TARGET = 'wasm32-unknown-unknown';
const CHROMIUM = CHROMIUM_LAUNCH.executablePath;

/** Node.js: the version Vite 8 needs (package.json "engines"). */
function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const ok = (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22;
  if (!ok) {
    throw new UserError(
      `Node.js ${process.versions.node} is too old: sendpath needs ^20.19.0 or >=22.12.0 (Vite 8)`,
    );
  }
  say(WHO, `node ${process.versions.node}: ok`);
}

/**
 * npm packages: `npm ci` when node_modules is missing or older than package-lock.json.
 * npm rewrites node_modules/.package-lock.json on every install, so its time is the install's.
 */
function ensureNpmPackages() {
  const lock = join(ROOT, 'package-lock.json');
  const installed = join(ROOT, 'node_modules', '.package-lock.json');
  const installedMs = mtimeMs(installed);
  if (installedMs < 0) {
    say(WHO, 'npm packages: node_modules missing, running `npm ci`');
  } else if (mtimeMs(lock) > installedMs) {
    say(WHO, 'npm packages: package-lock.json is newer than node_modules, running `npm ci`');
  } else {
    say(WHO, 'npm packages: up to date');
    return;
  }
  // --engine-strict: a dependency that does not support this Node.js fails the install, so the
  // Node versions the README names (CI runs the lowest) are the ones every package supports.
  run('npm', ['ci', '--no-audit', '--no-fund', '--engine-strict']);
}

/** cargo and rustup: not installed by us (rustup is the one prerequisite besides Node.js). */
function checkRust() {
  const cargo = capture('cargo', ['--version']);
  if (cargo === null) {
    throw new UserError(
      'cargo not found: install Rust with rustup (https://rustup.rs), open a new shell, and retry',
    );
  }
  say(WHO, `${cargo.trim()}: ok`);
  if (capture('rustup', ['--version']) === null) {
    throw new UserError(
      'rustup not found: sendpath adds the wasm32-unknown-unknown target with rustup; ' +
        'install Rust with rustup (https://rustup.rs)',
    );
  }
}

/** The wasm32-unknown-unknown standard library. */
function ensureWasmTarget() {
  const installed = capture('rustup', ['target', 'list', '--installed']) ?? '';
  if (installed.split('\n').includes(WASM_TARGET)) {
    say(WHO, `rust target ${WASM_TARGET}: installed`);
    return;
  }
  say(WHO, `rust target ${WASM_TARGET}: missing, running \`rustup target add ${WASM_TARGET}\``);
  run('rustup', ['target', 'add', WASM_TARGET]);
}

/** rustfmt and clippy, used by `npm test` (a "minimal" rustup profile lacks them). */
function ensureRustComponents() {
  const installed = capture('rustup', ['component', 'list', '--installed']) ?? '';
  const names = installed.split('\n').map((line) => line.trim().split('-')[0]);
  const missing = ['rustfmt', 'clippy'].filter((c) => !names.includes(c));
  if (missing.length === 0) {
    say(WHO, 'rust components rustfmt, clippy: installed');
    return;
  }
  say(WHO, `rust components ${missing.join(', ')}: missing, running \`rustup component add\``);
  run('rustup', ['component', 'add', ...missing]);
}

/** The wasm-bindgen CLI at exactly the version engine/wasm/Cargo.toml pins. */
function ensureWasmBindgen() {
  const pin = wasmBindgenPin();
  const out = capture(wasmBindgenExe(), ['--version']);
  const have = out?.trim().split(/\s+/)[1];
  if (have === pin) {
    say(WHO, `wasm-bindgen CLI ${pin}: installed`);
    return;
  }
  say(
    WHO,
    `wasm-bindgen CLI: ${have ? `version ${have}` : 'missing'}, the crate pins ${pin}; ` +
      `running \`cargo install wasm-bindgen-cli --version ${pin}\` (compiles for a few minutes, once)`,
  );
  // No --locked: it fails with this crate's published lock file (see TEAM.md).
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', pin]);
  const after = capture(wasmBindgenExe(), ['--version'])?.trim().split(/\s+/)[1];
  if (after !== pin) {
    throw new UserError(
      `wasm-bindgen ${pin} was installed into ${cargoBin()} but \`wasm-bindgen --version\` ` +
        `reports ${after ?? 'nothing'}: put ${cargoBin()} first on PATH`,
    );
  }
}

/** Debian's Chromium, the browser Playwright drives (Playwright's own download fails here). */
function ensureChromium() {
  if (existsSync(CHROMIUM)) {
    say(WHO, `chromium: ${CHROMIUM} present`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || capture('apt-get', ['--version']) === null) {
    throw new UserError(
      `${CHROMIUM} not found: install Debian's Chromium as root ` +
        '(`apt-get update && apt-get install -y chromium`) and retry',
    );
  }
  say(
    WHO,
    `chromium: ${CHROMIUM} missing, running \`apt-get update && apt-get install -y chromium\``,
  );
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env });
  run('apt-get', ['install', '-y', 'chromium'], { env });
}

function main() {
  const forTests = process.argv.includes('--test');
  const started = Date.now();
  checkNode();
  ensureNpmPackages();
  checkRust();
  ensureWasmTarget();
  if (forTests) ensureRustComponents();
  ensureWasmBindgen();
  if (forTests) ensureChromium();
  say(WHO, `done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

runMain(WHO, main);
