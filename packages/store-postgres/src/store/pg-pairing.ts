// PostgreSQL pairing codes and failed-attempt records: inserts, deletes and the atomic claim (ADR 0241).
import type { PairingRepository } from '@screen-service/registry/model';
import { toPairingCode } from '@screen-service/registry/model';
import type { PgDb } from './pg-db.js';

export function createPgPairing(db: PgDb): PairingRepository {
  return {
    async insert(code) {
      // ON CONFLICT, not a caught error: inside a transaction a failed INSERT would abort the whole of it.
      const n = await db.run(
        `INSERT INTO pairing_codes (id, user_id, agent_id, code_hash, created_at, expires_at, used_at, connector_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (code_hash) WHERE used_at IS NULL DO NOTHING`,
        [
          code.id,
          code.userId,
          code.agentId,
          code.codeHash,
          code.createdAt,
          code.expiresAt,
          code.usedAt,
          code.connectorId,
        ],
      );
      return n === 1;
    },
    async deleteUnusedOf(agentId) {
      return db.run('DELETE FROM pairing_codes WHERE agent_id = $1 AND used_at IS NULL', [agentId]);
    },
    async delete(id) {
      return (await db.run('DELETE FROM pairing_codes WHERE id = $1', [id])) === 1;
    },
    async findUnused(codeHash) {
      const r = await db.one('SELECT * FROM pairing_codes WHERE code_hash = $1 AND used_at IS NULL', [
        codeHash,
      ]);
      return r ? toPairingCode(r) : null;
    },
    async claim(id, input) {
      // The row lock makes a racing claim wait, re-read used_at and change nothing.
      const n = await db.run(
        'UPDATE pairing_codes SET used_at = $1, connector_id = $2 WHERE id = $3 AND used_at IS NULL',
        [input.at, input.connectorId, id],
      );
      return n === 1;
    },
    async recordFailure(addr, at, pruneBefore) {
      await db.tx(async (q) => {
        await q.query('INSERT INTO pair_attempts (client_addr, at) VALUES ($1, $2)', [addr, at]);
        await q.query('DELETE FROM pair_attempts WHERE at < $1', [pruneBefore]);
      });
    },
    async countFailures(addr, since) {
      const r = await db.one<{ n: number }>(
        'SELECT COUNT(*) AS n FROM pair_attempts WHERE client_addr = $1 AND at >= $2',
        [addr, since],
      );
      return Number(r?.n ?? 0);
    },
  };
}
