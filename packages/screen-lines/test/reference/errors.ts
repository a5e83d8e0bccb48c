// Stable error codes of Screen Lines: parse refusals are data (ParseError), misuse of the API throws ScreenLinesError.

/** Every code a {@link ParseError} can carry. Codes are stable; messages may be reworded. */
export const PARSE_ERROR_CODES = [
  'UNKNOWN_COMPONENT',
  'INVALID_ID',
  'RESERVED_ID',
  'DUPLICATE_ID',
  'ID_NOT_ALLOWED',
  'UNTERMINATED_QUOTE',
  'MISSING_ARGUMENT',
  'UNEXPECTED_ARGUMENT',
  'UNKNOWN_SETTING',
  'UNKNOWN_FLAG',
  'REPEATED_SETTING',
  'INVALID_VALUE',
  'INVALID_DURATION',
  'TOO_FEW_OPTIONS',
  'TOO_MANY_OPTIONS',
  'EMPTY_OPTION',
  'DUPLICATE_OPTION',
  'INVALID_FIELD',
  'INVALID_DATA',
  'UNKNOWN_TABLE_WORD',
  'INVALID_TABLE_NAME',
  'INVALID_COLUMN_NAME',
  'RESERVED_COLUMN',
  'INVALID_COLUMN_TYPE',
  'UNIT_NOT_NUMBER',
  'MISSING_COLUMNS',
  'TOO_MANY_COLUMNS',
  'DUPLICATE_COLUMN',
  'INVALID_KEY',
  'PUT_NEEDS_VALUES',
  'DELETE_NEEDS_KEY',
  'DELETE_WITH_VALUES',
  'INVALID_WHERE',
  'INVALID_SORT',
  'INVALID_LIMIT',
  'INVALID_GROUP',
  'INVALID_VIEW',
  'INVALID_AGGREGATE',
  'PATCH_NEEDS_PROPS',
  'UNKNOWN_PROP',
  'END_WITHOUT_GROUP',
  'INVALID_THEME',
  'INTERNAL_ERROR',
] as const;

/** A stable, SCREAMING_SNAKE code naming why a line was refused. */
export type ParseErrorCode = (typeof PARSE_ERROR_CODES)[number];

/**
 * One refused line. `message` starts with `line N:` and is meant to be shown verbatim to a model.
 *
 * @example
 * ```ts
 * const { errors } = parse('text hi\nchoose "Lunch?" Soup');
 * errors[0]; // { code: 'TOO_FEW_OPTIONS', line: 2, column: 17, message: 'line 2: choose needs at least two options separated by |, ...' }
 * ```
 */
export interface ParseError {
  code: ParseErrorCode;
  /** 1-based line of the refused text. */
  line: number;
  /** 1-based column where the problem starts. */
  column: number;
  message: string;
}

/** Codes of {@link ScreenLinesError}: thrown only when the API itself is misused. */
export type ScreenLinesErrorCode = 'INVALID_ARGUMENT';

/**
 * Thrown when the API is called wrongly (for example `parse(42)`); never for bad Screen Lines text.
 *
 * @example
 * ```ts
 * try { format('nope' as never); } catch (e) { (e as ScreenLinesError).code; } // 'INVALID_ARGUMENT'
 * ```
 */
export class ScreenLinesError extends Error {
  readonly code: ScreenLinesErrorCode;
  constructor(code: ScreenLinesErrorCode, message: string) {
    super(message);
    this.name = 'ScreenLinesError';
    this.code = code;
  }
}
