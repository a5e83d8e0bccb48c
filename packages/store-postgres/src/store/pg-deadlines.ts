// PostgreSQL screens' deadlines (ADR 0260): conditional updates, so a step runs for whoever changes the row
// (a second instance's update waits on the row lock, then finds the condition false).

import {
  type AnswerStakes,
  type DeadlineRepository,
  toDeadline,
  toOffer,
} from '@screen-service/registry/model';
import { first, type PgDb, type Queryable } from './pg-db.js';

/**
 * An answer's stakes (`deadlines.stakes`): the screen's deadline state and whether it has an open notice, in
 * one round trip; also read inside an answer's write (`threads.appendSigned` with `settles`, ADR 0299).
 */
export async function readStakes(q: Queryable, screenId: string): Promise<AnswerStakes> {
  const r = (await first(
    q,
    `SELECT (SELECT COALESCE(outcome, 'pending') FROM screen_deadlines WHERE screen_id = $1) AS deadline,
            EXISTS (SELECT 1 FROM push_notices WHERE screen_id = $1 AND closed_at IS NULL) AS open_notice`,
    [screenId],
  )) as { deadline: AnswerStakes['deadline'] | null; open_notice: boolean };
  return { deadline: r.deadline ?? 'none', openNotice: r.open_notice === true };
}

export function createPgDeadlines(db: PgDb): DeadlineRepository {
  return {
    async addOffer(o) {
      await db.run(
        `INSERT INTO screen_offers (screen_id, origin_id, user_id, agent_id, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [o.screenId, o.originId, o.userId, o.agentId, o.createdAt],
      );
    },
    async offersOf(originId) {
      const rows = await db.all(
        'SELECT * FROM screen_offers WHERE origin_id = $1 ORDER BY created_at, screen_id COLLATE "C"',
        [originId],
      );
      return rows.map(toOffer);
    },
    async withdraw(x) {
      const n = await db.run(
        `INSERT INTO screen_deadlines (screen_id, user_id, agent_id, due_at, next_at, step, plan, created_at, settled_at, outcome)
         VALUES ($1, $2, $3, $4, $4, 0, '{}', $4, $4, 'withdrawn')
         ON CONFLICT (screen_id) DO UPDATE SET settled_at = excluded.settled_at, outcome = 'withdrawn'
         WHERE screen_deadlines.outcome IS NULL OR screen_deadlines.outcome = 'answered'`,
        [x.screenId, x.userId, x.agentId, x.at],
      );
      return n > 0;
    },
    async create(d) {
      await db.run(
        `INSERT INTO screen_deadlines (screen_id, user_id, agent_id, due_at, next_at, step, plan, created_at)
         VALUES ($1, $2, $3, $4, $5, 0, $6, $7)`,
        [d.screenId, d.userId, d.agentId, d.dueAt, d.nextAt, JSON.stringify(d.plan), d.createdAt],
      );
    },
    async get(screenId) {
      const r = await db.one('SELECT * FROM screen_deadlines WHERE screen_id = $1', [screenId]);
      return r ? toDeadline(r) : null;
    },
    stakes: (screenId) => readStakes(db, screenId),
    async due(at, limit) {
      const rows = await db.all(
        `SELECT * FROM screen_deadlines WHERE settled_at IS NULL AND next_at <= $1
         ORDER BY next_at, screen_id COLLATE "C" LIMIT $2`,
        [at, limit],
      );
      return rows.map(toDeadline);
    },
    async nextDueAt() {
      const r = await db.one('SELECT MIN(next_at) AS t FROM screen_deadlines WHERE settled_at IS NULL', []);
      return r?.t === null || r?.t === undefined ? null : Number(r.t);
    },
    async advance(screenId, from, nextAt) {
      const n = await db.run(
        `UPDATE screen_deadlines SET step = step + 1, next_at = $1
         WHERE screen_id = $2 AND step = $3 AND settled_at IS NULL`,
        [nextAt, screenId, from],
      );
      return n > 0;
    },
    async settle(screenId, at, outcome) {
      const n = await db.run(
        'UPDATE screen_deadlines SET settled_at = $1, outcome = $2 WHERE screen_id = $3 AND settled_at IS NULL',
        [at, outcome, screenId],
      );
      return n > 0;
    },
  };
}
