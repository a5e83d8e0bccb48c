// PostgreSQL relay tables: the tables engine's store on PostgreSQL (te_tables, te_rows, te_pending; ADR 0222)
// plus the relay's own records (relay_tables, relay_agent_state).

import type { RelayRepository } from '@screen-service/registry/model';
import { num, toRelayMeta } from '@screen-service/registry/model';
import { createPostgresTableStore } from '../tables/pg-table-store.js';
import { first, type PgDb } from './pg-db.js';

/**
 * A tables call's statements stop after 2 s (ADR 0254): the core caps a call's work at 1 s, so only a
 * statement the core cannot see into (a slow plan, a lock wait) reaches it.
 */
export const RELAY_STATEMENT_TIMEOUT_MS = 2_000;

export function createPgRelay(db: PgDb): RelayRepository {
  const tables = createPostgresTableStore({ pool: db.pool, statementTimeoutMs: RELAY_STATEMENT_TIMEOUT_MS });
  return {
    tables,
    async listMeta(userId) {
      return (await db.all('SELECT * FROM relay_tables WHERE user_id = $1 ORDER BY n', [userId])).map(
        toRelayMeta,
      );
    },
    async markRead(userId, holder, names, at) {
      if (names.length === 0) return;
      await db.run(
        `INSERT INTO relay_tables (user_id, holder, name, last_read_at)
         SELECT $1, $2, name, $4 FROM unnest($3::text[]) AS name
         ON CONFLICT (user_id, holder, name) DO UPDATE SET last_read_at = excluded.last_read_at`,
        [userId, holder, names, at],
      );
    },
    move(from, to, unheldAt) {
      // The table and its record move in one transaction: the store's batch, the record's statements in it.
      return tables.batch(async () => {
        const ref = { owner: from.userId, holder: from.holder, name: from.name };
        if (!(await tables.getTable(ref)) || (await tables.getTable({ owner: from.userId, ...to })))
          return false;
        await tables.moveTable(ref, to);
        await tables.withQuery(async (q) => {
          const meta = await first<{ last_read_at: unknown }>(
            q,
            'DELETE FROM relay_tables WHERE user_id = $1 AND holder = $2 AND name = $3 RETURNING last_read_at',
            [from.userId, from.holder, from.name],
          );
          await q.query(
            `INSERT INTO relay_tables (user_id, holder, name, last_read_at, unheld_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (user_id, holder, name)
               DO UPDATE SET last_read_at = excluded.last_read_at, unheld_at = excluded.unheld_at`,
            [from.userId, to.holder, to.name, num(meta?.last_read_at), unheldAt],
          );
        });
        return true;
      });
    },
    drop(key) {
      return tables.batch(async () => {
        await tables.withQuery((q) =>
          q.query('DELETE FROM relay_tables WHERE user_id = $1 AND holder = $2 AND name = $3', [
            key.userId,
            key.holder,
            key.name,
          ]),
        );
        return tables.dropTable({ owner: key.userId, holder: key.holder, name: key.name });
      });
    },
    async listUnheldBefore(before) {
      const rows = await db.all(
        'SELECT user_id, holder, name FROM relay_tables WHERE unheld_at IS NOT NULL AND unheld_at < $1 ORDER BY unheld_at',
        [before],
      );
      return rows.map((r) => ({
        userId: r.user_id as string,
        holder: r.holder as string,
        name: r.name as string,
      }));
    },
    async readsInRow(agentId) {
      const r = await db.one<{ n: number }>(
        'SELECT reads_in_row AS n FROM relay_agent_state WHERE agent_id = $1',
        [agentId],
      );
      return Number(r?.n ?? 0);
    },
    async setReadsInRow(agentId, userId, n) {
      await db.run(
        `INSERT INTO relay_agent_state (agent_id, user_id, reads_in_row) VALUES ($1, $2, $3)
         ON CONFLICT (agent_id) DO UPDATE SET reads_in_row = excluded.reads_in_row`,
        [agentId, userId, n],
      );
    },
    async addHandover(agentId, userId, part) {
      await db.run(
        `INSERT INTO relay_agent_state (agent_id, user_id, handover) VALUES ($1, $2, $3)
         ON CONFLICT (agent_id) DO UPDATE
           SET handover = COALESCE(relay_agent_state.handover || ' ', '') || excluded.handover`,
        [agentId, userId, part],
      );
    },
    async takeHandover(agentId) {
      // Read and clear in one statement under the row's lock: two instances taking at once get the parts
      // once (the second waits, re-reads the cleared row and takes nothing), and a person's message with
      // nothing handed over pays one round trip instead of a transaction's three (issue 42).
      const r = await first<{ handover: string }>(
        db,
        `WITH taken AS (
           SELECT handover FROM relay_agent_state WHERE agent_id = $1 AND handover IS NOT NULL FOR UPDATE
         )
         UPDATE relay_agent_state s SET handover = NULL FROM taken WHERE s.agent_id = $1
         RETURNING taken.handover`,
        [agentId],
      );
      return r?.handover ?? '';
    },
  };
}
