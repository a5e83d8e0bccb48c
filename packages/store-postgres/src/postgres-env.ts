// The PostgreSQL setting an operator gives (SVC_DATABASE_URL), as a zod rule a service's environment schema
// spreads in. Set, it selects PostgreSQL; unset, the service stays on its one SQLite file.
import { z } from 'zod';

const URL_HINT =
  'SVC_DATABASE_URL must be a PostgreSQL URL, for example postgres://svc:secret@127.0.0.1:5432/svc';

/** The variables' rules (optional). */
export const POSTGRES_ENV = {
  SVC_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/[^/\s]+\/[^\s]*$/, URL_HINT)
    .optional(),
  SVC_DATABASE_POOL_SIZE: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, 'SVC_DATABASE_POOL_SIZE must be a whole number from 1 to 999, for example 10')
    .transform(Number)
    .optional(),
};

/**
 * The parsed variables as settings: `{ databaseUrl }` with SVC_DATABASE_URL, `{}` without.
 *
 * @throws {Error} naming SVC_SECRET when SVC_DATABASE_URL is set without it: every instance must sign app
 * tokens and photo links with the same key, and on PostgreSQL no instance keeps a key file the others read.
 */
export function postgresSettings(env: {
  SVC_DATABASE_URL?: string | undefined;
  SVC_DATABASE_POOL_SIZE?: number | undefined;
  SVC_SECRET?: string | undefined;
}): {
  databaseUrl?: string;
  /** SVC_DATABASE_POOL_SIZE: connections of this instance's pool (default 10). */
  databasePoolSize?: number;
} {
  if (!env.SVC_DATABASE_URL) return {};
  if (!env.SVC_SECRET) {
    throw new Error(
      'SVC_SECRET: set it (the same on every instance) when SVC_DATABASE_URL is set, for example the output of `openssl rand -base64 32`',
    );
  }
  return {
    databaseUrl: env.SVC_DATABASE_URL,
    ...(env.SVC_DATABASE_POOL_SIZE ? { databasePoolSize: env.SVC_DATABASE_POOL_SIZE } : {}),
  };
}

/**
 * The database a URL names, for logs and messages: scheme, user, host, port and database, never the password
 * or query parameters (which can carry one, e.g. `?password=`).
 *
 * @example describeDatabaseUrl('postgres://svc:secret@db:5432/svc') // 'postgres://svc@db:5432/svc'
 */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${u.username}@` : '';
    return `${u.protocol}//${user}${u.host}${u.pathname}`;
  } catch {
    return 'a PostgreSQL database (its URL cannot be parsed)';
  }
}
