// Public API of @screen-service/screen-lines/catalog: the catalog and the tap lines without the parser, for
// bundles that draw ops they were given (a renderer) and should not carry the parser. Every export is named;
// the main entry re-exports all of them.
export { catalog } from './catalog/index.js';
export { isEmailAddress } from './catalog/tap-rules.js';
export type {
  ComponentSpec,
  EventSpec,
  FlagSpec,
  SettingSpec,
  SlotKind,
  SlotSpec,
  TapInput,
  TapRule,
  TapRuleResult,
} from './catalog/types.js';
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
export { checkTap, componentOn, type TapCheck } from './tap-check.js';
export { formatEcho, formatTapLine, parseTapLine } from './tap-line.js';
