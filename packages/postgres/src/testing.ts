// Test helpers: a fresh, empty database per test file on a PostgreSQL server the caller names.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database made for one test; `drop()` removes it (closing its connections first). */
export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The admin URL the repo's test set-up (config/postgres-setup.ts) provides, or an error saying how to get one. */
export function testPostgresUrl(): string {
  const url = process.env.SVC_TEST_POSTGRES_URL;
  if (url === undefined || url === '') {
    throw new Error(
      'SVC_TEST_POSTGRES_URL is not set: run the test through vitest with globalSetup ../../config/postgres-setup.ts, or set it to postgres://user:password@127.0.0.1:5432/postgres',
    );
  }
  return url;
}

/** Creates `svc_test_<random>` on the server of `adminUrl` and returns its URL. */
export async function createTestDatabase(adminUrl: string = testPostgresUrl()): Promise<TestDatabase> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
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
