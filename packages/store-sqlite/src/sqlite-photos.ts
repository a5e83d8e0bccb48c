// SQLite photo records (the bytes live in the data dir; see the server's photo storage).
import type { PhotoRecord, PhotoRepository } from '@screen-service/registry/model';
import { constraintErrors, toPhoto } from '@screen-service/registry/model';
import { isUniqueViolation, type SqliteDb } from './rows.js';

export function createSqlitePhotos(db: SqliteDb): PhotoRepository {
  const insert = db.prepare(
    `INSERT INTO photos
       (id, user_id, agent_id, message_id, file, content_type, bytes, width, height, idem_key, created_at)
     VALUES
       (@id, @userId, @agentId, @messageId, @file, @contentType, @bytes, @width, @height, @idemKey, @createdAt)`,
  );
  const byId = db.prepare('SELECT * FROM photos WHERE id = ?');
  const byKey = db.prepare('SELECT * FROM photos WHERE user_id = ? AND idem_key = ?');
  const byMessages = db.prepare(
    'SELECT * FROM photos WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id',
  );
  const byUser = db.prepare('SELECT * FROM photos WHERE user_id = ? ORDER BY created_at, id');
  const sumByUser = db.prepare('SELECT COALESCE(SUM(bytes), 0) AS n FROM photos WHERE user_id = ?');
  const pending = db.prepare('SELECT file FROM photo_removals ORDER BY attempts, file LIMIT ?');
  const dequeue = db.prepare('DELETE FROM photo_removals WHERE file = ?');
  const bump = db.prepare('UPDATE photo_removals SET attempts = attempts + 1 WHERE file = ?');
  const settle = db.transaction((removed: string[], failed: string[]) => {
    for (const f of removed) dequeue.run(f);
    for (const f of failed) bump.run(f);
  });
  return {
    async create(p: PhotoRecord) {
      try {
        insert.run({ ...p, width: p.width ?? null, height: p.height ?? null, idemKey: p.idemKey ?? null });
      } catch (err) {
        // The partial unique index photos_user_idem (migration 26): the key names one photo per person.
        if (p.idemKey && isUniqueViolation(err, 'photos.user_id, photos.idem_key'))
          throw constraintErrors.photoKeyUsed(p.idemKey);
        throw err;
      }
      return p;
    },
    async get(id) {
      const r = byId.get(id) as Record<string, unknown> | undefined;
      return r ? toPhoto(r) : null;
    },
    async findByKey(userId, idemKey) {
      const r = byKey.get(userId, idemKey) as Record<string, unknown> | undefined;
      return r ? toPhoto(r) : null;
    },
    async listByMessage(messageIds) {
      if (messageIds.length === 0) return [];
      return (byMessages.all(JSON.stringify(messageIds)) as Record<string, unknown>[]).map(toPhoto);
    },
    async listByUser(userId) {
      return (byUser.all(userId) as Record<string, unknown>[]).map(toPhoto);
    },
    async bytesOf(userId) {
      return (sumByUser.get(userId) as { n: number }).n;
    },
    async pendingRemovals(limit) {
      return (pending.all(limit) as { file: string }[]).map((r) => r.file);
    },
    async settleRemovals(removed, failed) {
      settle(removed, failed);
    },
  };
}
