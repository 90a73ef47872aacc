// Builds the native CLI the suite compares the page against (`nativeRun` in fixtures.ts), once,
// before any test and outside the tests' time limits. Usually a no-op: `npm test` has just built
// the engine's dependencies with `cargo test`.
import { execFileSync } from 'node:child_process';

import { ENGINE_DIR } from './fixtures';

export default function globalSetup(): void {
  execFileSync('cargo', ['build', '--quiet', '-p', 'sendpath-cli'], {
    cwd: ENGINE_DIR,
    stdio: 'inherit',
    timeout: 600_000,
  });
}
