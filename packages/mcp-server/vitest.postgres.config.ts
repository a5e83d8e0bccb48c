// The tool server's end-to-end suites again on PostgreSQL (issue 20): the harness's test core gets a fresh
// PostgreSQL database per stack (the config provides testStore postgres) on the run's throw-away cluster, the relay
// tables' suite included.
import { defineTestConfig } from '../../config/vitest.base.js';

export default defineTestConfig({
  include: ['test/*.test.ts'],
  provide: { testStore: 'postgres' },
  hookTimeout: 60_000,
  globalSetup: ['../../config/postgres-setup.ts'],
});
