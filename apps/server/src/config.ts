// The one place that reads the environment. Everything else takes a ServerConfig.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GuardSettings, readGuardSettings } from '@screen-service/service-core';
import { z } from 'zod';
import { defaultDataDir } from './data-dir.js';

export interface ServerConfig {
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
  /** Check every person's API answer against its route's schema (tests set it; a mismatch is a 500). */
  checkResponses?: boolean;
  /** Image-generation CDN URL template with `{prompt}` for the in-chat view; absent = a placeholder. */
  imageCdn?: string;
  /** Web Push (VAPID, RFC 8292): the contact, and keys (both or neither; neither = made once and kept). */
  vapid?: { subject?: string; publicKey?: string; privateKey?: string };
  /** SVC_TRUST_PROXY, SVC_PHOTO_MAX_BYTES, SVC_PHOTO_QUOTA_BYTES, SVC_STREAMS_PER_ACCOUNT. */
  guards?: GuardSettings;
}

export class ConfigError extends Error {
  readonly code = 'INVALID_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const VAPID_KEYS_HINT =
  'SVC_VAPID_PUBLIC_KEY and SVC_VAPID_PRIVATE_KEY must be a base64url P-256 pair, for example from `npx web-push generate-vapid-keys`; leave both unset to have the server make them';

const envSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d+$/, 'PORT must be a whole number from 0 to 65535, for example PORT=8787')
    .transform(Number)
    .refine((n) => n <= 65535, 'PORT must be a whole number from 0 to 65535, for example PORT=8787')
    .optional(),
  HOST: z.string().min(1).optional(),
  SVC_BASE_URL: z
    .url({ message: 'SVC_BASE_URL must be an absolute http(s) URL, for example http://localhost:8787' })
    .refine((u) => /^https?:\/\//.test(u), 'SVC_BASE_URL must start with http:// or https://')
    .optional(),
  SVC_DATA_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  SVC_MCP_RATE_BURST: z
    .string()
    .regex(/^[1-9]\d*$/, 'SVC_MCP_RATE_BURST must be a whole number above 0, for example 60')
    .transform(Number)
    .optional(),
  SVC_MCP_RATE_PER_MINUTE: z
    .string()
    .regex(/^[1-9]\d*$/, 'SVC_MCP_RATE_PER_MINUTE must be a whole number above 0, for example 30')
    .transform(Number)
    .optional(),
  SVC_IMAGE_CDN: z
    .string()
    .regex(
      /^https?:\/\/[^/\s]+\S*\{prompt\}/,
      'SVC_IMAGE_CDN must be an http(s) URL template with {prompt}, for example https://image.example/prompt/{prompt}',
    )
    .optional(),
  SVC_VAPID_SUBJECT: z
    .string()
    .regex(
      /^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/,
      'SVC_VAPID_SUBJECT must be a mailto: address or an https: URL, for example mailto:ops@example.com',
    )
    .optional(),
  SVC_VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^B[A-Za-z0-9_-]{86}$/, VAPID_KEYS_HINT)
    .optional(),
  SVC_VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, VAPID_KEYS_HINT)
    .optional(),
  SVC_SECRET: z
    .string()
    .min(32, 'SVC_SECRET must be at least 32 characters, for example the output of `openssl rand -base64 32`')
    .optional(),
});

export interface LoadConfigOptions {
  /** Where the service's code lives (default: this module's folder); see {@link defaultDataDir}. */
  codeDir?: string;
  /** The home folder for the per-user data folder (default: os.homedir()). */
  home?: string;
  platform?: NodeJS.Platform;
}

/**
 * Reads PORT, HOST, SVC_BASE_URL, SVC_DATA_DIR, LOG_LEVEL, SVC_SECRET and SVC_VAPID_*; throws ConfigError naming the
 * bad variable. A relative SVC_DATA_DIR resolves against `cwd`; without it the data folder is
 * `<repository root>/data` (found from the code's location, so every working directory agrees) or, outside
 * the repository, the per-user data folder.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
  options: LoadConfigOptions = {},
): ServerConfig {
  const picked = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in envSchema.shape && v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${String(issue.path[0])}: ${issue.message}`);
  }
  const d = parsed.data;
  if (Boolean(d.SVC_VAPID_PUBLIC_KEY) !== Boolean(d.SVC_VAPID_PRIVATE_KEY)) {
    throw new ConfigError(`SVC_VAPID_PUBLIC_KEY: ${VAPID_KEYS_HINT}`);
  }
  const port = parsed.data.PORT ?? 8787;
  const baseUrl = (parsed.data.SVC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: parsed.data.HOST ?? '0.0.0.0',
    baseUrl,
    dataDir: parsed.data.SVC_DATA_DIR
      ? path.resolve(cwd, parsed.data.SVC_DATA_DIR)
      : defaultDataDir({
          codeDir: options.codeDir ?? path.dirname(fileURLToPath(import.meta.url)),
          env,
          platform: options.platform ?? process.platform,
          home: options.home ?? os.homedir(),
        }),
    logLevel: parsed.data.LOG_LEVEL ?? 'info',
    mcpRate: {
      burst: parsed.data.SVC_MCP_RATE_BURST ?? 60,
      perMinute: parsed.data.SVC_MCP_RATE_PER_MINUTE ?? 30,
    },
    guards: readGuardSettings(env, (message) => new ConfigError(message)),
    ...(parsed.data.SVC_SECRET ? { secret: parsed.data.SVC_SECRET } : {}),
    ...(parsed.data.SVC_IMAGE_CDN ? { imageCdn: parsed.data.SVC_IMAGE_CDN } : {}),
    ...(d.SVC_VAPID_SUBJECT || d.SVC_VAPID_PUBLIC_KEY
      ? {
          vapid: {
            ...(d.SVC_VAPID_SUBJECT ? { subject: d.SVC_VAPID_SUBJECT } : {}),
            ...(d.SVC_VAPID_PUBLIC_KEY
              ? { publicKey: d.SVC_VAPID_PUBLIC_KEY, privateKey: d.SVC_VAPID_PRIVATE_KEY }
              : {}),
          },
        }
      : {}),
  };
}

/**
 * The base URL to advertise once the server listens: a base URL on port 0 (the default with PORT=0)
 * takes the port the system picked, so the OAuth issuer, MCP URL and photo links are reachable.
 */
export function resolveBaseUrl(baseUrl: string, listeningPort: number): string {
  const url = new URL(baseUrl);
  if (url.port !== '0') return baseUrl;
  url.port = String(listeningPort);
  return url.href.replace(/\/+$/, '');
}
