// Builds the rules over one open database: the Store, the notifier and every operation the routes use.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createOAuthServer, type OAuthServer } from '@screen-service/oauth';
import {
  type Accounts,
  type ConnectionAuth,
  createAccounts,
  createArgon2idHasher,
  createConnectionAuth,
  createNotifier,
  createPairing,
  createPersonAgents,
  createPersonThreads,
  createSqliteStore,
  createThreadOps,
  type Notifier,
  type Pairing,
  type PasswordHasher,
  type PersonAgents,
  type PersonThreads,
  type Store,
  type ThreadOps,
} from '@screen-service/service-core';
import type { ServerConfig } from './config.js';
import type { Db } from './db/open-database.js';
import { createPhotoStore, type PhotoStore } from './photos/photo-store.js';

export interface Services {
  config: ServerConfig;
  store: Store;
  notifier: Notifier;
  accounts: Accounts;
  pairing: Pairing;
  agents: PersonAgents;
  threads: PersonThreads;
  threadOps: ThreadOps;
  connectionAuth: ConnectionAuth;
  /** OAuth 2.1 sign-in for MCP clients (issuer `{base}/functions/v1/svc-oauth`). */
  oauth: OAuthServer;
  photos: PhotoStore;
  /** `{base}/functions/v1/svc-mcp`, what `svc connect` prints. */
  mcpUrl: string;
  /** Aborted when the server begins shutting down: live streams and waiting calls end at once. */
  stopping: AbortController;
}

export interface ServicesOptions {
  now?: () => number;
  hasher?: PasswordHasher;
}

/** The service's secret: SVC_SECRET when set, else one generated on first start and kept in service_meta. */
export function serviceSecret(db: Db, configured: string | undefined): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  db.prepare('INSERT OR IGNORE INTO service_meta (key, value) VALUES (?, ?)').run(
    'secret',
    randomBytes(32).toString('base64url'),
  );
  const row = db.prepare("SELECT value FROM service_meta WHERE key = 'secret'").get() as { value: string };
  return new TextEncoder().encode(row.value);
}

export function createServices(config: ServerConfig, db: Db, options: ServicesOptions = {}): Services {
  const now = options.now ?? Date.now;
  const store = createSqliteStore(db);
  const notifier = createNotifier();
  const secret = serviceSecret(db, config.secret);
  const photos = createPhotoStore({
    dir: path.join(config.dataDir, 'photos'),
    secret,
    baseUrl: `${config.baseUrl}/functions/v1/svc-app/photos`,
    now,
  });
  const photoLinks = photos.links;
  const pairing = createPairing({ store, now });
  const stopping = new AbortController();
  const agents = createPersonAgents({ store, pairing, notifier, now });
  const mcpUrl = `${config.baseUrl}/functions/v1/svc-mcp`;
  const oauth = createOAuthServer({
    store,
    agents,
    notifier,
    now,
    urls: {
      baseUrl: config.baseUrl,
      oauthUrl: `${config.baseUrl}/functions/v1/svc-oauth`,
      mcpUrl,
      connectPageUrl: `${config.baseUrl}/connect`,
    },
  });
  return {
    config,
    store,
    notifier,
    accounts: createAccounts({
      store,
      hasher: options.hasher ?? createArgon2idHasher(),
      jwtSecret: secret,
      issuer: config.baseUrl,
      now,
    }),
    pairing,
    agents,
    threads: createPersonThreads({ store, notifier, now, photoLinks }),
    threadOps: createThreadOps({ store, notifier, now, photoLinks, shutdown: stopping.signal }),
    connectionAuth: createConnectionAuth({
      store,
      expectKind: 'mcp',
      now,
      resolveAccessToken: oauth.resolveAccessToken,
    }),
    oauth,
    photos,
    mcpUrl,
    stopping,
  };
}
