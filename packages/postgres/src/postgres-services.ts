// Everything createCore needs from PostgreSQL for one of several instances, from one URL: the store (with its
// migrations), photo bytes in the database, the LISTEN/NOTIFY notifier and the shared limits.
import type { LimitStore, Notifier, PhotoFiles, PushDispatcher, Store } from '@screen-service/service-core';
import { createLeadingSender } from './leader/leading-sender.js';
import { checkDatabaseUrl, openScaleServices, type ScaleServicesOptions } from './scale-services.js';
import { openPostgresStore } from './store/open-postgres-store.js';
import { createPostgresPhotoFiles } from './store/pg-photo-files.js';

/** What `/healthz` reports when the service runs on PostgreSQL. */
export type PostgresServiceHealth =
  | { ok: true; engine: 'postgresql'; schema_version: number; listening: boolean; latency_ms: number }
  | { ok: false; engine: 'postgresql'; error: string; listening: boolean };

/** The parts of `createCore`'s options PostgreSQL provides, with the health probe and `close`. */
export interface PostgresServices {
  /** Spread into `createCore` options. */
  core: { store: Store; notifier: Notifier; limits: LimitStore; photoFiles: PhotoFiles };
  /** Wraps this instance's push sender so that one instance of all sends at a time (ADR 0231). */
  leadSender(sender: PushDispatcher): PushDispatcher;
  /** Reachable, schema version, LISTEN link up; never throws. */
  health(): Promise<PostgresServiceHealth>;
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
  options: Omit<ScaleServicesOptions, 'pool'> = {},
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
  return {
    core: {
      store,
      notifier: shared.notifier,
      limits: shared.limits,
      photoFiles: createPostgresPhotoFiles({ pool: store.pool }),
    },
    leadSender: (sender) =>
      createLeadingSender({
        url,
        sender,
        notifier: shared.notifier,
        ...(options.onError ? { onError: options.onError } : {}),
      }),
    async health() {
      const [db, link] = await Promise.all([store.health(), shared.health()]);
      if (!db.ok) return { ok: false, engine: 'postgresql', error: db.error, listening: link.listening };
      if (!link.ok) return link;
      return { ...link, schema_version: db.schema_version };
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
): Promise<PostgresServices | null> {
  return url ? await createPostgresServices(url, { onError }) : null;
}
