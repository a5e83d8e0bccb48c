// Row helpers of the PostgreSQL store; the record readers are the model's (@screen-service/registry/model rows).
import type { ConnectorRecord } from '@screen-service/registry/model';

/** The connector INSERT, shared by the connector repository, pairing and OAuth's one-transaction claims. */
export const INSERT_CONNECTOR_SQL = `INSERT INTO connectors
  (id, user_id, name, kind, token_hash, created_at, last_seen_at, revoked_at, suspended_at, via)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

/** The positional parameters of INSERT_CONNECTOR_SQL (`via` defaults to pairing). */
export function connectorValues(c: ConnectorRecord): unknown[] {
  return [
    c.id,
    c.userId,
    c.name,
    c.kind,
    c.tokenHash,
    c.createdAt,
    c.lastSeenAt,
    c.revokedAt,
    c.suspendedAt,
    c.via ?? 'pairing',
  ];
}
