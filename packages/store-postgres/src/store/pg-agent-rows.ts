// An agent row (a chat line or a screen) with its buzz in one statement (ADR 0289), and, when the rules ask,
// guarded in that same statement by the connection still serving the agent (ADR 0291), so the rules may pick
// the agent from the list they read earlier.

import {
  AgentRowRefused,
  type AgentRowWrite,
  type MessageRecord,
  type ScreenRecord,
  screenOfRow,
  toMessage,
} from '@screen-service/registry/model';
import { first, type Queryable, type Row } from './pg-db.js';
import { insertMessageSql, messageValues } from './pg-threads.js';

/**
 * The CTEs of an agent row's buzz (ADR 0289), after those of the row ($1 message id, $2 user, $3 agent, $10
 * its time): `q.go` is what the rules said for the thread's open state at the row's time ($15 when open,
 * $16 when closed), and when it is true (and the row was written) the intent ($17) and one outbox row per
 * subscription are written, as `enqueueMessage` writes them.
 */
const pushWithRow = (gated: boolean) => `q AS (
  SELECT CASE WHEN EXISTS (
      SELECT 1 FROM thread_presence WHERE agent_id = $3::text AND user_id = $2::text AND until > $10::bigint)
    THEN $15::boolean ELSE $16::boolean END${gated ? ' AND EXISTS (SELECT 1 FROM m)' : ''} AS go
), i AS (
  INSERT INTO push_intents (id, user_id, agent_id, message_id, created_at, sent_at)
  SELECT $17::text, $2::text, $3::text, $1::text, $10::bigint, NULL FROM q WHERE go
), o AS (
  INSERT INTO push_outbox (id, user_id, agent_id, subscription_id, kind, message_id, created_at, next_at)
  SELECT $17::text || '.' || ROW_NUMBER() OVER (ORDER BY id COLLATE "C"), user_id, $3::text, id, 'message',
    $1::text, $10::bigint, $10::bigint
  FROM push_subscriptions WHERE user_id = $2::text AND (SELECT go FROM q)
)`;

/**
 * The gate CTE `g` of a guarded row (ADR 0291), its parameters `$<at>` (connection) and `$<at+1>` (user):
 * `ok` when the connection serves agent $3 for the user, as `agents.listByConnector` reads it (its own
 * connector, or a binding).
 */
const gateSql = (at: number) => `g AS (
  SELECT EXISTS (SELECT 1 FROM agents a WHERE a.id = $3::text AND a.user_id = $${at + 1}::text
    AND (a.connector_id = $${at}::text
      OR EXISTS (SELECT 1 FROM agent_connections c WHERE c.agent_id = a.id AND c.connector_id = $${at}::text))) AS ok
)`;

/** The statement of an agent row for each shape, built once (the same text is the same prepared statement). */
const rowStatements = new Map<number, string>();

/** The statement of a row by `person` (which takes its stream lock, ADR 0226) or not, with a screen or not, guarded or not. */
function rowSql(person: boolean, screen: boolean, gated: boolean): string {
  const shape = (person ? 1 : 0) | (screen ? 2 : 0) | (gated ? 4 : 0);
  let text = rowStatements.get(shape);
  if (text === undefined) {
    const screenCte = screen
      ? `s AS (
       INSERT INTO screens (id, user_id, agent_id, message_id, message_seq, lines, ops, taps, created_at)
       SELECT $18::text, user_id, agent_id, id, seq, $19::text, $20::text, $21::text, created_at FROM m
     ),`
      : '';
    // The gate's parameters follow the row's 17 (21 with a screen).
    const gate = gated ? gateSql(screen ? 22 : 18) : undefined;
    text = `${insertMessageSql(person, gate)}, ${screenCte} ${pushWithRow(gated)}
     SELECT m.*, (SELECT go FROM q) AS svc_pushed FROM m`;
    rowStatements.set(shape, text);
  }
  return text;
}

/**
 * An agent row, its screen when it has one, and its buzz, in one statement (one round trip, no BEGIN); with
 * `servedBy`, guarded in it (ADR 0291): refused, nothing is written and {@link AgentRowRefused} is thrown.
 */
export async function insertWithPush(q: Queryable, w: AgentRowWrite): Promise<AgentRowResult> {
  const m = w.screen ? { ...w.message, screenId: w.screen.id } : w.message;
  const values: unknown[] = [
    ...messageValues(m, w.version),
    w.push.ifOpen,
    w.push.ifClosed,
    w.push.id,
    // A chat line sends no $18-$21: PostgreSQL refuses a parameter the statement does not use.
    ...(w.screen
      ? [w.screen.id, w.screen.lines, JSON.stringify(w.screen.ops), JSON.stringify(w.screen.taps)]
      : []),
  ];
  if (w.servedBy) values.push(w.servedBy.connectorId, w.servedBy.userId);
  const sql = rowSql(m.sender === 'person', w.screen !== null, w.servedBy !== undefined);
  const row = await first(q, sql, values);
  // No row: the gate held it back.
  if (!row) throw new AgentRowRefused();
  return agentRowResult(w, row);
}

/** What an agent row's write gives back (as `ThreadRepository.appendWithPush`). */
export type AgentRowResult = { message: MessageRecord; screen: ScreenRecord | null; pushed: boolean };

/** The result of `w` from its written row (with `svc_pushed`), as one statement or a batch returns it. */
export function agentRowResult(w: AgentRowWrite, row: Row): AgentRowResult {
  const message = toMessage(row);
  return {
    message,
    screen: w.screen ? screenOfRow(w.screen, message) : null,
    pushed: row.svc_pushed === true,
  };
}
