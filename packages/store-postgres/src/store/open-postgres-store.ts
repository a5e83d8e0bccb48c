// The PostgreSQL Store: every repository over one pg Pool, opened (and migrated) by openPostgresStore.
import type { Store } from '@screen-service/registry/model';
import pg from 'pg';
import { postgresSchemaVersion, runPostgresMigrations } from '../migrations-runner.js';
import { PostgresStoreError } from './errors.js';
import { createPgAgents } from './pg-agents.js';
import { createPgConnectors } from './pg-connectors.js';
import { createPgDb } from './pg-db.js';
import { createPgHousekeeping } from './pg-housekeeping.js';
import { createPgManagementTokens } from './pg-management-tokens.js';
import { createPgNativeAgents } from './pg-native-agents.js';
import { createPgOAuth } from './pg-oauth.js';
import { createPgPairing } from './pg-pairing.js';
import { createPgPhotos } from './pg-photos.js';
import { createPgPush } from './pg-push.js';
import { createPgRelay } from './pg-relay.js';
import { createPgShares } from './pg-shares.js';
import { createPgThreads } from './pg-threads.js';
import { createPgSessions, createPgUsers } from './pg-users.js';

/**
 * Builds the Store over a pool whose database already carries the store's migrations
 * ({@link runPostgresMigrations}). Each call of a repository is one statement or one transaction.
 *
 * @example
 * ```ts
 * await runPostgresMigrations(pool);
 * const store = createPostgresStore(pool);
 * ```
 */
export function createPostgresStore(pool: pg.Pool): Store {
  const db = createPgDb(pool);
  return {
    users: createPgUsers(db),
    sessions: createPgSessions(db),
    agents: createPgAgents(db),
    connectors: createPgConnectors(db),
    pairing: createPgPairing(db),
    threads: createPgThreads(db),
    photos: createPgPhotos(db),
    oauth: createPgOAuth(db),
    relay: createPgRelay(db),
    managementTokens: createPgManagementTokens(db),
    push: createPgPush(db),
    nativeAgents: createPgNativeAgents(db),
    shares: createPgShares(db),
    housekeeping: createPgHousekeeping(db),
  };
}

/** Options of {@link openPostgresStore}: a connection URL, or a pool the caller owns. */
export type OpenPostgresStoreOptions = (
  | { url: string; pool?: undefined; poolSize?: number }
  | { pool: pg.Pool; url?: undefined }
) & {
  /** Apply pending migrations first (default true). With false, an unmigrated database is refused. */
  migrate?: boolean;
};

/** What `/healthz` reports of the database. */
export type PostgresHealth = { ok: true; schema_version: number } | { ok: false; error: string };

/** The Store on PostgreSQL, with its pool, a health probe and `close()`. */
export interface PostgresStore extends Store {
  readonly pool: pg.Pool;
  /** One `SELECT` round trip and the schema version; never throws. */
  health(): Promise<PostgresHealth>;
  /** Ends the pool when the store made it (a pool passed in stays the caller's to end). */
  close(): Promise<void>;
}

/**
 * Opens the service store on PostgreSQL: makes a pool for `url` (or uses `pool`), applies pending
 * migrations (several instances starting at once migrate once) and returns every repository.
 *
 * @throws {PostgresStoreError} `INVALID_OPTIONS` for a URL that is not `postgres://` or `postgresql://`, or
 *   an unmigrated database with `migrate: false`; `SCHEMA_TOO_NEW` for a database written by newer code.
 * @example
 * ```ts
 * const store = await openPostgresStore({ url: 'postgres://svc:secret@127.0.0.1:5432/svc' });
 * const core = createCore({ store, ... });
 * await store.close();
 * ```
 */
export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<PostgresStore> {
  let pool: pg.Pool;
  const owned = options.pool === undefined;
  if (options.pool) pool = options.pool;
  else {
    if (typeof options.url !== 'string' || !/^postgres(ql)?:\/\//.test(options.url)) {
      throw new PostgresStoreError(
        'INVALID_OPTIONS',
        'The database URL must start with postgres:// or postgresql://, for example postgres://svc:secret@127.0.0.1:5432/svc.',
      );
    }
    pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
    pool.on('error', () => {});
  }
  try {
    if (options.migrate === false) {
      if ((await postgresSchemaVersion(pool)) === 0) {
        throw new PostgresStoreError(
          'INVALID_OPTIONS',
          'The database has no schema yet: open it once with migrate: true (the default) to create it.',
        );
      }
    } else {
      await runPostgresMigrations(pool);
    }
  } catch (err) {
    if (owned) await pool.end();
    throw err;
  }
  return {
    ...createPostgresStore(pool),
    pool,
    async health() {
      try {
        return { ok: true, schema_version: await postgresSchemaVersion(pool) };
      } catch (err) {
        return { ok: false, error: (err as Error).message };
      }
    },
    async close() {
      if (owned) await pool.end();
    },
  };
}
