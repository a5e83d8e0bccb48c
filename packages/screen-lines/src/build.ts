// Builders for code that writes screens (the agent SDK): ops from plain values, printed and checked by the parser.
import { componentOf } from './catalog/index.js';
import { ScreenLinesError } from './errors.js';
import { format } from './format.js';
import type { AddOp, LineValue, Op, PutOp, QueryProps } from './ops.js';
import { parse } from './parse.js';
import { formatNumber } from './terms.js';

/** A cell as code holds it: text, a number, a yes/no, a day (`YYYY-MM-DD`), a moment (`Date`) or empty (`null`). */
export type CellValue = string | number | boolean | Date | null;

/**
 * A component op from its preset and props; the catalog's defaults fill what is left out.
 *
 * @example
 * ```ts
 * formatChecked([buildComponent('choose', { question: 'Lunch?', options: ['Soup', 'Salad'] }, 'lunch')]);
 * // 'choose@lunch "Lunch?" Soup|Salad'
 * ```
 */
export function buildComponent(preset: string, props: Record<string, unknown>, id = 'n1'): AddOp {
  const spec = componentOf(preset);
  if (!spec) throw new ScreenLinesError('INVALID_ARGUMENT', `buildComponent: unknown component '${preset}'`);
  const given = Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));
  return { op: 'add', preset, id, props: { ...spec.defaults, ...given } };
}

/**
 * A `put` op from plain cells: numbers, yes/no, days (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`) and `Date`s (printed in
 * UTC to the minute) keep their type; other strings are text; `null` empties the cell.
 *
 * @example
 * ```ts
 * formatChecked([buildPut('weight', { Day: '2026-11-28', Kg: 71.5 }, 'd28')]); // 'put weight d28 Day=2026-11-28 Kg=71.5'
 * ```
 */
export function buildPut(table: string, values: Readonly<Record<string, CellValue>>, key?: string): PutOp {
  const op: PutOp = { op: 'put', table, values: {} };
  if (key !== undefined) op.key = key;
  for (const [col, value] of Object.entries(values)) op.values[col] = toLineValue(value, col);
  return op;
}

/** A `put <table> <key> +delete` op (the person confirms it with Delete / Keep). */
export function buildDelete(table: string, key: string): PutOp {
  return { op: 'put', table, key, values: {}, delete: true };
}

/**
 * A `query` component op: lists default to empty, the view to `table`.
 *
 * @example
 * ```ts
 * formatChecked([buildQuery({ table: 'weight', sort: [{ col: 'Day', desc: true }], limit: 7 })]);
 * // 'query weight sort=-Day limit=7'
 * ```
 */
export function buildQuery(props: Partial<QueryProps> & { table: string }, id = 'n1'): AddOp {
  const full: QueryProps = {
    where: [],
    sort: [],
    cols: [],
    y: [],
    sum: [],
    avg: [],
    min: [],
    max: [],
    count: false,
    as: 'table',
    ...props,
  };
  return { op: 'add', preset: 'query', id, props: full as unknown as Record<string, unknown> };
}

/**
 * Prints ops with `format` and parses the text back: a line the parser would refuse throws
 * `ScreenLinesError` (`INVALID_ARGUMENT`) with the parser's own message, so nothing unparseable is sent.
 *
 * @example
 * ```ts
 * formatChecked([buildComponent('choose', { question: 'Lunch?', options: ['Soup'] })]);
 * // throws: line 1: choose needs at least two options separated by |, ...
 * ```
 */
export function formatChecked(ops: readonly Op[]): string {
  const text = format(ops);
  const { errors } = parse(text);
  if (errors.length > 0) {
    throw new ScreenLinesError('INVALID_ARGUMENT', errors.map((e) => e.message).join('\n'));
  }
  return text;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/**
 * A cell as the tokenizer types it (for `put` values and `where` clauses); `col` names the cell in errors.
 *
 * @example
 * ```ts
 * toLineValue(71.5, 'Kg'); // { kind: 'number', value: 71.5, text: '71.5' }
 * ```
 */
export function toLineValue(value: CellValue, col = 'value'): LineValue {
  if (value === null) return { kind: 'empty' };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new ScreenLinesError('INVALID_ARGUMENT', `${col} is ${value}; write a finite number`);
    return { kind: 'number', value, text: formatNumber(value) };
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime()))
      throw new ScreenLinesError('INVALID_ARGUMENT', `${col} is an invalid Date`);
    return { kind: 'datetime', value: value.toISOString().slice(0, 16) };
  }
  if (typeof value !== 'string')
    throw new ScreenLinesError(
      'INVALID_ARGUMENT',
      `${col} must be text, a number, a boolean, a Date or null`,
    );
  if (DAY.test(value)) return { kind: 'date', value };
  if (MINUTE.test(value)) return { kind: 'datetime', value };
  return { kind: 'text', value };
}
