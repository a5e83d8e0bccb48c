// The better-sqlite3 table store: a SqlDriver over better-sqlite3 under the shared SQL store (sql-store.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import { TablesError } from './errors.js';
import type { SqlDriver, SqlValue } from './sql-driver.js';
import { applyLayout } from './sql-layout.js';
import { createSqlStore } from './sql-store.js';
import type { TableStore } from './store.js';
import { storeLockOf } from './store-lock.js';

type Db = Database.Database;

/** Options of `createSqliteStore`. */
export interface SqliteStoreOptions {
  /** Statements kept prepared (queries with the same shape reuse one). Default 200. */
  statementCache?: number;
}

/** The connection whose batch the current async call runs inside, so a batch inside it nests. */
const insideBatch = new AsyncLocalStorage<Db>();
let savepoints = 0;

async function nestedBatch<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const name = `te_batch${++savepoints}`;
  db.exec(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    db.exec(`RELEASE ${name}`);
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
    throw error;
  }
}

/**
 * One transaction across `fn`'s awaits, under the connection's lock (`storeLockOf(db)`): the service's
 * group commit takes the same lock, so no other transaction lands inside this one while it waits.
 */
function outerBatch<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  return storeLockOf(db).run(() =>
    insideBatch.run(db, async () => {
      if (db.inTransaction) {
        throw new TablesError(
          'INVALID_OPTIONS',
          'a table batch cannot start inside a synchronous transaction on the same connection; run it after that transaction, or put those writes inside the batch',
        );
      }
      db.exec('BEGIN');
      try {
        const result = await fn();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    }),
  );
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
    batch: (fn) => (insideBatch.getStore() === db ? nestedBatch(db, fn) : outerBatch(db, fn)),
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
