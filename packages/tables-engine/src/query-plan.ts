// The checked, store-neutral form of a query: every store executes exactly this (memory in JS, SQLite as SQL).
import type { Cell, ColumnType } from './model.js';

/** A comparison operator of a where clause. */
export type WhereOp = '=' | '!=' | '>' | '<' | '>=' | '<=' | '~';

/** One where clause with its value already fitted to the column (`null` for `Col=` / `Col!=`). */
export interface PlanFilter {
  /** Column name, or `key` for the row key. */
  col: string;
  isKey: boolean;
  type: ColumnType;
  op: WhereOp;
  value: Cell;
  /** A date column compared with a day (no time): the cell's day is compared. */
  byDay: boolean;
}

/** A column of the answer. */
export interface PlanOutput {
  name: string;
  type: ColumnType;
  unit?: string;
}

/** Sort key: `index` into the answer's columns for totals, a source column for rows. */
export interface PlanSort {
  col: string;
  isKey: boolean;
  type: ColumnType;
  desc: boolean;
}

/** An aggregate of a totals query; `col` is undefined for `+count`. */
export interface PlanAggregate {
  fn: 'sum' | 'avg' | 'min' | 'max' | 'count';
  col?: string;
  type: ColumnType;
}

/** A query that returns rows (no group, no totals). */
export interface RowsPlan {
  kind: 'rows';
  where: PlanFilter[];
  /** Source columns in answer order; `key` is the row key. */
  cols: string[];
  sort: PlanSort[];
  limit: number;
  output: PlanOutput[];
}

/** A totals query: one row per group value, or one row for the table. */
export interface TotalsPlan {
  kind: 'totals';
  where: PlanFilter[];
  group?: { col: string; type: ColumnType; by?: 'day' | 'week' | 'month' };
  aggregates: PlanAggregate[];
  /** Sort on answer columns by their index in `output`. */
  sort: { index: number; type: ColumnType; desc: boolean }[];
  limit: number;
  output: PlanOutput[];
}

/** What a store executes. */
export type QueryPlan = RowsPlan | TotalsPlan;

/** What a store answers: rows in `output` order, their keys (rows plans), and how many matched before `limit`. */
export interface QueryRows {
  rows: Cell[][];
  keys: string[];
  count: number;
}
