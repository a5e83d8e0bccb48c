// SQLite management tokens (doc2 `svc_mt_`): one row per token, only the SHA-256 hash stored.

import type { ManagementTokenRepository } from '@screen-service/registry/model';
import { toManagementToken } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

export function createSqliteManagementTokens(db: SqliteDb): ManagementTokenRepository {
  const insert = db.prepare(
    `INSERT INTO management_tokens (id, user_id, name, token_hash, scope, created_at, last_used_at, revoked_at)
     VALUES (@id, @userId, @name, @tokenHash, @scope, @createdAt, @lastUsedAt, @revokedAt)`,
  );
  const byHash = db.prepare('SELECT * FROM management_tokens WHERE token_hash = ?');
  const byUser = db.prepare(
    'SELECT * FROM management_tokens WHERE user_id = ? ORDER BY created_at DESC, id DESC',
  );
  const touch = db.prepare('UPDATE management_tokens SET last_used_at = ? WHERE id = ?');
  const revoke = db.prepare(
    'UPDATE management_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL',
  );
  return {
    async create(t) {
      insert.run(t);
      return t;
    },
    async findByHash(hash) {
      const r = byHash.get(hash) as Row | undefined;
      return r ? toManagementToken(r) : null;
    },
    async listByUser(userId) {
      return (byUser.all(userId) as Row[]).map(toManagementToken);
    },
    async touch(id, at) {
      touch.run(at, id);
    },
    async revoke(userId, id, at) {
      return revoke.run(at, id, userId).changes > 0;
    },
  };
}
