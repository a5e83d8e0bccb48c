// The PostgreSQL Store: every repository over one pg Pool, opened (and migrated) by openPostgresStore.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  guardRepositories,
  type Repositories,
  type Store,
  StoreTransactionError,
} from '@screen-service/registry/model';
import pg from 'pg';
import { postgresSchemaVersion, runPostgresMigrations } from '../migrations-runner.js';
import { PostgresStoreError } from './errors.js';
import { createPgAgents } from './pg-agents.js';
import { createPgConnectors } from './pg-connectors.js';
import { createPgDb, type PgDb, poolOptions } from './pg-db.js';
import { createPgDeadlines } from './pg-deadlines.js';
import { createPgHousekeeping } from './pg-housekeeping.js';
import { createPgManagementTokens } from './pg-management-tokens.js';
import { createPgNativeAgents } from './pg-native-agents.js';
import { createPgOAuth } from './pg-oauth.js';
import { createPgPairing } from './pg-pairing.js';
import { createPgPhotos } from './pg-photos.js';
import { createPgPush } from './pg-push.js';
import { createPgReceipts } from './pg-receipts.js';
import { createPgRelay } from './pg-relay.js';
import { createPgShares } from './pg-shares.js';
import { createPgTasks } from './pg-tasks.js';
import { createPgThreads } from './pg-threads.js';
import { createPgSessions, createPgUsers } from './pg-users.js';

/** Every repository but the relay's, over `db` (the pool, or one transaction's connection). */
class PgRepositories implements Repositories {
  #users?: Repositories['users'];
  #sessions?: Repositories['sessions'];
  #agents?: Repositories['agents'];
  #connectors?: Repositories['connectors'];
  #pairing?: Repositories['pairing'];
  #threads?: Repositories['threads'];
  #photos?: Repositories['photos'];
  #oauth?: Repositories['oauth'];
  #managementTokens?: Repositories['managementTokens'];
  #push?: Repositories['push'];
  #nativeAgents?: Repositories['nativeAgents'];
  #shares?: Repositories['shares'];
  #housekeeping?: Repositories['housekeeping'];
  #deadlines?: Repositories['deadlines'];
  #receipts?: Repositories['receipts'];
  #tasks?: Repositories['tasks'];
  // Made when first used: a transaction builds only the repositories its body touches.
  constructor(private readonly db: PgDb) {}
  get users() {
    this.#users ??= createPgUsers(this.db);
    return this.#users;
  }
  get sessions() {
    this.#sessions ??= createPgSessions(this.db);
    return this.#sessions;
  }
  get agents() {
    this.#agents ??= createPgAgents(this.db);
    return this.#agents;
  }
  get connectors() {
    this.#connectors ??= createPgConnectors(this.db);
    return this.#connectors;
  }
  get pairing() {
    this.#pairing ??= createPgPairing(this.db);
    return this.#pairing;
  }
  get threads() {
    this.#threads ??= createPgThreads(this.db);
    return this.#threads;
  }
  get photos() {
    this.#photos ??= createPgPhotos(this.db);
    return this.#photos;
  }
  get oauth() {
    this.#oauth ??= createPgOAuth(this.db);
    return this.#oauth;
  }
  get managementTokens() {
    this.#managementTokens ??= createPgManagementTokens(this.db);
    return this.#managementTokens;
  }
  get push() {
    this.#push ??= createPgPush(this.db);
    return this.#push;
  }
  get nativeAgents() {
    this.#nativeAgents ??= createPgNativeAgents(this.db);
    return this.#nativeAgents;
  }
  get shares() {
    this.#shares ??= createPgShares(this.db);
    return this.#shares;
  }
  get housekeeping() {
    this.#housekeeping ??= createPgHousekeeping(this.db);
    return this.#housekeeping;
  }
  get deadlines() {
    this.#deadlines ??= createPgDeadlines(this.db);
    return this.#deadlines;
  }
  get receipts() {
    this.#receipts ??= createPgReceipts(this.db);
    return this.#receipts;
  }
  get tasks() {
    this.#tasks ??= createPgTasks(this.db);
    return this.#tasks;
  }
}

/** The repositories of `db` as a plain object (each made now), for guarding. */
function allRepositories(db: PgDb): Repositories {
  const r = new PgRepositories(db);
  return {
    users: r.users,
    sessions: r.sessions,
    agents: r.agents,
    connectors: r.connectors,
    pairing: r.pairing,
    threads: r.threads,
    photos: r.photos,
    oauth: r.oauth,
    managementTokens: r.managementTokens,
    push: r.push,
    nativeAgents: r.nativeAgents,
    shares: r.shares,
    housekeeping: r.housekeeping,
    deadlines: r.deadlines,
    receipts: r.receipts,
    tasks: r.tasks,
  };
}

/** The store whose transaction body the current async call runs in (a plain call from it is a misuse). */
const bodies = new AsyncLocalStorage<{ store: object; live: boolean }>();

/**
 * Builds the Store over a pool whose database already carries the store's migrations
 * ({@link runPostgresMigrations}). Each call of a repository is one statement or one transaction;
 * `transaction(fn)` holds one pooled connection from BEGIN to COMMIT (READ COMMITTED) and gives `fn`
 * repositories on it (ADR 0241).
 *
 * @example
 * ```ts
 * await runPostgresMigrations(pool);
 * const store = createPostgresStore(pool);
 * ```
 */
export function createPostgresStore(pool: pg.Pool): Store {
  const db = createPgDb(pool);
  const self = {};
  const inBody = () => {
    const frame = bodies.getStore();
    return frame?.live === true && frame.store === self;
  };
  // A body's plain call would run on another connection, outside its transaction, and could wait for a
  // row lock the body holds: refused at once instead.
  const check = (name: string) => {
    if (inBody()) {
      throw new StoreTransactionError(
        'OUTSIDE_TX',
        `store.${name} was called inside a transaction body: use tx.${name}, or call it after the transaction.`,
      );
    }
    return undefined;
  };
  return {
    ...guardRepositories(allRepositories(db), check),
    relay: guardRepositories({ relay: createPgRelay(db) }, check).relay,
    transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
      if (inBody()) {
        return Promise.reject(
          new StoreTransactionError(
            'OUTSIDE_TX',
            'A transaction was opened inside a transaction body: do its work with the body’s tx instead.',
          ),
        );
      }
      return db.transaction(async (txDb) => {
        const frame = { store: self, live: true };
        try {
          return await bodies.run(frame, () => fn(new PgRepositories(txDb)));
        } finally {
          frame.live = false;
        }
      });
    },
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
    pool = new pg.Pool(poolOptions(options.url, options.poolSize ?? 10));
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
