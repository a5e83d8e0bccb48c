// @screen-service/agent-tables: one set of tables per agent: the tables call, screen table lines, cards, copies, controls.
// Every export here is public API.
export { drawPlain } from './draw-plain.js';
export { isReadOnly, type ReplyPiece, type SplitReply, splitReply } from './reply-split.js';
export {
  createTableWork,
  TABLE_WORK_DEFAULTS,
  type TableWorkLimits,
  type TableWorkOptions,
} from './table-work.js';
export {
  createTables,
  type GiveInput,
  type GiveResult,
  type HoldingsResult,
  type LinesCallResult,
  MAX_READS_IN_A_ROW,
  MAX_TABLES_CALL_CHARS,
  type PendingView,
  type RefusedLine,
  type ReplicaAnswer,
  type ReplicaRequest,
  type ReplicaTable,
  type ReplyReadResult,
  type ReplyTextResult,
  type ScreenWrites,
  TABLES_CALLS_PER_MINUTE,
  type TableListItem,
  type Tables,
  type TablesCallInput,
  type TablesCallResult,
  type TablesDeps,
  type TablesResult,
  UNHELD_TABLE_TTL_MS,
} from './tables.js';
