// Applies the PostgreSQL store's migrations: each version in its own transaction under one advisory lock,
// so several instances starting at once migrate once, and a database written by newer code is refused.
import type pg from 'pg';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './migrations.js';
import { PostgresStoreError } from './store/errors.js';
import { withPooledClient } from './store/pooled-client.js';

/** Where applied versions are recorded. */
export const POSTGRES_MIGRATION_TABLE = 'svc_migrations';

// Any fixed 64-bit key: every instance of this service takes the same one ('svc-migr' in ASCII).
const LOCK_KEY = '8319044719818437234';

/** What {@link runPostgresMigrations} did. */
export interface MigrationReport {
  /** Versions this call applied (empty when another instance or an earlier start already had). */
  applied: number[];
  /** The database's version afterwards. */
  version: number;
}

function checkList(list: readonly PostgresMigration[]): void {
  for (const [i, m] of list.entries()) {
    const prev = list[i - 1];
    if (!Number.isInteger(m.version) || m.version < 1 || (prev && m.version <= prev.version)) {
      throw new PostgresStoreError(
        'INVALID_MIGRATIONS',
        `Migration "${m.name}" has version ${m.version}: versions must be whole numbers from 1, strictly increasing.`,
      );
    }
  }
}

/**
 * Brings the database to the newest version of `list` (default: the store's own). Each pending version
 * runs in its own transaction that first takes `pg_advisory_xact_lock`, then re-reads what is applied: a
 * second instance waits for the first and finds nothing left to do. Throws `SCHEMA_TOO_NEW` when the
 * database holds a version this code does not know (it was written by a newer release).
 *
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString: url });
 * const { version } = await runPostgresMigrations(pool);
 * ```
 */
export async function runPostgresMigrations(
  pool: pg.Pool,
  list: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
): Promise<MigrationReport> {
  checkList(list);
  const latest = list.at(-1)?.version ?? 0;
  const applied: number[] = [];
  return await withPooledClient(pool, async (client) => {
    for (;;) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [LOCK_KEY]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${POSTGRES_MIGRATION_TABLE} (
             version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
        );
        const { rows } = await client.query<{ v: number | null }>(
          `SELECT MAX(version) AS v FROM ${POSTGRES_MIGRATION_TABLE}`,
        );
        const current = rows[0]?.v ?? 0;
        if (current > latest) {
          throw new PostgresStoreError(
            'SCHEMA_TOO_NEW',
            `The database is at schema version ${current}, newer than this code knows (${latest}): a newer release wrote it. Upgrade @screen-service/store-postgres (and the server) to that release, or point SVC_DATABASE_URL at another database.`,
          );
        }
        const next = list.find((m) => m.version > current);
        if (!next) {
          await client.query('COMMIT');
          return { applied, version: current };
        }
        await client.query(next.sql);
        await client.query(
          `INSERT INTO ${POSTGRES_MIGRATION_TABLE} (version, name, applied_at) VALUES ($1, $2, $3)`,
          [next.version, next.name, Date.now()],
        );
        await client.query('COMMIT');
        applied.push(next.version);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }
  });
}

/** The database's schema version (0 when never migrated). */
export async function postgresSchemaVersion(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [
    POSTGRES_MIGRATION_TABLE,
  ]);
  if (!rows[0]?.t) return 0;
  const r = await pool.query<{ v: number | null }>(
    `SELECT MAX(version) AS v FROM ${POSTGRES_MIGRATION_TABLE}`,
  );
  return Number(r.rows[0]?.v ?? 0);
}
