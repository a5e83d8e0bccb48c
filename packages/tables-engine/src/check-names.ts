// Name rules of doc3 "Table" as the engine applies them: the rules and codes are screen-lines' (one home,
// one code from parser to engine); the engine adds only its configurable limits on top.
import {
  checkRowKey,
  checkColumnName as columnRule,
  type TableRuleProblem,
  checkTableName as tableRule,
} from '@screen-service/screen-lines/catalog';
import type { TableLimits } from './limits.js';

/** Why a name is refused, or undefined when it is fine. */
export type NameProblem = TableRuleProblem | undefined;

/** Checks a table name: screen-lines' rule, and at most `limits.tableName` characters. */
export function checkTableName(name: string, limits: TableLimits): NameProblem {
  if (name.length > limits.tableName) {
    return {
      code: 'INVALID_TABLE_NAME',
      message: `table name '${name}' has ${name.length} characters; at most ${limits.tableName}`,
    };
  }
  return tableRule(name);
}

/** Checks a column name: a letter or `_`, then letters, digits, `_` or `-`; not `key`. */
export function checkColumnName(name: string): NameProblem {
  return columnRule(name);
}

/** Checks a row key: not empty, up to the key limit. */
export function checkKey(key: string, limits: TableLimits): NameProblem {
  return checkRowKey(key, limits.keyLength);
}
