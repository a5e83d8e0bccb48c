// SQLite users and app sessions.

import {
  constraintErrors,
  type SessionRecord,
  type SessionRepository,
  toSession,
  toUser,
  type UserRepository,
} from '@screen-service/registry/model';
import { isUniqueViolation, type SqliteDb } from './rows.js';
import { turnKeepOf } from './turn-rows.js';

export function createSqliteUsers(db: SqliteDb): UserRepository {
  const insert = db.prepare(
    'INSERT INTO users (id, email, password_hash, first_name, created_at, suspended_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byId = db.prepare('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare('SELECT * FROM users WHERE email = ?');
  const del = db.prepare('DELETE FROM users WHERE id = ?');
  const zoneOf = db.prepare('SELECT time_zone, time_zone_pinned FROM users WHERE id = ?');
  // A report lands only while the person has not pinned a zone; a pin or a follow always lands.
  const setZone = {
    report: db.prepare('UPDATE users SET time_zone = ? WHERE id = ? AND time_zone_pinned = 0'),
    pin: db.prepare('UPDATE users SET time_zone = ?, time_zone_pinned = 1 WHERE id = ?'),
    follow: db.prepare('UPDATE users SET time_zone = ?, time_zone_pinned = 0 WHERE id = ?'),
  };
  return {
    async create(u) {
      try {
        insert.run(u.id, u.email, u.passwordHash, u.firstName, u.createdAt, u.suspendedAt);
      } catch (err) {
        if (isUniqueViolation(err, 'users.email')) {
          throw constraintErrors.emailTaken(u.email);
        }
        throw err;
      }
      return u;
    },
    async findById(id) {
      const r = byId.get(id) as Record<string, unknown> | undefined;
      return r ? toUser(r) : null;
    },
    async findByEmail(email) {
      const r = byEmail.get(email) as Record<string, unknown> | undefined;
      return r ? toUser(r) : null;
    },
    async delete(id) {
      // Its sessions go with it (ON DELETE CASCADE): the cascade's deletes forget every kept family (ADR 0304).
      return del.run(id).changes > 0;
    },
    async getTimeZone(id) {
      const r = zoneOf.get(id) as { time_zone: string | null; time_zone_pinned: number } | undefined;
      return r ? { zone: r.time_zone, pinned: r.time_zone_pinned === 1 } : null;
    },
    async setTimeZone(id, zone, how) {
      return setZone[how].run(zone, id).changes > 0;
    },
  };
}

export function createSqliteSessions(db: SqliteDb): SessionRepository {
  const insert = db.prepare(
    `INSERT INTO app_sessions (id, user_id, family_id, refresh_hash, created_at, expires_at, used_at, revoked_at)
     VALUES (@id, @userId, @familyId, @refreshHash, @createdAt, @expiresAt, @usedAt, @revokedAt)`,
  );
  const byHash = db.prepare('SELECT * FROM app_sessions WHERE refresh_hash = ?');
  const markUsed = db.prepare(
    'UPDATE app_sessions SET used_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?',
  );
  const revokeFamily = db.prepare(
    'UPDATE app_sessions SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL',
  );
  const live = db
    .prepare(
      'SELECT expires_at FROM app_sessions WHERE family_id = ? AND revoked_at IS NULL AND expires_at > ? LIMIT 1',
    )
    .pluck();
  // A family found live is kept with its session's expiry; any write of this connection to app_sessions forgets
  // them all, another connection's commit is seen from the next turn (ADRs 0300, 0304).
  const liveFamilies = turnKeepOf<number>(db, 'app_sessions');
  const revokeUser = db.prepare(
    'UPDATE app_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL',
  );
  const rotate = db.transaction((usedId: string, next: SessionRecord, at: number) => {
    if (markUsed.run(at, usedId, at).changes !== 1) return false;
    insert.run(next);
    return true;
  });
  return {
    async create(s) {
      insert.run(s);
      return s;
    },
    async findByRefreshHash(hash) {
      const r = byHash.get(hash) as Record<string, unknown> | undefined;
      return r ? toSession(r) : null;
    },
    async rotate(usedId, next, at) {
      return rotate(usedId, next, at);
    },
    async revokeFamily(familyId, at) {
      revokeFamily.run(at, familyId);
    },
    async revokeUser(userId, at) {
      revokeUser.run(at, userId);
    },
    async familyLive(familyId, at) {
      const known = liveFamilies.get(familyId);
      if (known !== undefined && at < known) return true;
      const until = live.get(familyId, at) as number | undefined;
      if (until === undefined) return false;
      liveFamilies.set(familyId, until);
      return true;
    },
  };
}
