// Starts the HTTP server on the configured port and stops it gracefully.
import os from 'node:os';
import path from 'node:path';
import * as ops from '@screen-service/operations';
import type { LocalNotifier } from '@screen-service/registry/kernel';
import {
  describeDatabaseUrl,
  openPostgresServices,
  type PostgresServices,
} from '@screen-service/store-postgres';
import {
  DATABASE_FILE,
  type ServiceDb as Db,
  openServiceDatabase as openDatabase,
  startWalCheckpointer,
} from '@screen-service/store-sqlite';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { ServerConfig } from './config.js';
import { watchOutsideWrites } from './outside-writes.js';
import { phoneReachHint } from './phone-reach.js';
import { createServices, type Services, type ServicesOptions } from './services.js';

export interface RunningServer {
  /** The advertised base URL, with the real port when the configuration asked for port 0. */
  url: string;
  port: number;
  /** The SQLite file's connection; null on PostgreSQL (SVC_DATABASE_URL), where no SQLite file is opened. */
  db: Db | null;
  services: Services;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes the database. */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(
  config: ServerConfig,
  logger: Logger = ops.createServiceLogger({ level: config.logLevel, format: config.logFormat ?? 'auto' }),
  /** Tests inject a movable clock and a short status tick here. */
  options: ServicesOptions = {},
): Promise<RunningServer> {
  // The data folder first: a second server on it is refused before it touches the database or a port.
  const claim = ops.claimDataDir(config.dataDir);
  const { postgres, db, listening } = await openAndListen(config, logger).catch((err: unknown) => {
    claim.release();
    throw err;
  });
  const metrics = config.metricsToken ? serverMetrics(db, postgres, config.dataDir) : null;
  const { server, port } = listening;
  // No commit pays a checkpoint's fsync on the event loop (ADR 0205: 50-120 ms stalls under writes).
  const checkpoints = db
    ? startWalCheckpointer(db, { onError: (err) => logger.error({ err }, 'WAL checkpoint') })
    : null;
  // The base URL is known only now (PORT=0 picks the port at listen), and services put it into the
  // OAuth issuer, the MCP URL and photo links, so they are built after listen with the resolved one.
  // No request is dispatched before the handler below is attached: this runs in the listen callback's turn.
  const url = ops.resolveBaseUrl(config.baseUrl, port);
  claim.announce({ port, url });
  const resolved: ServerConfig = { ...config, baseUrl: url };
  const services = createServices(resolved, db, {
    ...options,
    onNativeError: (err) => logger.error({ err }, 'native agent'),
    onDeadlineError: (err) => logger.error({ err }, 'deadline sweeper'),
    metrics,
    postgres,
    onPushEvent: (e) => {
      metrics?.onPushEvent(e);
      e.type === 'error' ? logger.error({ err: e.error }, 'push sender') : logger.debug(e, 'push');
    },
  });
  services.pushSender?.start();
  // Screens' deadlines are decided on time however many instances run (ADR 0260).
  services.deadlines.start();
  // The `svc` CLI's writes to this data folder (a revoke, say) reach the open apps and hosts (ADR 0246).
  const { resyncAll } = services.notifier as Partial<LocalNotifier>;
  const stopOutside =
    !db || !resyncAll ? () => {} : watchOutsideWrites(db, () => resyncAll.call(services.notifier));
  const { store, clock: now, housekeepingJobs: jobs } = services;
  const housekeeping = ops.startHousekeeping({ db, claims: store.housekeeping, jobs, logger, metrics, now });
  const { listener } = createApp({ config: resolved, db, logger, services, metrics });
  server.on('request', listener);
  const { mcpUrl } = services;
  // On PostgreSQL the line names the database served (never its password), and no SQLite file.
  const database = db
    ? path.join(config.dataDir, DATABASE_FILE)
    : describeDatabaseUrl(config.databaseUrl ?? '');
  const where = { url, port, database, mcp_url: mcpUrl };
  const dataIn = db ? `data in ${config.dataDir}` : `database ${database}, files in ${config.dataDir}`;
  logger.info(
    where,
    `Screen Service listening on ${url} (${dataIn}); open ${url}/ to sign in, MCP clients connect to ${mcpUrl}; next: \`npx svc user add --email you@example.com\` or \`npx svc doctor\``,
  );
  const phoneHint = phoneReachHint(url, config.host, os.networkInterfaces());
  if (phoneHint) logger.info(phoneHint);

  let closing: Promise<void> | undefined;
  const close = (graceMs = 4000): Promise<void> => {
    closing ??= (async () => {
      services.stopping.abort();
      const senderStopped = services.pushSender?.stop();
      const deadlinesStopped = services.deadlines.stop();
      await listening.drain(graceMs);
      await senderStopped;
      await deadlinesStopped;
      await housekeeping.stop();
      await checkpoints?.stop();
      stopOutside();
      await postgres?.close();
      db?.close();
      // Last: the next server may take the folder only once this one's database is closed.
      claim.release();
    })();
    return closing;
  };
  return { url, port, db, services, logger, close };
}

/** The store(s) and the listening socket; on a failure whatever was opened is closed again. */
async function openAndListen(config: ServerConfig, logger: Logger) {
  const onError = (err: unknown) => logger.error({ err }, 'postgres');
  const postgres = await openPostgresServices(config.databaseUrl, onError, config.databasePoolSize);
  let db: Db | null = null;
  try {
    // On PostgreSQL no SQLite file is opened (or created) in the data folder.
    db = postgres ? null : openDatabase(config.dataDir);
    return { postgres, db, listening: await ops.listenHttp(config.port, config.host) };
  } catch (err) {
    db?.close();
    await postgres?.close();
    throw err;
  }
}

/** /metrics: the outbox depth and the database's size, of the SQLite file or of the PostgreSQL database. */
function serverMetrics(db: Db | null, postgres: PostgresServices | null, dataDir: string) {
  if (db || !postgres) return db ? ops.databaseMetrics(db, dataDir) : ops.createServiceMetrics();
  return ops.createServiceMetrics(postgres.metrics);
}
