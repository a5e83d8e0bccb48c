// SQLite tasks (ADR 0265): plain rows; settling is conditional, so a task settles once.

import { type AnswerTaskRepository, toAnswerTask } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

export function createSqliteTasks(db: SqliteDb): AnswerTaskRepository {
  const insert = db.prepare(
    `INSERT INTO tasks (id, user_id, connector_id, agent_id, after_seq, created_at, updated_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const get = db.prepare('SELECT * FROM tasks WHERE id = ?');
  const settle = db.prepare(
    `UPDATE tasks SET status = ?, message_ids = ?, updated_at = ? WHERE id = ? AND status = 'working'`,
  );
  const expired = db.prepare(
    'DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE expires_at <= ? LIMIT ?)',
  );
  return {
    async create(t) {
      insert.run(t.id, t.userId, t.connectorId, t.agentId, t.afterSeq, t.createdAt, t.createdAt, t.expiresAt);
    },
    // One connection: a read inside a transaction already holds the write lock, nothing to take.
    async get(id) {
      const r = get.get(id) as Row | undefined;
      return r ? toAnswerTask(r) : null;
    },
    async settle(id, status, messageIds, at) {
      return settle.run(status, JSON.stringify(messageIds), at, id).changes > 0;
    },
    async deleteExpired(at, limit) {
      return expired.run(at, limit).changes;
    },
  };
}
