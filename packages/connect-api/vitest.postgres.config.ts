// The hosts' end-to-end suites (pairing, heartbeat, the message stream, turns and answers, shared threads)
// again on PostgreSQL (issue 20): the test core gets a fresh database per server (the config provides testStore postgres).
// Left out: isolation.test.ts reads rows with SQL on the SQLite handle.
import { defineTestConfig } from '../../config/vitest.base.js';

export default defineTestConfig({
  include: ['test/*.test.ts'],
  exclude: ['test/isolation.test.ts'],
  provide: { testStore: 'postgres' },
  hookTimeout: 60_000,
  globalSetup: ['../../config/postgres-setup.ts'],
});
