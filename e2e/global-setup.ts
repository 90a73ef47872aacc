// Builds the native CLI the suite compares the page against (`nativeRun` in fixtures.ts), once,
// before any test and outside the tests' time limits. Release profile: the default scenario
// processes millions of events, which a debug build takes tens of seconds over.
import { execFileSync } from 'node:child_process';

import { ENGINE_DIR } from './fixtures';

export default function globalSetup(): void {
  execFileSync('cargo', ['build', '--quiet', '--release', '-p', 'sendpath-cli'], {
    cwd: ENGINE_DIR,
    stdio: 'inherit',
    timeout: 600_000,
  });
}
