// Per test file of the rules run: one migrated database; every table emptied before each test.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { runPostgresMigrations } from '../../src/migrations-runner.js';
import { createTestDatabase, ignoreClosing, type TestDatabase } from '../../src/testing.js';
import { emptyAllTables } from '../empty-tables.js';
import { rulesDb } from './pg-testing.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  rulesDb.pool = new pg.Pool({ connectionString: db.url, max: 4 });
  rulesDb.pool.on('error', ignoreClosing);
  await runPostgresMigrations(rulesDb.pool);
});
beforeEach(() => emptyAllTables(rulesDb.pool!));
afterAll(async () => {
  await rulesDb.pool?.end();
  rulesDb.pool = null;
  await db?.drop();
});
