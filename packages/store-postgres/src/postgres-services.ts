// Everything createCore needs from PostgreSQL for one of several instances, from one URL: the store (with its
// migrations), photo bytes in the database, the LISTEN/NOTIFY notifier and the shared limits.

import type { PhotoFiles } from '@screen-service/photos';
import type { PushDispatcher } from '@screen-service/push';
import type { LimitStore, Notifier } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { createLeadingSender } from './leader/leading-sender.js';
import { createPostgresTurnLeases, type PostgresTurnLeases } from './leases/turn-leases.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { checkDatabaseUrl, openScaleServices, type ScaleServicesOptions } from './scale-services.js';
import { openPostgresStore } from './store/open-postgres-store.js';
import { createPostgresPhotoFiles } from './store/pg-photo-files.js';

/** Why the database is not usable: it refused or dropped the connection, or did not answer in time. */
export type PostgresDownReason = 'POSTGRES_UNREACHABLE' | 'POSTGRES_TIMEOUT';

/** What `/healthz` reports when the service runs on PostgreSQL. */
export type PostgresServiceHealth =
  | { ok: true; engine: 'postgresql'; schema_version: number; listening: boolean; latency_ms: number }
  | { ok: false; engine: 'postgresql'; reason: PostgresDownReason; error: string; listening: boolean };

/** What `/readyz` reports: the database answers in time and carries this code's schema version. */
export interface PostgresReadiness {
  ready: boolean;
  database: PostgresServiceHealth & {
    expected_version: number;
    reason?: PostgresDownReason | 'SCHEMA_MISMATCH';
  };
}

/** How long a health probe waits for PostgreSQL before it reports POSTGRES_TIMEOUT. */
export const HEALTH_TIMEOUT_MS = 2_000;

/** The parts of `createCore`'s options PostgreSQL provides, with the health probe and `close`. */
export interface PostgresServices {
  /** Spread into `createCore` options. */
  core: { store: Store; notifier: Notifier; limits: LimitStore; photoFiles: PhotoFiles };
  /** Passed to `startNativeAgents`: one instance of all runs each native agent's turn (ADR 0227). */
  native: { leases: PostgresTurnLeases };
  /** Wraps this instance's push sender so that one instance of all sends at a time (ADR 0231). */
  leadSender(sender: PushDispatcher): PushDispatcher;
  /** Reachable within the health timeout, schema version, LISTEN link up; never throws. */
  health(): Promise<PostgresServiceHealth>;
  /** {@link health} and the schema version this code expects, for `/readyz`; never throws. */
  readiness(): Promise<PostgresReadiness>;
  /** What /metrics reads at scrape time: rows waiting in the push outbox, and the database's size in bytes. */
  metrics: { pushQueueDepth(): Promise<number>; databaseBytes(): Promise<number> };
  /** Sends queued events, closes the LISTEN link and the pool. */
  close(): Promise<void>;
}

/**
 * Opens (and migrates) the database at `url` for one instance among several.
 *
 * @throws {ScaleError} `INVALID_DATABASE_URL`, `POSTGRES_UNAVAILABLE`.
 * @example
 * ```ts
 * const pg = await createPostgresServices(config.databaseUrl, { onError: (err) => log.error({ err }) });
 * const core = createCore({ ...options, ...pg.core });
 * ```
 */
export async function createPostgresServices(
  url: string,
  options: Omit<ScaleServicesOptions, 'pool'> & { healthTimeoutMs?: number } = {},
): Promise<PostgresServices> {
  checkDatabaseUrl(url);
  const store = await openPostgresStore({ url, ...(options.poolSize ? { poolSize: options.poolSize } : {}) });
  let shared: Awaited<ReturnType<typeof openScaleServices>>;
  try {
    shared = await openScaleServices(url, { ...options, pool: store.pool });
  } catch (err) {
    await store.close();
    throw err;
  }
  const timeoutMs = options.healthTimeoutMs ?? HEALTH_TIMEOUT_MS;
  const probe = async (): Promise<PostgresServiceHealth> => {
    const [db, link] = await Promise.all([store.health(), shared.health()]);
    const down = {
      ok: false as const,
      engine: 'postgresql' as const,
      reason: 'POSTGRES_UNREACHABLE' as const,
    };
    if (!db.ok) return { ...down, error: db.error, listening: link.listening };
    if (!link.ok) return { ...down, error: link.error, listening: link.listening };
    return { ...link, schema_version: db.schema_version };
  };
  // A database that stopped answering (a full pool, a dropped network) must not hold the probe: after the
  // timeout it is reported down, so a balancer takes this instance out instead of waiting on it.
  const health = async (): Promise<PostgresServiceHealth> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<PostgresServiceHealth>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            engine: 'postgresql',
            reason: 'POSTGRES_TIMEOUT',
            error: `PostgreSQL did not answer within ${timeoutMs} ms`,
            listening: shared.notifier.listening(),
          }),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([probe(), late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    core: {
      store,
      notifier: shared.notifier,
      limits: shared.limits,
      photoFiles: createPostgresPhotoFiles({ pool: store.pool }),
    },
    native: { leases: createPostgresTurnLeases({ pool: store.pool }) },
    leadSender: (sender) =>
      createLeadingSender({
        url,
        sender,
        notifier: shared.notifier,
        ...(options.onError ? { onError: options.onError } : {}),
      }),
    health,
    metrics: {
      pushQueueDepth: async () =>
        (await store.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM push_outbox')).rows[0]?.n ?? 0,
      databaseBytes: async () =>
        Number(
          (await store.pool.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0]
            ?.n ?? 0,
        ),
    },
    async readiness() {
      const database = await health();
      const expected_version = Math.max(...POSTGRES_MIGRATIONS.map((m) => m.version));
      if (!database.ok) return { ready: false, database: { ...database, expected_version } };
      const ready = database.schema_version === expected_version;
      return {
        ready,
        database: { ...database, expected_version, ...(ready ? {} : { reason: 'SCHEMA_MISMATCH' as const }) },
      };
    },
    async close() {
      await shared.close();
      await store.close();
    },
  };
}

/**
 * {@link createPostgresServices} when `url` is set (SVC_DATABASE_URL), else null: the server's one call.
 *
 * @example `const postgres = await openPostgresServices(config.databaseUrl, (err) => log.error({ err }));`
 */
export async function openPostgresServices(
  url: string | undefined,
  onError: (err: unknown) => void,
  poolSize?: number,
): Promise<PostgresServices | null> {
  return url ? await createPostgresServices(url, { onError, ...(poolSize ? { poolSize } : {}) }) : null;
}
