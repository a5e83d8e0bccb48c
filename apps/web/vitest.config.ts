import { defineTestConfig } from '../../config/vitest.base.js';

// Browser tests launch real Chromium (one per file); the machine has 2 cores, so files run one at a time.
// The global set-up installs Debian's chromium first when it is missing (config/chromium-setup.ts).
export default defineTestConfig({
  testTimeout: 60_000,
  hookTimeout: 90_000,
  fileParallelism: false,
  globalSetup: ['../../config/chromium-setup.ts'],
});
