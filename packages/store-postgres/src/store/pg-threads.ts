// PostgreSQL thread rows, screens, read/open state and push intents. claimAnswers is one UPDATE ... RETURNING
// over rows locked with FOR UPDATE SKIP LOCKED, so instances racing for a thread's answers get each once.

import { ServiceError } from '@screen-service/registry/kernel';
import type {
  MessageRecord,
  NewMessage,
  NewScreen,
  PageVersion,
  ScreenRecord,
  ThreadRepository,
  ThreadStateRecord,
} from '@screen-service/registry/model';
import {
  ClaimRefused,
  constraintErrors,
  num,
  screenOfRow,
  toMessage,
  toScreen,
} from '@screen-service/registry/model';
import { batchedUnhandledCounts } from './batched-reads.js';
import { createAgentRowWriter } from './pg-agent-row-batch.js';
import { first, isUniqueViolation, type PgDb, type Queryable, type Row } from './pg-db.js';
import { readStakes } from './pg-deadlines.js';

/**
 * The stream lock key of an insert ($3 agent id): the agent's connection, hashed to 64 bits, or the agent
 * itself while it has none. A host's stream reads every thread its connection serves (each agent's, each
 * holder's) behind one seq cursor, so ordering per thread is not enough (ADR 0226).
 */
export const STREAM_LOCK_SQL =
  "hashtextextended(COALESCE('connector ' || (SELECT connector_id FROM agents WHERE id = $3::text), 'agent ' || $3::text), 0)";

/**
 * A second write with a connection's idempotency key, or a person's answer key (ADR 0276), is CONFLICT (the
 * caller reads the first one back).
 */
function idemTaken(err: unknown, m: NewMessage): unknown {
  if (!m.idemKey) return err;
  if (isUniqueViolation(err, 'messages_person_idem')) return constraintErrors.answerKeyUsed(m.idemKey);
  if (!isUniqueViolation(err, 'messages_idem')) return err;
  return new ServiceError('CONFLICT', `A reply with idempotency key "${m.idemKey}" was already written.`, {
    field: 'idempotency_key',
  });
}

/**
 * A person's row takes its connection's advisory lock (held to commit) before the identity column draws its
 * seq, so across every thread one connection serves, person rows commit in seq order, as with SQLite's one
 * writer: the readers that page by `afterSeq` (a host's stream over several agents and holders,
 * `pendingForHost`; svc_answers' `claimAnswers`) read person rows only, and never see seq 12 commit and later
 * find seq 11 appear behind their cursor. Agent rows are read by pages (newest first, `before`), never behind
 * a forward cursor, so they take no lock: the identity's own order serves them, and one connection's tool
 * calls no longer queue behind each other's commits (issue 42). The message's photos ($13) are bound and the
 * thread's page version ($14) moved in the same statement, so a plain append stays one round trip.
 */
export function insertMessageSql(locked: boolean, gate?: string): string {
  // A gated insert (ADR 0291) writes only when the CTE `g` (before it) says `ok`; its photos and version too.
  const written = gate ? ' AND EXISTS (SELECT 1 FROM m)' : '';
  return `WITH ${gate ? `${gate}, ` : ''}m AS (
  INSERT INTO messages (id, user_id, agent_id, sender, kind, body, meta, screen_id, connector_id, created_at, handled_at, idem_key)
  SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text,
    $10::bigint, $11::bigint, $12::text
  ${locked ? `FROM (SELECT pg_advisory_xact_lock(${STREAM_LOCK_SQL})) AS stream_lock` : ''}
  ${gate ? 'WHERE (SELECT ok FROM g)' : ''}
  RETURNING *
), p AS (
  UPDATE photos SET message_id = $1::text WHERE id = ANY($13::text[]) AND message_id IS NULL${written}
), v AS (
  UPDATE thread_state SET page_version = $14::bigint WHERE agent_id = $3::text AND user_id = $2::text${written}
)`;
}

/** The insert of a person's row (under its connection's lock) and of any other row (no lock). */
export const INSERT_MESSAGE_SQL = { person: insertMessageSql(true), other: insertMessageSql(false) };

/** The insert for `m`'s sender. */
const insertSql = (m: NewMessage) =>
  m.sender === 'person' ? INSERT_MESSAGE_SQL.person : INSERT_MESSAGE_SQL.other;

/** The values of INSERT_MESSAGE_SQL's 14 parameters. */
export function messageValues(m: NewMessage, version: PageVersion): unknown[] {
  return [
    m.id,
    m.userId,
    m.agentId,
    m.sender,
    m.kind,
    m.body,
    JSON.stringify(m.meta ?? {}),
    m.screenId ?? null,
    m.connectorId ?? null,
    m.createdAt,
    m.handledAt ?? null,
    m.idemKey ?? null,
    [...(m.photoIds ?? [])],
    version,
  ];
}

/** A message row (its photos bound with it), one statement. */
async function insertMessage(q: Queryable, m: NewMessage, version: PageVersion): Promise<MessageRecord> {
  return toMessage((await first(q, `${insertSql(m)} SELECT * FROM m`, messageValues(m, version)))!);
}

/** A screen's message row and the screen, one statement: the screen takes the row's seq as it is drawn. */
async function insertScreen(
  q: Queryable,
  m: NewMessage,
  s: NewScreen,
  version: PageVersion,
): Promise<{ message: MessageRecord; screen: ScreenRecord }> {
  const row = await first(
    q,
    `${insertSql(m)}, s AS (
       INSERT INTO screens (id, user_id, agent_id, message_id, message_seq, lines, ops, taps, created_at)
       SELECT $15::text, user_id, agent_id, id, seq, $16::text, $17::text, $18::text, created_at FROM m
     )
     SELECT * FROM m`,
    [
      ...messageValues({ ...m, screenId: s.id }, version),
      s.id,
      s.lines,
      JSON.stringify(s.ops),
      JSON.stringify(s.taps),
    ],
  );
  const message = toMessage(row!);
  return { message, screen: screenOfRow(s, message) };
}

const bySeq = (a: MessageRecord, b: MessageRecord) => a.seq - b.seq;

/**
 * A CTE that moves the thread (agent `agent`, user `user`) to `version` when the CTE `rows` returned any
 * row: an update's version move rides in its own statement (one round trip, atomic on its own).
 */
const MOVE_IF_ANY = (rows: string, version: string, agent: string, user: string) =>
  `v AS (UPDATE thread_state SET page_version = ${version}::bigint
         WHERE agent_id = ${agent} AND user_id = ${user} AND EXISTS (SELECT 1 FROM ${rows}))`;

/**
 * The claim of svc_answers: SKIP LOCKED, so a second claimer passes over rows the first holds and takes the
 * next ones; a row handled meanwhile fails the re-check under its lock and is left out. `gate` is a condition
 * the update also needs (a guarded claim's, ADR 0298).
 */
const claimSql = (gate: string) => `c AS (
  UPDATE messages SET handled_at = $1
  WHERE handled_at IS NULL${gate} AND seq IN (
    SELECT seq FROM messages
    WHERE agent_id = $2 AND user_id = $3 AND sender = 'person' AND handled_at IS NULL AND seq > $4
    ORDER BY seq LIMIT $5
    FOR UPDATE SKIP LOCKED)
  RETURNING *
), ${MOVE_IF_ANY('c', '$6', '$2', '$3')}`;

const CLAIM_SQL = `WITH ${claimSql('')} SELECT * FROM c`;

/**
 * The gate CTE `g` of a guarded claim (ADR 0298) or read (ADR 0301), the connector parameter `connector`: it
 * reads the connector and its account in the guarded statement itself (its snapshot: a row written after a
 * removal committed is never seen without the removal), and the statement acts only when `svc_live`.
 * `svc_live` mirrors `connectionState(connector, user) === 'live'` (registry's hosts/connection-live.ts); the
 * conformance cases "claimAnswers with a guard" and "pendingForHost with a guard" pin the two together.
 */
const liveGateSql = (connector: string) => `g AS (
  SELECT k.id AS svc_connector_id, k.revoked_at AS svc_revoked_at, k.suspended_at AS svc_suspended_at,
    u.id AS svc_account_id, u.suspended_at AS svc_account_suspended_at,
    (k.id IS NOT NULL AND k.revoked_at IS NULL AND k.suspended_at IS NULL
      AND u.id IS NOT NULL AND u.suspended_at IS NULL) AS svc_live
  FROM (SELECT 1) AS one LEFT JOIN connectors k ON k.id = ${connector}::text LEFT JOIN users u ON u.id = k.user_id
)`;

/**
 * A guarded claim (ADR 0298), the claiming connector $7: the update runs only when the gate says `svc_live`.
 * The gate's row is returned joined to the claimed rows (once, with nulls, when none).
 */
const GUARDED_CLAIM_SQL = `WITH ${liveGateSql('$7')}, ${claimSql(' AND (SELECT svc_live FROM g)')}
SELECT c.*, g.* FROM g LEFT JOIN c ON true`;

/** The read of `pendingForHost`; `gate` is a condition it also needs (a guarded read's, ADR 0301). */
const pendingSql = (gate: string) => `SELECT * FROM messages
  WHERE user_id = $1 AND agent_id = ANY($2::text[])
    AND sender = 'person' AND handled_at IS NULL AND seq > $3${gate}
  ORDER BY seq LIMIT $4`;

const PENDING_SQL = pendingSql('');

/**
 * A guarded read (ADR 0301), the reading connector $5: the claim's gate in the read's own statement, its row
 * joined to the rows read (once, with nulls, when none), so a refusal costs no second round trip.
 */
const GUARDED_PENDING_SQL = `WITH ${liveGateSql('$5')}, r AS (${pendingSql(' AND (SELECT svc_live FROM g)')})
SELECT r.*, g.* FROM g LEFT JOIN r ON true`;

/** `ThreadRepository.pendingForHost`: one statement, guarded when `q.guard` is given (ADR 0301). */
async function pendingForHost(
  db: PgDb,
  q: Parameters<ThreadRepository['pendingForHost']>[0],
): Promise<MessageRecord[]> {
  if (q.agentIds.length === 0) return [];
  const values = [q.userId, q.agentIds, q.afterSeq, q.limit];
  if (!q.guard) return (await db.all(PENDING_SQL, values)).map(toMessage);
  return gated(await db.all(GUARDED_PENDING_SQL, [...values, q.guard.connectorId]), 'read');
}

/** `ThreadRepository.claimAnswers`: one statement, guarded when `k.guard` is given (ADR 0298). */
async function claimAnswers(
  db: PgDb,
  k: Parameters<ThreadRepository['claimAnswers']>[0],
): Promise<MessageRecord[]> {
  const values = [k.at, k.agentId, k.userId, k.afterSeq, k.limit, k.version];
  if (!k.guard) return (await db.all(CLAIM_SQL, values)).map(toMessage).sort(bySeq);
  return gated(await db.all(GUARDED_CLAIM_SQL, [...values, k.guard.connectorId]), 'claim');
}

/**
 * The rows of a guarded statement: one row at least (the gate's, joined to each row claimed or read; once,
 * with nulls, when none), so a refusal is known without a second round trip; no real row has a null id.
 */
function gated(rows: Row[], act: 'claim' | 'read'): MessageRecord[] {
  const gate = rows[0];
  if (gate && gate.svc_live !== true) throw claimRefused(gate, act);
  return rows
    .filter((r) => r.id !== null)
    .map(toMessage)
    .sort(bySeq);
}

/** The refusal of a guarded claim (or read), with what its gate read. */
function claimRefused(r: Row, act: 'claim' | 'read'): ClaimRefused {
  return new ClaimRefused(
    r.svc_connector_id === null
      ? null
      : { revokedAt: num(r.svc_revoked_at), suspendedAt: num(r.svc_suspended_at) },
    r.svc_account_id === null ? null : { suspendedAt: num(r.svc_account_suspended_at) },
    act,
  );
}

/** The rows written under an idempotency key: a host's reply (per connection), a person's answer (per person). */
function keyReads(db: PgDb): Pick<ThreadRepository, 'findByIdemKey' | 'findPersonAnswer'> {
  return {
    async findPersonAnswer(userId, idemKey) {
      const r = await db.one(
        "SELECT * FROM messages WHERE user_id = $1 AND idem_key = $2 AND sender = 'person'",
        [userId, idemKey],
      );
      return r ? toMessage(r) : null;
    },
    async findByIdemKey(connectorId, idemKey) {
      const r = await db.one('SELECT * FROM messages WHERE connector_id = $1 AND idem_key = $2', [
        connectorId,
        idemKey,
      ]);
      return r ? toMessage(r) : null;
    },
  };
}

export function createPgThreads(db: PgDb): ThreadRepository {
  const writeAgentRow = createAgentRowWriter(db);
  const countUnhandled = batchedUnhandledCounts(db);
  return {
    async append(m, version) {
      try {
        return await insertMessage(db, m, version);
      } catch (err) {
        throw idemTaken(err, m);
      }
    },
    async appendSigned(m, version, receiptOf, settles) {
      try {
        return await db.tx(async (q) => {
          // The screen's stakes in the answer's own transaction (ADR 0299): settled ones go the rules' way.
          if (settles && m.screenId && settles(await readStakes(q, m.screenId))) return null;
          const message = await insertMessage(q, m, version);
          const last = await first(
            q,
            'SELECT seq, hash FROM answer_receipts WHERE agent_id = $1 AND user_id = $2 ORDER BY seq DESC LIMIT 1',
            [m.agentId, m.userId],
          );
          const r = receiptOf(message, last ? { seq: Number(last.seq), hash: String(last.hash) } : null);
          await q.query(
            `INSERT INTO answer_receipts (id, user_id, agent_id, seq, message_id, kid, jws, hash, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [r.id, r.userId, r.agentId, r.seq, r.messageId, r.kid, r.jws, r.hash, r.createdAt],
          );
          return message;
        });
      } catch (err) {
        throw idemTaken(err, m);
      }
    },
    async appendWithPush(w) {
      try {
        return await writeAgentRow(w);
      } catch (err) {
        throw idemTaken(err, w.message);
      }
    },
    async appendScreen(m, s, version) {
      try {
        return await insertScreen(db, m, s, version);
      } catch (err) {
        throw idemTaken(err, m);
      }
    },
    async getScreen(id) {
      const r = await db.one('SELECT * FROM screens WHERE id = $1', [id]);
      return r ? toScreen(r) : null;
    },
    async listScreens(ids) {
      if (ids.length === 0) return [];
      return (await db.all('SELECT * FROM screens WHERE id = ANY($1::text[])', [ids])).map(toScreen);
    },
    async getMessage(id) {
      const r = await db.one('SELECT * FROM messages WHERE id = $1', [id]);
      return r ? toMessage(r) : null;
    },
    claimAnswers: (k) => claimAnswers(db, k),
    countUnhandled(k) {
      return countUnhandled(k);
    },
    async page(q) {
      const rows =
        q.beforeSeq === undefined
          ? await db.all(
              'SELECT * FROM messages WHERE agent_id = $1 AND user_id = $2 ORDER BY seq DESC LIMIT $3',
              [q.agentId, q.userId, q.limit],
            )
          : await db.all(
              'SELECT * FROM messages WHERE agent_id = $1 AND user_id = $2 AND seq < $3 ORDER BY seq DESC LIMIT $4',
              [q.agentId, q.userId, q.beforeSeq, q.limit],
            );
      return rows.map(toMessage);
    },
    async unreadByAgent(userId) {
      const rows = await db.all<{ agent_id: string; n: number }>(
        `SELECT m.agent_id AS agent_id, COUNT(*) AS n FROM messages m
         LEFT JOIN thread_state s ON s.agent_id = m.agent_id AND s.user_id = m.user_id
         WHERE m.user_id = $1 AND m.sender = 'agent' AND m.seq > COALESCE(s.read_seq, 0)
         GROUP BY m.agent_id`,
        [userId],
      );
      return new Map(rows.map((r) => [r.agent_id, Number(r.n)]));
    },
    async lastByAgent(userId) {
      const rows = await db.all(
        `SELECT m.* FROM messages m
         JOIN (SELECT agent_id, MAX(seq) AS seq FROM messages WHERE user_id = $1 GROUP BY agent_id) t ON t.seq = m.seq`,
        [userId],
      );
      const out = new Map<string, MessageRecord>();
      for (const r of rows) {
        const m = toMessage(r);
        out.set(m.agentId, m);
      }
      return out;
    },
    async getState(k): Promise<ThreadStateRecord> {
      const r = await db.one('SELECT * FROM thread_state WHERE agent_id = $1 AND user_id = $2', [
        k.agentId,
        k.userId,
      ]);
      return {
        agentId: k.agentId,
        userId: k.userId,
        readSeq: Number(r?.read_seq ?? 0),
        open: r?.open === true,
        openChangedAt: num(r?.open_changed_at),
        workingUntil: num(r?.working_until),
        pageVersion:
          r?.page_version === null || r?.page_version === undefined ? null : String(r.page_version),
      };
    },
    // A write that creates the state row gives it its first version; one that finds it leaves the version.
    async markRead(k, seq, version) {
      await db.run(
        `INSERT INTO thread_state (agent_id, user_id, read_seq, page_version) VALUES ($1, $2, $3, $4)
         ON CONFLICT (agent_id, user_id) DO UPDATE SET read_seq = GREATEST(thread_state.read_seq, excluded.read_seq)`,
        [k.agentId, k.userId, seq, version],
      );
    },
    async markDelivered(k, upToSeq, at, version) {
      await db.run(
        `WITH d AS (
           UPDATE messages SET delivered_at = $1
           WHERE agent_id = $2 AND user_id = $3 AND sender = 'agent' AND delivered_at IS NULL AND seq <= $4
           RETURNING 1
         ), ${MOVE_IF_ANY('d', '$5', '$2', '$3')}
         SELECT 1`,
        [at, k.agentId, k.userId, upToSeq, version],
      );
    },
    async setOpen(k, open, at, version) {
      await db.run(
        `INSERT INTO thread_state (agent_id, user_id, open, open_changed_at, page_version) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (agent_id, user_id) DO UPDATE SET open = excluded.open, open_changed_at = excluded.open_changed_at`,
        [k.agentId, k.userId, open, at, version],
      );
    },
    async deleteThread(k) {
      // One statement (a CTE per table): screens, intents and outbox rows of its messages go by cascade.
      await db.run(
        `WITH m AS (DELETE FROM messages WHERE agent_id = $1 AND user_id = $2),
              p AS (DELETE FROM photos WHERE agent_id = $1 AND user_id = $2),
              s AS (DELETE FROM thread_state WHERE agent_id = $1 AND user_id = $2),
              o AS (DELETE FROM push_outbox WHERE agent_id = $1 AND user_id = $2),
              r AS (DELETE FROM answer_receipts WHERE agent_id = $1 AND user_id = $2)
         DELETE FROM thread_presence WHERE agent_id = $1 AND user_id = $2`,
        [k.agentId, k.userId],
      );
    },
    ...keyReads(db),
    pendingForHost: (q) => pendingForHost(db, q),
    async markRowsDelivered(k, ids, at, version) {
      // Rows matched (delivered now or before) move the page, as every update of them always did.
      const rows = await db.all(
        `WITH d AS (
           UPDATE messages SET delivered_at = COALESCE(delivered_at, $1)
           WHERE agent_id = $2 AND user_id = $3 AND sender = 'person' AND id = ANY($4::text[])
           RETURNING *
         ), ${MOVE_IF_ANY('d', '$5', '$2', '$3')}
         SELECT * FROM d`,
        [at, k.agentId, k.userId, ids, version],
      );
      return rows.map(toMessage).sort(bySeq);
    },
    async markRowsHandled(k, ids, at, version) {
      const r = await db.one<{ n: number }>(
        `WITH h AS (
           UPDATE messages SET handled_at = $1, delivered_at = COALESCE(delivered_at, $1)
           WHERE agent_id = $2 AND user_id = $3 AND sender = 'person' AND handled_at IS NULL
             AND id = ANY($4::text[])
           RETURNING 1
         ), ${MOVE_IF_ANY('h', '$5', '$2', '$3')}
         SELECT COUNT(*) AS n FROM h`,
        [at, k.agentId, k.userId, ids, version],
      );
      return Number(r?.n ?? 0);
    },
    async setWorking(k, until, version) {
      await db.run(
        `INSERT INTO thread_state (agent_id, user_id, working_until, page_version) VALUES ($1, $2, $3, $4)
         ON CONFLICT (agent_id, user_id) DO UPDATE SET working_until = excluded.working_until`,
        [k.agentId, k.userId, until, version],
      );
    },
    async listPushIntents(userId) {
      const rows = await db.all(
        'SELECT * FROM push_intents WHERE user_id = $1 ORDER BY created_at, id COLLATE "C"',
        [userId],
      );
      return rows.map((r) => ({
        id: r.id as string,
        userId: r.user_id as string,
        agentId: r.agent_id as string,
        messageId: r.message_id as string,
        createdAt: Number(r.created_at),
        sentAt: num(r.sent_at),
      }));
    },
  };
}
