// SQLite thread rows, screens, read/open state and push intents. claimAnswers is one UPDATE ... RETURNING.

import { ServiceError } from '@screen-service/registry/kernel';
import type {
  MessageRecord,
  NewMessage,
  NewScreen,
  PageVersion,
  ScreenRecord,
  ThreadKey,
  ThreadRepository,
  ThreadStateRecord,
} from '@screen-service/registry/model';
import { groupCommitOf, type WriteRunner } from './group-commit.js';
import { isUniqueViolation, type SqliteDb, toMessage, toScreen } from './rows.js';
import { preparePageReader } from './sqlite-page.js';

type Row = Record<string, unknown>;

/** A second write with a connection's idempotency key is CONFLICT (the caller reads the first one back). */
function idemTaken(err: unknown, m: NewMessage): unknown {
  if (!m.idemKey || !isUniqueViolation(err, 'messages.connector_id, messages.idem_key')) return err;
  return new ServiceError('CONFLICT', `A reply with idempotency key "${m.idemKey}" was already written.`, {
    field: 'idempotency_key',
  });
}

export function createSqliteThreads(
  db: SqliteDb,
  commits: WriteRunner = groupCommitOf(db),
): ThreadRepository {
  // Positional parameters, no RETURNING: seq is the rowid (lastInsertRowid) and the record is built from
  // what was written (binding an object by name and reading the whole row back, meta and the screen's ops
  // re-parsed, cost a write more; RETURNING seq alone still cost about 1 us of 9).
  const insert = db.prepare(
    `INSERT INTO messages (id, user_id, agent_id, sender, kind, body, meta, screen_id, connector_id, created_at, handled_at, idem_key)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertScreen = db.prepare(
    `INSERT INTO screens (id, user_id, agent_id, message_id, message_seq, lines, ops, taps, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const getScreen = db.prepare('SELECT * FROM screens WHERE id = ?');
  const getMessage = db.prepare('SELECT * FROM messages WHERE id = ?');
  // One prepared statement for any number of ids: the list travels as one JSON parameter.
  const listScreens = db.prepare('SELECT * FROM screens WHERE id IN (SELECT value FROM json_each(?))');
  // One statement: SQLite runs it atomically, so concurrent callers never claim the same row.
  const claim = db.prepare(
    `UPDATE messages SET handled_at = @at
     WHERE seq IN (
       SELECT seq FROM messages
       WHERE agent_id = @agentId AND user_id = @userId AND sender = 'person' AND handled_at IS NULL AND seq > @afterSeq
       ORDER BY seq LIMIT @limit)
     RETURNING *`,
  );
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
  const getState = db.prepare('SELECT * FROM thread_state WHERE agent_id = ? AND user_id = ?');
  // A write that creates the state row gives it its first version; one that finds it leaves the version.
  const markRead = db.prepare(
    `INSERT INTO thread_state (agent_id, user_id, read_seq, page_version) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id, user_id) DO UPDATE SET read_seq = MAX(read_seq, excluded.read_seq)`,
  );
  const markDelivered = db.prepare(
    `UPDATE messages SET delivered_at = ?
     WHERE agent_id = ? AND user_id = ? AND sender = 'agent' AND delivered_at IS NULL AND seq <= ?`,
  );
  const setOpen = db.prepare(
    `INSERT INTO thread_state (agent_id, user_id, open, open_changed_at, page_version) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (agent_id, user_id) DO UPDATE SET open = excluded.open, open_changed_at = excluded.open_changed_at`,
  );
  // A thread's rows: screens, intents and outbox rows of its messages go with them by cascade.
  const clearThread = ['messages', 'photos', 'thread_state', 'thread_presence', 'push_outbox'].map((t) =>
    db.prepare(`DELETE FROM ${t} WHERE agent_id = ? AND user_id = ?`),
  );
  const deleteThread = db.transaction((k: ThreadKey) => {
    for (const s of clearThread) s.run(k.agentId, k.userId);
  });
  const byIdem = db.prepare('SELECT * FROM messages WHERE connector_id = ? AND idem_key = ?');
  // One statement per call whatever the number of agents: the ids travel as one JSON parameter.
  const pendingForHost = db.prepare(
    `SELECT * FROM messages
     WHERE user_id = @userId AND agent_id IN (SELECT value FROM json_each(@agentIds))
       AND sender = 'person' AND handled_at IS NULL AND seq > @afterSeq
     ORDER BY seq LIMIT @limit`,
  );
  const rowsDelivered = db.prepare(
    `UPDATE messages SET delivered_at = COALESCE(delivered_at, @at)
     WHERE agent_id = @agentId AND user_id = @userId AND sender = 'person'
       AND id IN (SELECT value FROM json_each(@ids))
     RETURNING *`,
  );
  const rowsHandled = db.prepare(
    `UPDATE messages SET handled_at = @at, delivered_at = COALESCE(delivered_at, @at)
     WHERE agent_id = @agentId AND user_id = @userId AND sender = 'person' AND handled_at IS NULL
       AND id IN (SELECT value FROM json_each(@ids))`,
  );
  const setWorking = db.prepare(
    `INSERT INTO thread_state (agent_id, user_id, working_until, page_version) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id, user_id) DO UPDATE SET working_until = excluded.working_until`,
  );
  const listPush = db.prepare('SELECT * FROM push_intents WHERE user_id = ? ORDER BY created_at, id');

  /** Inserts the row and returns its record as a read would (meta parsed back from the stored text). */
  const insertMessage = (m: NewMessage): MessageRecord => {
    const meta = JSON.stringify(m.meta ?? {});
    const screenId = m.screenId ?? null;
    const connectorId = m.connectorId ?? null;
    const handledAt = m.handledAt ?? null;
    // seq INTEGER PRIMARY KEY is the rowid.
    const seq = Number(
      insert.run(
        m.id,
        m.userId,
        m.agentId,
        m.sender,
        m.kind,
        m.body,
        meta,
        screenId,
        connectorId,
        m.createdAt,
        handledAt,
        m.idemKey ?? null,
      ).lastInsertRowid,
    );
    return {
      seq,
      id: m.id,
      userId: m.userId,
      agentId: m.agentId,
      sender: m.sender,
      kind: m.kind,
      body: m.body,
      meta: JSON.parse(meta) as Record<string, unknown>,
      screenId,
      connectorId,
      createdAt: m.createdAt,
      deliveredAt: null,
      handledAt,
    };
  };

  // Only an existing state row moves (an upsert per message cost ~8 us, an update ~1 us; ADR 0216).
  const movePage = db.prepare('UPDATE thread_state SET page_version = ? WHERE agent_id = ? AND user_id = ?');
  const moveIf = (changed: number, k: { agentId: string; userId: string }, version: PageVersion) => {
    if (changed > 0) movePage.run(version, k.agentId, k.userId);
  };

  const attachPhoto = db.prepare('UPDATE photos SET message_id = ? WHERE id = ? AND message_id IS NULL');
  const attachPhotos = (messageId: string, ids: readonly string[] | undefined) => {
    for (const id of ids ?? []) attachPhoto.run(messageId, id);
  };

  // Plain functions, not transactions of their own: the group commit runs them inside its transaction
  // (and in a savepoint of their own when one must fail alone), so no nested savepoint per write.
  const appendText = (m: NewMessage, version: PageVersion) => {
    const message = insertMessage(m);
    attachPhotos(message.id, m.photoIds);
    movePage.run(version, m.agentId, m.userId);
    return message;
  };
  const appendScreen = (m: NewMessage, s: NewScreen, version: PageVersion) => {
    const message = insertMessage({ ...m, screenId: s.id });
    attachPhotos(message.id, m.photoIds);
    movePage.run(version, m.agentId, m.userId);
    const screen: ScreenRecord = {
      id: s.id,
      userId: m.userId,
      agentId: m.agentId,
      messageId: message.id,
      messageSeq: message.seq,
      lines: s.lines,
      ops: s.ops,
      taps: s.taps,
      createdAt: m.createdAt,
    };
    insertScreen.run(
      screen.id,
      screen.userId,
      screen.agentId,
      screen.messageId,
      screen.messageSeq,
      screen.lines,
      JSON.stringify(s.ops),
      JSON.stringify(s.taps),
      screen.createdAt,
    );
    return { message, screen };
  };

  // A row update and its version move, one transaction (a savepoint inside one already open).
  type Claim = Parameters<ThreadRepository['claimAnswers']>[0];
  const claimAll = db.transaction((q: Claim) => {
    const { agentId, userId, afterSeq, limit, at } = q;
    const rows = (claim.all({ agentId, userId, afterSeq, limit, at }) as Row[]).map(toMessage);
    moveIf(rows.length, q, q.version);
    return rows;
  });
  const deliverUpTo = db.transaction((k: ThreadKey, upToSeq: number, at: number, version: PageVersion) => {
    moveIf(markDelivered.run(at, k.agentId, k.userId, upToSeq).changes, k, version);
  });
  const deliverRows = db.transaction((k: ThreadKey, ids: string[], at: number, version: PageVersion) => {
    const rows = (
      rowsDelivered.all({ at, agentId: k.agentId, userId: k.userId, ids: JSON.stringify(ids) }) as Row[]
    ).map(toMessage);
    // Rows matched (delivered now or before) move the page, as every update of them always did.
    moveIf(rows.length, k, version);
    return rows;
  });
  const handleRows = db.transaction((k: ThreadKey, ids: string[], at: number, version: PageVersion) => {
    const n = rowsHandled.run({ at, agentId: k.agentId, userId: k.userId, ids: JSON.stringify(ids) }).changes;
    moveIf(n, k, version);
    return n;
  });

  return {
    // Messages (agent lines, screens, taps, replies) are the hot writes: concurrent ones share a commit
    // (inside a transaction body they run at once, in its transaction).
    async append(m, version) {
      try {
        return await commits.run(() => appendText(m, version));
      } catch (err) {
        throw idemTaken(err, m);
      }
    },
    async appendScreen(m, s, version) {
      try {
        return await commits.run(() => appendScreen(m, s, version));
      } catch (err) {
        throw idemTaken(err, m);
      }
    },
    async getScreen(id) {
      const r = getScreen.get(id) as Row | undefined;
      return r ? toScreen(r) : null;
    },
    async listScreens(ids) {
      if (ids.length === 0) return [];
      return (listScreens.all(JSON.stringify(ids)) as Row[]).map(toScreen);
    },
    async getMessage(id) {
      const r = getMessage.get(id) as Row | undefined;
      return r ? toMessage(r) : null;
    },
    async claimAnswers(q) {
      const rows = claimAll(q);
      // RETURNING order is unspecified: restore oldest first.
      return rows.sort((a: MessageRecord, b: MessageRecord) => a.seq - b.seq);
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
    async markDelivered(k, upToSeq, at, version) {
      deliverUpTo(k, upToSeq, at, version);
    },
    async setOpen(k, open, at, version) {
      setOpen.run(k.agentId, k.userId, open ? 1 : 0, at, version);
    },
    async deleteThread(k) {
      deleteThread(k);
    },
    async findByIdemKey(connectorId, idemKey) {
      const r = byIdem.get(connectorId, idemKey) as Row | undefined;
      return r ? toMessage(r) : null;
    },
    async pendingForHost(q) {
      if (q.agentIds.length === 0) return [];
      return (pendingForHost.all({ ...q, agentIds: JSON.stringify(q.agentIds) }) as Row[]).map(toMessage);
    },
    async markRowsDelivered(k, ids, at, version) {
      return deliverRows(k, ids, at, version).sort((a, b) => a.seq - b.seq);
    },
    async markRowsHandled(k, ids, at, version) {
      return handleRows(k, ids, at, version);
    },
    async setWorking(k, until, version) {
      setWorking.run(k.agentId, k.userId, until, version);
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
