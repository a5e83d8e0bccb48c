// PostgreSQL relay-table records (relay_tables, relay_agent_state). The table rows themselves are not on
// PostgreSQL yet (ADR 0220): `tables` holds no table and refuses writes with a message that says so.
import { type RelayRepository, type RelayTableMeta, ServiceError } from '@screen-service/service-core';
import type { TableStore } from '@screen-service/tables-engine';
import { first, type PgDb, type Row } from './pg-db.js';
import { num } from './rows.js';

const toMeta = (r: Row): RelayTableMeta => ({
  userId: r.user_id as string,
  holder: r.holder as string,
  name: r.name as string,
  lastReadAt: num(r.last_read_at),
  unheldAt: num(r.unheld_at),
});

const UNAVAILABLE =
  'Relay tables are not available when the service runs on PostgreSQL yet (ADR 0220); nothing was written. Run the service on its SQLite file to use tables.';

/**
 * A TableStore with no tables: reads find nothing, writes throw ServiceError `LIMIT_EXCEEDED` (HTTP 422,
 * "well-formed, refused": this deployment holds no relay tables) whose message says why and what to do.
 * Keeps every flow that only lists or releases an agent's tables (deleting an agent, the sweep) working.
 */
export function createUnavailableTableStore(): TableStore {
  const refuse = async (): Promise<never> => {
    throw new ServiceError('LIMIT_EXCEEDED', UNAVAILABLE, { field: 'lines' });
  };
  return {
    listTables: async () => [],
    getTable: async () => undefined,
    defineTable: refuse,
    dropTable: async () => false,
    moveTable: async () => false,
    getRow: async () => undefined,
    insertRow: refuse,
    updateRow: refuse,
    deleteRow: async () => false,
    query: refuse,
    exportTable: async () => undefined,
    addPending: refuse,
    listPending: async () => [],
    batch: (fn) => fn(),
    takePending: async () => undefined,
  };
}

export function createPgRelay(db: PgDb): RelayRepository {
  const tables = createUnavailableTableStore();
  return {
    tables,
    async listMeta(userId) {
      return (await db.all('SELECT * FROM relay_tables WHERE user_id = $1 ORDER BY n', [userId])).map(toMeta);
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
    async move() {
      // The engine holds no tables here, so there is never a table to move ("the table is gone").
      return false;
    },
    async drop(key) {
      await db.run('DELETE FROM relay_tables WHERE user_id = $1 AND holder = $2 AND name = $3', [
        key.userId,
        key.holder,
        key.name,
      ]);
      return tables.dropTable({ owner: key.userId, holder: key.holder, name: key.name });
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
      // Read and clear under the row's lock: two instances taking at once get the parts once.
      return db.tx(async (q) => {
        const r = await first<{ handover: string | null }>(
          q,
          'SELECT handover FROM relay_agent_state WHERE agent_id = $1 FOR UPDATE',
          [agentId],
        );
        if (r?.handover)
          await q.query('UPDATE relay_agent_state SET handover = NULL WHERE agent_id = $1', [agentId]);
        return r?.handover ?? '';
      });
    },
  };
}
