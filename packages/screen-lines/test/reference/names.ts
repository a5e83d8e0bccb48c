// Name rules shared by table words and queries (doc3 "Table"), and the id alphabet of tap ids.

/** Table names: a letter, then letters, digits, `_` or `-`; up to 32 characters. */
export const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/** Column names: a letter or underscore, then letters, digits, `_` or `-`; up to 32 characters. */
export const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;
/** Tap ids written as `@<id>`: a letter, then letters, digits, `_` or `-`; up to 32 characters. */
export const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/** Ids the parser hands out itself (`n1`, `n2`, ... for components, `g1`, ... for groups). */
export const RESERVED_ID = /^[ng][0-9]+$/;
/** Longest row key. */
export const MAX_KEY = 64;
/** Most columns in one table. */
export const MAX_COLUMNS = 12;
