// What a tap on a `query` may carry: a row ticked in a list view with check=Col, or Send on an `as send` view.

import { isPlainObject, onlyFields, pass, readText, refuse, refuseAs } from './tap-rules.js';
import type { TapRule } from './types.js';

/** Rows one Send hands over (doc3). */
export const SEND_ROWS = 200;
/** Bounds of a sent answer's shape: columns, a column name, a text cell, a row key. */
const SEND_COLS = 64;
const COL_NAME_CHARS = 64;
const CELL_CHARS = 10_000;
const KEY_CHARS = 1000;

const isCell = (c: unknown) =>
  c === null ||
  typeof c === 'boolean' ||
  (typeof c === 'number' && Number.isFinite(c)) ||
  (typeof c === 'string' && c.length <= CELL_CHARS);

/**
 * `query`: in a list view with `check=Col`, a row change `{op:"row", table, key, values:{Col: true|false}}`
 * whose value is the key; in an `as send` view, `{op:"query", table, cols, rows, count}` whose value is the
 * count (1 to 200 rows, each with one cell per column). Other views take no taps.
 */
export const queryTap: TapRule = (props, tap) => {
  const as = readText(props, 'as') || 'table';
  const table = readText(props, 'table');
  const check = readText(props, 'check');
  const rowShape = `a row change {"op":"row","table":${JSON.stringify(table)},"key":<row key>,"values":{${JSON.stringify(check)}:true|false}} whose value is the key`;
  const sendShape = `a send {"op":"query","table":${JSON.stringify(table)},"cols":[...],"rows":[[...]],"count":N} of 1 to ${SEND_ROWS} rows whose value is the count`;
  const accepts =
    as === 'send' ? sendShape : as === 'list' && check ? rowShape : `no taps (it is drawn as ${as})`;
  const op = tap.fields.op;
  if (op === 'row' && as === 'list' && check) {
    const extra = onlyFields(tap, ['op', 'table', 'key', 'values']);
    if (extra) return extra;
    const { key, values } = tap.fields;
    if (tap.fields.table !== table)
      return refuse(`table ${JSON.stringify(table)}`, tap.fields.table, 'event.table');
    if (typeof key !== 'string' || key === '' || key.length > KEY_CHARS || tap.value !== key) {
      return refuse(
        rowShape,
        typeof key === 'string' ? tap.value : key,
        typeof key === 'string' ? 'event.value' : 'event.key',
      );
    }
    if (!isPlainObject(values) || Object.keys(values).length !== 1 || typeof values[check] !== 'boolean') {
      return refuse(`values {${JSON.stringify(check)}: true|false}`, values, 'event.values');
    }
    return pass(key, { op, table, key, values: { [check]: values[check] } });
  }
  if (op === 'query' && as === 'send') {
    const extra = onlyFields(tap, ['op', 'table', 'cols', 'rows', 'count']);
    if (extra) return extra;
    const { cols, rows, count } = tap.fields;
    if (tap.fields.table !== table)
      return refuse(`table ${JSON.stringify(table)}`, tap.fields.table, 'event.table');
    const okCols =
      Array.isArray(cols) &&
      cols.length >= 1 &&
      cols.length <= SEND_COLS &&
      cols.every((c) => typeof c === 'string' && c !== '' && c.length <= COL_NAME_CHARS) &&
      new Set(cols).size === cols.length;
    if (!okCols) return refuse(`cols: 1 to ${SEND_COLS} distinct column names`, cols, 'event.cols');
    const width = cols.length;
    const okRows =
      Array.isArray(rows) &&
      rows.length >= 1 &&
      rows.length <= SEND_ROWS &&
      rows.every((r) => Array.isArray(r) && r.length === width && r.every(isCell));
    if (!okRows) {
      return refuse(
        `rows: 1 to ${SEND_ROWS} rows of ${width} cells (text, number, true|false or null)`,
        rows,
        'event.rows',
      );
    }
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < rows.length) {
      return refuse(`count: the number of rows matched, at least ${rows.length}`, count, 'event.count');
    }
    if (tap.value !== count) return refuse(`the count ${count} as the value`, tap.value);
    return pass(count, { op, table, cols, rows, count });
  }
  if (op !== undefined && op !== 'row' && op !== 'query') return refuse(accepts, op, 'event.op');
  return op === undefined
    ? refuse(accepts, tap.value)
    : refuseAs(accepts, `op ${JSON.stringify(op)}`, 'event.op');
};
