// Stable error codes of the tables engine; line problems travel as data, misuse of the API throws TablesError.
import type { TableRuleCode } from '@screen-service/screen-lines';

/** Every code a refused line, a failed query or a misused API call can carry. */
export type TablesErrorCode =
  | 'TABLE_NOT_FOUND'
  // Name and size rules: the same codes as the parser's (screen-lines' TableRuleCode).
  | TableRuleCode
  | 'COLUMN_NOT_FOUND'
  | 'VALUE_DOES_NOT_FIT'
  | 'DELETE_NEEDS_KEY'
  | 'INVALID_QUERY'
  | 'LIMIT_TABLES'
  /** The SQLite store's physical column slots (never reached under the default limits). */
  | 'LIMIT_COLUMNS'
  | 'LIMIT_ROWS'
  | 'LIMIT_TEXT'
  | 'LIMIT_LINES'
  | 'LIMIT_ROWS_BACK'
  | 'LIMIT_QUERY_ROWS'
  /** The call's lines took more work than the caller allows per call (`CallPace.maxMs`, ADR 0254). */
  | 'LIMIT_TIME'
  /** The person's table work for the minute is used up (`CallPace.admit`, ADR 0254). */
  | 'LIMIT_BUDGET'
  | 'INVALID_LINE'
  | 'LINE_NOT_TABLE'
  | 'PARSE_ERROR'
  | 'PENDING_NOT_FOUND'
  | 'INVALID_TIME_ZONE'
  | 'INVALID_OPTIONS';

/**
 * The one error class of the package; `code` is stable, `message` says what is wrong and how to fix it.
 *
 * @example
 * ```ts
 * try { confirmPending(store, { owner, agent, id: 'p9' }); }
 * catch (e) { if (e instanceof TablesError && e.code === 'PENDING_NOT_FOUND') showGone(); }
 * ```
 */
export class TablesError extends Error {
  readonly code: TablesErrorCode;

  constructor(code: TablesErrorCode, message: string) {
    super(message);
    this.name = 'TablesError';
    this.code = code;
  }
}

/** True when `value` is a TablesError (also across bundle copies, by shape). */
export function isTablesError(value: unknown): value is TablesError {
  return (
    value instanceof Error && value.name === 'TablesError' && typeof (value as TablesError).code === 'string'
  );
}
