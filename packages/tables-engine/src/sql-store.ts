// The table store written once in SQL over a SqlDriver: rows in one slot table (c0..c11), queries compiled by compile-sql.
import { compileQuery, toSqlValue } from './compile-sql.js';
import { TablesError } from './errors.js';
import { convertCell } from './fit-value.js';
import type { Cell, Column, ColumnType, StoredRow, TableInfo, TableRef } from './model.js';
import type { QueryPlan, QueryRows } from './query-plan.js';
import type { SqlDriver, SqlValue } from './sql-driver.js';
import { SLOT_NAMES, SLOTS } from './sql-layout.js';
import type { PendingDelete, TableStore } from './store.js';

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

const INSERT_ROW = `INSERT INTO te_rows (table_id, seq, key, ${SLOT_NAMES.join(', ')}) VALUES (?, ?, ?, ${SLOT_NAMES.map(() => '?').join(', ')})`;

/** What every part of the store reads a table through: its row, its parsed columns, its public view. */
interface TableReader {
  findTable(ref: TableRef): TableRow | undefined;
  /** Throws TABLE_NOT_FOUND. */
  mustFind(ref: TableRef): TableRow;
  colsOf(t: TableRow): SlotColumn[];
  infoOf(t: TableRow): TableInfo;
  rowOf(cols: SlotColumn[], raw: Record<string, unknown>): StoredRow;
}

function tableReader(driver: SqlDriver, cacheSize: number): TableReader {
  const findTable = (ref: TableRef) =>
    driver.get('SELECT * FROM te_tables WHERE owner = ? AND holder = ? AND name = ?', [
      ref.owner,
      ref.holder,
      ref.name,
    ]) as TableRow | undefined;
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
  return {
    findTable,
    mustFind(ref) {
      const t = findTable(ref);
      if (!t) throw new TablesError('TABLE_NOT_FOUND', `No table called ${ref.name} yet.`);
      return t;
    },
    colsOf,
    infoOf: (t) => ({
      owner: t.owner,
      holder: t.holder,
      name: t.name,
      cols: publicCols(colsOf(t)),
      rowCount: t.row_count,
    }),
    rowOf(cols, raw) {
      const values: Record<string, Cell> = {};
      for (const c of cols) values[c.name] = fromSql(raw[`c${c.slot}`], c.type);
      return { key: raw.key as string, values };
    },
  };
}

/** doc3's alter rules on the slots: kept columns keep their slot and convert, dropped ones are emptied. */
function redefine(driver: SqlDriver, reader: TableReader, t: TableRow, cols: Column[]) {
  const old = new Map(reader.colsOf(t).map((c) => [c.name, c]));
  const kept = new Set(cols.filter((c) => old.has(c.name)).map((c) => old.get(c.name)!.slot));
  for (const c of old.values()) {
    if (!kept.has(c.slot)) driver.run(`UPDATE te_rows SET c${c.slot} = NULL WHERE table_id = ?`, [t.id]);
  }
  const free = SLOT_NAMES.map((_, i) => i).filter((i) => !kept.has(i));
  const next: SlotColumn[] = cols.map((c) => ({ ...c, slot: old.get(c.name)?.slot ?? free.shift()! }));
  for (const c of next) {
    const was = old.get(c.name);
    if (!was || was.type === c.type) continue;
    const slot = `c${c.slot}`;
    const rows = driver.all(
      `SELECT seq, ${slot} AS v FROM te_rows WHERE table_id = ? AND ${slot} IS NOT NULL`,
      [t.id],
    ) as { seq: number; v: unknown }[];
    for (const r of rows) {
      driver.run(`UPDATE te_rows SET ${slot} = ? WHERE table_id = ? AND seq = ?`, [
        toSqlValue(convertCell(fromSql(r.v, was.type), was.type, c.type, c.unit)),
        t.id,
        r.seq,
      ]);
    }
  }
  driver.run('UPDATE te_tables SET cols = ? WHERE id = ?', [JSON.stringify(next), t.id]);
}

type TableMethods = Pick<
  TableStore,
  'listTables' | 'getTable' | 'defineTable' | 'dropTable' | 'moveTable' | 'exportTable'
>;

function tableMethods(driver: SqlDriver, reader: TableReader): TableMethods {
  const { findTable, infoOf } = reader;
  return {
    async listTables(owner, holder) {
      const rows = (holder === undefined
        ? driver.all('SELECT * FROM te_tables WHERE owner = ? ORDER BY id', [owner])
        : driver.all('SELECT * FROM te_tables WHERE owner = ? AND holder = ? ORDER BY id', [
            owner,
            holder,
          ])) as unknown as TableRow[];
      return rows.map(infoOf);
    },
    async getTable(ref) {
      const t = findTable(ref);
      return t && infoOf(t);
    },
    async defineTable(ref, cols) {
      if (cols.length > SLOTS) {
        throw new TablesError('LIMIT_COLUMNS', `a table has at most ${SLOTS} columns in the SQLite store`);
      }
      driver.transaction(() => {
        const t = findTable(ref);
        if (t) return redefine(driver, reader, t, cols);
        const next = cols.map((c, slot) => ({ ...c, slot }));
        driver.run('INSERT INTO te_tables (owner, holder, name, cols) VALUES (?, ?, ?, ?)', [
          ref.owner,
          ref.holder,
          ref.name,
          JSON.stringify(next),
        ]);
      });
    },
    async dropTable(ref) {
      return driver.transaction(() => {
        const t = findTable(ref);
        if (!t) return false;
        driver.run('DELETE FROM te_rows WHERE table_id = ?', [t.id]);
        driver.run('DELETE FROM te_tables WHERE id = ?', [t.id]);
        return true;
      });
    },
    async moveTable(from, to) {
      return driver.transaction(() => {
        const t = findTable(from);
        if (!t) return false;
        if (t.holder === to.holder && t.name === to.name) return true;
        if (findTable({ owner: from.owner, ...to })) {
          throw new TablesError('INVALID_OPTIONS', `${to.holder} already has a table called ${to.name}`);
        }
        driver.run('UPDATE te_tables SET holder = ?, name = ? WHERE id = ?', [to.holder, to.name, t.id]);
        driver.run('DELETE FROM te_pending WHERE owner = ? AND holder = ? AND tbl = ?', [
          from.owner,
          from.holder,
          from.name,
        ]);
        return true;
      });
    },
    async exportTable(ref) {
      const t = findTable(ref);
      if (!t) return undefined;
      const cols = reader.colsOf(t);
      const raws = driver.all('SELECT * FROM te_rows WHERE table_id = ? ORDER BY seq', [t.id]);
      return { cols: publicCols(cols), rows: raws.map((r) => reader.rowOf(cols, r)) };
    },
  };
}

type RowMethods = Pick<TableStore, 'getRow' | 'insertRow' | 'updateRow' | 'deleteRow' | 'query'>;

function rowMethods(driver: SqlDriver, reader: TableReader): RowMethods {
  const { findTable, mustFind, colsOf } = reader;
  const getRow: RowMethods['getRow'] = async (ref, key) => {
    const t = findTable(ref);
    if (!t) return undefined;
    const raw = driver.get('SELECT * FROM te_rows WHERE table_id = ? AND key = ?', [t.id, key]);
    return raw ? reader.rowOf(colsOf(t), raw) : undefined;
  };
  return {
    getRow,
    async insertRow(ref, key, values) {
      return driver.transaction(() => {
        const t = mustFind(ref);
        const taken = (k: string) =>
          !!driver.get('SELECT 1 AS x FROM te_rows WHERE table_id = ? AND key = ?', [t.id, k]);
        if (key !== undefined && taken(key)) {
          throw new TablesError('INVALID_KEY', `row ${key} already exists in ${ref.name}; update it instead`);
        }
        let assigned = key;
        let nextRow = t.next_row;
        while (assigned === undefined || (key === undefined && taken(assigned))) {
          assigned = `r${nextRow++}`;
        }
        const cells: SqlValue[] = SLOT_NAMES.map(() => null);
        for (const c of colsOf(t)) cells[c.slot] = toSqlValue(values[c.name] ?? null);
        driver.run(INSERT_ROW, [t.id, t.next_seq, assigned, ...cells]);
        driver.run(
          'UPDATE te_tables SET next_row = ?, next_seq = ?, row_count = row_count + 1 WHERE id = ?',
          [nextRow, t.next_seq + 1, t.id],
        );
        return assigned;
      });
    },
    async updateRow(ref, key, values) {
      const t = findTable(ref);
      if (!t) return false;
      const cols = colsOf(t).filter((c) => c.name in values);
      if (cols.length === 0) return !!(await getRow(ref, key));
      const set = cols.map((c) => `c${c.slot} = ?`).join(', ');
      return (
        driver.run(`UPDATE te_rows SET ${set} WHERE table_id = ? AND key = ?`, [
          ...cols.map((c) => toSqlValue(values[c.name] ?? null)),
          t.id,
          key,
        ]) > 0
      );
    },
    async deleteRow(ref, key) {
      const t = findTable(ref);
      if (!t) return false;
      return driver.transaction(() => {
        if (driver.run('DELETE FROM te_rows WHERE table_id = ? AND key = ?', [t.id, key]) === 0) return false;
        driver.run('UPDATE te_tables SET row_count = row_count - 1 WHERE id = ?', [t.id]);
        return true;
      });
    },
    async query(ref, plan: QueryPlan): Promise<QueryRows> {
      const t = mustFind(ref);
      const slots = new Map(colsOf(t).map((c) => [c.name, `c${c.slot}`]));
      const { sql, params, countSql } = compileQuery(plan, t.id, (name) => slots.get(name)!);
      const raw = driver.rows(sql, params);
      const rows = raw.map((r) => plan.output.map((o, i) => fromSql(r[i + 1], o.type)));
      if (countSql !== undefined) {
        const count = driver.rows(countSql, params.slice(0, -1))[0]![0] as number;
        return { rows, keys: raw.map((r) => r[0] as string), count };
      }
      return { rows, keys: [], count: raw.length > 0 ? (raw[0]![0] as number) : 0 };
    },
  };
}

type PendingMethods = Pick<TableStore, 'addPending' | 'listPending' | 'takePending'>;

function pendingMethods(driver: SqlDriver): PendingMethods {
  return {
    async addPending(p) {
      const row = driver.get(
        'INSERT INTO te_pending (owner, holder, kind, tbl, key, line) VALUES (?, ?, ?, ?, ?, ?) RETURNING n',
        [p.owner, p.holder, p.kind, p.table, p.key ?? null, p.line],
      );
      return { ...p, id: `p${String(row!.n)}` };
    },
    async listPending(owner, holder) {
      const rows = (holder === undefined
        ? driver.all('SELECT * FROM te_pending WHERE owner = ? ORDER BY n', [owner])
        : driver.all('SELECT * FROM te_pending WHERE owner = ? AND holder = ? ORDER BY n', [
            owner,
            holder,
          ])) as unknown as PendingRow[];
      return rows.map(pendingOf);
    },
    async takePending(owner, id) {
      const n = /^p(\d+)$/.exec(id)?.[1];
      if (!n) return undefined;
      return driver.transaction(() => {
        const row = driver.get('SELECT * FROM te_pending WHERE owner = ? AND n = ?', [owner, Number(n)]) as
          | PendingRow
          | undefined;
        if (!row) return undefined;
        driver.run('DELETE FROM te_pending WHERE n = ?', [row.n]);
        return pendingOf(row);
      });
    },
  };
}

/**
 * Creates a table store on a driver whose database already has the layout (`applyLayout`). Used by
 * `createSqliteStore` (better-sqlite3) and `createWasmSqliteStore` (SQLite WebAssembly).
 *
 * @example
 * ```ts
 * applyLayout(driver);
 * const store = createSqlStore(driver, { cacheSize: 200 });
 * ```
 */
export function createSqlStore(driver: SqlDriver, options: { cacheSize?: number } = {}): TableStore {
  const reader = tableReader(driver, options.cacheSize ?? 200);
  return {
    ...tableMethods(driver, reader),
    ...rowMethods(driver, reader),
    ...pendingMethods(driver),
    batch: (fn) => driver.batch(fn),
  };
}
