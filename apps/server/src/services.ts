// Composition over one open database: the core's createCore (every rule) plus the OAuth server on top.
import path from 'node:path';
import { type Core, type CoreOptions, createCore } from '@screen-service/core';
import type { PushDispatcher, PushEvent } from '@screen-service/core/push';
import { type NativeService, startNativeAgents } from '@screen-service/native-agents';
import { createOAuthServer, type OAuthServer } from '@screen-service/oauth';
import { coreLimits, type ServiceMetrics } from '@screen-service/operations';
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

export function createServices(config: ServerConfig, db: Db, options: ServicesOptions = {}): Services {
  const random = options.random ?? systemRandom;
  const files = createDiskPhotoFiles(path.join(config.dataDir, 'photos'));
  // Web Push is on with a contact (SVC_VAPID_SUBJECT or an https base URL); keys are kept in the data dir.
  const vapid = loadVapidKeys({ dataDir: config.dataDir, baseUrl: config.baseUrl, ...config.vapid });
  const core = createCore({
    store: createSqliteStore(db),
    hasher: options.hasher ?? createArgon2idHasher(),
    secret: serviceSecret(db, config.secret, random),
    urls: config.baseUrl,
    photoFiles: files,
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
