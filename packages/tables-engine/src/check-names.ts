// Name rules of doc3 "Table": table names, column names and row keys, with reasons a model can act on.
import type { TablesErrorCode } from './errors.js';
import type { TableLimits } from './limits.js';

/** Why a name is refused, or undefined when it is fine. */
export type NameProblem = { code: TablesErrorCode; message: string } | undefined;

const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Checks a table name: a letter, then letters, digits, `_` or `-`; up to the name limit. */
export function checkTableName(name: string, limits: TableLimits): NameProblem {
  if (name.length > limits.tableName) {
    return {
      code: 'LIMIT_TABLE_NAME',
      message: `table name '${name}' has ${name.length} characters; at most ${limits.tableName}`,
    };
  }
  if (!TABLE_NAME.test(name)) {
    return {
      code: 'TABLE_NAME_INVALID',
      message: `table name '${name}' must start with a letter, then letters, digits, _ or -`,
    };
  }
  return undefined;
}

/** Checks a column name: a letter or `_`, then letters, digits, `_` or `-`; not `key`. */
export function checkColumnName(name: string): NameProblem {
  if (name === 'key') {
    return {
      code: 'COLUMN_NAME_INVALID',
      message: "'key' is the row key and cannot be a column name; pick another",
    };
  }
  if (!COLUMN_NAME.test(name)) {
    return {
      code: 'COLUMN_NAME_INVALID',
      message: `column name '${name}' must start with a letter or _, then letters, digits, _ or -`,
    };
  }
  return undefined;
}

/** Checks a row key: not empty, up to the key limit. */
export function checkKey(key: string, limits: TableLimits): NameProblem {
  if (key.length === 0)
    return { code: 'KEY_INVALID', message: 'the row key is empty; write a word or a quoted string' };
  if (key.length > limits.keyLength) {
    return {
      code: 'LIMIT_KEY',
      message: `row key '${key.slice(0, 20)}...' has ${key.length} characters; at most ${limits.keyLength}`,
    };
  }
  return undefined;
}
