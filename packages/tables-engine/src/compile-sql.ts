// Compiles a QueryPlan to one SQLite statement over the slot columns of te_rows, so SQLite does the work.
import type { Cell, ColumnType } from './model.js';
import type { PlanFilter, QueryPlan } from './query-plan.js';

/**
 * SQL text plus its parameters. Totals: the first result column `n` is the number of groups before
 * LIMIT. Rows: `countSql` (same parameters minus the limit) counts the matched rows, so the row query
 * can keep SQLite's top-N sort for ORDER BY + LIMIT.
 */
export interface CompiledQuery {
  sql: string;
  params: (string | number | null)[];
  countSql?: string;
}

/** Turns a cell into an SQLite parameter (booleans as 1/0). */
export function toSqlValue(cell: Cell): string | number | null {
  return typeof cell === 'boolean' ? (cell ? 1 : 0) : cell;
}

const BUCKET = {
  day: (c: string) => `substr(${c}, 1, 10)`,
  week: (c: string) => `date(${c}, 'weekday 0', '-6 days')`,
  month: (c: string) => `substr(${c}, 1, 7)`,
};

function collate(type: ColumnType): string {
  return type === 'text' ? ' COLLATE NOCASE' : '';
}

function filterSql(f: PlanFilter, column: string, params: CompiledQuery['params']): string {
  if (f.value === null) return f.op === '=' ? `${column} IS NULL` : `${column} IS NOT NULL`;
  params.push(toSqlValue(f.value));
  if (f.op === '~') return `instr(lower(${column}), lower(?)) > 0`;
  let left = column;
  if (f.byDay) left = `substr(${column}, 1, 10)`;
  else if (f.type === 'date')
    left = `(CASE WHEN length(${column}) = 10 THEN ${column} || 'T00:00' ELSE ${column} END)`;
  return `${left} ${f.op === '!=' ? '<>' : f.op} ?${collate(f.type)}`;
}

function orderTerm(expr: string, type: ColumnType, desc: boolean): string {
  return `(${expr} IS NULL), ${expr}${collate(type)}${desc ? ' DESC' : ''}`;
}

/**
 * Compiles `plan` for the table with id `tableId`; `slot` maps a column name to its slot column (`c0`..).
 *
 * @example
 * ```ts
 * const { sql, params } = compileQuery(plan, 7, (name) => slots.get(name)!);
 * db.prepare(sql).raw().all(...params);
 * ```
 */
export function compileQuery(plan: QueryPlan, tableId: number, slot: (col: string) => string): CompiledQuery {
  const params: CompiledQuery['params'] = [tableId];
  const column = (name: string, isKey: boolean) => (isKey ? 'key' : slot(name));
  const where = ['table_id = ?', ...plan.where.map((f) => filterSql(f, column(f.col, f.isKey), params))].join(
    ' AND ',
  );
  if (plan.kind === 'rows') {
    const select = ['key', ...plan.cols.map((c) => column(c, c === 'key'))].join(', ');
    const order = [...plan.sort.map((s) => orderTerm(column(s.col, s.isKey), s.type, s.desc)), 'seq'].join(
      ', ',
    );
    params.push(plan.limit);
    return {
      sql: `SELECT ${select} FROM te_rows WHERE ${where} ORDER BY ${order} LIMIT ?`,
      params,
      countSql: `SELECT count(*) FROM te_rows WHERE ${where}`,
    };
  }
  const outputs: string[] = [];
  if (plan.group) {
    const c = slot(plan.group.col);
    outputs.push(plan.group.by ? BUCKET[plan.group.by](c) : c);
  }
  for (const a of plan.aggregates) outputs.push(a.fn === 'count' ? 'count(*)' : `${a.fn}(${slot(a.col!)})`);
  const select = outputs.map((expr, i) => `${expr} AS o${i}`).join(', ');
  const order = plan.sort.map((s) => orderTerm(`o${s.index}`, s.type, s.desc));
  if (plan.group)
    order.push(
      `${orderTerm('o0', plan.output[0]!.type, false)}${plan.output[0]!.type === 'text' ? ', o0' : ''}`,
    );
  params.push(plan.limit);
  const groupBy = plan.group ? ' GROUP BY o0' : '';
  const orderBy = order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '';
  return {
    sql: `SELECT count(*) OVER () AS n, ${select} FROM te_rows WHERE ${where}${groupBy}${orderBy} LIMIT ?`,
    params,
  };
}
