// SQLite thread writes: appends in the group commit; claims and delivery marks that move the page version.

import { ServiceError } from '@screen-service/registry/kernel';
import type {
  MessageRecord,
  NewMessage,
  NewScreen,
  PageVersion,
  ReceiptBuilder,
  ReceiptLink,
  ThreadKey,
  ThreadRepository,
} from '@screen-service/registry/model';
import { AgentRowRefused, constraintErrors, screenOfRow, toMessage } from '@screen-service/registry/model';
import type Database from 'better-sqlite3';
import type { WriteRunner } from './group-commit.js';
import { isUniqueViolation, type SqliteDb } from './rows.js';
import { prepareStakes } from './sqlite-deadlines.js';
import { LIVE_CONNECTION, prepareLiveGate } from './sqlite-live-gate.js';
import { preparePushRows } from './sqlite-push.js';
import { prepareBatchInsert } from './sqlite-receipts.js';

type Row = Record<string, unknown>;

/** The prepared `UPDATE thread_state SET page_version = ? WHERE agent_id = ? AND user_id = ?`, shared by the writers. */
export type PageMove = Database.Statement<[PageVersion, string, string]>;

/**
 * Prepares the page-version move. Only an existing state row moves (an upsert per message cost ~8 us, an
 * update ~1 us; ADR 0216).
 */
export function preparePageMove(db: SqliteDb): PageMove {
  return db.prepare('UPDATE thread_state SET page_version = ? WHERE agent_id = ? AND user_id = ?');
}

/**
 * A second write with a connection's idempotency key, or a person's answer key (ADR 0276), is CONFLICT (the
 * caller reads the first one back).
 */
function idemTaken(err: unknown, m: NewMessage): unknown {
  if (!m.idemKey) return err;
  if (isUniqueViolation(err, 'messages.user_id, messages.idem_key'))
    return constraintErrors.answerKeyUsed(m.idemKey);
  if (!isUniqueViolation(err, 'messages.connector_id, messages.idem_key')) return err;
  return new ServiceError('CONFLICT', `A reply with idempotency key "${m.idemKey}" was already written.`, {
    field: 'idempotency_key',
  });
}

/** Prepares the message insert; the returned function inserts a row and returns its record as a read would. */
function prepareMessageInsert(db: SqliteDb): (m: NewMessage) => MessageRecord {
  // Positional parameters, no RETURNING: seq is the rowid (lastInsertRowid) and the record is built from
  // what was written (binding an object by name and reading the whole row back, meta and the screen's ops
  // re-parsed, cost a write more; RETURNING seq alone still cost about 1 us of 9).
  const insert = db.prepare(
    `INSERT INTO messages (id, user_id, agent_id, sender, kind, body, meta, screen_id, connector_id, created_at, handled_at, idem_key)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (m) => {
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
}

/**
 * The hot writes: messages (agent lines, screens, taps, replies), each moving the thread's page version.
 * Concurrent ones share a commit (inside a transaction body they run at once, in its transaction).
 */
export function createThreadAppends(
  db: SqliteDb,
  commits: WriteRunner,
  movePage: PageMove,
): Pick<ThreadRepository, 'append' | 'appendScreen' | 'appendSigned' | 'appendWithPush'> {
  const insertMessage = prepareMessageInsert(db);
  const pushRows = preparePushRows(db);
  const isOpen = db.prepare(
    'SELECT 1 AS x FROM thread_presence WHERE agent_id = ? AND user_id = ? AND until > ? LIMIT 1',
  );
  // `servedBy` (ADR 0291): the connection serves the agent as `agents.listByConnector` reads it.
  const served = db.prepare(
    `SELECT 1 AS x FROM agents a WHERE a.id = @agent AND a.user_id = @user AND (a.connector_id = @conn
       OR EXISTS (SELECT 1 FROM agent_connections c WHERE c.agent_id = a.id AND c.connector_id = @conn))`,
  );
  const lastReceipt = db.prepare(
    // Only the link: the newest receipt's JWS is not read back on every answer.
    'SELECT seq, hash FROM answer_receipts WHERE agent_id = ? AND user_id = ? ORDER BY seq DESC LIMIT 1',
  );
  const insertReceipt = db.prepare(
    `INSERT INTO answer_receipts (id, user_id, agent_id, seq, message_id, kid, jws, hash, created_at, batch_id, batch_index)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertBatch = prepareBatchInsert(db);
  const stakesOf = prepareStakes(db);
  const nextBatch = db.prepare('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM receipt_batches');
  const insertScreen = db.prepare(
    `INSERT INTO screens (id, user_id, agent_id, message_id, message_seq, lines, ops, taps, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const attachPhoto = db.prepare('UPDATE photos SET message_id = ? WHERE id = ? AND message_id IS NULL');
  const attachPhotos = (messageId: string, ids: readonly string[] | undefined) => {
    for (const id of ids ?? []) attachPhoto.run(messageId, id);
  };

  /**
   * Writes the receipt of `message` (ADR 0294): format 2 when the builder makes leaves, its leaf added to the
   * flush's batch, which signs its root once as the flush's last statements (a write outside a flush signs a
   * one-leaf batch at once); else format 1, signed by the builder.
   */
  const writeReceipt = (message: MessageRecord, last: ReceiptLink | null, receiptOf: ReceiptBuilder) => {
    const { leaf, signBatch } = receiptOf;
    const r = leaf && signBatch ? leaf(message, last) : receiptOf(message, last);
    let batch: { id: number; leaves: string[] } | null = null;
    if (leaf && signBatch) {
      // Alone (no flush): a one-leaf batch, signed and written at once.
      batch = commits.batch('receipt-batch', () => flushBatch(signBatch)) ?? {
        id: insertBatch(signBatch([r.hash]), null),
        leaves: [],
      };
    }
    const { id, userId, agentId, seq, messageId, kid, jws, hash, createdAt } = r;
    const at = batch?.leaves.length ?? null;
    insertReceipt.run(id, userId, agentId, seq, messageId, kid, jws, hash, createdAt, batch?.id ?? null, at);
    batch?.leaves.push(r.hash);
    return r;
  };
  /** A flush's batch: the leaves its writes add, in order, signed and written once as the flush ends. */
  const flushBatch = (signBatch: NonNullable<ReceiptBuilder['signBatch']>) => {
    const leaves: string[] = [];
    // The number its row will take: the flush holds the write lock from BEGIN, so nobody else takes it.
    const id = (nextBatch.get() as { id: number }).id;
    return {
      id,
      leaves,
      end() {
        // Every write that made a leaf may have failed alone (its savepoint rolled back): nothing to sign.
        if (leaves.length > 0) insertBatch(signBatch(leaves), id);
      },
    };
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
    const screen = screenOfRow(s, message);
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

  return {
    async append(m, version) {
      try {
        return await commits.run(() => appendText(m, version));
      } catch (err) {
        throw idemTaken(err, m);
      }
    },
    async appendSigned(m, version, receiptOf, settles) {
      try {
        // One write of the group commit: the screen's stakes when asked (ADR 0299), the row, the thread's
        // newest receipt link (kept in the group commit's memo from the thread's last answer, else read), the
        // next one written.
        return await commits.run(() => {
          if (settles && m.screenId && settles(stakesOf(m.screenId))) return null;
          const message = appendText(m, version);
          const memo = commits.memo();
          const key = `receipt-link\u0000${m.agentId}\u0000${m.userId}`;
          let last = memo?.get(key) as ReceiptLink | null | undefined;
          if (last === undefined)
            last = (lastReceipt.get(m.agentId, m.userId) as ReceiptLink | undefined) ?? null;
          const r = writeReceipt(message, last, receiptOf);
          // Last: a write that threw before this keeps nothing.
          memo?.set(key, { seq: r.seq, hash: r.hash });
          return message;
        });
      } catch (err) {
        throw idemTaken(err, m);
      }
    },
    async appendWithPush(w) {
      const m = w.message;
      try {
        // One write of the group commit: the open state read, the row, and its buzz when the rules said so.
        return await commits.run(() => {
          const by = w.servedBy;
          if (by && served.get({ agent: m.agentId, user: by.userId, conn: by.connectorId }) === undefined) {
            throw new AgentRowRefused();
          }
          const open = isOpen.get(m.agentId, m.userId, m.createdAt) !== undefined;
          const written = w.screen
            ? appendScreen(m, w.screen, w.version)
            : { message: appendText(m, w.version), screen: null };
          const pushed = open ? w.push.ifOpen : w.push.ifClosed;
          if (pushed) {
            pushRows.message({
              id: w.push.id,
              userId: m.userId,
              agentId: m.agentId,
              messageId: written.message.id,
              at: m.createdAt,
            });
          }
          return { ...written, pushed };
        });
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
  };
}

/**
 * Claims and delivery marks: each is a row update and its version move in one transaction (a savepoint
 * inside one already open); the page moves only when a row changed.
 */
export function createThreadMarks(
  db: SqliteDb,
  movePage: PageMove,
): Pick<ThreadRepository, 'claimAnswers' | 'markDelivered' | 'markRowsDelivered' | 'markRowsHandled'> {
  // One statement: SQLite runs it atomically, so concurrent callers never claim the same row.
  const claimSql = (guard: string) =>
    `UPDATE messages SET handled_at = @at
     WHERE seq IN (
       SELECT seq FROM messages
       WHERE agent_id = @agentId AND user_id = @userId AND sender = 'person' AND handled_at IS NULL AND seq > @afterSeq
       ORDER BY seq LIMIT @limit)${guard}
     RETURNING *`;
  const claim = db.prepare(claimSql(''));
  // A guarded claim (ADR 0298): the gate is in the claim's own statement.
  const guardedClaim = db.prepare(claimSql(` AND EXISTS (${LIVE_CONNECTION})`));
  // When a guarded claim took nothing: refused, with what the gate read, unless the connection is live.
  const refuseUnlessLive = prepareLiveGate(db);
  const markDelivered = db.prepare(
    `UPDATE messages SET delivered_at = ?
     WHERE agent_id = ? AND user_id = ? AND sender = 'agent' AND delivered_at IS NULL AND seq <= ?`,
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
  const moveIf = (changed: number, k: { agentId: string; userId: string }, version: PageVersion) => {
    if (changed > 0) movePage.run(version, k.agentId, k.userId);
  };

  type Claim = Parameters<ThreadRepository['claimAnswers']>[0];
  const claimAll = db.transaction((q: Claim) => {
    const { agentId, userId, afterSeq, limit, at, guard } = q;
    const params = { agentId, userId, afterSeq, limit, at };
    const rows = (
      guard ? guardedClaim.all({ ...params, connectorId: guard.connectorId }) : claim.all(params)
    ) as Row[];
    if (guard && rows.length === 0) refuseUnlessLive(guard.connectorId, 'claim');
    moveIf(rows.length, q, q.version);
    return rows.map(toMessage);
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
    async claimAnswers(q) {
      const rows = claimAll(q);
      // RETURNING order is unspecified: restore oldest first.
      return rows.sort((a: MessageRecord, b: MessageRecord) => a.seq - b.seq);
    },
    async markDelivered(k, upToSeq, at, version) {
      deliverUpTo(k, upToSeq, at, version);
    },
    async markRowsDelivered(k, ids, at, version) {
      return deliverRows(k, ids, at, version).sort((a, b) => a.seq - b.seq);
    },
    async markRowsHandled(k, ids, at, version) {
      return handleRows(k, ids, at, version);
    },
  };
}
