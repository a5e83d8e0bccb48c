// SQLite relay tables: the tables engine's store on the service database plus relay_tables / relay_agent_state.

import type { RelayRepository } from '@screen-service/registry/model';
import { toRelayMeta } from '@screen-service/registry/model';
import { storeLockOf } from '@screen-service/tables-engine';
import { createSqliteStore } from '@screen-service/tables-engine/sqlite';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

/** Relay tables over one database that carries `coreMigrations` (version 8 holds the layout). */
export function createSqliteRelay(db: SqliteDb): RelayRepository {
  const tables = createSqliteStore(db);
  const listMeta = db.prepare('SELECT * FROM relay_tables WHERE user_id = ? ORDER BY rowid');
  const read = db.prepare(
    `INSERT INTO relay_tables (user_id, holder, name, last_read_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id, holder, name) DO UPDATE SET last_read_at = excluded.last_read_at`,
  );
  const removeMeta = db.prepare('DELETE FROM relay_tables WHERE user_id = ? AND holder = ? AND name = ?');
  const getMeta = db.prepare('SELECT * FROM relay_tables WHERE user_id = ? AND holder = ? AND name = ?');
  const putMeta = db.prepare(
    `INSERT INTO relay_tables (user_id, holder, name, last_read_at, unheld_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id, holder, name) DO UPDATE SET last_read_at = excluded.last_read_at, unheld_at = excluded.unheld_at`,
  );
  const unheld = db.prepare(
    'SELECT user_id, holder, name FROM relay_tables WHERE unheld_at IS NOT NULL AND unheld_at < ? ORDER BY unheld_at',
  );
  const reads = db.prepare('SELECT reads_in_row AS n FROM relay_agent_state WHERE agent_id = ?');
  const setReads = db.prepare(
    `INSERT INTO relay_agent_state (agent_id, user_id, reads_in_row) VALUES (?, ?, ?)
     ON CONFLICT (agent_id) DO UPDATE SET reads_in_row = excluded.reads_in_row`,
  );
  const addLine = db.prepare(
    `INSERT INTO relay_agent_state (agent_id, user_id, handover) VALUES (?, ?, ?)
     ON CONFLICT (agent_id) DO UPDATE SET handover = coalesce(handover || ' ', '') || excluded.handover`,
  );
  const getLine = db.prepare('SELECT handover FROM relay_agent_state WHERE agent_id = ?');
  const clearLine = db.prepare('UPDATE relay_agent_state SET handover = NULL WHERE agent_id = ?');

  const markRead = db.transaction((userId: string, holder: string, names: string[], at: number) => {
    for (const name of names) read.run(userId, holder, name, at);
  });
  const take = db.transaction((agentId: string) => {
    const row = getLine.get(agentId) as { handover: string | null } | undefined;
    if (row?.handover) clearLine.run(agentId);
    return row?.handover ?? '';
  });

  // Table batches hold a transaction across awaits: the relay's own writes wait for the connection's lock.
  const lock = storeLockOf(db);

  return {
    tables,
    async listMeta(userId) {
      return (listMeta.all(userId) as Row[]).map(toRelayMeta);
    },
    async markRead(userId, holder, names, at) {
      await lock.run(() => markRead(userId, holder, names, at));
    },
    move(from, to, at) {
      // The table and its record move in one transaction: the store's batch, with the record's writes in it.
      return tables.batch(async () => {
        const ref = { owner: from.userId, holder: from.holder, name: from.name };
        if (!(await tables.getTable(ref)) || (await tables.getTable({ owner: from.userId, ...to })))
          return false;
        const meta = getMeta.get(from.userId, from.holder, from.name) as Row | undefined;
        await tables.moveTable(ref, to);
        removeMeta.run(from.userId, from.holder, from.name);
        putMeta.run(from.userId, to.holder, to.name, (meta?.last_read_at as number | null) ?? null, at);
        return true;
      });
    },
    drop(key) {
      return tables.batch(async () => {
        removeMeta.run(key.userId, key.holder, key.name);
        return tables.dropTable({ owner: key.userId, holder: key.holder, name: key.name });
      });
    },
    async listUnheldBefore(before) {
      return (unheld.all(before) as Row[]).map((r) => ({
        userId: r.user_id as string,
        holder: r.holder as string,
        name: r.name as string,
      }));
    },
    async readsInRow(agentId) {
      return (reads.get(agentId) as { n: number } | undefined)?.n ?? 0;
    },
    async setReadsInRow(agentId, userId, n) {
      await lock.run(() => setReads.run(agentId, userId, n));
    },
    async addHandover(agentId, userId, line) {
      await lock.run(() => addLine.run(agentId, userId, line));
    },
    async takeHandover(agentId) {
      // Almost every message finds nothing to take: one read answers it, with no transaction and no wait
      // for the lock (this connection's own uncommitted batch writes are visible to it, so '' here means
      // nothing is waiting, committed or not). Parts found are read again and cleared under the lock.
      if (!(getLine.get(agentId) as { handover: string | null } | undefined)?.handover) return '';
      return lock.run(() => take(agentId));
    },
  };
}
