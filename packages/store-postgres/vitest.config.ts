import { defineTestConfig } from '../../config/vitest.base.js';

// One throw-away PostgreSQL cluster per run (config/postgres-setup.ts); each test file makes its own database.
export default defineTestConfig({
  hookTimeout: 60_000,
  globalSetup: ['../../config/postgres-setup.ts'],
});
