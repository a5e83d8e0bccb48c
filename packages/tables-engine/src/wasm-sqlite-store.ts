// The SQLite WebAssembly table store: a SqlDriver over an `@sqlite.org/sqlite-wasm` oo1 database under the shared SQL store.
import { TablesError } from './errors.js';
import type { SqlDriver, SqlValue } from './sql-driver.js';
import { applyLayout } from './sql-layout.js';
import { createSqlStore } from './sql-store.js';
import type { TableStore } from './store.js';

/** The part of an oo1 prepared statement (`sqlite3.oo1.Stmt`) the store uses. */
export interface WasmStatement {
  bind(values: SqlValue[]): unknown;
  step(): boolean;
  get(target: unknown[]): unknown[];
  get(target: Record<string, unknown>): Record<string, unknown>;
  reset(clearBindings?: boolean): unknown;
  finalize(): unknown;
}

/**
 * The part of an oo1 database (`new sqlite3.oo1.DB(...)`, or one opened on the `opfs-sahpool` VFS)
 * the store uses. Typed by shape so this package needs no dependency on `@sqlite.org/sqlite-wasm`.
 */
export interface WasmDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): WasmStatement;
  changes(): number;
}

/** Options of `createWasmSqliteStore`. */
export interface WasmSqliteStoreOptions {
  /** Statements kept prepared. Default 200. */
  statementCache?: number;
  /**
   * The driver from `createWasmSqlDriver(db)` when the caller also writes its own tables in the same
   * transactions (one driver per database keeps nested transactions as savepoints).
   */
  driver?: SqlDriver;
}

function wasmDriver(db: WasmDatabase, cacheSize: number): SqlDriver {
  const cache = new Map<string, WasmStatement>();
  let depth = 0;
  const step = <T>(sql: string, params: readonly SqlValue[] | undefined, each: (s: WasmStatement) => T) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= cacheSize) {
        const [oldest, old] = cache.entries().next().value!;
        cache.delete(oldest);
        old.finalize();
      }
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    try {
      if (params && params.length > 0) statement.bind([...params]);
      const out: T[] = [];
      while (statement.step()) out.push(each(statement));
      return out;
    } finally {
      statement.reset(true);
    }
  };
  // Nested calls (runOps inside a caller's transaction) become savepoints, as in better-sqlite3.
  const begin = () => {
    const name = `te_sp${depth}`;
    db.exec(depth === 0 ? 'BEGIN' : `SAVEPOINT ${name}`);
    depth++;
    return name;
  };
  const undo = (name: string) => {
    depth--;
    try {
      db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
    } catch {
      // SQLite already rolled the whole transaction back (a full disk, an I/O error): report the cause.
    }
  };
  const commit = (name: string) => {
    depth--;
    try {
      db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
    } catch (error) {
      depth++;
      undo(name);
      throw error;
    }
  };
  return {
    exec: (sql) => void db.exec(sql),
    run: (sql, params) => {
      step(sql, params, () => undefined);
      return db.changes();
    },
    get: (sql, params) => step(sql, params, (s) => s.get({}))[0],
    all: (sql, params) => step(sql, params, (s) => s.get({})),
    rows: (sql, params) => step(sql, params, (s) => s.get([])),
    transaction: (fn) => {
      const name = begin();
      let result: ReturnType<typeof fn>;
      try {
        result = fn();
      } catch (error) {
        undo(name);
        throw error;
      }
      commit(name);
      return result;
    },
    // The worker runs one request at a time, so a batch open while another starts is its caller: a savepoint.
    batch: async (fn) => {
      const name = begin();
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn();
      } catch (error) {
        undo(name);
        throw error;
      }
      commit(name);
      return result;
    },
  };
}

/**
 * Creates a table store on a SQLite WebAssembly database. Call it where the database is synchronous:
 * in a worker with the `opfs-sahpool` VFS (persistent, no cross-origin isolation needed), or on an
 * in-memory database anywhere. The SQL is the same as the better-sqlite3 store's.
 *
 * @example
 * ```ts
 * import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
 * import { createWasmSqliteStore } from '@screen-service/tables-engine/browser-sqlite';
 * const sqlite3 = await sqlite3InitModule();
 * const pool = await sqlite3.installOpfsSAHPoolVfs({});
 * const store = createWasmSqliteStore(new pool.OpfsSAHPoolDb('/agent-1.sqlite3'));
 * ```
 */
export function createWasmSqliteStore(db: WasmDatabase, options: WasmSqliteStoreOptions = {}): TableStore {
  if (typeof db?.prepare !== 'function' || typeof db.exec !== 'function') {
    throw new TablesError(
      'INVALID_OPTIONS',
      'createWasmSqliteStore needs an open @sqlite.org/sqlite-wasm oo1 database (new sqlite3.oo1.DB(...))',
    );
  }
  const cacheSize = options.statementCache ?? 200;
  const driver = options.driver ?? wasmDriver(db, cacheSize);
  applyLayout(driver);
  return createSqlStore(driver, { cacheSize });
}

/**
 * The driver under `createWasmSqliteStore`, for callers that keep their own tables in the same
 * database and want them written in the same transaction as the store's (the phone's landed screens).
 *
 * @example
 * ```ts
 * const driver = createWasmSqlDriver(db);
 * const store = createWasmSqliteStore(db, { driver });
 * driver.transaction(() => { driver.run('INSERT INTO landed VALUES (?)', [id]); runOps(store, call); });
 * ```
 */
export function createWasmSqlDriver(
  db: WasmDatabase,
  options: Pick<WasmSqliteStoreOptions, 'statementCache'> = {},
): SqlDriver {
  return wasmDriver(db, options.statementCache ?? 200);
}
