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
export { formatEcho, formatTapLine, parseTapLine } from './tap-line.js';
