// PostgreSQL users and app sessions.

import {
  constraintErrors,
  type SessionRecord,
  type SessionRepository,
  str,
  toSession,
  toUser,
  type UserRepository,
} from '@screen-service/registry/model';
import { changes, forUpdate, isUniqueViolation, type PgDb, type Queryable } from './pg-db.js';

export function createPgUsers(db: PgDb): UserRepository {
  return {
    async create(u) {
      try {
        await db.run(
          'INSERT INTO users (id, email, password_hash, first_name, created_at, suspended_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [u.id, u.email, u.passwordHash, u.firstName, u.createdAt, u.suspendedAt],
        );
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_unique')) {
          throw constraintErrors.emailTaken(u.email);
        }
        throw err;
      }
      return u;
    },
    async findById(id, options) {
      const r = await db.one(`SELECT * FROM users WHERE id = $1${forUpdate(options)}`, [id]);
      return r ? toUser(r) : null;
    },
    async findByEmail(email) {
      const r = await db.one('SELECT * FROM users WHERE email = $1', [email]);
      return r ? toUser(r) : null;
    },
    async delete(id) {
      return (await db.run('DELETE FROM users WHERE id = $1', [id])) > 0;
    },
    async getTimeZone(id) {
      const r = await db.one('SELECT time_zone, time_zone_pinned FROM users WHERE id = $1', [id]);
      return r ? { zone: str(r.time_zone), pinned: r.time_zone_pinned === true } : null;
    },
    async setTimeZone(id, zone, how) {
      return (await db.run(SET_ZONE[how], [zone, id])) > 0;
    },
  };
}

// A report lands only while the person has not pinned a zone; a pin or a follow always lands (ADR 0253).
const SET_ZONE = {
  report: 'UPDATE users SET time_zone = $1 WHERE id = $2 AND NOT time_zone_pinned',
  pin: 'UPDATE users SET time_zone = $1, time_zone_pinned = true WHERE id = $2',
  follow: 'UPDATE users SET time_zone = $1, time_zone_pinned = false WHERE id = $2',
} as const;

const insertSession = (q: Queryable, s: SessionRecord) =>
  q.query(
    `INSERT INTO app_sessions (id, user_id, family_id, refresh_hash, created_at, expires_at, used_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [s.id, s.userId, s.familyId, s.refreshHash, s.createdAt, s.expiresAt, s.usedAt, s.revokedAt],
  );

export function createPgSessions(db: PgDb): SessionRepository {
  return {
    async create(s) {
      await insertSession(db, s);
      return s;
    },
    async findByRefreshHash(hash) {
      const r = await db.one('SELECT * FROM app_sessions WHERE refresh_hash = $1', [hash]);
      return r ? toSession(r) : null;
    },
    async rotate(usedId, next, at) {
      // The conditional UPDATE takes the row lock: a second rotation waits, re-reads used_at and changes 0.
      return db.tx(async (q) => {
        const used = await changes(
          q,
          `UPDATE app_sessions SET used_at = $1
           WHERE id = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $1`,
          [at, usedId],
        );
        if (used !== 1) return false;
        await insertSession(q, next);
        return true;
      });
    },
    async revokeFamily(familyId, at) {
      await db.run('UPDATE app_sessions SET revoked_at = $1 WHERE family_id = $2 AND revoked_at IS NULL', [
        at,
        familyId,
      ]);
    },
    async revokeUser(userId, at) {
      await db.run('UPDATE app_sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL', [
        at,
        userId,
      ]);
    },
    async familyLive(familyId, at) {
      const r = await db.one(
        'SELECT 1 FROM app_sessions WHERE family_id = $1 AND revoked_at IS NULL AND expires_at > $2 LIMIT 1',
        [familyId, at],
      );
      return r !== undefined;
    },
  };
}
