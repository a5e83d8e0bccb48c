// The PostgreSQL schema keeps step with the SQLite one: every table and column store-sqlite's migrations
// create exists here too. A SQLite migration appended without its PostgreSQL twin fails this test.
import { createTestStore } from '@screen-service/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

// SQLite-only: the migration records. The tables engine's layout (te_*) is on both sides in its own
// shape (SQLite's c0..c11 slots, PostgreSQL's jsonb rows; ADR 0222) and is compared by the engine's
// conformance suite instead of column by column.
const SQLITE_ONLY = /^(sqlite_|te_|schema_migrations$)/;
const TABLES_ENGINE = /^te_/;
// PostgreSQL-only: its migration records, photo bytes (ADR 0220), relay_tables' order column (SQLite's rowid).
const POSTGRES_ONLY_TABLES = new Set(['svc_migrations', 'photo_files']);
const POSTGRES_ONLY_COLUMNS: Record<string, string[]> = { relay_tables: ['n'] };

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

describe('schema parity with the SQLite store', () => {
  it('has every table and column of the SQLite schema, and nothing else unexplained', async () => {
    const lite = createTestStore();
    const sqlite = new Map<string, string[]>();
    try {
      const tables = lite.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all() as {
        name: string;
      }[];
      for (const { name } of tables.filter((t) => !SQLITE_ONLY.test(t.name))) {
        const cols = lite.db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[];
        sqlite.set(name, cols.map((c) => c.name).sort());
      }
    } finally {
      lite.close();
    }
    const { rows } = await store.pool.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const postgres = new Map<string, string[]>();
    for (const r of rows) {
      if (POSTGRES_ONLY_TABLES.has(r.table_name) || TABLES_ENGINE.test(r.table_name)) continue;
      if (POSTGRES_ONLY_COLUMNS[r.table_name]?.includes(r.column_name)) continue;
      postgres.set(r.table_name, [...(postgres.get(r.table_name) ?? []), r.column_name]);
    }
    for (const cols of postgres.values()) cols.sort();
    expect(sqlite.size).toBeGreaterThan(20);
    // On failure: append a PostgreSQL migration (src/migrations.ts) doing what the new SQLite one does.
    expect(Object.fromEntries([...postgres].sort())).toEqual(Object.fromEntries([...sqlite].sort()));
  });
});
