// What the server composes from this package: its environment variables, /readyz and /metrics, the
// metrics over the service database, and the housekeeping scheduler with its log lines.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createHousekeepingScheduler,
  type HousekeepingJob,
  type HousekeepingScheduler,
} from '@screen-service/core/housekeeping';
import {
  DATABASE_FILE,
  SERVICE_MIGRATIONS,
  type ServiceDb,
  schemaVersion,
  walCheckpointJob,
} from '@screen-service/store-sqlite';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { LogFormat } from './logger.js';
import { createServiceMetrics, type ServiceMetrics } from './metrics.js';
import { METRICS_TOKEN_MIN_LENGTH, metricsHandler } from './metrics-handler.js';

/** The operator's settings this package reads (parsed by the server's one config module). */
export interface OperationsConfig {
  /** SVC_SIGNUP: `closed` refuses the app's sign-up; `svc user add` still works. */
  signup: 'open' | 'closed';
  /** SVC_METRICS_TOKEN: `/metrics` exists only with it. */
  metricsToken?: string;
  /** SVC_MESSAGES_PER_THREAD: rows kept per thread (housekeeping trims older ones). */
  messagesPerThread?: number;
  /** LOG_FORMAT: `pretty`, `json`, or `auto` (pretty on a terminal). */
  logFormat: LogFormat;
}

/** zod fields for the environment schema of apps/server's config (spread into its object). */
export const OPERATIONS_ENV = {
  SVC_SIGNUP: z.enum(['open', 'closed'], { message: 'SVC_SIGNUP must be open or closed' }).optional(),
  SVC_METRICS_TOKEN: z
    .string()
    .min(
      METRICS_TOKEN_MIN_LENGTH,
      `SVC_METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters, for example the output of \`openssl rand -hex 24\``,
    )
    .optional(),
  SVC_MESSAGES_PER_THREAD: z
    .string()
    .regex(/^[1-9]\d*$/, 'SVC_MESSAGES_PER_THREAD must be a whole number above 0, for example 5000')
    .transform(Number)
    .optional(),
  LOG_FORMAT: z.enum(['pretty', 'json'], { message: 'LOG_FORMAT must be pretty or json' }).optional(),
};

type OperationsEnv = { [K in keyof typeof OPERATIONS_ENV]?: z.output<(typeof OPERATIONS_ENV)[K]> };

/** The parsed variables as {@link OperationsConfig} (defaults: sign-up open, no metrics, every row kept 90 days). */
export function operationsConfig(env: OperationsEnv): OperationsConfig {
  return {
    signup: env.SVC_SIGNUP ?? 'open',
    logFormat: env.LOG_FORMAT ?? 'auto',
    ...(env.SVC_METRICS_TOKEN ? { metricsToken: env.SVC_METRICS_TOKEN } : {}),
    ...(env.SVC_MESSAGES_PER_THREAD ? { messagesPerThread: env.SVC_MESSAGES_PER_THREAD } : {}),
  };
}

/** The core's options these settings fill (`signup`, `messagesPerThread`), to spread into createCore's. */
export function coreLimits(config: Partial<OperationsConfig>): {
  signup?: 'open' | 'closed';
  messagesPerThread?: number;
} {
  return {
    ...(config.signup ? { signup: config.signup } : {}),
    ...(config.messagesPerThread ? { messagesPerThread: config.messagesPerThread } : {}),
  };
}

/** The metrics of a server over its database: push queue depth and database size read at scrape time. */
export function databaseMetrics(db: ServiceDb, dataDir: string): ServiceMetrics {
  const depth = db.prepare('SELECT COUNT(*) AS n FROM push_outbox');
  const file = path.join(dataDir, DATABASE_FILE);
  return createServiceMetrics({
    pushQueueDepth: () => (depth.get() as { n: number }).n,
    databaseBytes: () =>
      [file, `${file}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0),
  });
}

/** A shared database's readiness (PostgreSQL's `readiness()`): never throws, answers within its own timeout. */
export type ReadinessProbe = () => Promise<{ ready: boolean; database: Record<string, unknown> }>;

/** The local SQLite file's readiness: it answers and carries this code's schema version. */
function localReadiness(db: ServiceDb, expected: number) {
  try {
    const version = schemaVersion(db);
    return {
      ready: version === expected,
      database: { ok: true, schema_version: version, expected_version: expected },
    };
  } catch (err) {
    return { ready: false, database: { ok: false, error: (err as Error).message } };
  }
}

/**
 * Mounts `/readyz` (the database answers and carries this code's schema: 200, else 503) and, with a
 * token, `/metrics`. Mount it before the Host guard (probes call a pod by its own address). The request
 * counter (`metrics.requests`) is not mounted here: it is one of the steps the server's one listener runs
 * for every request (ADR 0242). With `shared` (the service runs on PostgreSQL) `database` is what the probe
 * reports; the data folder's own SQLite file, when one is open (`db`), is reported as `local`, and both must
 * be ready. On PostgreSQL alone (`db` null) no SQLite file is read or named.
 */
export function mountOperations(
  app: Express,
  deps: {
    db: ServiceDb | null;
    metrics?: ServiceMetrics | null;
    metricsToken?: string | undefined;
    shared?: ReadinessProbe | undefined;
  },
): void {
  const expected = Math.max(...SERVICE_MIGRATIONS.map((m) => m.version));
  app.get('/readyz', async (_req: Request, res: Response) => {
    const local = deps.db ? localReadiness(deps.db, expected) : null;
    if (!deps.shared) {
      const answer = local ?? { ready: false, database: { ok: false, error: 'no database is configured' } };
      res.status(answer.ready ? 200 : 503).json(answer);
      return;
    }
    const shared = await deps.shared();
    const ready = shared.ready && (local?.ready ?? true);
    res
      .status(ready ? 200 : 503)
      .json({ ready, database: shared.database, ...(local ? { local: local.database } : {}) });
  });
  if (deps.metrics && deps.metricsToken) {
    app.get('/metrics', metricsHandler(deps.metrics.registry, deps.metricsToken));
  }
}

/** Options of {@link startHousekeeping}. */
export interface StartHousekeepingOptions {
  /** The SQLite file, whose WAL checkpoint joins the jobs; null on PostgreSQL. */
  db: ServiceDb | null;
  claims: Parameters<typeof createHousekeepingScheduler>[0]['claims'];
  /** The core's retention jobs (and any other helper's); the WAL checkpoint is added last. */
  jobs: readonly HousekeepingJob[];
  logger: Logger;
  metrics?: ServiceMetrics | null;
  now: () => number;
  intervalMs?: number;
}

/**
 * Starts the process's one housekeeping scheduler. Each run that removed something is logged at info
 * (`housekeeping removed 12 (relay-retention)`), failures at error, the rest at debug.
 */
export function startHousekeeping(options: StartHousekeepingOptions): HousekeepingScheduler {
  const scheduler = createHousekeepingScheduler({
    jobs: options.db ? [...options.jobs, walCheckpointJob(options.db)] : options.jobs,
    claims: options.claims,
    holder: `${os.hostname()}:${process.pid}`,
    now: options.now,
    ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
    onRun: (run) => {
      options.metrics?.onHousekeeping(run);
      const fields = { job: run.name, removed: run.removed, ms: Math.round(run.ms), skipped: run.skipped };
      if (run.error) options.logger.error({ ...fields, err: run.error }, `housekeeping ${run.name} failed`);
      else if (run.removed > 0)
        options.logger.info(fields, `housekeeping removed ${run.removed} (${run.name})`);
      else options.logger.debug(fields, `housekeeping ${run.name}: nothing to remove`);
    },
  });
  scheduler.start();
  return scheduler;
}
