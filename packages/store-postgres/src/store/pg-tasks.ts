// PostgreSQL tasks (ADR 0265): plain rows; `get` may lock the row so two instances polling one task settle it
// once (the second waits on the lock, then reads it settled).

import { type AnswerTaskRepository, toAnswerTask } from '@screen-service/registry/model';
import { forUpdate, type PgDb } from './pg-db.js';

export function createPgTasks(db: PgDb): AnswerTaskRepository {
  return {
    async create(t) {
      await db.run(
        `INSERT INTO tasks (id, user_id, connector_id, agent_id, after_seq, created_at, updated_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
        [t.id, t.userId, t.connectorId, t.agentId, t.afterSeq, t.createdAt, t.expiresAt],
      );
    },
    async get(id, options) {
      const r = await db.one(`SELECT * FROM tasks WHERE id = $1${forUpdate(options)}`, [id]);
      return r ? toAnswerTask(r) : null;
    },
    async settle(id, status, messageIds, at) {
      const n = await db.run(
        `UPDATE tasks SET status = $1, message_ids = $2::jsonb, updated_at = $3 WHERE id = $4 AND status = 'working'`,
        [status, JSON.stringify(messageIds), at, id],
      );
      return n > 0;
    },
    async deleteExpired(at, limit) {
      return db.run('DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE expires_at <= $1 LIMIT $2)', [
        at,
        limit,
      ]);
    },
  };
}
