// service-core's own rule tests, unchanged, on the PostgreSQL store: their test kit (`testing.js`) resolves to
// test/rules/pg-testing.ts, and service-core resolves to its sources so one ServiceError class is shared.
import path from 'node:path';
import { defineTestConfig } from '../../config/vitest.base.js';

const here = import.meta.dirname;
const core = path.resolve(here, '../service-core');
const kit = path.resolve(here, 'test/rules/pg-testing.ts');

/**
 * The rule test files that use only the Store interface. The others also check rows with SQL on the SQLite
 * handle (`db`), which this kit has not got (pairing, shares, retention, core, connection-auth,
 * management-tokens; their store contracts are covered by the shared suite and test/*.test.ts).
 */
export const RULE_TESTS = ['thread-ops', 'accounts', 'status-watch'];

const base = defineTestConfig({
  include: RULE_TESTS.map((name) => `src/${name}.test.ts`),
  hookTimeout: 60_000,
  globalSetup: [path.resolve(here, '../../config/postgres-setup.ts')],
  setupFiles: [path.resolve(here, 'test/rules/rules-setup.ts')],
});

export default {
  ...base,
  // The tests are service-core's: run them from there.
  root: core,
  resolve: {
    alias: [{ find: /^@screen-service\/service-core$/, replacement: path.join(core, 'src/index.ts') }],
  },
  plugins: [
    {
      name: 'service-core-kit-on-postgres',
      enforce: 'pre' as const,
      resolveId(source: string, importer: string | undefined) {
        if (!importer?.startsWith(core) || importer === kit) return null;
        if (/^(\.\.?\/)+(src\/)?testing\.js$/.test(source)) return kit;
        return null;
      },
    },
  ],
};
