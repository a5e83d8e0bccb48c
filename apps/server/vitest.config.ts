import { defineTestConfig } from '../../config/vitest.base.js';

// The three-instance tests run on a throw-away PostgreSQL (config/postgres-setup.ts, started once per run).
export default defineTestConfig({ globalSetup: ['../../config/postgres-setup.ts'], hookTimeout: 60_000 });
