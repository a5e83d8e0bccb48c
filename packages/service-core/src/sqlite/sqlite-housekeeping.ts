// SQLite housekeeping: the retention deletes (one statement or transaction each) and the per-job claim row.
import type { HousekeepingRepository } from '../repositories.js';
import type { SqliteDb } from './rows.js';

/** The housekeeping repository over the service database (schema version 13 and up). */
export function createSqliteHousekeeping(db: SqliteDb): HousekeepingRepository {
  // Takes the row when it is free or lapsed, or when the same holder renews; a live claim of another
  // holder leaves `changes` at 0. One statement, so two instances racing cannot both win.
  const claim = db.prepare(
    `INSERT INTO housekeeping_claims (name, holder, until) VALUES (@name, @holder, @until)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
     WHERE housekeeping_claims.until <= @at OR housekeeping_claims.holder = excluded.holder`,
  );
  const messagesBefore = db.prepare('DELETE FROM messages WHERE created_at < ?');
  // Unhandled person rows stay: the agent still owes them an answer, and trimming must not lose them.
  const trim = db.prepare(
    `DELETE FROM messages WHERE seq IN (
       SELECT seq FROM (
         SELECT seq, sender, handled_at,
                ROW_NUMBER() OVER (PARTITION BY agent_id, user_id ORDER BY seq DESC) AS rn
         FROM messages)
       WHERE rn > ? AND NOT (sender = 'person' AND handled_at IS NULL))`,
  );
  const pairingCodes = db.prepare('DELETE FROM pairing_codes WHERE expires_at < ?');
  const pairAttempts = db.prepare('DELETE FROM pair_attempts WHERE at < ?');
  const requests = db.prepare(
    'DELETE FROM oauth_requests WHERE expires_at < @at AND (code_expires_at IS NULL OR code_expires_at < @at)',
  );
  const tokens = db.prepare('DELETE FROM oauth_tokens WHERE expires_at < ?');
  const sessions = db.prepare('DELETE FROM app_sessions WHERE expires_at < ?');
  const photos = db.prepare('DELETE FROM photos WHERE message_id IS NULL AND created_at < ?');

  const pairing = db.transaction(
    (at: number, attemptsBefore: number) =>
      pairingCodes.run(at).changes + pairAttempts.run(attemptsBefore).changes,
  );
  const signIns = db.transaction(
    (at: number) => requests.run({ at }).changes + tokens.run(at).changes + sessions.run(at).changes,
  );

  return {
    async claim(name, holder, at, until) {
      return claim.run({ name, holder, at, until }).changes === 1;
    },
    async deleteMessagesBefore(before) {
      return messagesBefore.run(before).changes;
    },
    async trimThreads(keep) {
      return trim.run(keep).changes;
    },
    async deleteExpiredPairing(at, attemptsBefore) {
      return pairing(at, attemptsBefore);
    },
    async deleteLapsedSignIns(at) {
      return signIns(at);
    },
    async deleteUnattachedPhotos(before) {
      return photos.run(before).changes;
    },
  };
}
