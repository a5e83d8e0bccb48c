import { definePostgresRulesConfig } from '../../config/vitest.base.js';

// The rule tests that use only the Store interface, again on PostgreSQL.
export default definePostgresRulesConfig(['src/threads/thread-ops.test.ts']);
