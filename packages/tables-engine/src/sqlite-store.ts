// The better-sqlite3 table store: a SqlDriver over better-sqlite3 under the shared SQL store (sql-store.ts).
import Database from 'better-sqlite3';
import type { SqlDriver, SqlValue } from './sql-driver.js';
import { applyLayout } from './sql-layout.js';
import { createSqlStore } from './sql-store.js';
import type { TableStore } from './store.js';

type Db = Database.Database;

/** Options of `createSqliteStore`. */
export interface SqliteStoreOptions {
  /** Statements kept prepared (queries with the same shape reuse one). Default 200. */
  statementCache?: number;
}

function betterSqliteDriver(db: Db, cacheSize: number): SqlDriver {
  // Raw statements are kept apart: raw() changes a prepared statement for good.
  const plain = new Map<string, Database.Statement>();
  const raw = new Map<string, Database.Statement>();
  const cached = (cache: Map<string, Database.Statement>, sql: string, isRaw: boolean) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      statement = isRaw ? db.prepare(sql).raw() : db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  const prepared = (sql: string) => cached(plain, sql, false);
  const args = (params: readonly SqlValue[] | undefined) => (params ?? []) as SqlValue[];
  return {
    exec: (sql) => void db.exec(sql),
    run: (sql, params) => prepared(sql).run(...args(params)).changes,
    get: (sql, params) => prepared(sql).get(...args(params)) as Record<string, unknown> | undefined,
    all: (sql, params) => prepared(sql).all(...args(params)) as Record<string, unknown>[],
    rows: (sql, params) => cached(raw, sql, true).all(...args(params)) as unknown[][],
    // better-sqlite3 nests transactions as savepoints by itself.
    transaction: (fn) => db.transaction(fn)(),
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
  const cacheSize = options.statementCache ?? 200;
  const driver = betterSqliteDriver(db, cacheSize);
  applyLayout(driver);
  return createSqlStore(driver, { cacheSize });
}
