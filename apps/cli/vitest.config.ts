import { defineTestConfig } from '../../config/vitest.base.js';

// A test drives the person's app in Chromium: the global set-up installs Debian's chromium first when it is
// missing (config/chromium-setup.ts), as in apps/web. The PostgreSQL tests (postgres.test.ts) get one
// throw-away cluster per run (config/postgres-setup.ts).
export default defineTestConfig({
  globalSetup: ['../../config/chromium-setup.ts', '../../config/postgres-setup.ts'],
  hookTimeout: 60_000,
});
