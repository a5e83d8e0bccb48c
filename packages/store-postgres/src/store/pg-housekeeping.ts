// PostgreSQL housekeeping: the retention deletes (one statement or transaction each) and the per-job claim row.
import type { HousekeepingRepository } from '@screen-service/registry/model';
import type { PgDb } from './pg-db.js';

/** A CTE moving every thread the CTE `rows` (agent_id, user_id) names to `version` (ADR 0241). */
const MOVE_THREADS_OF = (rows: string, version: string) =>
  `v AS (UPDATE thread_state s SET page_version = ${version}::bigint
         FROM (SELECT DISTINCT agent_id, user_id FROM ${rows}) t
         WHERE s.agent_id = t.agent_id AND s.user_id = t.user_id)`;

/** The count a `... SELECT COUNT(*) AS n` statement answers. */
async function removed(db: PgDb, text: string, values: unknown[]): Promise<number> {
  return Number((await db.one<{ n: number }>(text, values))?.n ?? 0);
}

export function createPgHousekeeping(db: PgDb): HousekeepingRepository {
  return {
    async claim(name, holder, at, until) {
      // Takes the row when free or lapsed, or when the same holder renews; another holder's live claim
      // changes nothing. One statement: INSERT ... ON CONFLICT locks the row, so racing instances win once.
      const n = await db.run(
        `INSERT INTO housekeeping_claims (name, holder, until) VALUES ($1, $2, $4)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE housekeeping_claims.until <= $3 OR housekeeping_claims.holder = excluded.holder`,
        [name, holder, at, until],
      );
      return n === 1;
    },
    async deleteMessagesBefore(before, version) {
      return removed(
        db,
        `WITH d AS (DELETE FROM messages WHERE created_at < $1 RETURNING agent_id, user_id), ${MOVE_THREADS_OF('d', '$2')}
         SELECT COUNT(*) AS n FROM d`,
        [before, version],
      );
    },
    async trimThreads(keep, version) {
      // One statement: rows ranked newest first per thread; beyond `keep` they go, except unhandled person
      // rows (the agent still owes them an answer).
      return removed(
        db,
        `WITH d AS (
           DELETE FROM messages m USING (
             SELECT seq, ROW_NUMBER() OVER (PARTITION BY agent_id, user_id ORDER BY seq DESC) AS rank FROM messages
           ) r
           WHERE m.seq = r.seq AND r.rank > $1 AND NOT (m.sender = 'person' AND m.handled_at IS NULL)
           RETURNING m.agent_id, m.user_id
         ), ${MOVE_THREADS_OF('d', '$2')}
         SELECT COUNT(*) AS n FROM d`,
        [keep, version],
      );
    },
    async deleteExpiredPairing(at, attemptsBefore) {
      return db.tx(async (q) => {
        const codes = await q.query('DELETE FROM pairing_codes WHERE expires_at < $1', [at]);
        const tries = await q.query('DELETE FROM pair_attempts WHERE at < $1', [attemptsBefore]);
        return (codes.rowCount ?? 0) + (tries.rowCount ?? 0);
      });
    },
    async deleteLapsedSignIns(at) {
      return db.tx(async (q) => {
        const requests = await q.query(
          'DELETE FROM oauth_requests WHERE expires_at < $1 AND (code_expires_at IS NULL OR code_expires_at < $1)',
          [at],
        );
        const tokens = await q.query('DELETE FROM oauth_tokens WHERE expires_at < $1', [at]);
        const sessions = await q.query('DELETE FROM app_sessions WHERE expires_at < $1', [at]);
        return (requests.rowCount ?? 0) + (tokens.rowCount ?? 0) + (sessions.rowCount ?? 0);
      });
    },
    async deleteUnattachedPhotos(before) {
      return db.tx(async (q) => {
        const photos = await q.query('DELETE FROM photos WHERE message_id IS NULL AND created_at < $1', [
          before,
        ]);
        // Bytes whose photo row was never written (a crash between the two writes of an upload).
        await q.query(
          `DELETE FROM photo_files f WHERE f.created_at < $1
             AND NOT EXISTS (SELECT 1 FROM photos p WHERE p.file = f.file)`,
          [before],
        );
        return photos.rowCount ?? 0;
      });
    },
  };
}
