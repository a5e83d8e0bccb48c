// The plain values stores keep: columns, cells, table descriptions and the address of a table.

/** A column type of doc3 "Table". */
export type ColumnType = 'text' | 'number' | 'date' | 'bool';

/** One column of a table. */
export interface Column {
  name: string;
  type: ColumnType;
  unit?: string;
}

/**
 * A stored cell: text and dates as strings (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`), numbers, booleans;
 * `null` is an empty cell.
 */
export type Cell = string | number | boolean | null;

/** Where a table lives: the person who owns it, the agent that holds it, and its name. */
export interface TableRef {
  owner: string;
  holder: string;
  name: string;
}

/** A table as listed by a store. */
export interface TableInfo extends TableRef {
  cols: Column[];
  rowCount: number;
}

/** One stored row with its key, in the table's column order. */
export interface StoredRow {
  key: string;
  values: Record<string, Cell>;
}

/** A whole table in first-written row order: what `exportTable` gives and the conformance suite compares. */
export interface TableDump {
  cols: Column[];
  rows: StoredRow[];
}
