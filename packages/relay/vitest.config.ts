import { defineTestConfig } from '../../config/vitest.base.js';

// Server-backed tests start the built server and the relay as child processes; one file at a time.
// The global set-up installs Debian's chromium first when it is missing (config/chromium-setup.ts).
export default defineTestConfig({
  testTimeout: 90_000,
  hookTimeout: 60_000,
  fileParallelism: false,
  globalSetup: ['../../config/chromium-setup.ts'],
});
