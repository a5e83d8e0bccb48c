// The person's own change to a row in a view (e.g. ticking a list's checkbox): checked, written, and told as doc3's event.
import { isDay, isDayTime } from './dates.js';
import { TablesError } from './errors.js';
import { DEFAULT_LIMITS, type TableLimits } from './limits.js';
import type { Cell, Column } from './model.js';
import type { TableStore } from './store.js';

/** What the person changed: cells of one row of one query's table. */
export interface RowEdit {
  owner: string;
  agent: string;
  /** The query component the person tapped in. */
  id: string;
  table: string;
  key: string;
  values: Record<string, Cell>;
  limits?: Partial<TableLimits>;
}

/** The event the agent hears after the person changed a row (doc3 "Events"). */
export interface RowEditEvent {
  id: string;
  preset: 'query';
  op: 'row';
  table: string;
  key: string;
  values: Record<string, Cell>;
}

function fits(cell: Cell, col: Column, limits: TableLimits): boolean {
  if (cell === null) return true;
  switch (col.type) {
    case 'text':
      return typeof cell === 'string' && cell.length <= limits.cellText;
    case 'number':
      return typeof cell === 'number' && Number.isFinite(cell);
    case 'bool':
      return typeof cell === 'boolean';
    case 'date':
      return typeof cell === 'string' && (isDay(cell) || isDayTime(cell));
  }
}

/**
 * Writes the person's change to a row and returns the event for the agent. Throws TABLE_NOT_FOUND,
 * COLUMN_NOT_FOUND or VALUE_DOES_NOT_FIT (nothing written) when the app sends something stale or wrong.
 *
 * @example
 * ```ts
 * const event = await editRow(store, { owner: 'u1', agent: 'coach', id: 'n3', table: 'Todo', key: 'r2', values: { Done: true } });
 * // { id: 'n3', preset: 'query', op: 'row', table: 'Todo', key: 'r2', values: { Done: true } }
 * ```
 */
export async function editRow(store: TableStore, edit: RowEdit): Promise<RowEditEvent> {
  const limits = { ...DEFAULT_LIMITS, ...edit.limits };
  const ref = { owner: edit.owner, holder: edit.agent, name: edit.table };
  const table = await store.getTable(ref);
  if (!table || !(await store.getRow(ref, edit.key))) {
    throw new TablesError(
      'TABLE_NOT_FOUND',
      `No row ${edit.key} in a table called ${edit.table}; redraw the view`,
    );
  }
  for (const [name, cell] of Object.entries(edit.values)) {
    const col = table.cols.find((c) => c.name === name);
    if (!col)
      throw new TablesError('COLUMN_NOT_FOUND', `${edit.table} has no column '${name}'; redraw the view`);
    if (!fits(cell, col, limits)) {
      throw new TablesError(
        'VALUE_DOES_NOT_FIT',
        `${name} is a ${col.type} column; ${JSON.stringify(cell)} does not fit`,
      );
    }
  }
  await store.updateRow(ref, edit.key, edit.values);
  return {
    id: edit.id,
    preset: 'query',
    op: 'row',
    table: edit.table,
    key: edit.key,
    values: { ...edit.values },
  };
}
