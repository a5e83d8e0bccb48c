// The storage interface every table store implements; the rules (fitting, limits, deletes) live above it.
import type { Cell, Column, StoredRow, TableDump, TableInfo, TableRef } from './model.js';
import type { QueryPlan, QueryRows } from './query-plan.js';

/** A delete waiting for the person's tap (doc3 "Deletes"). */
export interface PendingDelete {
  id: string;
  owner: string;
  holder: string;
  kind: 'row' | 'table';
  table: string;
  key?: string;
  /** The line as the agent wrote it. */
  line: string;
}

/**
 * One store of agent tables. Implementations: `createMemoryStore`, `createSqliteStore`,
 * `createWasmSqliteStore` and the PostgreSQL store of `@screen-service/store-postgres`; all pass the shared
 * conformance suite. Every method is asynchronous so a store can sit on a network database. Callers check
 * rules and limits before writing (see `runLines`); a store applies each call whole or not at all.
 */
export interface TableStore {
  /** Tables the person owns, optionally only those one agent holds, in creation order. */
  listTables(owner: string, holder?: string): Promise<TableInfo[]>;
  getTable(ref: TableRef): Promise<TableInfo | undefined>;
  /** Creates the table, or changes its columns by doc3's alter rules (match by name, convert, drop, add). */
  defineTable(ref: TableRef, cols: Column[]): Promise<void>;
  /** Removes the table with its rows; false when it did not exist. */
  dropTable(ref: TableRef): Promise<boolean>;
  /**
   * Gives the table (columns, rows, keys and row order unchanged) to another holder under a name, for the
   * relay's hand-over; the old holder's pending deletes on it are forgotten. False when `from` does not
   * exist; throws `INVALID_OPTIONS` when the new holder already has a table with that name.
   */
  moveTable(from: TableRef, to: { holder: string; name: string }): Promise<boolean>;
  getRow(ref: TableRef, key: string): Promise<StoredRow | undefined>;
  /** Adds a row at the end; with no key the store assigns the next free `r1`, `r2`, ...; returns the key. */
  insertRow(ref: TableRef, key: string | undefined, values: Record<string, Cell>): Promise<string>;
  /** Changes the named cells of an existing row; false when the row does not exist. */
  updateRow(ref: TableRef, key: string, values: Record<string, Cell>): Promise<boolean>;
  /** Removes the row; false when it did not exist. */
  deleteRow(ref: TableRef, key: string): Promise<boolean>;
  /** Runs a checked plan on the table's rows. */
  query(ref: TableRef, plan: QueryPlan): Promise<QueryRows>;
  /** The whole table in first-written order, for backups and tests. */
  exportTable(ref: TableRef): Promise<TableDump | undefined>;
  /** Keeps a delete until the person taps; the store assigns the id. */
  addPending(pending: Omit<PendingDelete, 'id'>): Promise<PendingDelete>;
  listPending(owner: string, holder?: string): Promise<PendingDelete[]>;
  /**
   * Runs `fn`'s calls on this store as one transaction (a call's lines, a hand-over): committed when its
   * promise resolves, undone when it rejects (the SQL stores; the memory store keeps what was written).
   * Each line is checked before it writes, so a refused line never needs a rollback. Concurrent batches
   * never interleave on one connection; a batch started inside another's `fn` joins it (a savepoint).
   */
  batch<T>(fn: () => Promise<T>): Promise<T>;
  /** Removes and returns the pending delete, or undefined when it is gone. */
  takePending(owner: string, id: string): Promise<PendingDelete | undefined>;
}
