import { definePostgresRulesConfig } from '../../config/vitest.base.js';

// The rule tests that use only the Store interface, again on PostgreSQL.
export default definePostgresRulesConfig([
  'src/accounts/accounts.test.ts',
  'src/agents/status-watch.test.ts',
  'src/agents/agent-order.test.ts',
]);
