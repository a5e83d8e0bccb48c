// What one instance needs to share a PostgreSQL database with the others: a pool, the LISTEN/NOTIFY notifier,
// the shared limits and a health probe, opened together from one URL and closed together.
import type { LimitStore } from '@screen-service/registry/kernel';
import pg from 'pg';
import { createPostgresLimits } from './limits/postgres-limits.js';
import { createPostgresNotifier, type PostgresNotifier } from './notify/postgres-notifier.js';
import { ScaleError } from './scale-errors.js';
import { ensureScaleSchema } from './scale-schema.js';

/** What `/healthz` reports of a PostgreSQL database. */
export type ScaleHealth =
  | { ok: true; engine: 'postgresql'; latency_ms: number; listening: boolean }
  | { ok: false; engine: 'postgresql'; error: string; listening: boolean };

/** Options of {@link openScaleServices}. */
export interface ScaleServicesOptions {
  /** Connections in this instance's pool; default 10. */
  poolSize?: number;
  /** A lost LISTEN link, a NOTIFY given up (the server logs them). */
  onError?: (err: unknown) => void;
  /** Create the notifier's and limits' tables when missing (default true). */
  ensureSchema?: boolean;
  /** A pool the caller owns (the store's); default a new one for `url`, ended by `close`. */
  pool?: pg.Pool;
}

/** The shared parts of one instance. */
export interface ScaleServices {
  pool: pg.Pool;
  notifier: PostgresNotifier;
  limits: LimitStore;
  /** One `SELECT 1` (never throws) and whether the LISTEN link is up. */
  health(): Promise<ScaleHealth>;
  /** Sends queued events, closes the LISTEN link and the pool. */
  close(): Promise<void>;
}

const URL_RULE = /^postgres(ql)?:\/\/[^/\s]+\/[^\s]*$/;

/** Refuses anything but a `postgres://` URL, naming the variable and an example. */
export function checkDatabaseUrl(url: string): string {
  if (!URL_RULE.test(url)) {
    throw new ScaleError(
      'INVALID_DATABASE_URL',
      'SVC_DATABASE_URL must be a PostgreSQL URL, for example postgres://svc:secret@127.0.0.1:5432/svc',
    );
  }
  return url;
}

/**
 * @example
 * ```ts
 * const shared = await openScaleServices(process.env.SVC_DATABASE_URL!);
 * const core = createCore({ store, notifier: shared.notifier, limits: shared.limits, ... });
 * ```
 */
export async function openScaleServices(
  url: string,
  options: ScaleServicesOptions = {},
): Promise<ScaleServices> {
  checkDatabaseUrl(url);
  const onError = options.onError ?? (() => {});
  const owned = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  if (owned) pool.on('error', onError);
  const end = async () => {
    if (owned) await pool.end().catch(() => {});
  };
  try {
    if (options.ensureSchema !== false) await ensureScaleSchema(pool);
  } catch (err) {
    await end();
    throw new ScaleError(
      'POSTGRES_UNAVAILABLE',
      `Could not reach the database at SVC_DATABASE_URL (${(err as Error).message}); check the URL and that PostgreSQL is running.`,
      { cause: err },
    );
  }
  const notifier = createPostgresNotifier({ pool, connectionString: url, onError });
  try {
    await notifier.start();
  } catch (err) {
    await end();
    throw err;
  }
  return {
    pool,
    notifier,
    limits: createPostgresLimits({ pool }),
    async health() {
      const started = performance.now();
      const listening = notifier.listening();
      try {
        await pool.query('SELECT 1');
        const latency = Math.round((performance.now() - started) * 10) / 10;
        return { ok: true, engine: 'postgresql', latency_ms: latency, listening };
      } catch (err) {
        return { ok: false, engine: 'postgresql', error: (err as Error).message, listening };
      }
    },
    async close() {
      await notifier.close();
      await end();
    },
  };
}
