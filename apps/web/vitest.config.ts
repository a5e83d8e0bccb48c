import { defineTestConfig } from '../../config/vitest.base.js';

// Browser tests launch real Chromium (one per file); the machine has 2 cores, so files run one at a time,
// and nx runs this target alone (`parallelism: false` in package.json): beside other packages' tests a
// loaded machine made the service worker's notifications fail in CI.
// expect.poll waits up to 10 s (vitest's default is 1 s): a view drawing in an iframe under a loaded machine
// takes longer than that, and a condition that never holds still fails.
// The global set-up installs Debian's chromium first when it is missing (config/chromium-setup.ts).
export default defineTestConfig({
  testTimeout: 60_000,
  hookTimeout: 90_000,
  fileParallelism: false,
  expect: { poll: { timeout: 10_000 } },
  globalSetup: ['../../config/chromium-setup.ts'],
});
