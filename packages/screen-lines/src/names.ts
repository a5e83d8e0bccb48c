// Name rules shared by table words and queries (doc3 "Table"), and the id alphabet of tap ids.
// The table rules live in table-names.ts (public API, also used by the tables engine); these are the
// parser's short names for them.
import {
  COLUMN_NAME_PATTERN,
  MAX_ROW_KEY_LENGTH,
  MAX_TABLE_COLUMNS,
  TABLE_NAME_PATTERN,
} from './table-names.js';

/** Table names: a letter, then letters, digits, `_` or `-`; up to 32 characters. */
export const TABLE_NAME = TABLE_NAME_PATTERN;
/** Column names: a letter or underscore, then letters, digits, `_` or `-`; up to 32 characters. */
export const COLUMN_NAME = COLUMN_NAME_PATTERN;
/** Tap ids written as `@<id>`: a letter, then letters, digits, `_` or `-`; up to 32 characters. */
export const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/** Ids the parser hands out itself (`n1`, `n2`, ... for components, `g1`, ... for groups). */
export const RESERVED_ID = /^[ng][0-9]+$/;
/** Longest row key. */
export const MAX_KEY = MAX_ROW_KEY_LENGTH;
/** Most columns in one table. */
export const MAX_COLUMNS = MAX_TABLE_COLUMNS;
