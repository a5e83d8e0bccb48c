// A page of a thread in one prepared statement: only the columns a MessageRecord needs, as arrays (ADR 0212).
import type { MessageRecord, ThreadPageQuery } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Cell = string | number | null;

/**
 * Reads pages of a thread, newest first. One statement serves the newest page and older ones (the newest
 * asks for rows below the largest seq); it selects the eleven columns a record needs and reads them as
 * arrays, skipping the thread key (known from the query) and the idempotency key: about half the time of
 * `SELECT *` into objects on a 50-row page.
 *
 * @example
 * ```ts
 * const page = preparePageReader(db);
 * const rows = page({ agentId, userId, limit: 50 });
 * ```
 */
export function preparePageReader(db: SqliteDb): (q: ThreadPageQuery) => MessageRecord[] {
  const statement = db
    .prepare(
      `SELECT seq, id, sender, kind, body, meta, screen_id, connector_id, created_at, delivered_at, handled_at
       FROM messages WHERE agent_id = ? AND user_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    )
    .raw(true);
  return (q) =>
    (statement.all(q.agentId, q.userId, q.beforeSeq ?? Number.MAX_SAFE_INTEGER, q.limit) as Cell[][]).map(
      (c) => ({
        seq: c[0] as number,
        id: c[1] as string,
        userId: q.userId,
        agentId: q.agentId,
        sender: c[2] as MessageRecord['sender'],
        kind: c[3] as MessageRecord['kind'],
        body: c[4] as string,
        meta: typeof c[5] === 'string' ? (JSON.parse(c[5]) as Record<string, unknown>) : {},
        screenId: c[6] as string | null,
        connectorId: c[7] as string | null,
        createdAt: c[8] as number,
        deliveredAt: c[9] as number | null,
        handledAt: c[10] as number | null,
      }),
    );
}
