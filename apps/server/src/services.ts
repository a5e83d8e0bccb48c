// Composition over one open database: service-core's createCore (every rule) plus the OAuth server on top.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createOAuthServer, type OAuthServer } from '@screen-service/oauth';
import {
  type Core,
  createCore,
  createDiskPhotoFiles,
  type PasswordHasher,
  type Random,
  systemRandom,
} from '@screen-service/service-core';
import { createArgon2idHasher } from '@screen-service/service-core/argon2';
import { createSqliteStore } from '@screen-service/service-core/sqlite';
import { webRoot } from '@screen-service/web';
import type { ServerConfig } from './config.js';
import type { Db } from './db/open-database.js';

/** The core's use cases, the OAuth server and the config, as the adapters and the CLI use them. */
export interface Services extends Core {
  config: ServerConfig;
  /** OAuth 2.1 sign-in for MCP clients (issuer `urls.oauthUrl`). */
  oauth: OAuthServer;
  /** `urls.mcpUrl`, what `svc connect` prints. */
  mcpUrl: string;
}

export interface ServicesOptions {
  now?: () => number;
  random?: Random;
  hasher?: PasswordHasher;
  /** How often (real ms) the live status watch looks for silent hosts; default 5 s (tests shorten it). */
  statusTickMs?: number;
}

/** The service's secret: SVC_SECRET when set, else one generated on first start and kept in service_meta. */
export function serviceSecret(
  db: Db,
  configured: string | undefined,
  random: Random = systemRandom,
): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  db.prepare('INSERT OR IGNORE INTO service_meta (key, value) VALUES (?, ?)').run(
    'secret',
    Buffer.from(random.bytes(32)).toString('base64url'),
  );
  const row = db.prepare("SELECT value FROM service_meta WHERE key = 'secret'").get() as { value: string };
  return new TextEncoder().encode(row.value);
}

/**
 * The person's app builds this server serves, for the host API's `session` (doc2 `app_builds`): a short
 * SHA-256 of each bundle, so a host can tell when the app changed. Missing bundles are left out.
 */
export function appBuilds(root: string = webRoot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, file] of [
    ['app', 'app.js'],
    ['connect', 'connect.js'],
    ['playground', 'playground.js'],
  ] as const) {
    try {
      out[name] = createHash('sha256')
        .update(fs.readFileSync(path.join(root, file)))
        .digest('hex')
        .slice(0, 12);
    } catch {
      // not built: nothing to report for it
    }
  }
  return out;
}

export function createServices(config: ServerConfig, db: Db, options: ServicesOptions = {}): Services {
  const random = options.random ?? systemRandom;
  const files = createDiskPhotoFiles(path.join(config.dataDir, 'photos'));
  const core = createCore({
    store: createSqliteStore(db),
    hasher: options.hasher ?? createArgon2idHasher(),
    secret: serviceSecret(db, config.secret, random),
    urls: config.baseUrl,
    photoFiles: files,
    random,
    ...(options.now ? { clock: options.now } : {}),
    ...(options.statusTickMs ? { statusTickMs: options.statusTickMs } : {}),
    appBuilds: appBuilds(),
  });
  const oauth = createOAuthServer({
    store: core.store,
    agents: core.agents,
    notifier: core.notifier,
    urls: core.urls,
    now: core.clock,
    random: core.random,
  });
  // Files whose removal failed before (a crash, a busy disk) are retried once at start.
  void core.photos.sweep().catch(() => {});
  return {
    ...core,
    config,
    oauth,
    mcpUrl: core.urls.mcpUrl,
  };
}
