// Loads a whole table into a SQL store in one pass: a copy of a table kept elsewhere (a device's copy, ADR 0250).
import type { Cell, Column, TableRef } from './model.js';
import type { SqlDriver } from './sql-driver.js';
import { SLOT_NAMES } from './sql-layout.js';
import type { TableStore } from './store.js';

/**
 * One statement for the whole table: the rows go in as one JSON text and SQLite unpacks them (`json_each`).
 * Binding every cell from WebAssembly (15 values a row) made copying 100,000 rows take seconds.
 */
const insertFromJson = (columns: number) =>
  `INSERT INTO te_rows (table_id, seq, key, ${SLOT_NAMES.join(', ')}) SELECT ?, j.key + 1, json_extract(j.value, '$[0]'), ${SLOT_NAMES.map(
    (_, c) => (c < columns ? `json_extract(j.value, '$[${c + 1}]')` : 'NULL'),
  ).join(', ')} FROM json_each(?) AS j`;

/**
 * Replaces `ref` with a table of `cols` holding `rows` (`[key, ...cells in cols order]`, first-written order):
 * the old table and its rows go, the new one is defined by the store and its rows are inserted directly, in one
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
    // A new table's columns take the slots in order (c0 for the first column, ...). JSON's true and false
    // come out of json_extract as 1 and 0, as the store keeps booleans.
    const json = JSON.stringify(
      rows.map((row) => [String(row[0]), ...cols.map((_, c) => row[c + 1] ?? null)]),
    );
    driver.run(insertFromJson(cols.length), [id, json]);
    driver.run('UPDATE te_tables SET next_row = ?, next_seq = ?, row_count = ? WHERE id = ?', [
      rows.length + 1,
      rows.length + 1,
      rows.length,
      id,
    ]);
  });
}
