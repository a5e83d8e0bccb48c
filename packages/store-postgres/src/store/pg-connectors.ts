// PostgreSQL connectors (one per host machine or tool connection).
import type { ConnectorRepository } from '@screen-service/registry/model';
import { num, toConnector } from '@screen-service/registry/model';
import type { PgDb } from './pg-db.js';
import { connectorValues, INSERT_CONNECTOR_SQL } from './rows.js';

export function createPgConnectors(db: PgDb): ConnectorRepository {
  return {
    async create(c) {
      await db.run(INSERT_CONNECTOR_SQL, connectorValues(c));
      return c;
    },
    async get(id) {
      const r = await db.one('SELECT * FROM connectors WHERE id = $1', [id]);
      return r ? toConnector(r) : null;
    },
    async findByTokenHash(hash) {
      const r = await db.one('SELECT * FROM connectors WHERE token_hash = $1', [hash]);
      return r ? toConnector(r) : null;
    },
    async findByTokenHashWithAccount(hash) {
      // One round trip for the connector and its account (tool-call auth runs this on every call).
      const r = await db.one(
        `SELECT c.*, u.id AS account_id, u.suspended_at AS account_suspended_at
         FROM connectors c LEFT JOIN users u ON u.id = c.user_id WHERE c.token_hash = $1`,
        [hash],
      );
      if (!r) return null;
      return {
        connector: toConnector(r),
        account: r.account_id === null ? null : { suspendedAt: num(r.account_suspended_at) },
      };
    },
    async listByUser(userId) {
      const rows = await db.all(
        'SELECT * FROM connectors WHERE user_id = $1 ORDER BY created_at, id COLLATE "C"',
        [userId],
      );
      return rows.map(toConnector);
    },
    async touch(id, at) {
      await db.run('UPDATE connectors SET last_seen_at = $1 WHERE id = $2', [at, id]);
    },
    async listSeenSince(at) {
      const rows = await db.all(
        'SELECT * FROM connectors WHERE revoked_at IS NULL AND last_seen_at >= $1 ORDER BY last_seen_at',
        [at],
      );
      return rows.map(toConnector);
    },
    async revoke(id, at) {
      return (
        (await db.run('UPDATE connectors SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
          at,
          id,
        ])) > 0
      );
    },
    async delete(id) {
      // Its messages keep their rows and lose the connection (no key does it since migration 14, ADR 0291).
      return (
        (await db.run(
          `WITH m AS (UPDATE messages SET connector_id = NULL WHERE connector_id = $1)
           DELETE FROM connectors WHERE id = $1`,
          [id],
        )) > 0
      );
    },
  };
}
