// Row helpers of the SQLite store; the record readers are the model's (@screen-service/registry/model rows).

import type { ConnectorRecord } from '@screen-service/registry/model';
import type Database from 'better-sqlite3';

export type SqliteDb = Database.Database;

/** True when better-sqlite3 reports a UNIQUE constraint failure (optionally on a given column list). */
export function isUniqueViolation(err: unknown, columns?: string): boolean {
  const e = err as { code?: string; message?: string };
  if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE') return false;
  return columns === undefined || (e.message ?? '').includes(columns);
}

/** The connector INSERT, shared by the connector repository and pairing's one-transaction claim. */
export const INSERT_CONNECTOR_SQL = `INSERT INTO connectors
  (id, user_id, name, kind, token_hash, created_at, last_seen_at, revoked_at, suspended_at, via)
  VALUES (@id, @userId, @name, @kind, @tokenHash, @createdAt, @lastSeenAt, @revokedAt, @suspendedAt, @via)`;

/** The named parameters of INSERT_CONNECTOR_SQL (`via` defaults to pairing). */
export function connectorParams(c: ConnectorRecord): ConnectorRecord & { via: string } {
  return { ...c, via: c.via ?? 'pairing' };
}
