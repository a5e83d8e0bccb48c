// SQLite thread rows, screens, read/open state and push intents. claimAnswers is one UPDATE ... RETURNING.

import type {
  MessageRecord,
  ThreadKey,
  ThreadRepository,
  ThreadStateRecord,
} from '@screen-service/registry/model';
import { toMessage, toScreen } from '@screen-service/registry/model';
import { groupCommitOf, type WriteRunner } from './group-commit.js';
import type { SqliteDb } from './rows.js';
import { LIVE_CONNECTION, prepareLiveGate } from './sqlite-live-gate.js';
import { preparePageReader } from './sqlite-page.js';
import { createThreadAppends, createThreadMarks, preparePageMove } from './sqlite-thread-writes.js';
import { turnRowsOf } from './turn-rows.js';

type Row = Record<string, unknown>;

type ThreadReads = Pick<
  ThreadRepository,
  | 'getScreen'
  | 'listScreens'
  | 'getMessage'
  | 'countUnhandled'
  | 'page'
  | 'unreadByAgent'
  | 'lastByAgent'
  | 'findByIdemKey'
  | 'findPersonAnswer'
  | 'pendingForHost'
  | 'listPushIntents'
>;

/** Reads of messages, screens, summaries across threads and push intents. */
function createThreadReads(db: SqliteDb): ThreadReads {
  const getScreen = db.prepare('SELECT * FROM screens WHERE id = ?');
  const getMessage = db.prepare('SELECT * FROM messages WHERE id = ?');
  // One prepared statement for any number of ids: the list travels as one JSON parameter.
  const listScreens = db.prepare('SELECT * FROM screens WHERE id IN (SELECT value FROM json_each(?))');
  const countUnhandled = db.prepare(
    `SELECT COUNT(*) AS n FROM messages
     WHERE agent_id = ? AND user_id = ? AND sender = 'person' AND handled_at IS NULL`,
  );
  const page = preparePageReader(db);
  const unread = db.prepare(
    `SELECT m.agent_id AS agent_id, COUNT(*) AS n FROM messages m
     LEFT JOIN thread_state s ON s.agent_id = m.agent_id AND s.user_id = m.user_id
     WHERE m.user_id = ? AND m.sender = 'agent' AND m.seq > COALESCE(s.read_seq, 0)
     GROUP BY m.agent_id`,
  );
  const last = db.prepare(
    `SELECT m.* FROM messages m
     JOIN (SELECT agent_id, MAX(seq) AS seq FROM messages WHERE user_id = ? GROUP BY agent_id) t ON t.seq = m.seq`,
  );
  const byIdem = db.prepare('SELECT * FROM messages WHERE connector_id = ? AND idem_key = ?');
  // The partial unique index messages_person_idem (migration 24) answers this.
  const personIdem = db.prepare(
    "SELECT * FROM messages WHERE user_id = ? AND idem_key = ? AND sender = 'person'",
  );
  // One statement per call whatever the number of agents: the ids travel as one JSON parameter.
  const pendingSql = (gate: string) =>
    `SELECT * FROM messages
     WHERE user_id = @userId AND agent_id IN (SELECT value FROM json_each(@agentIds))
       AND sender = 'person' AND handled_at IS NULL AND seq > @afterSeq${gate}
     ORDER BY seq LIMIT @limit`;
  const pendingForHost = db.prepare(pendingSql(''));
  // A guarded read (ADR 0301): the claim's gate (ADR 0298) in the read's own statement; when it returns no
  // row, the same transaction reads the gate's facts to tell a refusal from nothing owed.
  const guardedPending = db.prepare(pendingSql(` AND EXISTS (${LIVE_CONNECTION})`));
  const refuseUnlessLive = prepareLiveGate(db);
  type Pending = Parameters<ThreadRepository['pendingForHost']>[0];
  const readGuarded = db.transaction((q: Pending, connectorId: string) => {
    const { userId, afterSeq, limit } = q;
    const params = { userId, afterSeq, limit, agentIds: JSON.stringify(q.agentIds), connectorId };
    const rows = guardedPending.all(params) as Row[];
    if (rows.length === 0) refuseUnlessLive(connectorId, 'read');
    return rows.map(toMessage);
  });
  const listPush = db.prepare('SELECT * FROM push_intents WHERE user_id = ? ORDER BY created_at, id');
  const readScreen = (id: string) => {
    const r = getScreen.get(id) as Row | undefined;
    return r ? toScreen(r) : null;
  };
  // A burst of taps on one screen reads it once per turn (ADR 0302).
  const keptScreens = turnRowsOf<ReturnType<typeof toScreen>>(db, 'screens');

  return {
    async getScreen(id) {
      return keptScreens.get(id, readScreen);
    },
    async listScreens(ids) {
      if (ids.length === 0) return [];
      return (listScreens.all(JSON.stringify(ids)) as Row[]).map(toScreen);
    },
    async getMessage(id) {
      const r = getMessage.get(id) as Row | undefined;
      return r ? toMessage(r) : null;
    },
    async countUnhandled(k) {
      return (countUnhandled.get(k.agentId, k.userId) as { n: number }).n;
    },
    async page(q) {
      return page(q);
    },
    async unreadByAgent(userId) {
      const out = new Map<string, number>();
      for (const r of unread.all(userId) as { agent_id: string; n: number }[]) out.set(r.agent_id, r.n);
      return out;
    },
    async lastByAgent(userId) {
      const out = new Map<string, MessageRecord>();
      for (const r of last.all(userId) as Row[]) {
        const m = toMessage(r);
        out.set(m.agentId, m);
      }
      return out;
    },
    async findByIdemKey(connectorId, idemKey) {
      const r = byIdem.get(connectorId, idemKey) as Row | undefined;
      return r ? toMessage(r) : null;
    },
    async findPersonAnswer(userId, idemKey) {
      const r = personIdem.get(userId, idemKey) as Row | undefined;
      return r ? toMessage(r) : null;
    },
    async pendingForHost(q) {
      if (q.agentIds.length === 0) return [];
      if (q.guard) return readGuarded(q, q.guard.connectorId);
      const { userId, afterSeq, limit } = q;
      return (
        pendingForHost.all({ userId, afterSeq, limit, agentIds: JSON.stringify(q.agentIds) }) as Row[]
      ).map(toMessage);
    },
    async listPushIntents(userId) {
      return (listPush.all(userId) as Row[]).map((r) => ({
        id: r.id as string,
        userId: r.user_id as string,
        agentId: r.agent_id as string,
        messageId: r.message_id as string,
        createdAt: r.created_at as number,
        sentAt: (r.sent_at as number | null) ?? null,
      }));
    },
  };
}

/** A thread's state row (read mark, open flag, working-until, page version) and the thread's removal. */
function createThreadState(
  db: SqliteDb,
): Pick<ThreadRepository, 'getState' | 'markRead' | 'setOpen' | 'setWorking' | 'deleteThread'> {
  const getState = db.prepare('SELECT * FROM thread_state WHERE agent_id = ? AND user_id = ?');
  // A write that creates the state row gives it its first version; one that finds it leaves the version.
  const markRead = db.prepare(
    `INSERT INTO thread_state (agent_id, user_id, read_seq, page_version) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id, user_id) DO UPDATE SET read_seq = MAX(read_seq, excluded.read_seq)`,
  );
  const setOpen = db.prepare(
    `INSERT INTO thread_state (agent_id, user_id, open, open_changed_at, page_version) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (agent_id, user_id) DO UPDATE SET open = excluded.open, open_changed_at = excluded.open_changed_at`,
  );
  const setWorking = db.prepare(
    `INSERT INTO thread_state (agent_id, user_id, working_until, page_version) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id, user_id) DO UPDATE SET working_until = excluded.working_until`,
  );
  // A thread's rows: screens, intents and outbox rows of its messages go with them by cascade.
  // Receipts go with the thread, never with retention's row deletes (ADR 0261).
  const clearThread = [
    'messages',
    'photos',
    'thread_state',
    'thread_presence',
    'push_outbox',
    'answer_receipts',
  ].map((t) => db.prepare(`DELETE FROM ${t} WHERE agent_id = ? AND user_id = ?`));
  const deleteThread = db.transaction((k: ThreadKey) => {
    for (const s of clearThread) s.run(k.agentId, k.userId);
  });

  return {
    async getState(k): Promise<ThreadStateRecord> {
      const r = getState.get(k.agentId, k.userId) as Row | undefined;
      return {
        agentId: k.agentId,
        userId: k.userId,
        readSeq: (r?.read_seq as number | undefined) ?? 0,
        open: r?.open === 1,
        openChangedAt: (r?.open_changed_at as number | null | undefined) ?? null,
        workingUntil: (r?.working_until as number | null | undefined) ?? null,
        pageVersion:
          r?.page_version === null || r?.page_version === undefined ? null : String(r.page_version),
      };
    },
    async markRead(k, seq, version) {
      markRead.run(k.agentId, k.userId, seq, version);
    },
    async setOpen(k, open, at, version) {
      setOpen.run(k.agentId, k.userId, open ? 1 : 0, at, version);
    },
    async setWorking(k, until, version) {
      setWorking.run(k.agentId, k.userId, until, version);
    },
    async deleteThread(k) {
      deleteThread(k);
    },
  };
}

/**
 * The SQLite thread repository: appends run by `commits` (the connection's group commit by default, or a
 * transaction body's inline runner), marks, state and reads on `db`.
 */
export function createSqliteThreads(
  db: SqliteDb,
  commits: WriteRunner = groupCommitOf(db),
): ThreadRepository {
  // One prepared move shared by the appends and the marks.
  const movePage = preparePageMove(db);
  return {
    ...createThreadAppends(db, commits, movePage),
    ...createThreadReads(db),
    ...createThreadMarks(db, movePage),
    ...createThreadState(db),
  };
}
