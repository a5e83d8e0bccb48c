// The server's end-to-end suites (the person's API, the tool server, OAuth, consent, hosts) again on
// PostgreSQL (issue 20): the harness starts each server on a fresh database (the config provides testStore postgres).
// Left out: suites that read rows with SQL on the SQLite file (flow, management-api), and those
// that already run on PostgreSQL (tables-postgres among them) or start no server of the harness (three-instances*, nginx, config, base-url, mcp-mount, server).
import { defineTestConfig } from '../../config/vitest.base.js';

export const POSTGRES_E2E = [
  'deletions',
  'error-contract',
  'guards',
  'isolation',
  'nesting-property',
  'oauth-mcp',
  'operations',
  'person-api',
  'push',
  'shared-agents',
  'tables',
  'token-lifetimes',
];

export default defineTestConfig({
  include: POSTGRES_E2E.map((name) => `test/${name}.test.ts`),
  provide: { testStore: 'postgres' },
  hookTimeout: 60_000,
  globalSetup: ['../../config/postgres-setup.ts'],
});
