import { defineTestConfig } from '../../config/vitest.base.js';

// Units run in happy-dom; test/browser.test.ts launches real Chromium itself (node environment there).
// The global set-up installs Debian's chromium first when it is missing (config/chromium-setup.ts).
export default defineTestConfig({
  environment: 'happy-dom',
  testTimeout: 30_000,
  hookTimeout: 30_000,
  globalSetup: ['../../config/chromium-setup.ts'],
});
