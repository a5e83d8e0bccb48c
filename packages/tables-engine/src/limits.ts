// The table limits from doc3 "Limits"; stores and runLines take overrides because phone limits may grow.
import {
  MAX_ROW_KEY_LENGTH,
  MAX_TABLE_COLUMNS,
  MAX_TABLE_NAME_LENGTH,
} from '@screen-service/screen-lines/catalog';

/** Numeric limits every write and query is checked against. */
export interface TableLimits {
  /** Tables one agent holds. */
  tablesPerAgent: number;
  /** Tables one person owns across all agents (relay stores). */
  tablesPerOwner: number;
  columnsPerTable: number;
  rowsPerTable: number;
  /** Characters in one text cell. */
  cellText: number;
  /** Characters in a row key. */
  keyLength: number;
  /** Characters in a table name. */
  tableName: number;
  /** Lines in one runLines call. */
  linesPerCall: number;
  /** Rows all queries of one call hand back together. */
  rowsPerCall: number;
  /** Rows a query shows when it gives no `limit`. */
  queryDefault: number;
  /** Largest `limit` a query may ask for. */
  queryMax: number;
  /** Rows one send card hands over. */
  sendRows: number;
}

/**
 * doc3's limits.
 *
 * @example
 * ```ts
 * runLines(store, { ...call, limits: { ...DEFAULT_LIMITS, rowsPerTable: 20_000 } });
 * ```
 */
export const DEFAULT_LIMITS: Readonly<TableLimits> = Object.freeze({
  tablesPerAgent: 20,
  tablesPerOwner: 100,
  columnsPerTable: MAX_TABLE_COLUMNS,
  rowsPerTable: 5000,
  cellText: 1000,
  keyLength: MAX_ROW_KEY_LENGTH,
  tableName: MAX_TABLE_NAME_LENGTH,
  linesPerCall: 50,
  rowsPerCall: 500,
  queryDefault: 50,
  queryMax: 500,
  sendRows: 200,
});
