// SQLite pairing codes and failed-attempt records: inserts, deletes and the atomic claim (ADR 0241).
import type { PairingRepository } from '@screen-service/registry/model';
import { toPairingCode } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

export function createSqlitePairing(db: SqliteDb): PairingRepository {
  // The partial unique index on unused hashes decides a collision: nothing is inserted then.
  const insert = db.prepare(
    `INSERT INTO pairing_codes (id, user_id, agent_id, code_hash, created_at, expires_at, used_at, connector_id)
     VALUES (@id, @userId, @agentId, @codeHash, @createdAt, @expiresAt, @usedAt, @connectorId)
     ON CONFLICT (code_hash) WHERE used_at IS NULL DO NOTHING`,
  );
  const deleteUnused = db.prepare('DELETE FROM pairing_codes WHERE agent_id = ? AND used_at IS NULL');
  const del = db.prepare('DELETE FROM pairing_codes WHERE id = ?');
  const findUnused = db.prepare('SELECT * FROM pairing_codes WHERE code_hash = ? AND used_at IS NULL');
  const claim = db.prepare(
    'UPDATE pairing_codes SET used_at = ?, connector_id = ? WHERE id = ? AND used_at IS NULL',
  );
  const recordFailure = db.prepare('INSERT INTO pair_attempts (client_addr, at) VALUES (?, ?)');
  const prune = db.prepare('DELETE FROM pair_attempts WHERE at < ?');
  const countFailures = db.prepare(
    'SELECT COUNT(*) AS n FROM pair_attempts WHERE client_addr = ? AND at >= ?',
  );
  const failure = db.transaction((addr: string, at: number, pruneBefore: number) => {
    recordFailure.run(addr, at);
    prune.run(pruneBefore);
  });

  return {
    async insert(code) {
      return insert.run(code).changes === 1;
    },
    async deleteUnusedOf(agentId) {
      return deleteUnused.run(agentId).changes;
    },
    async delete(id) {
      return del.run(id).changes === 1;
    },
    async findUnused(codeHash) {
      const r = findUnused.get(codeHash) as Record<string, unknown> | undefined;
      return r ? toPairingCode(r) : null;
    },
    async claim(id, input) {
      return claim.run(input.at, input.connectorId, id).changes === 1;
    },
    async recordFailure(addr, at, pruneBefore) {
      failure(addr, at, pruneBefore);
    },
    async countFailures(addr, since) {
      return (countFailures.get(addr, since) as { n: number }).n;
    },
  };
}
