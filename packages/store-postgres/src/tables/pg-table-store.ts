// The tables engine's TableStore on PostgreSQL: rows as jsonb in te_rows, queries run by the engine's own plan runner.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Cell,
  type Column,
  convertCell,
  type PendingDelete,
  type PlanRow,
  runPlan,
  type StoredRow,
  type TableInfo,
  type TableRef,
  type TableStore,
  TablesError,
} from '@screen-service/tables-engine';
import type pg from 'pg';
import { createPgDb, type PgDb, type Queryable, type Row } from '../store/pg-db.js';

/** Options of {@link createPostgresTableStore}. */
export interface PostgresTableStoreOptions {
  /** A pool on a database that carries the store's migrations (`runPostgresMigrations`). */
  pool: pg.Pool;
  /**
   * PostgreSQL's `statement_timeout` inside the store's own transactions (a batch, a lone write), in ms;
   * a statement past it ends the transaction with `LIMIT_TIME` (ADR 0254). Default: none.
   */
  statementTimeoutMs?: number;
}

const QUERY_CANCELED = '57014';

/** A statement stopped by the timeout becomes the engine's `LIMIT_TIME`; anything else passes unchanged. */
function overTime(error: unknown, ms: number | undefined): unknown {
  if ((error as { code?: unknown } | null)?.code !== QUERY_CANCELED || ms === undefined) return error;
  return new TablesError(
    'LIMIT_TIME',
    `a statement of this call ran past ${ms} ms (the statement timeout) and nothing of the call was written; ask for less at once: a where= or a smaller limit=`,
  );
}

/** The PostgreSQL table store, plus a way to run the caller's own statements in the same transaction. */
export interface PostgresTableStore extends TableStore {
  /**
   * Runs `fn` on the connection of the batch this call is inside (so its statements commit or roll back
   * with the batch), or on the pool outside a batch.
   */
  withQuery<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
}

interface TableRow {
  id: number;
  owner: string;
  holder: string;
  name: string;
  cols: Column[];
  row_count: number;
  next_row: number;
  next_seq: number;
}

interface BatchScope {
  q: Queryable;
  /** Owners whose advisory lock this transaction holds already. */
  locked: Set<string>;
  savepoints: number;
}

const notFound = (ref: TableRef) => new TablesError('TABLE_NOT_FOUND', `No table called ${ref.name} yet.`);

const infoOf = (t: TableRow): TableInfo => ({
  owner: t.owner,
  holder: t.holder,
  name: t.name,
  cols: t.cols.map((c) => ({ ...c })),
  rowCount: t.row_count,
});

/** A stored cell: a JSON value, or a tagged object for the two cells jsonb cannot keep as they are. */
type Stored = Cell | { negativeZero: true } | { nul: string[] };

// jsonb's numbers drop the sign of -0 and its strings refuse U+0000; the memory store keeps both, so both
// are stored tagged (no cell is an object) and read back exactly.
function encodeCell(cell: Cell): Stored {
  if (typeof cell === 'number' && Object.is(cell, -0)) return { negativeZero: true };
  if (typeof cell === 'string' && cell.includes('\u0000')) return { nul: cell.split('\u0000') };
  return cell;
}

function decodeCell(stored: Stored | undefined): Cell {
  if (stored === undefined || stored === null) return null;
  if (typeof stored !== 'object') return stored;
  return 'nul' in stored ? stored.nul.join('\u0000') : -0;
}

/** The JSON text of a row's cells for jsonb. */
function encodeValues(values: Record<string, Cell>): string {
  const out: Record<string, Stored> = {};
  for (const [name, cell] of Object.entries(values)) out[name] = encodeCell(cell);
  return JSON.stringify(out);
}

/** A row's cells in column order, empty where jsonb holds none. */
function valuesOf(cols: Column[], vals: Record<string, Stored>): Record<string, Cell> {
  const values: Record<string, Cell> = {};
  for (const c of cols) values[c.name] = decodeCell(vals[c.name]);
  return values;
}

function pendingOf(r: Row): PendingDelete {
  return {
    id: `p${String(r.n)}`,
    owner: r.owner as string,
    holder: r.holder as string,
    kind: r.kind as 'row' | 'table',
    table: r.tbl as string,
    ...(r.key === null ? {} : { key: r.key as string }),
    line: r.line as string,
  };
}

const TABLE_COLS = 'id, owner, holder, name, cols, row_count, next_row, next_seq';
const FIND = `SELECT ${TABLE_COLS} FROM te_tables WHERE owner = $1 AND holder = $2 AND name = $3`;
// Adds the row unless its key is taken, and counts it in its table only when it was added.
const INSERT_ROW = `WITH added AS (
    INSERT INTO te_rows (table_id, seq, key, vals) VALUES ($1, $2, $3, $4::jsonb)
    ON CONFLICT (table_id, key) DO NOTHING RETURNING seq
  )
  UPDATE te_tables SET next_row = $5, next_seq = next_seq + 1, row_count = row_count + 1
  WHERE id = $1 AND EXISTS (SELECT 1 FROM added) RETURNING id`;

/**
 * Creates the table store on a database that carries the store's migrations (version 2 makes
 * `te_tables`, `te_rows`, `te_pending`). Writes of one person are serial: each write transaction first
 * takes that person's advisory lock, as SQLite's single writer would (limits are checked, then written,
 * without a race between instances). Queries read the table's rows and run the engine's `runPlan`, so
 * sorting, empty cells and text comparison answer exactly as the memory store (ADR 0222).
 *
 * @example
 * ```ts
 * const tables = createPostgresTableStore({ pool });
 * await runLines(tables, { owner: userId, agent: agentId, now: Date.now(), timeZone: 'UTC', lines });
 * ```
 */
export function createPostgresTableStore(options: PostgresTableStoreOptions): PostgresTableStore {
  const db = createPgDb(options.pool);
  const scope = new AsyncLocalStorage<BatchScope>();
  const { ownTx, write, read } = ownerAccess(db, scope, options.statementTimeoutMs);

  const find = async (q: Queryable, ref: TableRef, forUpdate = false) =>
    (await q.query<TableRow>(`${FIND}${forUpdate ? ' FOR UPDATE' : ''}`, [ref.owner, ref.holder, ref.name]))
      .rows[0];

  const store: PostgresTableStore = {
    listTables(owner, holder) {
      return read(owner, async (q) => {
        const { rows } =
          holder === undefined
            ? await q.query<TableRow>(`SELECT ${TABLE_COLS} FROM te_tables WHERE owner = $1 ORDER BY id`, [
                owner,
              ])
            : await q.query<TableRow>(
                `SELECT ${TABLE_COLS} FROM te_tables WHERE owner = $1 AND holder = $2 ORDER BY id`,
                [owner, holder],
              );
        return rows.map(infoOf);
      });
    },
    getTable(ref) {
      return read(ref.owner, async (q) => {
        const t = await find(q, ref);
        return t && infoOf(t);
      });
    },
    defineTable(ref, cols) {
      return write(ref.owner, async (q) => {
        const t = await find(q, ref, true);
        if (t) return redefine(q, t, cols);
        await q.query('INSERT INTO te_tables (owner, holder, name, cols) VALUES ($1, $2, $3, $4::jsonb)', [
          ref.owner,
          ref.holder,
          ref.name,
          JSON.stringify(cols),
        ]);
      });
    },
    dropTable(ref) {
      return write(ref.owner, async (q) => {
        const gone = await q.query('DELETE FROM te_tables WHERE owner = $1 AND holder = $2 AND name = $3', [
          ref.owner,
          ref.holder,
          ref.name,
        ]);
        return (gone.rowCount ?? 0) > 0;
      });
    },
    moveTable(from, to) {
      return write(from.owner, async (q) => {
        const t = await find(q, from, true);
        if (!t) return false;
        if (t.holder === to.holder && t.name === to.name) return true;
        if (await find(q, { owner: from.owner, ...to })) {
          throw new TablesError('INVALID_OPTIONS', `${to.holder} already has a table called ${to.name}`);
        }
        await q.query('UPDATE te_tables SET holder = $2, name = $3 WHERE id = $1', [
          t.id,
          to.holder,
          to.name,
        ]);
        await q.query('DELETE FROM te_pending WHERE owner = $1 AND holder = $2 AND tbl = $3', [
          from.owner,
          from.holder,
          from.name,
        ]);
        return true;
      });
    },
    getRow(ref, key) {
      return read(ref.owner, async (q) => {
        const t = await find(q, ref);
        if (!t) return undefined;
        const { rows } = await q.query<{ key: string; vals: Record<string, Stored> }>(
          'SELECT key, vals FROM te_rows WHERE table_id = $1 AND key = $2',
          [t.id, key],
        );
        const r = rows[0];
        return r && { key: r.key, values: valuesOf(t.cols, r.vals) };
      });
    },
    insertRow(ref, key, values) {
      return write(ref.owner, async (q) => {
        const t = await find(q, ref, true);
        if (!t) throw notFound(ref);
        const vals = encodeValues(valuesOf(t.cols, values));
        let nextRow = t.next_row;
        // A keyless row takes the next free r<N>; one round trip per try (the insert and the count together).
        for (;;) {
          const assigned = key ?? `r${nextRow++}`;
          const added = await q.query(INSERT_ROW, [t.id, t.next_seq, assigned, vals, nextRow]);
          if (added.rows.length > 0) return assigned;
          if (key !== undefined) {
            throw new TablesError(
              'INVALID_KEY',
              `row ${key} already exists in ${ref.name}; update it instead`,
            );
          }
        }
      });
    },
    updateRow(ref, key, values) {
      return write(ref.owner, async (q) => {
        const t = await find(q, ref);
        if (!t) return false;
        const set: Record<string, Cell> = {};
        for (const c of t.cols) if (c.name in values) set[c.name] = values[c.name] ?? null;
        const done = await q.query(
          'UPDATE te_rows SET vals = vals || $3::jsonb WHERE table_id = $1 AND key = $2',
          [t.id, key, encodeValues(set)],
        );
        return (done.rowCount ?? 0) > 0;
      });
    },
    deleteRow(ref, key) {
      return write(ref.owner, async (q) => {
        const t = await find(q, ref, true);
        if (!t) return false;
        const gone = await q.query('DELETE FROM te_rows WHERE table_id = $1 AND key = $2', [t.id, key]);
        if ((gone.rowCount ?? 0) === 0) return false;
        await q.query('UPDATE te_tables SET row_count = row_count - 1 WHERE id = $1', [t.id]);
        return true;
      });
    },
    query(ref, plan) {
      return read(ref.owner, async (q) => {
        const t = await find(q, ref);
        if (!t) throw notFound(ref);
        return runPlan(await planRows(q, t), plan);
      });
    },
    exportTable(ref) {
      return read(ref.owner, async (q) => {
        const t = await find(q, ref);
        if (!t) return undefined;
        const rows = await planRows(q, t);
        return { cols: infoOf(t).cols, rows: rows.map((r): StoredRow => ({ key: r.key, values: r.values })) };
      });
    },
    ...pendingDeletes(read, write),
    async batch(fn) {
      const s = scope.getStore();
      if (s) {
        // Inside a batch: a savepoint, so a rejected inner batch undoes only its own writes.
        const name = `te_batch${++s.savepoints}`;
        await s.q.query(`SAVEPOINT ${name}`);
        try {
          const out = await fn();
          await s.q.query(`RELEASE SAVEPOINT ${name}`);
          return out;
        } catch (error) {
          await s.q.query(`ROLLBACK TO SAVEPOINT ${name}`);
          await s.q.query(`RELEASE SAVEPOINT ${name}`);
          throw error;
        }
      }
      return ownTx((q) => scope.run({ q, locked: new Set(), savepoints: 0 }, fn));
    },
    withQuery(fn) {
      return fn(scope.getStore()?.q ?? db);
    },
  };
  return store;
}

/** A table's new columns: each row's cells converted as the memory store converts them, then the columns. */
async function redefine(q: Queryable, t: TableRow, cols: Column[]): Promise<void> {
  const before = new Map(t.cols.map((c) => [c.name, c]));
  const { rows } = await q.query<{ seq: number; vals: Record<string, Stored> }>(
    'SELECT seq, vals FROM te_rows WHERE table_id = $1',
    [t.id],
  );
  // The same conversion as the memory store, cell by cell (doc3's alter rules live in convertCell).
  const changed = rows.map((r) => {
    const vals: Record<string, Cell> = {};
    for (const col of cols) {
      const was = before.get(col.name);
      vals[col.name] = was ? convertCell(decodeCell(r.vals[col.name]), was.type, col.type, col.unit) : null;
    }
    return { seq: r.seq, vals: JSON.parse(encodeValues(vals)) as Record<string, Stored> };
  });
  if (changed.length > 0) {
    await q.query(
      `UPDATE te_rows r SET vals = v.vals FROM jsonb_to_recordset($2::jsonb) AS v(seq bigint, vals jsonb)
       WHERE r.table_id = $1 AND r.seq = v.seq`,
      [t.id, JSON.stringify(changed)],
    );
  }
  await q.query('UPDATE te_tables SET cols = $2::jsonb WHERE id = $1', [t.id, JSON.stringify(cols)]);
}

/** The store's transactions and its per-owner access: an owner's writes are serial across instances. */
function ownerAccess(db: PgDb, scope: AsyncLocalStorage<BatchScope>, timeoutMs: number | undefined) {
  /** One transaction of the store's own, under its statement timeout. */
  const ownTx = async <T>(fn: (q: Queryable) => Promise<T>): Promise<T> => {
    try {
      return await db.tx(async (q) => {
        if (timeoutMs !== undefined)
          await q.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
        return fn(q);
      });
    } catch (error) {
      throw overTime(error, timeoutMs);
    }
  };

  const lockOwner = async (s: BatchScope, owner: string) => {
    if (s.locked.has(owner)) return;
    await s.q.query("SELECT pg_advisory_xact_lock(hashtextextended('te ' || $1::text, 0))", [owner]);
    s.locked.add(owner);
  };

  /** A write: inside the caller's batch, or in a transaction of its own; the owner's lock first. */
  const write = async <T>(owner: string, fn: (q: Queryable) => Promise<T>): Promise<T> => {
    const s = scope.getStore();
    if (s) {
      await lockOwner(s, owner);
      return fn(s.q);
    }
    return ownTx(async (q) => {
      const own: BatchScope = { q, locked: new Set(), savepoints: 0 };
      await lockOwner(own, owner);
      return scope.run(own, () => fn(q));
    });
  };
  /**
   * A read: inside a batch on its connection under the owner's lock (a batch's checks and writes see one
   * state, as on SQLite's single writer); outside a batch one statement on the pool.
   */
  const read = async <T>(owner: string, fn: (q: Queryable) => Promise<T>): Promise<T> => {
    const s = scope.getStore();
    if (!s) return fn(db);
    await lockOwner(s, owner);
    return fn(s.q);
  };
  return { ownTx, write: write as OwnerAccess, read: read as OwnerAccess };
}

/** How the store reads and writes one owner's rows (inside a batch or in a transaction of its own). */
type OwnerAccess = <T>(owner: string, fn: (q: Queryable) => Promise<T>) => Promise<T>;

/** The deletes waiting for the person's Delete / Keep tap (doc3 D3-35). */
function pendingDeletes(
  read: OwnerAccess,
  write: OwnerAccess,
): Pick<PostgresTableStore, 'addPending' | 'listPending' | 'takePending'> {
  return {
    addPending(p) {
      return write(p.owner, async (q) => {
        const { rows } = await q.query<{ n: number }>(
          'INSERT INTO te_pending (owner, holder, kind, tbl, key, line) VALUES ($1, $2, $3, $4, $5, $6) RETURNING n',
          [p.owner, p.holder, p.kind, p.table, p.key ?? null, p.line],
        );
        return { ...p, id: `p${String(rows[0]!.n)}` };
      });
    },
    listPending(owner, holder) {
      return read(owner, async (q) => {
        const { rows } =
          holder === undefined
            ? await q.query('SELECT * FROM te_pending WHERE owner = $1 ORDER BY n', [owner])
            : await q.query('SELECT * FROM te_pending WHERE owner = $1 AND holder = $2 ORDER BY n', [
                owner,
                holder,
              ]);
        return rows.map(pendingOf);
      });
    },
    takePending(owner, id) {
      const n = /^p(\d{1,15})$/.exec(id)?.[1];
      if (!n) return Promise.resolve(undefined);
      return write(owner, async (q) => {
        const { rows } = await q.query('DELETE FROM te_pending WHERE owner = $1 AND n = $2 RETURNING *', [
          owner,
          Number(n),
        ]);
        return rows[0] && pendingOf(rows[0]);
      });
    },
  };
}

async function planRows(q: Queryable, t: TableRow): Promise<PlanRow[]> {
  const { rows } = await q.query<{ seq: number; key: string; vals: Record<string, Stored> }>(
    'SELECT seq, key, vals FROM te_rows WHERE table_id = $1 ORDER BY seq',
    [t.id],
  );
  return rows.map((r) => ({ seq: r.seq, key: r.key, values: valuesOf(t.cols, r.vals) }));
}
