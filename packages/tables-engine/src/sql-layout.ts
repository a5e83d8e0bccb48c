// The SQL layout of the table stores (slot table c0..c11) and the check that a database has the layout this code reads.
import { TablesError } from './errors.js';
import { type Migration, type MigrationDb, MigrationError, runMigrations } from './migrations.js';
import type { SqlDriver, SqlValue } from './sql-driver.js';

/** Slot columns per row: doc3's 12 columns per table. */
export const SLOTS = 12;
/** `c0` .. `c11`. */
export const SLOT_NAMES: readonly string[] = Array.from({ length: SLOTS }, (_, i) => `c${i}`);

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

/** The runner's view of a driver (both SQLite stores run the same migrations through it). */
function migrationDb(driver: SqlDriver): MigrationDb {
  return {
    exec: (sql) => driver.exec(sql),
    prepare: (sql) => ({
      run: (...params) => driver.run(sql, params as SqlValue[]),
      get: (...params) => driver.get(sql, params as SqlValue[]),
    }),
    transaction: (fn) => () => driver.transaction(fn),
  };
}

/**
 * Brings the database to the newest layout and refuses one written by a newer version of this package.
 *
 * @example
 * ```ts
 * applyLayout(driver); // then createSqlStore(driver)
 * ```
 */
export function applyLayout(driver: SqlDriver): void {
  try {
    runMigrations(migrationDb(driver), TABLES_MIGRATIONS, { table: TABLES_MIGRATION_TABLE });
  } catch (err) {
    if (err instanceof MigrationError && err.code === 'SCHEMA_TOO_NEW') {
      throw new TablesError(
        'INVALID_OPTIONS',
        err.message.replace('upgrade the package', 'upgrade @screen-service/tables-engine'),
      );
    }
    throw err;
  }
}
