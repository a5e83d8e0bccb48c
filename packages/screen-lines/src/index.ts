// Public API of @screen-service/screen-lines: every export here is public and named. The catalog, op types,
// table-name rules and tap lines are the `./catalog` entry's (one list, kept there); the parser adds the rest.
export {
  buildComponent,
  buildDelete,
  buildPut,
  buildQuery,
  type CellValue,
  formatChecked,
  toLineValue,
} from './build.js';
export * from './catalog-entry.js';
export {
  PARSE_ERROR_CODES,
  type ParseError,
  type ParseErrorCode,
  ScreenLinesError,
  type ScreenLinesErrorCode,
} from './errors.js';
export { format } from './format.js';
export { guide, LANGUAGE_VERSION } from './guide.js';
export { type ParseOptions, type ParseResult, parse } from './parse.js';
export { MAX_TODAY_OFFSET } from './terms.js';
export { THEME_STYLE_KEYS, THEME_WORD_KEYS } from './theme-group.js';
