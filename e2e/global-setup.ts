// Builds the native CLI the suite compares the page against (`nativeRun` in fixtures.ts), once,
// before any test and outside the tests' time limits. Profile `e2e` (engine/.cargo/config.toml):
// optimized, since the default scenario processes millions of events, yet quick to rebuild.
import { execFileSync } from 'node:child_process';

import { ENGINE_DIR } from './fixtures';

export default function globalSetup(): void {
  execFileSync('cargo', ['build', '--quiet', '--profile', 'e2e', '-p', 'sendpath-cli'], {
    cwd: ENGINE_DIR,
    stdio: 'inherit',
    timeout: 600_000,
  });
}
