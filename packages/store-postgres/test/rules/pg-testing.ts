// The test kit with the store swapped for PostgreSQL: the rule tests of registry and core (their
// vitest.postgres.config.ts) run unchanged on this store: `@screen-service/test-kit` resolves here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import {
  createTestCore as createSqliteTestCore,
  queryInspector,
  type TestCoreOptions,
  type TestInspector,
  type TestStore,
} from '../../../test-kit/src/index.js';
import { createPostgresStore } from '../../src/store/open-postgres-store.js';
import { createPgDb } from '../../src/store/pg-db.js';

export * from '../../../test-kit/src/index.js';

/** Set by rules-setup.ts before each file's tests: a pool on a migrated database, emptied before each test. */
export const rulesDb: { pool: pg.Pool | null } = { pool: null };

/**
 * A PostgreSQL store in place of the SQLite file, with the same store-neutral inspector (numbers read as
 * the store reads them). `db` is absent: a test that needs the SQLite handle is about SQLite itself and
 * belongs in store-sqlite.
 */
export function createTestStore(): TestStore & { inspect: TestInspector } {
  if (!rulesDb.pool)
    throw new Error('rules-setup.ts did not run: run the registry or core vitest.postgres.config.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-rules-'));
  const db = createPgDb(rulesDb.pool);
  return {
    dir,
    file: '',
    db: undefined as never,
    store: createPostgresStore(rulesDb.pool),
    inspect: queryInspector((text, values) => db.query(text, values)),
    close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function createTestCore(options: TestCoreOptions = {}) {
  return createSqliteTestCore({ ...options, testStore: options.testStore ?? createTestStore() });
}
