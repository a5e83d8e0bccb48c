// The service Store conformance suite (the same one SQLite runs) against a real PostgreSQL database.
import { describeStoreConformance } from '@screen-service/store-conformance';
import { afterAll, beforeAll } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import { emptyAllTables } from './empty-tables.js';

let db: TestDatabase;
let store: PostgresStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = await openPostgresStore({ url: db.url });
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

// One migrated database per file; each test starts from empty tables (TRUNCATE is far cheaper than a
// fresh database and migration per test).
describeStoreConformance('PostgreSQL', async () => {
  await emptyAllTables(store.pool);
  return { store, close: () => {} };
});
