// Checks a query's props against its table and builds the QueryPlan; every reason is one a model can act on.

import type { QueryProps } from '@screen-service/screen-lines';
import type { TablesErrorCode } from './errors.js';
import { fitValue, writtenText } from './fit-value.js';
import type { TableLimits } from './limits.js';
import type { Column, ColumnType } from './model.js';
import type { PlanAggregate, PlanFilter, PlanOutput, QueryPlan } from './query-plan.js';

/** The moment and zone `today`/`now` in where clauses resolve in, and the limits. */
export interface PlanContext {
  now: Date;
  timeZone: string;
  limits: TableLimits;
}

/** A plan plus the answer columns `cols=` keeps (totals only), or why the query cannot run. */
export type PlanResult =
  | { ok: true; plan: QueryPlan; keep?: string[] }
  | { ok: false; code: TablesErrorCode; message: string };

class PlanError extends Error {
  constructor(
    readonly code: TablesErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const KEY_COLUMN: Column = { name: 'key', type: 'text' };

function lookup(table: string, cols: Column[], name: string, allowKey: boolean): Column {
  if (allowKey && name === 'key') return KEY_COLUMN;
  const col = cols.find((c) => c.name === name);
  if (!col) {
    const names = cols.map((c) => c.name).join(', ');
    throw new PlanError('COLUMN_NOT_FOUND', `${table} has no column '${name}'; its columns: ${names}`);
  }
  return col;
}

function planWhere(props: QueryProps, cols: Column[], ctx: PlanContext): PlanFilter[] {
  return props.where.map((w) => {
    const col = lookup(props.table, cols, w.col, true);
    const isKey = col === KEY_COLUMN;
    if (w.value.kind === 'empty') {
      if (w.op !== '=' && w.op !== '!=') {
        throw new PlanError(
          'INVALID_QUERY',
          `where ${w.col}${w.op} needs a value; use ${w.col}= or ${w.col}!=`,
        );
      }
      return { col: w.col, isKey, type: col.type, op: w.op, value: null, byDay: false };
    }
    if (w.op === '~' && col.type !== 'text') {
      throw new PlanError('INVALID_QUERY', `~ (contains) works on text; ${w.col} is a ${col.type} column`);
    }
    if (col.type === 'bool' && w.op !== '=' && w.op !== '!=') {
      throw new PlanError('INVALID_QUERY', `${w.col} is a bool column; compare it with = or != (on/off)`);
    }
    const fit = fitValue(w.value, col, {
      now: ctx.now,
      timeZone: ctx.timeZone,
      maxText: ctx.limits.cellText,
    });
    if (!fit.ok)
      throw new PlanError('INVALID_QUERY', `where ${w.col}${w.op}${writtenText(w.value)}: ${fit.message}`);
    const byDay = col.type === 'date' && typeof fit.cell === 'string' && fit.cell.length === 10;
    return { col: w.col, isKey, type: col.type, op: w.op, value: fit.cell, byDay };
  });
}

function checkLimit(props: QueryProps, ctx: PlanContext): number {
  const most = props.as === 'send' ? ctx.limits.sendRows : ctx.limits.queryMax;
  if (props.limit === undefined) return props.as === 'send' ? ctx.limits.sendRows : ctx.limits.queryDefault;
  if (!Number.isInteger(props.limit) || props.limit < 1) {
    throw new PlanError(
      'INVALID_QUERY',
      `limit=${props.limit} is not a whole number of rows; use limit=1 to ${most}`,
    );
  }
  if (props.limit > most) {
    throw new PlanError(
      'LIMIT_QUERY_ROWS',
      `limit=${props.limit} is over ${most}; use limit=${most} or less`,
    );
  }
  return props.limit;
}

const AGGREGATE_TYPES: Record<'sum' | 'avg' | 'min' | 'max', ColumnType[]> = {
  sum: ['number'],
  avg: ['number'],
  min: ['number', 'date', 'text'],
  max: ['number', 'date', 'text'],
};

function planTotals(props: QueryProps, cols: Column[], where: PlanFilter[], limit: number): PlanResult {
  const output: PlanOutput[] = [];
  const aggregates: PlanAggregate[] = [];
  let group: { col: string; type: ColumnType; by?: 'day' | 'week' | 'month' } | undefined;
  if (props.group) {
    const col = lookup(props.table, cols, props.group.col, false);
    if (props.group.by && col.type !== 'date') {
      throw new PlanError(
        'INVALID_QUERY',
        `group=${col.name}:${props.group.by} needs a date column; ${col.name} is a ${col.type} column`,
      );
    }
    group = { col: col.name, type: col.type, ...(props.group.by ? { by: props.group.by } : {}) };
    const type: ColumnType = props.group.by === 'month' ? 'text' : col.type;
    output.push({ name: col.name, type, ...(col.unit && !props.group.by ? { unit: col.unit } : {}) });
  }
  const named = (['sum', 'avg', 'min', 'max'] as const).flatMap((fn) =>
    props[fn].map((name) => ({ fn, name })),
  );
  const uses = new Map<string, number>();
  for (const name of [...(group ? [group.col] : []), ...named.map((n) => n.name)]) {
    uses.set(name, (uses.get(name) ?? 0) + 1);
  }
  for (const { fn, name } of named) {
    const col = lookup(props.table, cols, name, false);
    if (!AGGREGATE_TYPES[fn].includes(col.type)) {
      throw new PlanError(
        'INVALID_QUERY',
        `${fn}=${name}: ${fn} works on ${AGGREGATE_TYPES[fn].join(' or ')} columns; ${name} is a ${col.type} column`,
      );
    }
    const type: ColumnType = fn === 'sum' || fn === 'avg' ? 'number' : col.type;
    aggregates.push({ fn, col: name, type });
    const outName = (uses.get(name) ?? 0) > 1 ? `${fn} ${name}` : name;
    output.push({ name: outName, type, ...(col.unit ? { unit: col.unit } : {}) });
  }
  if (props.count) {
    aggregates.push({ fn: 'count', type: 'number' });
    output.push({ name: 'Count', type: 'number' });
  }
  const names = output.map((o) => o.name);
  const sort = props.sort.map((s) => {
    const index = names.indexOf(s.col);
    if (index < 0) {
      throw new PlanError(
        'INVALID_QUERY',
        `sort=${s.col}: with totals, sort names an answer column: ${names.join(', ')}`,
      );
    }
    return { index, type: output[index]!.type, desc: s.desc };
  });
  for (const name of props.cols) {
    if (!names.includes(name)) {
      throw new PlanError('COLUMN_NOT_FOUND', `cols=${name}: the answer has columns ${names.join(', ')}`);
    }
  }
  const plan: QueryPlan = {
    kind: 'totals',
    where,
    ...(group ? { group } : {}),
    aggregates,
    sort,
    limit,
    output,
  };
  return props.cols.length > 0 ? { ok: true, plan, keep: props.cols } : { ok: true, plan };
}

/**
 * Builds the plan for a query on a table with `cols`, or the reason it cannot run.
 *
 * @example
 * ```ts
 * const r = planQuery(props, table.cols, { now: new Date(), timeZone: 'UTC', limits: DEFAULT_LIMITS });
 * if (r.ok) store.query(ref, r.plan);
 * ```
 */
export function planQuery(props: QueryProps, cols: Column[], ctx: PlanContext): PlanResult {
  try {
    const where = planWhere(props, cols, ctx);
    const limit = checkLimit(props, ctx);
    const totals =
      props.group !== undefined ||
      props.count ||
      props.sum.length + props.avg.length + props.min.length + props.max.length > 0;
    if (totals) return planTotals(props, cols, where, limit);
    const shown =
      props.cols.length > 0 ? props.cols.map((name) => lookup(props.table, cols, name, true)) : cols;
    const sort = props.sort.map((s) => {
      const col = lookup(props.table, cols, s.col, true);
      return { col: col.name, isKey: col === KEY_COLUMN, type: col.type, desc: s.desc };
    });
    const output = shown.map((c) => ({ name: c.name, type: c.type, ...(c.unit ? { unit: c.unit } : {}) }));
    return { ok: true, plan: { kind: 'rows', where, cols: shown.map((c) => c.name), sort, limit, output } };
  } catch (error) {
    if (error instanceof PlanError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
