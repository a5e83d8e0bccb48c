// The in-memory table store: plain JavaScript, no Node imports, so it runs in a browser; snapshot/restore persists it.
import { TablesError } from './errors.js';
import { convertCell } from './fit-value.js';
import type { Cell, Column, StoredRow, TableDump, TableInfo, TableRef } from './model.js';
import type { QueryPlan, QueryRows } from './query-plan.js';
import { type PlanRow, runPlan } from './run-plan.js';
import type { PendingDelete, TableStore } from './store.js';

/** A JSON-safe copy of a whole memory store. */
export interface MemorySnapshot {
  version: 1;
  tables: {
    owner: string;
    holder: string;
    name: string;
    cols: Column[];
    rows: StoredRow[];
    nextRow: number;
  }[];
  pending: PendingDelete[];
  nextPending: number;
}

/** Options of `createMemoryStore`. */
export interface MemoryStoreOptions {
  /** Starts from a snapshot taken earlier (for example read back from IndexedDB). */
  snapshot?: MemorySnapshot;
  /** Called after every change, so the web app can save `store.snapshot()`. */
  onChange?: (store: MemoryStore) => void;
}

/** The memory store: a TableStore plus snapshot and restore. */
export interface MemoryStore extends TableStore {
  snapshot(): MemorySnapshot;
  restore(snapshot: MemorySnapshot): void;
}

interface MemoryTable {
  ref: TableRef;
  cols: Column[];
  rows: PlanRow[];
  byKey: Map<string, PlanRow>;
  nextSeq: number;
  nextRow: number;
}

const idOf = (ref: TableRef) => JSON.stringify([ref.owner, ref.holder, ref.name]);
const copyValues = (values: Record<string, Cell>) => ({ ...values });

function tableFromSnapshot(t: MemorySnapshot['tables'][number]): MemoryTable {
  const rows = t.rows.map((r, i) => ({ seq: i + 1, key: r.key, values: copyValues(r.values) }));
  return {
    ref: { owner: t.owner, holder: t.holder, name: t.name },
    cols: t.cols.map((c) => ({ ...c })),
    rows,
    byKey: new Map(rows.map((r) => [r.key, r])),
    nextSeq: rows.length + 1,
    nextRow: t.nextRow,
  };
}

function info(t: MemoryTable): TableInfo {
  return { ...t.ref, cols: t.cols.map((c) => ({ ...c })), rowCount: t.rows.length };
}

/**
 * Creates an in-memory store (browser-safe).
 *
 * @example
 * ```ts
 * const store = createMemoryStore({
 *   snapshot: JSON.parse(localStorage.getItem('tables') ?? 'null') ?? undefined,
 *   onChange: (s) => localStorage.setItem('tables', JSON.stringify(s.snapshot())),
 * });
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  let tables = new Map<string, MemoryTable>();
  let pending: PendingDelete[] = [];
  let nextPending = 1;
  const changed = () => options.onChange?.(store);

  const store: MemoryStore = {
    async listTables(owner, holder) {
      return [...tables.values()]
        .filter((t) => t.ref.owner === owner && (holder === undefined || t.ref.holder === holder))
        .map(info);
    },
    async getTable(ref) {
      const t = tables.get(idOf(ref));
      return t && info(t);
    },
    async defineTable(ref, cols) {
      const old = tables.get(idOf(ref));
      const next: MemoryTable = old ?? {
        ref: { ...ref },
        cols: [],
        rows: [],
        byKey: new Map(),
        nextSeq: 1,
        nextRow: 1,
      };
      const before = new Map(next.cols.map((c) => [c.name, c]));
      for (const row of next.rows) {
        const values: Record<string, Cell> = {};
        for (const col of cols) {
          const was = before.get(col.name);
          values[col.name] = was
            ? convertCell(row.values[col.name] ?? null, was.type, col.type, col.unit)
            : null;
        }
        row.values = values;
      }
      next.cols = cols.map((c) => ({ ...c }));
      tables.set(idOf(ref), next);
      changed();
    },
    async dropTable(ref) {
      const gone = tables.delete(idOf(ref));
      if (gone) changed();
      return gone;
    },
    async moveTable(from, to) {
      const t = tables.get(idOf(from));
      if (!t) return false;
      const ref = { owner: from.owner, holder: to.holder, name: to.name };
      if (idOf(ref) === idOf(from)) return true;
      if (tables.has(idOf(ref))) {
        throw new TablesError('INVALID_OPTIONS', `${to.holder} already has a table called ${to.name}`);
      }
      tables.delete(idOf(from));
      t.ref = ref;
      tables.set(idOf(ref), t);
      pending = pending.filter(
        (p) => !(p.owner === from.owner && p.holder === from.holder && p.table === from.name),
      );
      changed();
      return true;
    },
    async getRow(ref, key) {
      const row = tables.get(idOf(ref))?.byKey.get(key);
      return row && { key: row.key, values: copyValues(row.values) };
    },
    async insertRow(ref, key, values) {
      const t = tables.get(idOf(ref));
      if (!t) throw new TablesError('TABLE_NOT_FOUND', `No table called ${ref.name} yet.`);
      if (key !== undefined && t.byKey.has(key)) {
        throw new TablesError('INVALID_KEY', `row ${key} already exists in ${ref.name}; update it instead`);
      }
      let assigned = key;
      while (assigned === undefined || (key === undefined && t.byKey.has(assigned))) {
        assigned = `r${t.nextRow++}`;
      }
      const row: PlanRow = { seq: t.nextSeq++, key: assigned, values: {} };
      for (const col of t.cols) row.values[col.name] = values[col.name] ?? null;
      t.rows.push(row);
      t.byKey.set(assigned, row);
      changed();
      return assigned;
    },
    async updateRow(ref, key, values) {
      const row = tables.get(idOf(ref))?.byKey.get(key);
      if (!row) return false;
      Object.assign(row.values, values);
      changed();
      return true;
    },
    async deleteRow(ref, key) {
      const t = tables.get(idOf(ref));
      const row = t?.byKey.get(key);
      if (!t || !row) return false;
      t.byKey.delete(key);
      t.rows.splice(t.rows.indexOf(row), 1);
      changed();
      return true;
    },
    async query(ref, plan: QueryPlan): Promise<QueryRows> {
      const t = tables.get(idOf(ref));
      if (!t) throw new TablesError('TABLE_NOT_FOUND', `No table called ${ref.name} yet.`);
      return runPlan(t.rows, plan);
    },
    async exportTable(ref): Promise<TableDump | undefined> {
      const t = tables.get(idOf(ref));
      return (
        t && { cols: info(t).cols, rows: t.rows.map((r) => ({ key: r.key, values: copyValues(r.values) })) }
      );
    },
    async addPending(p) {
      const entry = { ...p, id: `p${nextPending++}` };
      pending.push(entry);
      changed();
      return { ...entry };
    },
    async listPending(owner, holder) {
      return pending
        .filter((p) => p.owner === owner && (holder === undefined || p.holder === holder))
        .map((p) => ({ ...p }));
    },
    async takePending(owner, id) {
      const index = pending.findIndex((p) => p.owner === owner && p.id === id);
      if (index < 0) return undefined;
      const [entry] = pending.splice(index, 1);
      changed();
      return entry;
    },
    // Plain objects change at once; nothing to commit or share, so a batch just runs its calls.
    batch(fn) {
      return fn();
    },
    snapshot() {
      return {
        version: 1,
        tables: [...tables.values()].map((t) => ({
          ...t.ref,
          cols: t.cols.map((c) => ({ ...c })),
          rows: t.rows.map((r) => ({ key: r.key, values: copyValues(r.values) })),
          nextRow: t.nextRow,
        })),
        pending: pending.map((p) => ({ ...p })),
        nextPending,
      };
    },
    restore(snapshot) {
      if (snapshot?.version !== 1) {
        throw new TablesError(
          'INVALID_OPTIONS',
          'restore needs a snapshot taken by MemoryStore.snapshot() (version 1)',
        );
      }
      tables = new Map(snapshot.tables.map((t) => [idOf(t), tableFromSnapshot(t)]));
      pending = snapshot.pending.map((p) => ({ ...p }));
      nextPending = snapshot.nextPending;
    },
  };
  if (options.snapshot) store.restore(options.snapshot);
  return store;
}
