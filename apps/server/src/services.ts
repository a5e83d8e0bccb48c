// Composition over one open database: the core's createCore (every rule) plus the OAuth server on top.
import path from 'node:path';
import { type Core, type CoreOptions, createCore } from '@screen-service/core';
import { type NativeService, startNativeAgents } from '@screen-service/native-agents';
import { createOAuthServer, type OAuthServer } from '@screen-service/oauth';
import { coreLimits, type ServiceMetrics } from '@screen-service/operations';
import type { PushDispatcher, PushEvent } from '@screen-service/push';
import { createWebPushTransport, loadVapidKeys } from '@screen-service/push';
import type { PasswordHasher } from '@screen-service/registry/accounts';
import { createArgon2idHasher } from '@screen-service/registry/argon2';
import { type Random, systemRandom } from '@screen-service/registry/kernel';
import type { PostgresServices } from '@screen-service/store-postgres';
import {
  createDiskPhotoFiles,
  createSqliteStore,
  type ServiceDb as Db,
  serviceSecret,
} from '@screen-service/store-sqlite';
import { appBuilds } from '@screen-service/web';
import type { ServerConfig } from './config.js';

/** The core's use cases, the OAuth server and the config, as the adapters and the CLI use them. */
export interface Services extends Core {
  config: ServerConfig;
  /** OAuth 2.1 sign-in for MCP clients (issuer `urls.oauthUrl`). */
  oauth: OAuthServer;
  /** `urls.mcpUrl`, what `svc connect` prints. */
  mcpUrl: string;
  /** Drains the push outbox; null when push is not configured. Started and stopped with the server. */
  pushSender: PushDispatcher | null;
  /** Native agents on the operator's model (ADR 0200); null when none is configured. */
  native: NativeService | null;
  /** With SVC_DATABASE_URL: the store, notifier and limits every instance shares (ADR 0230). */
  postgres: PostgresServices | null;
}

export interface ServicesOptions {
  now?: () => number;
  random?: Random;
  hasher?: PasswordHasher;
  /** How often (real ms) the live status watch looks for silent hosts; default 5 s (tests shorten it). */
  statusTickMs?: number;
  onPushEvent?: (event: PushEvent) => void;
  onNativeError?: (err: unknown) => void;
  onDeadlineError?: (err: unknown) => void;
  /** Counts tool calls, `svc_answers` waiters and open streams (with SVC_METRICS_TOKEN). */
  metrics?: ServiceMetrics | null;
  postgres?: PostgresServices | null;
  /** One account's table work (ADR 0254); default the core's (benches lift it to compare). */
  tableWork?: CoreOptions['tableWork'];
}

/**
 * The service over its one store: the SQLite file `db`, or with `options.postgres` (SVC_DATABASE_URL) the
 * shared PostgreSQL database, when `db` is null and no SQLite file is opened or named.
 */
export function createServices(config: ServerConfig, db: Db | null, options: ServicesOptions = {}): Services {
  const random = options.random ?? systemRandom;
  const storage = storageOf(config, db, options, random);
  // Web Push is on with a contact (SVC_VAPID_SUBJECT or an https base URL); keys are kept in the data dir.
  const vapid = loadVapidKeys({ dataDir: config.dataDir, baseUrl: config.baseUrl, ...config.vapid });
  const core = createCore({
    ...storage,
    hasher: options.hasher ?? createArgon2idHasher(),
    urls: config.baseUrl,
    random,
    vapidPublicKey: vapid?.publicKey ?? null,
    pushEndpoints: { allowLoopback: config.outboundLoopback === true },
    ...(config.hostMessageRate ? { hostMessageRate: config.hostMessageRate } : {}),
    ...(options.now ? { clock: options.now } : {}),
    ...(options.statusTickMs ? { statusTickMs: options.statusTickMs } : {}),
    ...(options.tableWork ? { tableWork: options.tableWork } : {}),
    ...(options.onDeadlineError ? { onDeadlineError: options.onDeadlineError } : {}),
    appBuilds: appBuilds(),
    ...coreLimits(config),
    photoLimits: { maxBytes: config.guards?.photoMaxBytes, quotaBytes: config.guards?.photoQuotaBytes },
    ...options.postgres?.core,
  });
  const { store, agents, notifier, urls, clock: now } = core;
  const onEvent = options.onPushEvent ?? (() => {});
  // On PostgreSQL one instance of all sends (the outbox read is not a claim).
  const lead = (sender: PushDispatcher) => options.postgres?.leadSender(sender) ?? sender;
  // Client ID Metadata Documents are fetched like push endpoints: public addresses only, loopback only
  // with SVC_OUTBOUND_LOOPBACK=1 (tests and local development).
  const oauth = createOAuthServer({
    store,
    agents,
    notifier,
    urls,
    now,
    random: core.random,
    clientMetadataDocuments: { allowLoopback: config.outboundLoopback === true },
  });
  // Files whose removal failed before (a crash, a busy disk) are retried once at start.
  void core.photos.sweep().catch(() => {});
  return {
    ...core,
    config,
    oauth,
    mcpUrl: core.urls.mcpUrl,
    pushSender: vapid
      ? lead(
          core.createPushSender(
            createWebPushTransport({ vapid, allowLoopback: config.outboundLoopback === true }),
            { onEvent },
          ),
        )
      : null,
    native: config.model
      ? startNativeAgents(core, config.model, options.onNativeError, options.postgres?.native)
      : null,
    postgres: options.postgres ?? null,
    ...options.metrics?.instrumentCore(core),
  };
}

/** The store, photo files and signing key: the SQLite file's, or PostgreSQL's with SVC_SECRET. */
function storageOf(
  config: ServerConfig,
  db: Db | null,
  options: ServicesOptions,
  random: Random,
): Pick<CoreOptions, 'store' | 'secret' | 'photoFiles'> {
  if (db) {
    return {
      store: createSqliteStore(db),
      secret: serviceSecret(db, config.secret, random),
      photoFiles: createDiskPhotoFiles(path.join(config.dataDir, 'photos')),
    };
  }
  if (!options.postgres) throw new Error('createServices: pass the SQLite database, or PostgreSQL services');
  // On PostgreSQL every instance signs with the same configured key (config checks SVC_SECRET is set).
  if (!config.secret)
    throw new Error('SVC_SECRET: set it when the service runs on PostgreSQL (SVC_DATABASE_URL)');
  const { store, photoFiles } = options.postgres.core;
  return { store, photoFiles, secret: new TextEncoder().encode(config.secret) };
}
