// Public API of @screen-service/screen-lines/catalog: the catalog and the tap lines without the parser, for
// bundles that draw ops they were given (a renderer) and should not carry chevrotain. Every export is named.
export { catalog } from './catalog/index.js';
export type { ComponentSpec, EventSpec, FlagSpec, SettingSpec, SlotKind, SlotSpec } from './catalog/types.js';
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
export { formatEcho, formatTapLine, parseTapLine } from './tap-line.js';
