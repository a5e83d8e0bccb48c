// SQLite pairing codes and failed-attempt records; `complete` claims, creates and binds in one transaction.
import { ServiceError } from '@screen-service/registry/kernel';
import type { CompletePairing, PairingCodeRecord, PairingRepository } from '@screen-service/registry/model';
import {
  connectorParams,
  INSERT_CONNECTOR_SQL,
  isUniqueViolation,
  type SqliteDb,
  toPairingCode,
} from './rows.js';

export function createSqlitePairing(db: SqliteDb): PairingRepository {
  const deleteUnused = db.prepare('DELETE FROM pairing_codes WHERE agent_id = ? AND used_at IS NULL');
  // Expired unused codes would otherwise hold their hash forever under the unique index.
  const deleteExpiredSameHash = db.prepare(
    'DELETE FROM pairing_codes WHERE code_hash = ? AND used_at IS NULL AND expires_at <= ?',
  );
  const insert = db.prepare(
    `INSERT INTO pairing_codes (id, user_id, agent_id, code_hash, created_at, expires_at, used_at, connector_id)
     VALUES (@id, @userId, @agentId, @codeHash, @createdAt, @expiresAt, @usedAt, @connectorId)`,
  );
  const findUnused = db.prepare('SELECT * FROM pairing_codes WHERE code_hash = ? AND used_at IS NULL');
  const claim = db.prepare(
    'UPDATE pairing_codes SET used_at = ?, connector_id = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?',
  );
  const insertConnector = db.prepare(INSERT_CONNECTOR_SQL);
  const refTaken = db.prepare('SELECT 1 FROM agents WHERE connector_id = ? AND remote_ref = ? AND id <> ?');
  const bind = db.prepare(
    'UPDATE agents SET connector_id = ?, remote_ref = ?, kind = ?, updated_at = ? WHERE id = ?',
  );
  const recordFailure = db.prepare('INSERT INTO pair_attempts (client_addr, at) VALUES (?, ?)');
  const prune = db.prepare('DELETE FROM pair_attempts WHERE at < ?');
  const countFailures = db.prepare(
    'SELECT COUNT(*) AS n FROM pair_attempts WHERE client_addr = ? AND at >= ?',
  );

  const mint = db.transaction((code: PairingCodeRecord) => {
    deleteUnused.run(code.agentId);
    deleteExpiredSameHash.run(code.codeHash, code.createdAt);
    insert.run(code);
  });

  const complete = db.transaction((p: CompletePairing) => {
    if (refTaken.get(p.connectorId, p.remoteRef, p.agentId)) {
      throw new ServiceError('PROFILE_ALREADY_ADDED', `The profile "${p.remoteRef}" is already added.`, {
        field: 'remote_ref',
      });
    }
    if (p.newConnector) insertConnector.run(connectorParams(p.newConnector));
    if (claim.run(p.at, p.connectorId, p.codeId, p.at).changes !== 1) {
      // Roll the connector insert back with the rest of the transaction.
      throw new CodeTaken();
    }
    bind.run(p.connectorId, p.remoteRef, p.kind, p.at, p.agentId);
    return true;
  });

  return {
    async mint(code) {
      try {
        mint(code);
        return true;
      } catch (err) {
        if (isUniqueViolation(err, 'pairing_codes.code_hash')) return false;
        throw err;
      }
    },
    async findUnused(codeHash) {
      const r = findUnused.get(codeHash) as Record<string, unknown> | undefined;
      return r ? toPairingCode(r) : null;
    },
    async complete(p) {
      try {
        return complete(p);
      } catch (err) {
        if (err instanceof CodeTaken) return false;
        throw err;
      }
    },
    async recordFailure(addr, at, pruneBefore) {
      recordFailure.run(addr, at);
      prune.run(pruneBefore);
    },
    async countFailures(addr, since) {
      return (countFailures.get(addr, since) as { n: number }).n;
    },
  };
}

class CodeTaken extends Error {}
