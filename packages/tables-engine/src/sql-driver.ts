// The few calls the SQL table store makes on a database, so one store runs on better-sqlite3 and on SQLite WebAssembly.

/** A value SQLite takes as a parameter or gives back (booleans are stored as 1/0). */
export type SqlValue = string | number | null;

/**
 * A synchronous SQLite connection. `createSqliteStore` wraps better-sqlite3 in one and
 * `createWasmSqliteStore` wraps an `@sqlite.org/sqlite-wasm` oo1 database (inside a worker, where it
 * is synchronous too); the store's SQL is written once against this interface.
 */
export interface SqlDriver {
  /** Runs statements with no parameters and no result (the layout). */
  exec(sql: string): void;
  /** Runs one statement; returns how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): number;
  /** The first result row as an object keyed by column name, or undefined. */
  get(sql: string, params?: readonly SqlValue[]): Record<string, unknown> | undefined;
  /** Every result row as an object keyed by column name. */
  all(sql: string, params?: readonly SqlValue[]): Record<string, unknown>[];
  /** Every result row as an array in column order. */
  rows(sql: string, params?: readonly SqlValue[]): unknown[][];
  /** Runs `fn` in one transaction (a savepoint when one is open): committed when it returns, undone when it throws. */
  transaction<T>(fn: () => T): T;
  /**
   * Runs asynchronous `fn` in one transaction that spans its awaits: committed when its promise resolves,
   * undone when it rejects. Batches on one connection run one after another (never interleaved); a batch
   * started inside another's `fn` is a savepoint of it.
   */
  batch<T>(fn: () => Promise<T>): Promise<T>;
}
