// PostgreSQL receipts of answers and their signing keys (ADR 0261).

import { type ReceiptRepository, toReceipt, toReceiptKey } from '@screen-service/registry/model';
import type { PgDb } from './pg-db.js';

export function createPgReceipts(db: PgDb): ReceiptRepository {
  return {
    async append(r) {
      await db.run(
        `INSERT INTO answer_receipts (id, user_id, agent_id, seq, message_id, kid, jws, hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [r.id, r.userId, r.agentId, r.seq, r.messageId, r.kid, r.jws, r.hash, r.createdAt],
      );
    },
    async last(k) {
      const r = await db.one(
        'SELECT * FROM answer_receipts WHERE agent_id = $1 AND user_id = $2 ORDER BY seq DESC LIMIT 1',
        [k.agentId, k.userId],
      );
      return r ? toReceipt(r) : null;
    },
    async listByThread(k, afterSeq, limit) {
      const rows = await db.all(
        'SELECT * FROM answer_receipts WHERE agent_id = $1 AND user_id = $2 AND seq > $3 ORDER BY seq LIMIT $4',
        [k.agentId, k.userId, afterSeq, limit],
      );
      return rows.map(toReceipt);
    },
    async listByMessages(ids) {
      if (ids.length === 0) return [];
      const rows = await db.all(
        'SELECT * FROM answer_receipts WHERE message_id = ANY($1::text[]) ORDER BY seq',
        [ids],
      );
      return rows.map(toReceipt);
    },
    async rotateKey(next, at) {
      // One statement: the keys in use retire as the new one is added.
      await db.run(
        `WITH retired AS (UPDATE receipt_keys SET retired_at = $5 WHERE retired_at IS NULL)
         INSERT INTO receipt_keys (kid, public_jwk, sealed_private, created_at, retired_at)
         VALUES ($1, $2, $3, $4, NULL)`,
        [next.kid, JSON.stringify(next.publicJwk), next.sealedPrivate, next.createdAt, at],
      );
    },
    async listKeys() {
      const rows = await db.all(
        'SELECT * FROM receipt_keys ORDER BY created_at DESC, kid COLLATE "C" DESC',
        [],
      );
      return rows.map(toReceiptKey);
    },
  };
}
