// PostgreSQL photo records and the removal queue (the bytes are in photo_files: pg-photo-files.ts).
import type { PhotoRepository } from '@screen-service/registry/model';
import { constraintErrors, toPhoto } from '@screen-service/registry/model';
import { isUniqueViolation, type PgDb } from './pg-db.js';

export function createPgPhotos(db: PgDb): PhotoRepository {
  return {
    async create(p) {
      const insert = db.run(
        `INSERT INTO photos
           (id, user_id, agent_id, message_id, file, content_type, bytes, width, height, idem_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          p.id,
          p.userId,
          p.agentId,
          p.messageId,
          p.file,
          p.contentType,
          p.bytes,
          p.width ?? null,
          p.height ?? null,
          p.idemKey ?? null,
          p.createdAt,
        ],
      );
      await insert.catch((err: unknown) => {
        // The partial unique index photos_user_idem (migration 13): the key names one photo per person.
        if (p.idemKey && isUniqueViolation(err, 'photos_user_idem'))
          throw constraintErrors.photoKeyUsed(p.idemKey);
        throw err;
      });
      return p;
    },
    async get(id) {
      const r = await db.one('SELECT * FROM photos WHERE id = $1', [id]);
      return r ? toPhoto(r) : null;
    },
    async findByKey(userId, idemKey) {
      const r = await db.one('SELECT * FROM photos WHERE user_id = $1 AND idem_key = $2', [userId, idemKey]);
      return r ? toPhoto(r) : null;
    },
    async listByMessage(messageIds) {
      if (messageIds.length === 0) return [];
      const rows = await db.all(
        'SELECT * FROM photos WHERE message_id = ANY($1::text[]) ORDER BY created_at, id COLLATE "C"',
        [messageIds],
      );
      return rows.map(toPhoto);
    },
    async listByUser(userId) {
      const rows = await db.all(
        'SELECT * FROM photos WHERE user_id = $1 ORDER BY created_at, id COLLATE "C"',
        [userId],
      );
      return rows.map(toPhoto);
    },
    async bytesOf(userId) {
      const r = await db.one<{ n: number }>(
        'SELECT COALESCE(SUM(bytes), 0) AS n FROM photos WHERE user_id = $1',
        [userId],
      );
      return Number(r?.n ?? 0);
    },
    async pendingRemovals(limit) {
      const rows = await db.all<{ file: string }>(
        'SELECT file FROM photo_removals ORDER BY attempts, file COLLATE "C" LIMIT $1',
        [limit],
      );
      return rows.map((r) => r.file);
    },
    async settleRemovals(removed, failed) {
      await db.tx(async (q) => {
        if (removed.length > 0)
          await q.query('DELETE FROM photo_removals WHERE file = ANY($1::text[])', [removed]);
        if (failed.length > 0) {
          await q.query('UPDATE photo_removals SET attempts = attempts + 1 WHERE file = ANY($1::text[])', [
            failed,
          ]);
        }
      });
    },
  };
}
