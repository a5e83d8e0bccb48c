// SQLite receipts of answers and their signing keys (ADR 0261).

import { type ReceiptRepository, toReceipt, toReceiptKey } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

export function createSqliteReceipts(db: SqliteDb): ReceiptRepository {
  const insert = db.prepare(
    `INSERT INTO answer_receipts (id, user_id, agent_id, seq, message_id, kid, jws, hash, created_at)
     VALUES (@id, @userId, @agentId, @seq, @messageId, @kid, @jws, @hash, @createdAt)`,
  );
  const last = db.prepare(
    'SELECT * FROM answer_receipts WHERE agent_id = ? AND user_id = ? ORDER BY seq DESC LIMIT 1',
  );
  const byThread = db.prepare(
    'SELECT * FROM answer_receipts WHERE agent_id = ? AND user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  const byMessages = db.prepare(
    'SELECT * FROM answer_receipts WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY seq',
  );
  const retire = db.prepare('UPDATE receipt_keys SET retired_at = ? WHERE retired_at IS NULL');
  const addKey = db.prepare(
    `INSERT INTO receipt_keys (kid, public_jwk, sealed_private, created_at, retired_at)
     VALUES (?, ?, ?, ?, NULL)`,
  );
  const rotate = db.transaction((k: Parameters<ReceiptRepository['rotateKey']>[0], at: number) => {
    retire.run(at);
    addKey.run(k.kid, JSON.stringify(k.publicJwk), k.sealedPrivate, k.createdAt);
  });
  const keys = db.prepare('SELECT * FROM receipt_keys ORDER BY created_at DESC, kid DESC');
  return {
    async append(r) {
      insert.run(r);
    },
    async last(k) {
      const r = last.get(k.agentId, k.userId) as Row | undefined;
      return r ? toReceipt(r) : null;
    },
    async listByThread(k, afterSeq, limit) {
      return (byThread.all(k.agentId, k.userId, afterSeq, limit) as Row[]).map(toReceipt);
    },
    async listByMessages(ids) {
      if (ids.length === 0) return [];
      return (byMessages.all(JSON.stringify(ids)) as Row[]).map(toReceipt);
    },
    async rotateKey(next, at) {
      rotate(next, at);
    },
    async listKeys() {
      return (keys.all() as Row[]).map(toReceiptKey);
    },
  };
}
