// `npm run fuzz`: every input surface under generated input (issue 15), in one command.
//
//   npm run fuzz                              1,000,000 inputs per parser target, 10,000 configurations
//   npm run fuzz -- --inputs 20000 --configs 500
//
// 1. The engine's surfaces (engine/cli/src/bin/sendpath-fuzz.rs, built with --release):
//    scenario files with their variants and --set, the --set syntax, and random valid
//    configurations run to completion with the model's invariants checked.
// 2. The site's (Vitest, SENDPATH_FUZZ_RUNS inputs per target): the page's and the embed's URL
//    state, each capture importer (sendpath capture file, nstat text and JSON, bpftrace NDJSON
//    and text), lesson files.
//
// Every input must end within 2 s with a result or a clear error. A failure prints what
// reproduces it and the command exits non-zero. `npm test` runs the same targets with a few
// thousand inputs each. Run it niced on a shared machine: `nice -n 10 npm run fuzz`.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ENGINE, ROOT, UserError, run, say } from './lib.mjs';

const { values } = parseArgs({
  options: {
    inputs: { type: 'string', default: '1000000' },
    configs: { type: 'string', default: '10000' },
  },
});
const inputs = Number(values.inputs);
const configs = Number(values.configs);
if (!Number.isInteger(inputs) || inputs < 1 || !Number.isInteger(configs) || configs < 0)
  throw new UserError('--inputs and --configs take whole numbers');

const t0 = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
try {
  say('fuzz', `engine: ${inputs} inputs per parser target, ${configs} configurations`);
  const e0 = Date.now();
  run('cargo', ['build', '--quiet', '--release', '-p', 'sendpath-cli', '--bin', 'sendpath-fuzz'], {
    cwd: ENGINE,
  });
  run(
    join(process.env.CARGO_TARGET_DIR ?? join(ENGINE, 'target'), 'release/sendpath-fuzz'),
    ['--inputs', String(inputs), '--configs', String(configs)],
    { cwd: ENGINE },
  );
  say('fuzz', `engine: done in ${seconds(e0)} s`);

  say('fuzz', `site: ${inputs} inputs per target`);
  const w0 = Date.now();
  const res = spawnSync(
    join(ROOT, 'node_modules/.bin/vitest'),
    [
      'run',
      'src/model/fuzz.test.ts',
      'src/shared/fuzz.test.ts',
      'src/capture/fuzz.test.ts',
      '--reporter',
      'dot',
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, SENDPATH_FUZZ_RUNS: String(inputs), NO_COLOR: '1' },
      maxBuffer: 64 << 20,
    },
  );
  const out = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  // Vitest colours its output; the ESC character, built rather than written in a regex.
  const colour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
  const plain = out.replace(colour, '');
  for (const l of plain.split('\n').filter((x) => /^fuzz /.test(x))) say('fuzz', l);
  if (res.status !== 0) {
    process.stdout.write(out);
    throw new UserError(`site: a fuzz target failed (vitest exited with ${res.status})`);
  }
  say('fuzz', `site: done in ${seconds(w0)} s`);
  say('fuzz', `all targets passed in ${seconds(t0)} s`);
} catch (err) {
  if (err instanceof UserError) {
    say('fuzz', `FAILED after ${seconds(t0)} s: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
