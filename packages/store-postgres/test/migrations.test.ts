// The store's migrations: once across instances starting together, in transactions, refusing newer schemas.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  openPostgresStore,
  POSTGRES_MIGRATIONS,
  PostgresStoreError,
  postgresSchemaVersion,
  runPostgresMigrations,
} from '../src/index.js';
import { createTestDatabase, ignoreClosing, type TestDatabase } from '../src/testing.js';

const made: TestDatabase[] = [];
const pools: pg.Pool[] = [];
const fresh = async () => {
  const db = await createTestDatabase();
  made.push(db);
  return db;
};
const pool = (url: string) => {
  const p = new pg.Pool({ connectionString: url, max: 2 });
  p.on('error', ignoreClosing);
  pools.push(p);
  return p;
};
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof PostgresStoreError ? e.code : String(e)),
  );

afterAll(async () => {
  for (const p of pools) await p.end();
  for (const db of made) await db.drop();
});

describe('PostgreSQL migrations', () => {
  it('three instances starting at once migrate once', async () => {
    const db = await fresh();
    const reports = await Promise.all([1, 2, 3].map(() => runPostgresMigrations(pool(db.url))));
    const latest = POSTGRES_MIGRATIONS.at(-1)!.version;
    expect(reports.map((r) => r.version)).toEqual([latest, latest, latest]);
    expect(reports.flatMap((r) => r.applied).sort((a, b) => a - b)).toEqual(
      POSTGRES_MIGRATIONS.map((m) => m.version),
    );
    const check = pool(db.url);
    const { rows } = await check.query('SELECT version FROM svc_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    expect(await postgresSchemaVersion(check)).toBe(latest);
  });

  it('keeps no rule in the schema: the only triggers left follow deletes a cascade makes (ADR 0241)', async () => {
    const db = await fresh();
    const p = pool(db.url);
    await runPostgresMigrations(p);
    const { rows } = await p.query(
      `SELECT t.tgname AS name, c.relname AS on_table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE NOT t.tgisinternal ORDER BY t.tgname`,
    );
    // As SQLite's: a photo's bytes and file queued when its row goes, and a deleted account's tables.
    expect(rows).toEqual([
      { name: 'photos_queue_removal', on_table: 'photos' },
      { name: 'te_forget_owner', on_table: 'users' },
    ]);
    const functions = await p.query(
      "SELECT proname AS name FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname",
    );
    expect(functions.rows.map((r) => r.name)).toEqual(['photos_queue_removal', 'te_forget_owner']);
  });

  it('refuses a database written by newer code, saying what to do', async () => {
    const db = await fresh();
    const p = pool(db.url);
    await runPostgresMigrations(p);
    await p.query(
      "INSERT INTO svc_migrations (version, name, applied_at) VALUES (999, 'from-the-future', 1)",
    );
    const err = await openPostgresStore({ url: db.url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PostgresStoreError);
    expect((err as PostgresStoreError).code).toBe('SCHEMA_TOO_NEW');
    expect((err as Error).message).toMatch(/version 999.*Upgrade @screen-service\/store-postgres/);
  });

  it('a failing migration rolls back whole and leaves the earlier version', async () => {
    const db = await fresh();
    const p = pool(db.url);
    const list = [
      ...POSTGRES_MIGRATIONS,
      { version: 900, name: 'half', sql: 'CREATE TABLE half_made (x INT); SELECT no_such_function();' },
    ];
    await expect(runPostgresMigrations(p, list)).rejects.toThrow(/no_such_function/);
    expect(await postgresSchemaVersion(p)).toBe(POSTGRES_MIGRATIONS.at(-1)!.version);
    const { rows } = await p.query("SELECT to_regclass('half_made') AS t");
    expect(rows[0].t).toBeNull();
  });

  it('refuses bad options and bad lists with codes', async () => {
    expect(await code(openPostgresStore({ url: 'mysql://x' }))).toBe('INVALID_OPTIONS');
    const db = await fresh();
    expect(await code(openPostgresStore({ url: db.url, migrate: false }))).toBe('INVALID_OPTIONS');
    const unsorted = [
      { version: 2, name: 'b', sql: 'SELECT 1' },
      { version: 1, name: 'a', sql: 'SELECT 1' },
    ];
    expect(await code(runPostgresMigrations(pool(db.url), unsorted))).toBe('INVALID_MIGRATIONS');
  });

  it('reports health with the schema version, and an error once the pool is gone', async () => {
    const db = await fresh();
    const store = await openPostgresStore({ url: db.url });
    expect(await store.health()).toEqual({ ok: true, schema_version: POSTGRES_MIGRATIONS.at(-1)!.version });
    await store.close();
    expect((await store.health()).ok).toBe(false);
  });
});
