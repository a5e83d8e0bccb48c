// The one place that reads the environment. Everything else takes a ServerConfig.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GuardSettings, readGuardSettings } from '@screen-service/http-kit';
import { readEnv } from '@screen-service/io-kit/env';
import { type NativeSettings, readModelSettings } from '@screen-service/native-agents';
import { OPERATIONS_ENV, type OperationsConfig, operationsConfig } from '@screen-service/operations';
import { VAPID_ENV, type VapidSettings, vapidSettings } from '@screen-service/push';
import { POSTGRES_ENV, postgresSettings } from '@screen-service/store-postgres';
import { defaultDataDir } from '@screen-service/store-sqlite';
import { z } from 'zod';

/** Operator settings (SVC_SIGNUP, SVC_METRICS_TOKEN, SVC_MESSAGES_PER_THREAD, LOG_FORMAT): docs/operations.md. */
export interface ServerConfig extends Partial<OperationsConfig> {
  /** TCP port to listen on; 0 picks a free one. */
  port: number;
  /** Interface to bind. */
  host: string;
  /** Public base URL without trailing slash, e.g. http://localhost:8787. */
  baseUrl: string;
  /** Directory that holds the SQLite database and stored files. */
  dataDir: string;
  /** pino log level. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Key for app access JWTs and photo links; absent = generated once and kept in the database. */
  secret?: string;
  /** Rate bucket `mcp` of the tool server, per connection (doc1: burst 60, 30 per minute). */
  mcpRate: { burst: number; perMinute: number };
  /** Bucket `management` of the management API, per account (default burst 30, 30 per minute; ADR 0248). */
  managementRate?: { burst: number; perMinute: number };
  /** doc1's host message limit per connection and thread (default burst 60, 60 per minute; ADR 0248). */
  hostMessageRate?: { burst: number; perMinute: number };
  /** Check every person's API answer against its route's schema (tests set it; a mismatch is a 500). */
  checkResponses?: boolean;
  /** Image-generation CDN URL template with `{prompt}` for the in-chat view; absent = a placeholder. */
  imageCdn?: string;
  /** Web Push (VAPID, RFC 8292): the contact, and keys (both or neither; neither = made once and kept). */
  vapid?: VapidSettings;
  /** Native agents' model (SVC_MODEL_*, ADR 0200); absent = native agents are not offered. */
  model?: NativeSettings;
  /** SVC_TRUST_PROXY, SVC_PHOTO_MAX_BYTES, SVC_PHOTO_QUOTA_BYTES, SVC_STREAMS_PER_ACCOUNT. */
  guards?: GuardSettings;
  /** SVC_DATABASE_URL: PostgreSQL instead of the SQLite file, shared by several instances (docs/scale-out.md). */
  databaseUrl?: string;
  /** SVC_DATABASE_POOL_SIZE: this instance's PostgreSQL connections (default 10; ADR 0266). */
  databasePoolSize?: number;
  /**
   * SVC_OUTBOUND_LOOPBACK=1: outbound requests (push endpoints, client ID metadata documents) may go to
   * loopback, also over plain http.
   * For tests and a push service on the developer's machine only; never private or link-local (ADR 0247).
   */
  outboundLoopback?: boolean;
}

export class ConfigError extends Error {
  readonly code = 'INVALID_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A variable matching `pattern`, else the message `<what>, for example <example>`. */
const text = (pattern: RegExp, what: string) => z.string().regex(pattern, what);
/** A whole number matching `pattern` (digits), turned into a number. */
const whole = (pattern: RegExp, what: string) => text(pattern, what).transform(Number);
/** A whole number above 0. */
const positive = (name: string, example: number) =>
  whole(/^[1-9]\d*$/, `${name} must be a whole number above 0, for example ${example}`);
const PORT_RULE = 'PORT must be a whole number from 0 to 65535, for example PORT=8787';

// Each variable, its rule and the message naming the fix; all optional (defaults are in loadConfig). Read
// with io-kit's environment reader, the same way as every other program of the repository.
const ENV_RULES = {
  ...OPERATIONS_ENV,
  ...VAPID_ENV,
  ...POSTGRES_ENV,
  PORT: whole(/^\d+$/, PORT_RULE).refine((n) => n <= 65535, PORT_RULE),
  HOST: z.string().min(1),
  SVC_BASE_URL: z
    .url({ message: 'SVC_BASE_URL must be an absolute http(s) URL, for example http://localhost:8787' })
    .refine((u) => /^https?:\/\//.test(u), 'SVC_BASE_URL must start with http:// or https://'),
  SVC_DATA_DIR: z.string().min(1),
  LOG_LEVEL: z.enum(LOG_LEVELS),
  SVC_MCP_RATE_BURST: positive('SVC_MCP_RATE_BURST', 60),
  SVC_MCP_RATE_PER_MINUTE: positive('SVC_MCP_RATE_PER_MINUTE', 30),
  SVC_MANAGEMENT_RATE_BURST: positive('SVC_MANAGEMENT_RATE_BURST', 30),
  SVC_MANAGEMENT_RATE_PER_MINUTE: positive('SVC_MANAGEMENT_RATE_PER_MINUTE', 30),
  SVC_HOST_MESSAGE_RATE_BURST: positive('SVC_HOST_MESSAGE_RATE_BURST', 60),
  SVC_HOST_MESSAGE_RATE_PER_MINUTE: positive('SVC_HOST_MESSAGE_RATE_PER_MINUTE', 60),
  SVC_IMAGE_CDN: text(
    /^https?:\/\/[^/\s]+\S*\{prompt\}/,
    'SVC_IMAGE_CDN must be an http(s) URL template with {prompt}, for example https://image.example/prompt/{prompt}',
  ),
  SVC_OUTBOUND_LOOPBACK: z
    .enum(['0', '1'], {
      message:
        'SVC_OUTBOUND_LOOPBACK must be 1 (tests and local development only) or 0, for example SVC_OUTBOUND_LOOPBACK=1',
    })
    .transform((v) => v === '1'),
  SVC_SECRET: z
    .string()
    .min(
      32,
      'SVC_SECRET must be at least 32 characters, for example the output of `openssl rand -base64 32`',
    ),
};

/** A package's settings reader whose refusal (naming the variable) becomes a ConfigError. */
function settings<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw err instanceof ConfigError ? err : new ConfigError((err as Error).message);
  }
}

export interface LoadConfigOptions {
  /** Where the service's code lives (default: this module's folder); see `defaultDataDir`. */
  codeDir?: string;
  /** The home folder for the per-user data folder (default: os.homedir()). */
  home?: string;
  platform?: NodeJS.Platform;
}

/**
 * Reads the variables of `ENV_RULES` (the README's environment table); throws ConfigError naming the bad
 * variable. A relative SVC_DATA_DIR resolves against `cwd`; without it the data folder is
 * `<repository root>/data` (found from the code's location, so every working directory agrees) or, outside
 * the repository, the per-user data folder.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
  options: LoadConfigOptions = {},
): ServerConfig {
  const d = readEnv(env, ENV_RULES, (message) => new ConfigError(message));
  const model = settings(() => readModelSettings(env));
  const vapid = settings(() => vapidSettings(d));
  const port = d.PORT ?? 8787;
  const codeDir = options.codeDir ?? path.dirname(fileURLToPath(import.meta.url));
  const platform = options.platform ?? process.platform;
  return {
    port,
    host: d.HOST ?? '0.0.0.0',
    baseUrl: (d.SVC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: d.SVC_DATA_DIR
      ? path.resolve(cwd, d.SVC_DATA_DIR)
      : defaultDataDir({ codeDir, env, platform, home: options.home ?? os.homedir() }),
    logLevel: d.LOG_LEVEL ?? 'info',
    ...operationsConfig(d),
    mcpRate: { burst: d.SVC_MCP_RATE_BURST ?? 60, perMinute: d.SVC_MCP_RATE_PER_MINUTE ?? 30 },
    ...(d.SVC_MANAGEMENT_RATE_BURST || d.SVC_MANAGEMENT_RATE_PER_MINUTE
      ? {
          managementRate: {
            burst: d.SVC_MANAGEMENT_RATE_BURST ?? 30,
            perMinute: d.SVC_MANAGEMENT_RATE_PER_MINUTE ?? 30,
          },
        }
      : {}),
    ...(d.SVC_HOST_MESSAGE_RATE_BURST || d.SVC_HOST_MESSAGE_RATE_PER_MINUTE
      ? {
          hostMessageRate: {
            burst: d.SVC_HOST_MESSAGE_RATE_BURST ?? 60,
            perMinute: d.SVC_HOST_MESSAGE_RATE_PER_MINUTE ?? 60,
          },
        }
      : {}),
    guards: readGuardSettings(env, (message) => new ConfigError(message)),
    ...(d.SVC_SECRET ? { secret: d.SVC_SECRET } : {}),
    ...settings(() => postgresSettings(d)),
    ...(d.SVC_IMAGE_CDN ? { imageCdn: d.SVC_IMAGE_CDN } : {}),
    ...(vapid ? { vapid } : {}),
    ...(model ? { model } : {}),
    ...(d.SVC_OUTBOUND_LOOPBACK ? { outboundLoopback: true } : {}),
  };
}
