// Agent rows into one thread written together while a statement of that thread is on its way (ADR 0296):
// concurrent writers of one thread meet on its state row (the page version), so one statement each queues them
// on that row's lock; one statement for all of them takes it once.

import { AgentRowRefused, type AgentRowWrite } from '@screen-service/registry/model';
import { type AgentRowResult, agentRowResult, insertWithPush } from './pg-agent-rows.js';
import type { Queryable, Row } from './pg-db.js';
import { settle, whileBusy } from './while-busy.js';

/** At most this many rows in one statement; more waiting go in the next. */
const MAX_ROWS = 64;

/**
 * Many rows of one thread ($1 user, $2 agent) in one statement, each as `insertWithPush` writes one: the row
 * (only when its gate, if any, finds the connection still serving the agent), its screen, its buzz by what the
 * rules said for the thread's open state at its time; the thread's page version moves to $21 once. Rows are
 * inserted in the order given (their seqs follow it). No photos (rows with photos go alone).
 */
const BATCH_SQL = `WITH r AS (
  SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::bigint[], $11::bigint[], $12::text[], $13::boolean[], $14::boolean[], $15::text[], $16::text[],
    $17::text[], $18::text[], $19::text[], $20::text[]) WITH ORDINALITY
    AS r(id, sender, kind, body, meta, screen_id, connector_id, created_at, handled_at, idem_key, if_open,
      if_closed, push_id, lines, ops, taps, gate_connector, gate_user, ord)
), m AS (
  INSERT INTO messages (id, user_id, agent_id, sender, kind, body, meta, screen_id, connector_id, created_at, handled_at, idem_key)
  SELECT r.id, $1::text, $2::text, r.sender, r.kind, r.body, r.meta, r.screen_id, r.connector_id, r.created_at,
    r.handled_at, r.idem_key
  FROM r
  WHERE r.gate_connector IS NULL OR EXISTS (SELECT 1 FROM agents a WHERE a.id = $2::text AND a.user_id = r.gate_user
    AND (a.connector_id = r.gate_connector
      OR EXISTS (SELECT 1 FROM agent_connections c WHERE c.agent_id = a.id AND c.connector_id = r.gate_connector)))
  ORDER BY r.ord
  RETURNING *
), s AS (
  INSERT INTO screens (id, user_id, agent_id, message_id, message_seq, lines, ops, taps, created_at)
  SELECT r.screen_id, m.user_id, m.agent_id, m.id, m.seq, r.lines, r.ops, r.taps, m.created_at
  FROM m JOIN r ON r.id = m.id WHERE r.lines IS NOT NULL
), v AS (
  UPDATE thread_state SET page_version = $21::bigint WHERE agent_id = $2::text AND user_id = $1::text
    AND EXISTS (SELECT 1 FROM m)
), q AS (
  SELECT m.id, m.created_at, r.push_id, CASE WHEN EXISTS (SELECT 1 FROM thread_presence p
      WHERE p.agent_id = $2::text AND p.user_id = $1::text AND p.until > r.created_at)
    THEN r.if_open ELSE r.if_closed END AS go
  FROM m JOIN r ON r.id = m.id
), i AS (
  INSERT INTO push_intents (id, user_id, agent_id, message_id, created_at, sent_at)
  SELECT q.push_id, $1::text, $2::text, q.id, q.created_at, NULL FROM q WHERE q.go
), o AS (
  INSERT INTO push_outbox (id, user_id, agent_id, subscription_id, kind, message_id, created_at, next_at)
  SELECT q.push_id || '.' || ROW_NUMBER() OVER (PARTITION BY q.id ORDER BY ps.id COLLATE "C"), $1::text, $2::text,
    ps.id, 'message', q.id, q.created_at, q.created_at
  FROM q JOIN push_subscriptions ps ON ps.user_id = $1::text WHERE q.go
)
SELECT m.*, q.go AS svc_pushed FROM m JOIN q ON q.id = m.id`;

/** The parameters of {@link BATCH_SQL} for `rows` of one thread. */
function batchValues(rows: AgentRowWrite[]): unknown[] {
  const col = <T>(f: (w: AgentRowWrite) => T) => rows.map(f);
  const first = rows[0]!.message;
  return [
    first.userId,
    first.agentId,
    col((w) => w.message.id),
    col((w) => w.message.sender),
    col((w) => w.message.kind),
    col((w) => w.message.body),
    col((w) => JSON.stringify(w.message.meta ?? {})),
    col((w) => w.screen?.id ?? w.message.screenId ?? null),
    col((w) => w.message.connectorId ?? null),
    col((w) => w.message.createdAt),
    col((w) => w.message.handledAt ?? null),
    col((w) => w.message.idemKey ?? null),
    col((w) => w.push.ifOpen),
    col((w) => w.push.ifClosed),
    col((w) => w.push.id),
    col((w) => w.screen?.lines ?? null),
    col((w) => (w.screen ? JSON.stringify(w.screen.ops) : null)),
    col((w) => (w.screen ? JSON.stringify(w.screen.taps) : null)),
    col((w) => w.servedBy?.connectorId ?? null),
    col((w) => w.servedBy?.userId ?? null),
    // Any of the rows' fresh versions will do: each was drawn for this thread and never seen before.
    rows[rows.length - 1]!.version,
  ];
}

/** A row the batch may carry: not a person's (those take their stream lock) and without photos. */
const batchable = (w: AgentRowWrite) =>
  w.message.sender !== 'person' && (w.message.photoIds?.length ?? 0) === 0;

/**
 * Writes agent rows as `insertWithPush` does, one statement at a time per thread: a row that comes while a
 * statement of its thread is on its way waits, and the rows waiting go out together when it returns. A batch
 * that fails (a taken idempotency key, an agent deleted meanwhile) is written again row by row, so each
 * caller gets its own row's outcome and nothing of the others'.
 */
export function createAgentRowWriter(q: Queryable): (w: AgentRowWrite) => Promise<AgentRowResult> {
  const write = whileBusy<AgentRowWrite, AgentRowResult>({
    max: MAX_ROWS,
    one: (w) => insertWithPush(q, w),
    async many(rows) {
      let written: Row[];
      try {
        written = (await q.query(BATCH_SQL, batchValues(rows))).rows;
      } catch {
        const outcomes = [];
        for (const w of rows) outcomes.push(await settle(() => insertWithPush(q, w)));
        return outcomes;
      }
      const byId = new Map(written.map((r) => [String(r.id), r]));
      return rows.map((w) => {
        const row = byId.get(w.message.id);
        return row
          ? { ok: true, value: agentRowResult(w, row) }
          : { ok: false, error: new AgentRowRefused() };
      });
    },
  });
  return (w) =>
    batchable(w) ? write(`${w.message.agentId}\u0000${w.message.userId}`, w) : insertWithPush(q, w);
}
