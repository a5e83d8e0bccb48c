// SQLite screens' deadlines (ADR 0260): conditional updates, so a step runs for whoever changes the row.

import {
  type AnswerStakes,
  type DeadlineRepository,
  toDeadline,
  toOffer,
} from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

/**
 * An answer's stakes (`deadlines.stakes`): the screen's deadline state and whether it has an open notice, in
 * one statement; also read inside an answer's write (`threads.appendSigned` with `settles`, ADR 0299).
 */
export function prepareStakes(db: SqliteDb): (screenId: string) => AnswerStakes {
  const read = db.prepare(
    `SELECT (SELECT COALESCE(outcome, 'pending') FROM screen_deadlines WHERE screen_id = ?) AS deadline,
            EXISTS (SELECT 1 FROM push_notices WHERE screen_id = ? AND closed_at IS NULL) AS open_notice`,
  );
  return (screenId) => {
    const r = read.get(screenId, screenId) as {
      deadline: AnswerStakes['deadline'] | null;
      open_notice: number;
    };
    return { deadline: r.deadline ?? 'none', openNotice: r.open_notice === 1 };
  };
}

export function createSqliteDeadlines(db: SqliteDb): DeadlineRepository {
  const insert = db.prepare(
    `INSERT INTO screen_deadlines (screen_id, user_id, agent_id, due_at, next_at, step, plan, created_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
  );
  const get = db.prepare('SELECT * FROM screen_deadlines WHERE screen_id = ?');
  const stakes = prepareStakes(db);
  const due = db.prepare(
    `SELECT * FROM screen_deadlines WHERE settled_at IS NULL AND next_at <= ?
     ORDER BY next_at, screen_id LIMIT ?`,
  );
  const nextDue = db.prepare('SELECT MIN(next_at) AS t FROM screen_deadlines WHERE settled_at IS NULL');
  const advance = db.prepare(
    `UPDATE screen_deadlines SET step = step + 1, next_at = ?
     WHERE screen_id = ? AND step = ? AND settled_at IS NULL`,
  );
  const settle = db.prepare(
    'UPDATE screen_deadlines SET settled_at = ?, outcome = ? WHERE screen_id = ? AND settled_at IS NULL',
  );
  const withdraw = db.prepare(
    `INSERT INTO screen_deadlines (screen_id, user_id, agent_id, due_at, next_at, step, plan, created_at, settled_at, outcome)
     VALUES (@screenId, @userId, @agentId, @at, @at, 0, '{}', @at, @at, 'withdrawn')
     ON CONFLICT (screen_id) DO UPDATE SET settled_at = excluded.settled_at, outcome = 'withdrawn'
     WHERE screen_deadlines.outcome IS NULL OR screen_deadlines.outcome = 'answered'`,
  );
  const addOffer = db.prepare(
    `INSERT INTO screen_offers (screen_id, origin_id, user_id, agent_id, created_at)
     VALUES (@screenId, @originId, @userId, @agentId, @createdAt)`,
  );
  const offersOf = db.prepare(
    'SELECT * FROM screen_offers WHERE origin_id = ? ORDER BY created_at, screen_id',
  );
  return {
    async addOffer(offer) {
      addOffer.run(offer);
    },
    async offersOf(originId) {
      return (offersOf.all(originId) as Row[]).map(toOffer);
    },
    async withdraw(input) {
      return withdraw.run(input).changes > 0;
    },
    async create(d) {
      insert.run(d.screenId, d.userId, d.agentId, d.dueAt, d.nextAt, JSON.stringify(d.plan), d.createdAt);
    },
    async get(screenId) {
      const r = get.get(screenId) as Row | undefined;
      return r ? toDeadline(r) : null;
    },
    async stakes(screenId) {
      return stakes(screenId);
    },
    async due(at, limit) {
      return (due.all(at, limit) as Row[]).map(toDeadline);
    },
    async nextDueAt() {
      const r = nextDue.get() as { t: number | null };
      return r.t ?? null;
    },
    async advance(screenId, from, nextAt) {
      return advance.run(nextAt, screenId, from).changes > 0;
    },
    async settle(screenId, at, outcome) {
      return settle.run(at, outcome, screenId).changes > 0;
    },
  };
}
