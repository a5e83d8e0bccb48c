// SQLite receipts of answers and their signing keys (ADR 0261), and the batches of format 2 (ADR 0294).

import {
  type ReceiptBatchRecord,
  type ReceiptRepository,
  toReceipt,
  toReceiptKey,
} from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

/**
 * Prepares the batch insert (ADR 0294): a flush's signed root and its leaves, once per flush, as number `id`
 * (null: the next rowid). Returns the batch's number.
 */
export function prepareBatchInsert(db: SqliteDb): (b: ReceiptBatchRecord, id: number | null) => number {
  const insert = db.prepare(
    'INSERT INTO receipt_batches (id, kid, root, jws, leaves, created_at, live) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  // `live`: every leaf is a receipt written with the batch, in the same transaction (migration 28).
  return (b, id) =>
    Number(
      insert.run(id, b.kid, b.root, b.jws, JSON.stringify(b.leaves), b.createdAt, b.leaves.length)
        .lastInsertRowid,
    );
}

/** A receipt row with its batch joined (`batch_*`, null on format 1): reads give a receipt with its proof. */
const JOINED = `SELECT r.*, b.kid AS batch_kid, b.root AS batch_root, b.jws AS batch_jws, b.leaves AS batch_leaves,
  b.created_at AS batch_created_at FROM answer_receipts r LEFT JOIN receipt_batches b ON b.id = r.batch_id`;

/** The SQLite receipts repository (it keeps format 2's batches). */
export function createSqliteReceipts(db: SqliteDb): ReceiptRepository {
  const insert = db.prepare(
    `INSERT INTO answer_receipts (id, user_id, agent_id, seq, message_id, kid, jws, hash, created_at, batch_id, batch_index)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertBatch = prepareBatchInsert(db);
  const append = db.transaction((r: Parameters<ReceiptRepository['append']>[0]) => {
    const { batch } = r;
    // A receipt that carries its batch (a one-leaf batch of a transaction's answer) writes it first.
    const id = batch?.signed ? insertBatch(batch.signed, null) : (batch?.id ?? null);
    insert.run(
      r.id,
      r.userId,
      r.agentId,
      r.seq,
      r.messageId,
      r.kid,
      r.jws,
      r.hash,
      r.createdAt,
      id,
      batch?.index ?? null,
    );
  });
  const last = db.prepare(`${JOINED} WHERE r.agent_id = ? AND r.user_id = ? ORDER BY r.seq DESC LIMIT 1`);
  const byThread = db.prepare(
    `${JOINED} WHERE r.agent_id = ? AND r.user_id = ? AND r.seq > ? ORDER BY r.seq LIMIT ?`,
  );
  const byMessages = db.prepare(
    `${JOINED} WHERE r.message_id IN (SELECT value FROM json_each(?)) ORDER BY r.seq`,
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
    keepsBatches: true,
    async append(r) {
      append(r);
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
