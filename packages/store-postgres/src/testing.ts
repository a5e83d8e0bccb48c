// Test helpers: a fresh, empty database per test file on a PostgreSQL server the caller names. Settings come
// as arguments, by default from what the repo's vitest configs provide (never from the environment).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintName } from '@screen-service/registry/kernel';
import type { TestStore } from '@screen-service/test-kit';
import pg from 'pg';
import { inject } from 'vitest';
import { runPostgresMigrations } from './migrations-runner.js';
import { createPostgresStore } from './store/open-postgres-store.js';

/** A database made for one test; `drop()` removes it (closing its connections first). */
export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * What the running vitest config provided under `key` (config/postgres-setup.ts provides `postgresUrl`; a
 * package's vitest.postgres.config.ts provides `testStore`), or undefined outside a vitest run.
 */
function provided(key: 'postgresUrl' | 'testStore'): string | undefined {
  try {
    const value = (inject as (key: string) => unknown)(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The admin URL to make test databases on: `adminUrl` when given, else the one the vitest config provides
 * (`postgresUrl`, from config/postgres-setup.ts); an error saying how to get one when neither is there.
 */
export function testPostgresUrl(adminUrl: string | undefined = provided('postgresUrl')): string {
  if (adminUrl === undefined || adminUrl === '') {
    throw new Error(
      'no PostgreSQL server for the tests: run them through a vitest config with globalSetup ../../config/postgres-setup.ts (it provides postgresUrl, or uses SVC_TEST_POSTGRES_URL when you set it), or pass an admin URL such as postgres://user:password@127.0.0.1:5432/postgres',
    );
  }
  return adminUrl;
}

/**
 * Creates `svc_test_<random>` on the server of `adminUrl` (empty, or a copy of database `template`) and
 * returns its URL.
 */
export async function createTestDatabase(
  adminUrl: string = testPostgresUrl(),
  template?: string,
): Promise<TestDatabase> {
  const name = `svc_test_${mintName(6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template === undefined ? '' : ` TEMPLATE ${template}`}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // A pool that was just ended can still have sessions closing; FORCE would end them with an error
        // (57P01) the pool no longer listens for, an unhandled error in the test run. Give them 2 s to go.
        for (let i = 0; i < 50; i++) {
          const open = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (open.rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * An `error` listener for a test's own `pg.Pool`. `pool.end()` resolves before its sockets have closed, so
 * a database dropped right after (`drop()` uses `WITH (FORCE)`) can still reach a closing client with
 * "terminating connection due to administrator command" (57P01); without a listener the pool re-emits it as
 * an unhandled error and fails the run. Any other error is rethrown.
 */
export function ignoreClosing(err: Error & { code?: string }): void {
  if (err.code === '57P01') return;
  throw err;
}

/**
 * The store a shared end-to-end suite runs on: `engine` when given, else what the vitest config provides as
 * `testStore` (`postgres` in a package's vitest.postgres.config.ts), else SQLite.
 */
export function testStoreEngine(engine: string | undefined = provided('testStore')): 'sqlite' | 'postgres' {
  const chosen = engine ?? 'sqlite';
  if (chosen !== 'sqlite' && chosen !== 'postgres') {
    throw new Error(
      `the test store is ${JSON.stringify(chosen)}: provide testStore sqlite (the default) or postgres in the vitest config`,
    );
  }
  return chosen;
}

// One migrated template per test process and admin URL: a fresh database is a copy of it, not a new migration run.
const templates = new Map<string, Promise<string>>();

async function migratedTemplate(adminUrl: string): Promise<string> {
  let made = templates.get(adminUrl);
  if (made === undefined) {
    made = (async () => {
      const db = await createTestDatabase(adminUrl);
      const pool = new pg.Pool({ connectionString: db.url, max: 2 });
      try {
        await runPostgresMigrations(pool);
      } finally {
        // A template must have no open session when it is copied.
        await pool.end();
      }
      return db.name;
    })();
    templates.set(adminUrl, made);
  }
  return await made;
}

/**
 * A fresh database with the service schema (every migration applied), copied from a template migrated once
 * per test process, so a suite that starts a server per test pays one migration run, not one per server.
 *
 * @example
 * ```ts
 * const db = await createMigratedTestDatabase();
 * const store = await openPostgresStore({ url: db.url });
 * await store.close();
 * await db.drop();
 * ```
 */
export async function createMigratedTestDatabase(
  adminUrl: string = testPostgresUrl(),
): Promise<TestDatabase> {
  const template = await migratedTemplate(adminUrl);
  return await createTestDatabase(adminUrl, template);
}

/**
 * The test kit's `TestStore` on a fresh migrated PostgreSQL database, for `createTestCore({ testStore })`.
 * It has no SQLite handle (`db`): a test that runs SQL on it cannot run on PostgreSQL. `close()` ends the
 * pool and drops the database in the background (the test run's cluster is thrown away at the end anyway).
 */
export async function createPostgresTestStore(
  adminUrl: string = testPostgresUrl(),
): Promise<TestStore & { pool: pg.Pool }> {
  const db = await createMigratedTestDatabase(adminUrl);
  const pool = new pg.Pool({ connectionString: db.url, max: 6 });
  pool.on('error', () => {});
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-test-'));
  return {
    dir,
    file: '',
    db: undefined as never,
    pool,
    store: createPostgresStore(pool),
    close() {
      fs.rmSync(dir, { recursive: true, force: true });
      void pool
        .end()
        .then(() => db.drop())
        .catch(() => {});
    },
  };
}

/**
 * What a shared harness spreads into `createTestCore`: `{ testStore }` on PostgreSQL when the engine is
 * `postgres` (see {@link testStoreEngine}), else nothing (createTestCore makes its SQLite file).
 *
 * @example `const core = createTestCore({ urls, ...(await testStoreOption()) });`
 */
export async function testStoreOption(
  options: { engine?: string; adminUrl?: string } = {},
): Promise<{ testStore?: TestStore }> {
  return testStoreEngine(options.engine) === 'postgres'
    ? { testStore: await createPostgresTestStore(testPostgresUrl(options.adminUrl)) }
    : {};
}

/** SQLite's `?` placeholders as PostgreSQL's `$1`, `$2`, ... (test statements hold no `?` in literals). */
function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * Runs one statement with `?` placeholders on a test store's database, SQLite or PostgreSQL: for the rare
 * test that sets up a state no use case makes (a suspended account).
 *
 * @example `await runTestSql(core.testStore, 'UPDATE users SET suspended_at = ? WHERE id = ?', [Date.now(), id]);`
 */
export async function runTestSql(testStore: TestStore, sql: string, params: unknown[] = []): Promise<void> {
  if ('pool' in testStore && testStore.pool instanceof pg.Pool) {
    await testStore.pool.query(numberedPlaceholders(sql), params);
    return;
  }
  testStore.db.prepare(sql).run(...params);
}

/**
 * Reads rows with one statement with `?` placeholders on a test database given by URL, for a test that
 * compares raw rows (an isolation snapshot) on PostgreSQL as it does with SQL on the SQLite file.
 *
 * @example `const rows = await queryTestDatabase(url, 'SELECT * FROM agents WHERE user_id = ?', [id]);`
 */
export async function queryTestDatabase(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(numberedPlaceholders(sql), params);
    return rows;
  } finally {
    await client.end();
  }
}
