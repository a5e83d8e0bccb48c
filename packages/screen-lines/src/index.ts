// Public API of @screen-service/screen-lines: every export here is public and named.
export { catalog } from './catalog/index.js';
export type { ComponentSpec, EventSpec, FlagSpec, SettingSpec, SlotKind, SlotSpec } from './catalog/types.js';
export {
  PARSE_ERROR_CODES,
  type ParseError,
  type ParseErrorCode,
  ScreenLinesError,
  type ScreenLinesErrorCode,
} from './errors.js';
export { format } from './format.js';
export { guide, LANGUAGE_VERSION } from './guide.js';
export type {
  AddOp,
  DropOp,
  EndOp,
  GroupOp,
  LineValue,
  Op,
  PatchOp,
  PatchValue,
  PutOp,
  QueryProps,
  TableColumn,
  TableOp,
  TapEvent,
  ThemeOp,
  WhereOperator,
} from './ops.js';
export { type ParseOptions, type ParseResult, parse } from './parse.js';
export {
  COLUMN_NAME_PATTERN,
  checkColumnName,
  checkColumnNames,
  checkRowKey,
  checkTableName,
  isTableRuleCode,
  MAX_COLUMN_NAME_LENGTH,
  MAX_ROW_KEY_LENGTH,
  MAX_TABLE_COLUMNS,
  MAX_TABLE_NAME_LENGTH,
  ROW_KEY_NAME,
  TABLE_NAME_PATTERN,
  TABLE_RULE_CODES,
  type TableRuleCode,
  type TableRuleProblem,
} from './table-names.js';
export { formatEcho, formatTapLine, parseTapLine } from './tap-line.js';
export { MAX_TODAY_OFFSET } from './terms.js';
export { THEME_STYLE_KEYS, THEME_WORD_KEYS } from './theme-group.js';
