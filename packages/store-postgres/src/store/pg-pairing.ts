// PostgreSQL pairing codes and failed-attempt records; `complete` claims, creates and binds in one transaction.

import { ServiceError } from '@screen-service/registry/kernel';
import type { CompletePairing, PairingRepository } from '@screen-service/registry/model';
import { changes, first, isUniqueViolation, type PgDb } from './pg-db.js';
import { connectorValues, INSERT_CONNECTOR_SQL, toPairingCode } from './rows.js';

class CodeTaken extends Error {}

export function createPgPairing(db: PgDb): PairingRepository {
  const complete = (p: CompletePairing) =>
    db.tx(async (q) => {
      const taken = await first(
        q,
        'SELECT 1 FROM agents WHERE connector_id = $1 AND remote_ref = $2 AND id <> $3',
        [p.connectorId, p.remoteRef, p.agentId],
      );
      if (taken) {
        throw new ServiceError('PROFILE_ALREADY_ADDED', `The profile "${p.remoteRef}" is already added.`, {
          field: 'remote_ref',
        });
      }
      if (p.newConnector) await q.query(INSERT_CONNECTOR_SQL, connectorValues(p.newConnector));
      // The row lock makes a racing claim wait, re-read used_at and change nothing.
      const claimed = await changes(
        q,
        'UPDATE pairing_codes SET used_at = $1, connector_id = $2 WHERE id = $3 AND used_at IS NULL AND expires_at > $1',
        [p.at, p.connectorId, p.codeId],
      );
      if (claimed !== 1) throw new CodeTaken(); // rolls the connector insert back too
      await q.query(
        'UPDATE agents SET connector_id = $1, remote_ref = $2, kind = $3, updated_at = $4 WHERE id = $5',
        [p.connectorId, p.remoteRef, p.kind, p.at, p.agentId],
      );
      return true;
    });

  return {
    async mint(code) {
      try {
        await db.tx(async (q) => {
          await q.query('DELETE FROM pairing_codes WHERE agent_id = $1 AND used_at IS NULL', [code.agentId]);
          // Expired unused codes would otherwise hold their hash forever under the unique index.
          await q.query(
            'DELETE FROM pairing_codes WHERE code_hash = $1 AND used_at IS NULL AND expires_at <= $2',
            [code.codeHash, code.createdAt],
          );
          await q.query(
            `INSERT INTO pairing_codes (id, user_id, agent_id, code_hash, created_at, expires_at, used_at, connector_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
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
        });
        return true;
      } catch (err) {
        if (isUniqueViolation(err, 'pairing_codes_unused_hash')) return false;
        throw err;
      }
    },
    async findUnused(codeHash) {
      const r = await db.one('SELECT * FROM pairing_codes WHERE code_hash = $1 AND used_at IS NULL', [
        codeHash,
      ]);
      return r ? toPairingCode(r) : null;
    },
    async complete(p) {
      try {
        return await complete(p);
      } catch (err) {
        if (err instanceof CodeTaken) return false;
        throw err;
      }
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
