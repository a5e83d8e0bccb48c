// Numbered, append-only schema migrations for a SQLite database: the one mechanism behind the tables
// engine's own layout and the whole service database (ADR 0090). No better-sqlite3 import: any handle
// with exec/prepare/transaction works.

/** One schema step. Never edit a migration that has shipped; append a new one with the next version. */
export interface Migration {
  /** Positive integer, unique in its list; applied in ascending order. */
  version: number;
  name: string;
  sql: string;
}

/** The part of a better-sqlite3 `Database` the runner needs. */
export interface MigrationDb {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
  transaction(fn: () => void): () => unknown;
}

/** Options of {@link runMigrations}. */
export interface RunMigrationsOptions {
  /** Table recording applied versions (`version`, `name`, `applied_at`). Default `schema_migrations`. */
  table?: string;
  /** Clock for `applied_at` (ms). Default the wall clock. */
  now?: () => number;
}

/** Codes of {@link MigrationError}. */
export type MigrationErrorCode = 'INVALID_MIGRATIONS' | 'SCHEMA_TOO_NEW';

/** A refused migration list, or a database written by newer code than this one. */
export class MigrationError extends Error {
  readonly code: MigrationErrorCode;
  constructor(code: MigrationErrorCode, message: string) {
    super(message);
    this.name = 'MigrationError';
    this.code = code;
  }
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function tableOf(options: RunMigrationsOptions): string {
  const table = options.table ?? 'schema_migrations';
  if (!TABLE_NAME.test(table)) {
    throw new MigrationError(
      'INVALID_MIGRATIONS',
      `migration table name ${JSON.stringify(table)} must be letters, digits and _ (like schema_migrations)`,
    );
  }
  return table;
}

function checkList(list: readonly Migration[]): Migration[] {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (let i = 0; i < sorted.length; i++) {
    const m = sorted[i]!;
    if (!Number.isSafeInteger(m.version) || m.version < 1) {
      throw new MigrationError(
        'INVALID_MIGRATIONS',
        `migration "${m.name}" has version ${m.version}; versions are positive integers`,
      );
    }
    if (i > 0 && sorted[i - 1]!.version === m.version) {
      throw new MigrationError(
        'INVALID_MIGRATIONS',
        `migrations "${sorted[i - 1]!.name}" and "${m.name}" share version ${m.version}; give the newer one the next free number`,
      );
    }
  }
  return sorted;
}

/** The highest applied version recorded in `table` (0 for a fresh database). */
export function schemaVersion(db: MigrationDb, options: RunMigrationsOptions = {}): number {
  const table = tableOf(options);
  const exists = db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (!exists) return 0;
  const row = db.prepare(`SELECT MAX(version) AS v FROM ${table}`).get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Applies every migration newer than the recorded version, each in its own transaction (a failing one
 * rolls back whole and throws its SQL error; earlier ones stay applied). Returns the version reached.
 *
 * @throws {MigrationError} `INVALID_MIGRATIONS` for a duplicate or non-positive version,
 * `SCHEMA_TOO_NEW` when the database records a version newer than the list knows (newer code wrote it).
 * @example
 * ```ts
 * import { runMigrations } from '@screen-service/tables-engine/migrations';
 * runMigrations(db, [{ version: 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY)' }]);
 * ```
 */
export function runMigrations(
  db: MigrationDb,
  list: readonly Migration[],
  options: RunMigrationsOptions = {},
): number {
  const table = tableOf(options);
  const sorted = checkList(list);
  const now = options.now ?? Date.now;
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const current = schemaVersion(db, { table });
  const newest = sorted.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new MigrationError(
      'SCHEMA_TOO_NEW',
      `this database is at schema version ${current} (${table}); this code knows up to ${newest}: upgrade the package`,
    );
  }
  const record = db.prepare(`INSERT INTO ${table} (version, name, applied_at) VALUES (?, ?, ?)`);
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date(now()).toISOString());
    })();
  }
  return schemaVersion(db, { table });
}
