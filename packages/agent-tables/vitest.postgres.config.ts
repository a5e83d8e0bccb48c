import { definePostgresRulesConfig } from '../../config/vitest.base.js';

// Every rule test of the agent tables again on PostgreSQL (ADR 0241): the test kit resolves to its PostgreSQL twin.
export default definePostgresRulesConfig();
