// The better-sqlite3 table store: rows in one slot table (c0..c11), queries compiled to SQL and run inside SQLite.
import Database from 'better-sqlite3';
import { compileQuery, toSqlValue } from './compile-sql.js';
import { TablesError } from './errors.js';
import { convertCell } from './fit-value.js';
import { type Migration, MigrationError, runMigrations } from './migrations.js';
import type { Cell, Column, ColumnType, StoredRow, TableInfo, TableRef } from './model.js';
import type { QueryPlan, QueryRows } from './query-plan.js';
import type { PendingDelete, TableStore } from './store.js';

type Db = Database.Database;

/** Options of `createSqliteStore`. */
export interface SqliteStoreOptions {
  /** Statements kept prepared (queries with the same shape reuse one). Default 200. */
  statementCache?: number;
}

const SLOTS = 12;
const SLOT_NAMES = Array.from({ length: SLOTS }, (_, i) => `c${i}`);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS te_tables (
  id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  holder TEXT NOT NULL,
  name TEXT NOT NULL,
  cols TEXT NOT NULL,
  next_row INTEGER NOT NULL DEFAULT 1,
  next_seq INTEGER NOT NULL DEFAULT 1,
  row_count INTEGER NOT NULL DEFAULT 0,
  UNIQUE (owner, holder, name)
);
CREATE TABLE IF NOT EXISTS te_rows (
  table_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  key TEXT NOT NULL,
  ${SLOT_NAMES.join(', ')},
  PRIMARY KEY (table_id, seq),
  UNIQUE (table_id, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS te_pending (
  n INTEGER PRIMARY KEY AUTOINCREMENT,
  owner TEXT NOT NULL,
  holder TEXT NOT NULL,
  kind TEXT NOT NULL,
  tbl TEXT NOT NULL,
  key TEXT,
  line TEXT NOT NULL
);
`;

/**
 * The engine's layout as numbered migrations, recorded in `te_migrations` (ADR 0090): the same runner the
 * service database uses. Version 1 is the first layout (IF NOT EXISTS, so a file written before the
 * runner existed passes through it unchanged); version 2 drops the old single-row `te_schema` marker.
 */
export const TABLES_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'te-layout', sql: SCHEMA },
  { version: 2, name: 'te-drop-schema-marker', sql: 'DROP TABLE IF EXISTS te_schema;' },
];

/** Where the engine records its applied migrations (its own table, so it can share a database). */
export const TABLES_MIGRATION_TABLE = 'te_migrations';

interface SlotColumn extends Column {
  slot: number;
}

interface TableRow {
  id: number;
  owner: string;
  holder: string;
  name: string;
  cols: string;
  next_row: number;
  next_seq: number;
  row_count: number;
}

interface PendingRow {
  n: number;
  owner: string;
  holder: string;
  kind: 'row' | 'table';
  tbl: string;
  key: string | null;
  line: string;
}

function fromSql(value: unknown, type: ColumnType): Cell {
  if (value === null || value === undefined) return null;
  if (type === 'bool') return value === 1;
  return value as Cell;
}

function publicCols(cols: SlotColumn[]): Column[] {
  return cols.map(({ slot: _slot, ...c }) => c);
}

function pendingOf(r: PendingRow): PendingDelete {
  return {
    id: `p${r.n}`,
    owner: r.owner,
    holder: r.holder,
    kind: r.kind,
    table: r.tbl,
    ...(r.key === null ? {} : { key: r.key }),
    line: r.line,
  };
}

/**
 * Creates a store on a better-sqlite3 database (an open handle, or a file path to open).
 *
 * @example
 * ```ts
 * import { createSqliteStore } from '@screen-service/tables-engine/sqlite';
 * const store = createSqliteStore('/var/lib/svc/tables.sqlite');
 * ```
 */
export function createSqliteStore(dbOrPath: Db | string, options: SqliteStoreOptions = {}): TableStore {
  const db: Db = typeof dbOrPath === 'string' ? new Database(dbOrPath) : dbOrPath;
  if (typeof dbOrPath === 'string') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  try {
    runMigrations(db, TABLES_MIGRATIONS, { table: TABLES_MIGRATION_TABLE });
  } catch (err) {
    if (err instanceof MigrationError && err.code === 'SCHEMA_TOO_NEW') {
      throw new TablesError(
        'OPTIONS_INVALID',
        `${err.message.replace('upgrade the package', 'upgrade @screen-service/tables-engine')}`,
      );
    }
    throw err;
  }
  const cacheSize = options.statementCache ?? 200;
  const cache = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };

  const findTable = (ref: TableRef) =>
    prepared('SELECT * FROM te_tables WHERE owner = ? AND holder = ? AND name = ?').get(
      ref.owner,
      ref.holder,
      ref.name,
    ) as TableRow | undefined;
  // Parsed column lists by their JSON text: every line reads them, few tables change them.
  const parsedCols = new Map<string, SlotColumn[]>();
  const colsOf = (t: TableRow) => {
    let cols = parsedCols.get(t.cols);
    if (!cols) {
      if (parsedCols.size >= cacheSize) parsedCols.clear();
      cols = JSON.parse(t.cols) as SlotColumn[];
      parsedCols.set(t.cols, cols);
    }
    return cols;
  };
  const infoOf = (t: TableRow): TableInfo => ({
    owner: t.owner,
    holder: t.holder,
    name: t.name,
    cols: publicCols(colsOf(t)),
    rowCount: t.row_count,
  });
  const mustFind = (ref: TableRef) => {
    const t = findTable(ref);
    if (!t) throw new TablesError('TABLE_NOT_FOUND', `No table called ${ref.name} yet.`);
    return t;
  };
  const rowOf = (cols: SlotColumn[], raw: Record<string, unknown>): StoredRow => {
    const values: Record<string, Cell> = {};
    for (const c of cols) values[c.name] = fromSql(raw[`c${c.slot}`], c.type);
    return { key: raw.key as string, values };
  };

  const redefine = (t: TableRow, cols: Column[]) => {
    const old = new Map(colsOf(t).map((c) => [c.name, c]));
    const kept = new Set(cols.filter((c) => old.has(c.name)).map((c) => old.get(c.name)!.slot));
    for (const c of old.values()) {
      if (!kept.has(c.slot)) prepared(`UPDATE te_rows SET c${c.slot} = NULL WHERE table_id = ?`).run(t.id);
    }
    const free = SLOT_NAMES.map((_, i) => i).filter((i) => !kept.has(i));
    const next: SlotColumn[] = cols.map((c) => ({ ...c, slot: old.get(c.name)?.slot ?? free.shift()! }));
    for (const c of next) {
      const was = old.get(c.name);
      if (!was || was.type === c.type) continue;
      const slot = `c${c.slot}`;
      const rows = prepared(
        `SELECT seq, ${slot} AS v FROM te_rows WHERE table_id = ? AND ${slot} IS NOT NULL`,
      ).all(t.id) as { seq: number; v: unknown }[];
      const update = prepared(`UPDATE te_rows SET ${slot} = ? WHERE table_id = ? AND seq = ?`);
      for (const r of rows) {
        update.run(toSqlValue(convertCell(fromSql(r.v, was.type), was.type, c.type, c.unit)), t.id, r.seq);
      }
    }
    prepared('UPDATE te_tables SET cols = ? WHERE id = ?').run(JSON.stringify(next), t.id);
  };

  const transaction = <T>(fn: () => T): T => db.transaction(fn)();

  const store: TableStore = {
    listTables(owner, holder) {
      const rows = (
        holder === undefined
          ? prepared('SELECT * FROM te_tables WHERE owner = ? ORDER BY id').all(owner)
          : prepared('SELECT * FROM te_tables WHERE owner = ? AND holder = ? ORDER BY id').all(owner, holder)
      ) as TableRow[];
      return rows.map(infoOf);
    },
    getTable(ref) {
      const t = findTable(ref);
      return t && infoOf(t);
    },
    defineTable(ref, cols) {
      if (cols.length > SLOTS) {
        throw new TablesError('LIMIT_COLUMNS', `a table has at most ${SLOTS} columns in the SQLite store`);
      }
      transaction(() => {
        const t = findTable(ref);
        if (t) return redefine(t, cols);
        const next = cols.map((c, slot) => ({ ...c, slot }));
        prepared('INSERT INTO te_tables (owner, holder, name, cols) VALUES (?, ?, ?, ?)').run(
          ref.owner,
          ref.holder,
          ref.name,
          JSON.stringify(next),
        );
      });
    },
    dropTable(ref) {
      return transaction(() => {
        const t = findTable(ref);
        if (!t) return false;
        prepared('DELETE FROM te_rows WHERE table_id = ?').run(t.id);
        prepared('DELETE FROM te_tables WHERE id = ?').run(t.id);
        return true;
      });
    },
    moveTable(from, to) {
      return transaction(() => {
        const t = findTable(from);
        if (!t) return false;
        if (t.holder === to.holder && t.name === to.name) return true;
        if (findTable({ owner: from.owner, ...to })) {
          throw new TablesError('OPTIONS_INVALID', `${to.holder} already has a table called ${to.name}`);
        }
        prepared('UPDATE te_tables SET holder = ?, name = ? WHERE id = ?').run(to.holder, to.name, t.id);
        prepared('DELETE FROM te_pending WHERE owner = ? AND holder = ? AND tbl = ?').run(
          from.owner,
          from.holder,
          from.name,
        );
        return true;
      });
    },
    getRow(ref, key) {
      const t = findTable(ref);
      if (!t) return undefined;
      const raw = prepared('SELECT * FROM te_rows WHERE table_id = ? AND key = ?').get(t.id, key);
      return raw ? rowOf(colsOf(t), raw as Record<string, unknown>) : undefined;
    },
    insertRow(ref, key, values) {
      return transaction(() => {
        const t = mustFind(ref);
        const taken = prepared('SELECT 1 FROM te_rows WHERE table_id = ? AND key = ?');
        if (key !== undefined && taken.get(t.id, key)) {
          throw new TablesError('KEY_INVALID', `row ${key} already exists in ${ref.name}; update it instead`);
        }
        let assigned = key;
        let nextRow = t.next_row;
        while (assigned === undefined || (key === undefined && taken.get(t.id, assigned))) {
          assigned = `r${nextRow++}`;
        }
        const cells: (string | number | null)[] = SLOT_NAMES.map(() => null);
        for (const c of colsOf(t)) cells[c.slot] = toSqlValue(values[c.name] ?? null);
        prepared(
          `INSERT INTO te_rows (table_id, seq, key, ${SLOT_NAMES.join(', ')}) VALUES (?, ?, ?, ${SLOT_NAMES.map(() => '?').join(', ')})`,
        ).run(t.id, t.next_seq, assigned, ...cells);
        prepared(
          'UPDATE te_tables SET next_row = ?, next_seq = ?, row_count = row_count + 1 WHERE id = ?',
        ).run(nextRow, t.next_seq + 1, t.id);
        return assigned;
      });
    },
    updateRow(ref, key, values) {
      const t = findTable(ref);
      if (!t) return false;
      const cols = colsOf(t).filter((c) => c.name in values);
      if (cols.length === 0) return !!store.getRow(ref, key);
      const set = cols.map((c) => `c${c.slot} = ?`).join(', ');
      const result = prepared(`UPDATE te_rows SET ${set} WHERE table_id = ? AND key = ?`).run(
        ...cols.map((c) => toSqlValue(values[c.name] ?? null)),
        t.id,
        key,
      );
      return result.changes > 0;
    },
    deleteRow(ref, key) {
      const t = findTable(ref);
      if (!t) return false;
      return transaction(() => {
        if (prepared('DELETE FROM te_rows WHERE table_id = ? AND key = ?').run(t.id, key).changes === 0)
          return false;
        prepared('UPDATE te_tables SET row_count = row_count - 1 WHERE id = ?').run(t.id);
        return true;
      });
    },
    query(ref, plan: QueryPlan): QueryRows {
      const t = mustFind(ref);
      const slots = new Map(colsOf(t).map((c) => [c.name, `c${c.slot}`]));
      const { sql, params, countSql } = compileQuery(plan, t.id, (name) => slots.get(name)!);
      const raw = prepared(sql)
        .raw()
        .all(...params) as unknown[][];
      if (countSql !== undefined) {
        const count = prepared(countSql)
          .pluck()
          .get(...params.slice(0, -1)) as number;
        return {
          rows: raw.map((r) => plan.output.map((o, i) => fromSql(r[i + 1], o.type))),
          keys: raw.map((r) => r[0] as string),
          count,
        };
      }
      return {
        rows: raw.map((r) => plan.output.map((o, i) => fromSql(r[i + 1], o.type))),
        keys: [],
        count: raw.length > 0 ? (raw[0]![0] as number) : 0,
      };
    },
    exportTable(ref) {
      const t = findTable(ref);
      if (!t) return undefined;
      const cols = colsOf(t);
      const raws = prepared('SELECT * FROM te_rows WHERE table_id = ? ORDER BY seq').all(t.id) as Record<
        string,
        unknown
      >[];
      return { cols: publicCols(cols), rows: raws.map((r) => rowOf(cols, r)) };
    },
    addPending(p) {
      const result = prepared(
        'INSERT INTO te_pending (owner, holder, kind, tbl, key, line) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(p.owner, p.holder, p.kind, p.table, p.key ?? null, p.line);
      return { ...p, id: `p${result.lastInsertRowid}` };
    },
    batch(fn) {
      return transaction(fn);
    },
    listPending(owner, holder) {
      const rows = (
        holder === undefined
          ? prepared('SELECT * FROM te_pending WHERE owner = ? ORDER BY n').all(owner)
          : prepared('SELECT * FROM te_pending WHERE owner = ? AND holder = ? ORDER BY n').all(owner, holder)
      ) as PendingRow[];
      return rows.map(pendingOf);
    },
    takePending(owner, id) {
      const n = /^p(\d+)$/.exec(id)?.[1];
      if (!n) return undefined;
      return transaction(() => {
        const row = prepared('SELECT * FROM te_pending WHERE owner = ? AND n = ?').get(owner, Number(n)) as
          | PendingRow
          | undefined;
        if (!row) return undefined;
        prepared('DELETE FROM te_pending WHERE n = ?').run(row.n);
        return pendingOf(row);
      });
    },
  };
  return store;
}
