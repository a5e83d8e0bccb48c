import { defineTestConfig } from '../../config/vitest.base.js';

// Server-backed tests start the built server as a child process; one file at a time on a shared machine.
// The global set-up installs Debian's chromium first when it is missing (config/chromium-setup.ts).
export default defineTestConfig({
  testTimeout: 60_000,
  hookTimeout: 60_000,
  fileParallelism: false,
  globalSetup: ['../../config/chromium-setup.ts'],
});
