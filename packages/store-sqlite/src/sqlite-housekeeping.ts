// SQLite housekeeping: the retention deletes (one statement or transaction each) and the per-job claim row.
import type { HousekeepingRepository } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

/** The housekeeping repository over the service database (schema version 14 and up). */
export function createSqliteHousekeeping(db: SqliteDb): HousekeepingRepository {
  // Takes the row when it is free or lapsed, or when the same holder renews; a live claim of another
  // holder leaves `changes` at 0. One statement, so two instances racing cannot both win.
  const claim = db.prepare(
    `INSERT INTO housekeeping_claims (name, holder, until) VALUES (@name, @holder, @until)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
     WHERE housekeeping_claims.until <= @at OR housekeeping_claims.holder = excluded.holder`,
  );
  const messagesBefore = db.prepare('DELETE FROM messages WHERE created_at < ?');
  // The threads that lose rows move to the version the rules drew, in the delete's own transaction.
  const moveBefore = db.prepare(
    `UPDATE thread_state SET page_version = ?
     WHERE (agent_id, user_id) IN (SELECT agent_id, user_id FROM messages WHERE created_at < ?)`,
  );
  const deleteBefore = db.transaction((before: number, version: number) => {
    moveBefore.run(version, before);
    return messagesBefore.run(before).changes;
  });
  const movePage = db.prepare('UPDATE thread_state SET page_version = ? WHERE agent_id = ? AND user_id = ?');
  // Threads over the limit come from a pass over the thread index (no table rows read); each is then cut
  // below its keep-th newest seq, through the same index. Unhandled person rows stay: the agent still owes
  // them an answer, and trimming must not lose them.
  const overLimit = db.prepare(
    'SELECT agent_id, user_id FROM messages GROUP BY agent_id, user_id HAVING COUNT(*) > ?',
  );
  const cutoff = db
    .prepare('SELECT seq FROM messages WHERE agent_id = ? AND user_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?')
    .pluck();
  const cut = db.prepare(
    `DELETE FROM messages WHERE agent_id = ? AND user_id = ? AND seq < ?
       AND NOT (sender = 'person' AND handled_at IS NULL)`,
  );
  const trim = db.transaction((keep: number, version: number) => {
    let removed = 0;
    for (const t of overLimit.all(keep) as { agent_id: string; user_id: string }[]) {
      const seq = cutoff.get(t.agent_id, t.user_id, keep - 1) as number;
      const n = cut.run(t.agent_id, t.user_id, seq).changes;
      if (n > 0) movePage.run(version, t.agent_id, t.user_id);
      removed += n;
    }
    return removed;
  });
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
    async deleteMessagesBefore(before, version) {
      return deleteBefore(before, version);
    },
    async trimThreads(keep, version) {
      return trim(keep, version);
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
