// svc_threads' read (the agents a connection serves, each with its thread's unhandled count, ADR 0289) with the
// reads that come while one is on its way answered together by the next statement (ADR 0296).

import {
  AGENT_SUMMARY_COLUMNS,
  type AgentSummary,
  byListOrder,
  toAgentSummary,
} from '@screen-service/registry/model';
import type { Queryable, Row } from './pg-db.js';
import { whileBusy } from './while-busy.js';

type Served = { agent: AgentSummary; unhandled: number }[];
type Ask = { connectorId: string; userId: string };

/** At most this many asks in one statement. */
const MAX_ASKS = 64;

const UNHANDLED = `(SELECT COUNT(*) FROM messages m WHERE m.agent_id = a.id AND m.user_id = k.u
  AND m.sender = 'person' AND m.handled_at IS NULL) AS svc_unhandled`;

/**
 * The served agents of each ask ($1 connections, $2 users; `svc_ask` its 1-based place): the connection's own
 * agents and those bound to it, each through its index (an OR over the two would scan every agent).
 */
const SERVED_SQL = `WITH k AS (SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(c, u, i)),
served AS (
  SELECT k.i, a.id FROM k JOIN agents a ON a.connector_id = k.c
  UNION
  SELECT k.i, ac.agent_id FROM k JOIN agent_connections ac ON ac.connector_id = k.c
)
SELECT served.i AS svc_ask, ${AGENT_SUMMARY_COLUMNS}, ${UNHANDLED}
FROM served JOIN k ON k.i = served.i JOIN agents a ON a.id = served.id`;

/** The answers of `asks` from one statement, in their order. */
async function readMany(q: Queryable, asks: Ask[]): Promise<Served[]> {
  const rows = (await q.query<Row>(SERVED_SQL, [asks.map((a) => a.connectorId), asks.map((a) => a.userId)]))
    .rows;
  const out: Served[] = asks.map(() => []);
  for (const r of rows) {
    out[Number(r.svc_ask) - 1]!.push({ agent: toAgentSummary(r), unhandled: Number(r.svc_unhandled) });
  }
  for (const list of out) list.sort((x, y) => byListOrder(x.agent, y.agent));
  return out;
}

/**
 * `AgentRepository.listByConnectorWithUnhandled` on `q`: one statement at a time, and the asks that come
 * meanwhile share the next (equal asks read once). Each answer is read after its ask came, as alone.
 */
export function servedAgentsReader(q: Queryable): (connectorId: string, userId: string) => Promise<Served> {
  const read = whileBusy<Ask, Served>({
    max: MAX_ASKS,
    one: async (ask) => (await readMany(q, [ask]))[0]!,
    async many(asks) {
      const keyOf = (a: Ask) => `${a.connectorId}\u0000${a.userId}`;
      const distinct = [...new Map(asks.map((a) => [keyOf(a), a])).values()];
      const answers = await readMany(q, distinct);
      const byKey = new Map(distinct.map((a, i) => [keyOf(a), answers[i]!]));
      // Each caller gets its own copy: a list shared between callers could be changed by one of them.
      return asks.map((a) => ({ ok: true as const, value: byKey.get(keyOf(a))!.slice() }));
    },
  });
  return (connectorId, userId) => read('served', { connectorId, userId });
}
