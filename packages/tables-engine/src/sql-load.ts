// Loads a whole table into a SQL store in one pass: a copy of a table kept elsewhere (a device's copy, ADR 0250).
import { toSqlValue } from './compile-sql.js';
import type { Cell, Column, TableRef } from './model.js';
import type { SqlDriver, SqlValue } from './sql-driver.js';
import { SLOT_NAMES } from './sql-layout.js';
import type { TableStore } from './store.js';

/** Rows per INSERT statement: one statement a row cost most of a copy's time in SQLite WebAssembly. */
const CHUNK = 50;
const ONE = `(?, ?, ?, ${SLOT_NAMES.map(() => '?').join(', ')})`;
const insertOf = (n: number) =>
  `INSERT INTO te_rows (table_id, seq, key, ${SLOT_NAMES.join(', ')}) VALUES ${Array.from({ length: n }, () => ONE).join(', ')}`;
const FULL_CHUNK = insertOf(CHUNK);

/**
 * Replaces `ref` with a table of `cols` holding `rows` (`[key, ...cells in cols order]`, first-written order):
 * the old table and its rows go, the new one is defined by the store and its rows are inserted directly, 50 rows a
 * statement, in one transaction. For copies only: the rows are taken as they are (the place they were
 * copied from checked them), so a row that does not fit its column is stored as given.
 *
 * @example
 * ```ts
 * await loadTable(store, driver, { owner: 'me', holder: 'agt_1', name: 'meals' }, cols, [['mon', 'Soup', 300]]);
 * ```
 */
export async function loadTable(
  store: TableStore,
  driver: SqlDriver,
  ref: TableRef,
  cols: Column[],
  rows: readonly (readonly Cell[])[],
): Promise<void> {
  await store.batch(async () => {
    await store.dropTable(ref);
    await store.defineTable(ref, cols);
    const t = driver.get('SELECT id FROM te_tables WHERE owner = ? AND holder = ? AND name = ?', [
      ref.owner,
      ref.holder,
      ref.name,
    ]);
    const id = Number(t?.id);
    // A new table's columns take the slots in order (c0 for the first column, ...); CHUNK rows a statement.
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK);
      const params: SqlValue[] = [];
      chunk.forEach((row, i) => {
        params.push(id, start + i + 1, String(row[0]));
        for (let c = 0; c < SLOT_NAMES.length; c++)
          params.push(c < cols.length ? toSqlValue(row[c + 1] ?? null) : null);
      });
      driver.run(chunk.length === CHUNK ? FULL_CHUNK : insertOf(chunk.length), params);
    }
    driver.run('UPDATE te_tables SET next_row = ?, next_seq = ?, row_count = ? WHERE id = ?', [
      rows.length + 1,
      rows.length + 1,
      rows.length,
      id,
    ]);
  });
}
