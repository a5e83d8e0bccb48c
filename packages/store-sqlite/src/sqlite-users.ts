// SQLite users and app sessions; which sign-in families are live, answered from memory (ADR 0290).

import {
  constraintErrors,
  type SessionRecord,
  type SessionRepository,
  toSession,
  toUser,
  type UserRepository,
} from '@screen-service/registry/model';
import { isUniqueViolation, type SqliteDb } from './rows.js';

/**
 * The newest expiry of each sign-in family's unrevoked sessions (null: none), as this connection last read
 * it. Exact: every write of this process to `app_sessions` (a sign-in, a refresh, a revoke, an account
 * deleted with its sessions, the lapsed ones removed) empties it, and a commit by another connection on the
 * same file (`svc` revoking a sign-in while the server runs) moves `data_version`, which every look checks
 * first. Filled only outside a transaction, so it never holds what a rollback took back.
 */
export interface LiveFamilies {
  /** The family's newest live expiry, null when it has none, undefined when not known. */
  look(familyId: string): number | null | undefined;
  keep(familyId: string, newest: number | null): void;
  /** Call after (and whatever the outcome of) any write to `app_sessions`. */
  forget(): void;
}

const FAMILIES = new WeakMap<SqliteDb, LiveFamilies>();

/** The one {@link LiveFamilies} of `db`, shared by its plain and its transaction repositories. */
export function liveFamiliesOf(db: SqliteDb): LiveFamilies {
  let f = FAMILIES.get(db);
  if (!f) {
    f = createLiveFamilies(db);
    FAMILIES.set(db, f);
  }
  return f;
}

function createLiveFamilies(db: SqliteDb): LiveFamilies {
  const newest = new Map<string, number | null>();
  const version = db.prepare('PRAGMA data_version').pluck();
  let seen: unknown = null;
  return {
    look(familyId) {
      // Another connection committed since the last look: anything kept may be stale.
      const now = version.get();
      if (now !== seen) {
        newest.clear();
        seen = now;
      }
      return newest.get(familyId);
    },
    keep(familyId, at) {
      if (db.inTransaction) return;
      // Bounded: a family not kept is read again.
      if (newest.size >= 10_000) newest.clear();
      newest.set(familyId, at);
    },
    forget() {
      newest.clear();
    },
  };
}

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
      try {
        return del.run(id).changes > 0;
      } finally {
        // The account's sessions went with it (ON DELETE CASCADE).
        liveFamiliesOf(db).forget();
      }
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
  const newestLive = db
    .prepare('SELECT MAX(expires_at) FROM app_sessions WHERE family_id = ? AND revoked_at IS NULL')
    .pluck();
  const families = liveFamiliesOf(db);
  /** Runs a write to `app_sessions`, then forgets the families kept (even when it threw: it may have written). */
  const writing = <T>(write: () => T): T => {
    try {
      return write();
    } finally {
      families.forget();
    }
  };
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
      writing(() => insert.run(s));
      return s;
    },
    async findByRefreshHash(hash) {
      const r = byHash.get(hash) as Record<string, unknown> | undefined;
      return r ? toSession(r) : null;
    },
    async rotate(usedId, next, at) {
      return writing(() => rotate(usedId, next, at));
    },
    async revokeFamily(familyId, at) {
      writing(() => revokeFamily.run(at, familyId));
    },
    async revokeUser(userId, at) {
      writing(() => revokeUser.run(at, userId));
    },
    async familyLive(familyId, at) {
      // Asked on every request of a signed-in person: answered from memory while nothing wrote the table.
      let newest = families.look(familyId);
      if (newest === undefined) {
        newest = newestLive.get(familyId) as number | null;
        families.keep(familyId, newest);
      }
      return newest !== null && newest > at;
    },
  };
}
