// The SQL layout of the table stores (slot table c0..c11) and the check that a database has the layout this code reads.
import { TablesError } from './errors.js';
import type { SqlDriver } from './sql-driver.js';

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
CREATE TABLE IF NOT EXISTS te_schema (version INTEGER NOT NULL);
INSERT INTO te_schema (version) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM te_schema);`;

/** The layout version this code writes; a later layout adds a numbered migration (ADR 0002). */
export const SCHEMA_VERSION = 1;

/**
 * Creates the layout when missing and refuses a database written by a newer layout.
 *
 * @example
 * ```ts
 * applyLayout(driver); // then createSqlStore(driver)
 * ```
 */
export function applyLayout(driver: SqlDriver): void {
  driver.exec(SCHEMA);
  const version = driver.get('SELECT max(version) AS v FROM te_schema')?.v;
  if (version !== SCHEMA_VERSION) {
    throw new TablesError(
      'OPTIONS_INVALID',
      `this database has tables-engine layout ${String(version)}; this version reads layout ${SCHEMA_VERSION}; upgrade @screen-service/tables-engine`,
    );
  }
}
