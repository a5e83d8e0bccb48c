// The test kit with the store swapped for PostgreSQL: the rule tests of registry and core (their
// vitest.postgres.config.ts) run unchanged on this store: `@screen-service/test-kit` resolves here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import {
  createTestCore as createSqliteTestCore,
  type TestCoreOptions,
  type TestStore,
} from '../../../test-kit/src/index.js';
import { createPostgresStore } from '../../src/store/open-postgres-store.js';

export * from '../../../test-kit/src/index.js';

/** Set by rules-setup.ts before each file's tests: a pool on a migrated database, emptied before each test. */
export const rulesDb: { pool: pg.Pool | null } = { pool: null };

/** A PostgreSQL store in place of the SQLite file (`db` is absent: tests that run SQL on it are not run here). */
export function createTestStore(): TestStore {
  if (!rulesDb.pool)
    throw new Error('rules-setup.ts did not run: run the registry or core vitest.postgres.config.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-rules-'));
  return {
    dir,
    file: '',
    db: undefined as never,
    store: createPostgresStore(rulesDb.pool),
    close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function createTestCore(options: TestCoreOptions = {}) {
  return createSqliteTestCore({ ...options, testStore: options.testStore ?? createTestStore() });
}
