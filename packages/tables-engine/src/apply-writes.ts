// Checks and applies one write line (table create, put, +delete, table drop) all or nothing.

import type { DropOp, PutOp, TableOp } from '@screen-service/screen-lines';
import { checkColumnName, checkKey, checkTableName } from './check-names.js';
import type { TablesErrorCode } from './errors.js';
import { fitValue } from './fit-value.js';
import type { TableLimits } from './limits.js';
import type { Cell, Column, TableRef } from './model.js';
import type { PendingDelete, TableStore } from './store.js';

/** Who writes, when, and under which limits. */
export interface WriteContext {
  owner: string;
  agent: string;
  now: Date;
  timeZone: string;
  limits: TableLimits;
}

/** What one write line did. */
export type WriteOutcome =
  | { kind: 'done'; table: string; key?: string; note?: string }
  | { kind: 'pending'; pending: PendingDelete }
  | { kind: 'refused'; table: string; key: string; code: TablesErrorCode; error: string };

const TYPES = new Set(['text', 'number', 'date', 'bool']);

class Refusal extends Error {
  constructor(
    readonly code: TablesErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function refuseIf(problem: { code: TablesErrorCode; message: string } | undefined): void {
  if (problem) throw new Refusal(problem.code, problem.message);
}

function missing(name: string): Refusal {
  return new Refusal(
    'TABLE_NOT_FOUND',
    `No table called ${name} yet; create it first with table create ${name} ...`,
  );
}

function sameCols(a: Column[], b: Column[]): boolean {
  return (
    a.length === b.length &&
    a.every((c, i) => c.name === b[i]!.name && c.type === b[i]!.type && (c.unit ?? '') === (b[i]!.unit ?? ''))
  );
}

async function defineTable(store: TableStore, op: TableOp, ctx: WriteContext): Promise<WriteOutcome> {
  const { limits } = ctx;
  refuseIf(checkTableName(op.name, limits));
  if (op.cols.length === 0)
    throw new Refusal('INVALID_LINE', `table create ${op.name} needs at least one Col:type`);
  if (op.cols.length > limits.columnsPerTable) {
    throw new Refusal(
      'TOO_MANY_COLUMNS',
      `table ${op.name} has ${op.cols.length} columns; at most ${limits.columnsPerTable}; leave some out`,
    );
  }
  const seen = new Set<string>();
  for (const col of op.cols) {
    refuseIf(checkColumnName(col.name));
    if (!TYPES.has(col.type)) {
      throw new Refusal(
        'INVALID_LINE',
        `column ${col.name} has type '${col.type}'; use text, number, date or bool`,
      );
    }
    if (seen.has(col.name))
      throw new Refusal('DUPLICATE_COLUMN', `column ${col.name} is named twice; name it once`);
    seen.add(col.name);
  }
  const ref: TableRef = { owner: ctx.owner, holder: ctx.agent, name: op.name };
  const cols = op.cols.map((c) => ({ name: c.name, type: c.type, ...(c.unit ? { unit: c.unit } : {}) }));
  const existing = await store.getTable(ref);
  if (existing) {
    if (!sameCols(existing.cols, cols)) await store.defineTable(ref, cols);
    return { kind: 'done', table: op.name };
  }
  if ((await store.listTables(ctx.owner, ctx.agent)).length >= limits.tablesPerAgent) {
    throw new Refusal(
      'LIMIT_TABLES',
      `this agent already holds ${limits.tablesPerAgent} tables, the most it may; drop one it no longer needs`,
    );
  }
  if ((await store.listTables(ctx.owner)).length >= limits.tablesPerOwner) {
    throw new Refusal(
      'LIMIT_TABLES',
      `the person already has ${limits.tablesPerOwner} tables, the most allowed`,
    );
  }
  await store.defineTable(ref, cols);
  return { kind: 'done', table: op.name };
}

function fitRow(op: PutOp, cols: Column[], ctx: WriteContext): Record<string, Cell> {
  const values: Record<string, Cell> = {};
  for (const [name, value] of Object.entries(op.values)) {
    const col = cols.find((c) => c.name === name);
    if (!col) {
      const names = cols.map((c) => c.name).join(', ');
      throw new Refusal('COLUMN_NOT_FOUND', `${op.table} has no column '${name}'; its columns: ${names}`);
    }
    const fit = fitValue(value, col, { now: ctx.now, timeZone: ctx.timeZone, maxText: ctx.limits.cellText });
    if (!fit.ok) throw new Refusal(fit.code, fit.message);
    values[name] = fit.cell;
  }
  return values;
}

async function put(store: TableStore, op: PutOp, line: string, ctx: WriteContext): Promise<WriteOutcome> {
  const ref: TableRef = { owner: ctx.owner, holder: ctx.agent, name: op.table };
  const table = await store.getTable(ref);
  if (!table) throw missing(op.table);
  if (op.key !== undefined) refuseIf(checkKey(op.key, ctx.limits));
  if (op.delete) {
    if (op.key === undefined)
      throw new Refusal('DELETE_NEEDS_KEY', `+delete needs a row key: put ${op.table} <key> +delete`);
    if (Object.keys(op.values).length > 0) {
      throw new Refusal('INVALID_LINE', `+delete takes no values; write put ${op.table} ${op.key} +delete`);
    }
    if (!(await store.getRow(ref, op.key)))
      return { kind: 'done', table: op.table, key: op.key, note: 'no such row' };
    const pending = await store.addPending({
      owner: ctx.owner,
      holder: ctx.agent,
      kind: 'row',
      table: op.table,
      key: op.key,
      line,
    });
    return { kind: 'pending', pending };
  }
  const values = fitRow(op, table.cols, ctx);
  if (op.key !== undefined && (await store.updateRow(ref, op.key, values))) {
    return { kind: 'done', table: op.table, key: op.key };
  }
  if (table.rowCount >= ctx.limits.rowsPerTable) {
    throw new Refusal(
      'LIMIT_ROWS',
      `${op.table} already has ${ctx.limits.rowsPerTable} rows, the most a table holds; delete rows or use another table`,
    );
  }
  return { kind: 'done', table: op.table, key: await store.insertRow(ref, op.key, values) };
}

/**
 * Applies one write line. Nothing is written unless the whole line fits.
 *
 * @example
 * ```ts
 * await applyWrite(store, { op: 'put', table: 'Weights', values: { Weight: { kind: 'number', value: 72.5, text: '72.5' } } }, line, ctx);
 * ```
 */
export async function applyWrite(
  store: TableStore,
  op: TableOp | DropOp | PutOp,
  line: string,
  ctx: WriteContext,
): Promise<WriteOutcome> {
  try {
    if (op.op === 'table') return await defineTable(store, op, ctx);
    if (op.op === 'put') return await put(store, op, line, ctx);
    if (!(await store.getTable({ owner: ctx.owner, holder: ctx.agent, name: op.name })))
      throw missing(op.name);
    const pending = await store.addPending({
      owner: ctx.owner,
      holder: ctx.agent,
      kind: 'table',
      table: op.name,
      line,
    });
    return { kind: 'pending', pending };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const table = op.op === 'put' ? op.table : op.name;
    const key = op.op === 'put' ? (op.key ?? '') : '';
    return { kind: 'refused', table, key, code: error.code, error: error.message };
  }
}
