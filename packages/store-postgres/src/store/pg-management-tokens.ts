// PostgreSQL management tokens (doc2 `svc_mt_`): one row per token, only the SHA-256 hash stored.

import type { ManagementTokenRepository } from '@screen-service/registry/model';
import { toManagementToken } from '@screen-service/registry/model';
import type { PgDb } from './pg-db.js';

export function createPgManagementTokens(db: PgDb): ManagementTokenRepository {
  return {
    async create(t) {
      await db.run(
        `INSERT INTO management_tokens (id, user_id, name, token_hash, scope, created_at, last_used_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [t.id, t.userId, t.name, t.tokenHash, t.scope, t.createdAt, t.lastUsedAt, t.revokedAt],
      );
      return t;
    },
    async findByHash(hash) {
      const r = await db.one('SELECT * FROM management_tokens WHERE token_hash = $1', [hash]);
      return r ? toManagementToken(r) : null;
    },
    async listByUser(userId) {
      const rows = await db.all(
        'SELECT * FROM management_tokens WHERE user_id = $1 ORDER BY created_at DESC, id COLLATE "C" DESC',
        [userId],
      );
      return rows.map(toManagementToken);
    },
    async touch(id, at) {
      await db.run('UPDATE management_tokens SET last_used_at = $1 WHERE id = $2', [at, id]);
    },
    async revoke(userId, id, at) {
      const n = await db.run(
        'UPDATE management_tokens SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL',
        [at, id, userId],
      );
      return n > 0;
    },
  };
}
