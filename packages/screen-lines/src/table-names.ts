// The name rules and size limits of doc3 "Table", in one place for the parser and the tables engine.
import type { ParseErrorCode } from './errors.js';

/** Most columns in one table (doc3 "Limits"). */
export const MAX_TABLE_COLUMNS = 12;
/** Longest table name, in characters. */
export const MAX_TABLE_NAME_LENGTH = 32;
/** Longest column name, in characters. */
export const MAX_COLUMN_NAME_LENGTH = 32;
/** Longest row key, in characters. */
export const MAX_ROW_KEY_LENGTH = 64;
/** The row key's own name: no column may take it. */
export const ROW_KEY_NAME = 'key';

/** A table name: a letter, then letters, digits, `_` or `-`, up to {@link MAX_TABLE_NAME_LENGTH} in all. */
export const TABLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/** A column name: a letter or `_`, then letters, digits, `_` or `-`, up to {@link MAX_COLUMN_NAME_LENGTH}. */
export const COLUMN_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;

/**
 * The codes of table-name and table-size refusals. The parser and the tables engine refuse with the
 * same code for the same rule, so a model sees one code whichever of them caught the line.
 */
export const TABLE_RULE_CODES = [
  'INVALID_TABLE_NAME',
  'INVALID_COLUMN_NAME',
  'RESERVED_COLUMN',
  'DUPLICATE_COLUMN',
  'TOO_MANY_COLUMNS',
  'INVALID_KEY',
] as const satisfies readonly ParseErrorCode[];

/** One of {@link TABLE_RULE_CODES}. */
export type TableRuleCode = (typeof TABLE_RULE_CODES)[number];

/** True when a parse error's code is a table rule's (the tables engine keeps such codes as they are). */
export function isTableRuleCode(code: string): code is TableRuleCode {
  return (TABLE_RULE_CODES as readonly string[]).includes(code);
}

/** Why a name or size breaks a table rule; `message` names the value and the fix. */
export interface TableRuleProblem {
  code: TableRuleCode;
  message: string;
}

/**
 * Checks a table name; undefined when it is fine.
 *
 * @example
 * ```ts
 * checkTableName('Weights');  // undefined
 * checkTableName('2024');     // { code: 'INVALID_TABLE_NAME', message: "table name '2024' must start with a letter, ..." }
 * ```
 */
export function checkTableName(name: string): TableRuleProblem | undefined {
  if (TABLE_NAME_PATTERN.test(name)) return undefined;
  return {
    code: 'INVALID_TABLE_NAME',
    message: `table name '${name}' must start with a letter, then letters, digits, _ or - (at most ${MAX_TABLE_NAME_LENGTH} characters)`,
  };
}

/**
 * Checks a column name: the name pattern, and not the row key's name `key`.
 *
 * @example
 * ```ts
 * checkColumnName('key'); // { code: 'RESERVED_COLUMN', message: "'key' is the row key ..." }
 * ```
 */
export function checkColumnName(name: string): TableRuleProblem | undefined {
  if (!COLUMN_NAME_PATTERN.test(name)) {
    return {
      code: 'INVALID_COLUMN_NAME',
      message: `column name '${name}' must start with a letter or _, then letters, digits, _ or - (at most ${MAX_COLUMN_NAME_LENGTH} characters)`,
    };
  }
  if (name === ROW_KEY_NAME)
    return {
      code: 'RESERVED_COLUMN',
      message: "'key' is the row key and cannot be a column name; pick another",
    };
  return undefined;
}

/**
 * Checks the column names of one table together: each name, no name twice, at most `maxColumns`
 * (default {@link MAX_TABLE_COLUMNS}; an engine with a smaller limit passes its own).
 *
 * @example
 * ```ts
 * checkColumnNames(['Day', 'Day']); // { code: 'DUPLICATE_COLUMN', message: 'column Day is named twice; name it once' }
 * ```
 */
export function checkColumnNames(
  names: readonly string[],
  maxColumns: number = MAX_TABLE_COLUMNS,
): TableRuleProblem | undefined {
  if (names.length > maxColumns) {
    return {
      code: 'TOO_MANY_COLUMNS',
      message: `a table has at most ${maxColumns} columns (got ${names.length}); leave some out`,
    };
  }
  const seen = new Set<string>();
  for (const name of names) {
    const problem = checkColumnName(name);
    if (problem) return problem;
    if (seen.has(name))
      return { code: 'DUPLICATE_COLUMN', message: `column ${name} is named twice; name it once` };
    seen.add(name);
  }
  return undefined;
}

/**
 * Checks a row key: 1 to `maxLength` (default {@link MAX_ROW_KEY_LENGTH}) characters.
 *
 * @example
 * ```ts
 * checkRowKey(''); // { code: 'INVALID_KEY', message: 'the row key is empty; ...' }
 * ```
 */
export function checkRowKey(
  key: string,
  maxLength: number = MAX_ROW_KEY_LENGTH,
): TableRuleProblem | undefined {
  if (key.length === 0)
    return { code: 'INVALID_KEY', message: 'the row key is empty; write a word or a quoted string' };
  if (key.length > maxLength) {
    return {
      code: 'INVALID_KEY',
      message: `row key '${key.slice(0, 20)}...' has ${key.length} characters; at most ${maxLength}`,
    };
  }
  return undefined;
}
