// The table words `table create`, `table drop` and `put` (doc3 "Table words", shapes per "Parser output").
import { flagName } from './component-args.js';
import { fail } from './fault.js';
import { MAX_COLUMNS, MAX_KEY } from './names.js';
import type { DropOp, LineValue, PutOp, TableColumn, TableOp } from './ops.js';
import { isEquals } from './scan.js';
import { formatLineValue, formatWord, lineValueOf, type Term, textOf, unquote } from './terms.js';

const COLUMN_TYPES = ['text', 'number', 'date', 'bool'] as const;

/** Checks a table name, refusing with INVALID_TABLE_NAME. */
export function checkTableName(name: string, offset: number, what: string): void {
  if (!isName(name, false)) {
    fail(
      'INVALID_TABLE_NAME',
      offset,
      `${what} table name '${name}' must start with a letter, then letters, digits, _ or - (at most 32)`,
    );
  }
}

/**
 * TABLE_NAME (`^[A-Za-z][A-Za-z0-9_-]{0,31}$`) or, with `underscoreFirst`, COLUMN_NAME (`^[A-Za-z_][A-Za-z0-9_-]{0,31}$`)
 * by character codes: these run for every table and column a line names, where the regular expressions cost more
 * than the rest of the check.
 */
function isName(name: string, underscoreFirst: boolean): boolean {
  const length = name.length;
  if (length === 0 || length > 32) return false;
  const first = name.charCodeAt(0);
  if (!((first >= 65 && first <= 90) || (first >= 97 && first <= 122) || (underscoreFirst && first === 95)))
    return false;
  for (let i = 1; i < length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45))
      return false;
  }
  return true;
}

/** Checks a column name (optionally allowing the row key `key`), refusing with INVALID_COLUMN_NAME or RESERVED_COLUMN. */
export function checkColumnName(name: string, offset: number, what: string, allowKey: boolean): void {
  if (!isName(name, true)) {
    fail(
      'INVALID_COLUMN_NAME',
      offset,
      `${what} column '${name}' must start with a letter or _, then letters, digits, _ or - (at most 32)`,
    );
  }
  if (!allowKey && name === 'key')
    fail('RESERVED_COLUMN', offset, `${what} cannot use the column name key: it is the row key`);
}

/** Reads `table create ...` or `table drop ...` (terms after the head `table`). */
export function readTableLine(terms: Term[], source: string, headEnd: number): TableOp | DropOp {
  const word = terms[0];
  const verb = word ? source.slice(word.start, word.end) : '';
  if (verb !== 'create' && verb !== 'drop') {
    fail(
      'UNKNOWN_TABLE_WORD',
      word?.start ?? headEnd,
      `table is followed by create or drop (got '${verb}'): table create <name> <col>:<type> ... or table drop <name>`,
    );
  }
  const nameTerm = terms[1];
  if (!nameTerm) fail('INVALID_TABLE_NAME', word!.end, `table ${verb} needs a table name`);
  const name = source.slice(nameTerm.start, nameTerm.end);
  checkTableName(name, nameTerm.start, `table ${verb}`);
  if (verb === 'drop') {
    if (terms[2])
      fail('UNEXPECTED_ARGUMENT', terms[2].start, 'table drop takes only the table name: table drop <name>');
    return { op: 'drop', name };
  }
  // Made at its final size: the result keeps it, and a list grown by push keeps room for 17.
  const cols: TableColumn[] = new Array(Math.max(0, terms.length - 2));
  for (let k = 2; k < terms.length; k++) {
    const term = terms[k]!;
    const col = readColumn(term, source);
    for (let j = 0; j < k - 2; j++)
      if (cols[j]!.name === col.name)
        fail('DUPLICATE_COLUMN', term.start, `table create names the column ${col.name} twice`);
    cols[k - 2] = col;
  }
  if (cols.length === 0) {
    fail(
      'MISSING_COLUMNS',
      nameTerm.end,
      `table create ${name} needs columns written <col>:<type>, like Weight:number:kg Day:date`,
    );
  }
  if (cols.length > MAX_COLUMNS) {
    fail(
      'TOO_MANY_COLUMNS',
      terms[2 + MAX_COLUMNS]!.start,
      `a table has at most ${MAX_COLUMNS} columns (got ${cols.length})`,
    );
  }
  return { op: 'table', name, cols };
}

function readColumn(term: Term, source: string): TableColumn {
  const raw = source.slice(term.start, term.end);
  const first = raw.indexOf(':');
  const name = first < 0 ? raw : raw.slice(0, first);
  checkColumnName(name, term.start, 'table create', false);
  if (first < 0)
    fail(
      'INVALID_COLUMN_TYPE',
      term.end,
      `column ${name} needs a type: ${name}:text, ${name}:number, ${name}:date or ${name}:bool`,
    );
  const rest = raw.slice(first + 1);
  const second = rest.indexOf(':');
  const written = second < 0 ? rest : rest.slice(0, second);
  const known = (COLUMN_TYPES as readonly string[]).indexOf(written);
  // The list's own string: one object less for the result to keep.
  const type = known < 0 ? written : COLUMN_TYPES[known]!;
  if (known < 0) {
    fail(
      'INVALID_COLUMN_TYPE',
      term.start + first + 1,
      `column ${name} has type '${type}'; use text, number, date or bool`,
    );
  }
  const col: TableColumn = { name, type: type as TableColumn['type'] };
  if (second >= 0) {
    const last = term.tokens[term.tokens.length - 1]!;
    const unitText = rest.slice(second + 1);
    const unit = last.type === 'Quoted' && unitText === last.image ? unquote(last.image) : unitText;
    if (unit !== '') {
      if (type !== 'number')
        fail('UNIT_NOT_NUMBER', term.start, `only number columns take a unit (${name} is ${type})`);
      col.unit = unit;
    }
  }
  return col;
}

/** Reads `put <table> [<key>] <col>=<value> ... [+delete]` (terms after the head `put`). */
export function readPutLine(terms: Term[], source: string, headEnd: number): PutOp {
  const tableTerm = terms[0];
  if (!tableTerm)
    fail('INVALID_TABLE_NAME', headEnd, 'put needs a table: put <table> [<key>] <col>=<value> ...');
  const table = source.slice(tableTerm.start, tableTerm.end);
  checkTableName(table, tableTerm.start, 'put');
  const op: PutOp = { op: 'put', table, values: {} };
  let count = 0;
  for (let t = 1; t < terms.length; t++) {
    const term = terms[t]!;
    const flag = flagName(term);
    if (flag === 'delete') {
      op.delete = true;
      continue;
    }
    const assigned = isColumnValue(term);
    if (flag === undefined && !assigned) {
      if (t === 1) {
        const key = textOf(source, term.tokens);
        if (key.length === 0 || key.length > MAX_KEY)
          fail('INVALID_KEY', term.start, `a row key has 1 to ${MAX_KEY} characters`);
        op.key = key;
        continue;
      }
      fail(
        'UNEXPECTED_ARGUMENT',
        term.start,
        `put writes <col>=<value>, +<col> or +delete (got '${source.slice(term.start, term.end)}'); quote values with spaces: Note="two words"`,
      );
    }
    const col = assigned ? term.tokens[0]!.image : flag!;
    const value: LineValue = assigned ? lineValueOf(source, term.tokens, 2) : { kind: 'bool', value: true };
    checkColumnName(col, term.start, 'put', false);
    if (col in op.values) fail('DUPLICATE_COLUMN', term.start, `put sets ${col} twice`);
    op.values[col] = value;
    count++;
  }
  if (op.delete) {
    if (op.key === undefined)
      fail(
        'DELETE_NEEDS_KEY',
        tableTerm.start,
        `put ${table} +delete needs the row key: put ${table} <key> +delete`,
      );
    if (count > 0)
      fail('DELETE_WITH_VALUES', tableTerm.start, '+delete takes no values: put <table> <key> +delete');
  } else if (count === 0) {
    fail(
      'PUT_NEEDS_VALUES',
      tableTerm.start,
      `put ${table} writes nothing; add <col>=<value>, like put ${table} Weight=72.5`,
    );
  }
  return op;
}

/** True for a `Col=value` term (exactly `=` after an unquoted name); the value is its tokens from the third on. */
function isColumnValue(term: Term): boolean {
  const op = term.tokens[1];
  return op !== undefined && isEquals(op) && term.tokens[0]!.type !== 'Quoted';
}

/** Canonical line of a table, drop or put op. */
export function formatTableWord(op: TableOp | DropOp | PutOp): string {
  if (op.op === 'drop') return `table drop ${op.name}`;
  if (op.op === 'table') {
    const cols = op.cols.map(
      (c) => `${c.name}:${c.type}${c.unit !== undefined && c.unit !== '' ? `:${formatWord(c.unit)}` : ''}`,
    );
    return `table create ${op.name} ${cols.join(' ')}`;
  }
  const parts = ['put', op.table];
  if (op.key !== undefined) parts.push(formatWord(op.key));
  for (const [col, value] of Object.entries(op.values)) parts.push(`${col}=${formatLineValue(value)}`);
  if (op.delete) parts.push('+delete');
  return parts.join(' ');
}
