// Public API of @screen-service/tables-engine (browser-safe; the SQLite store is at `/sqlite`). Every export is public API.
export { applyWrite, type WriteContext, type WriteOutcome } from './apply-writes.js';
export {
  buildView,
  type ChartView,
  formatCell,
  type ListView,
  type QueryView,
  type SendEvent,
  type SendView,
  type StatView,
  sendEvent,
  type TableView,
  type ViewInput,
  type ViewResult,
} from './build-view.js';
export { type CallPace, type PaceMeter, paceMeter } from './call-pace.js';
export { editRow, type RowEdit, type RowEditEvent } from './edit-row.js';
export { isTablesError, TablesError, type TablesErrorCode } from './errors.js';
export { convertCell, type FitContext, type FitResult, fitValue } from './fit-value.js';
export { DEFAULT_LIMITS, type TableLimits } from './limits.js';
export {
  createMemoryStore,
  type MemorySnapshot,
  type MemoryStore,
  type MemoryStoreOptions,
} from './memory-store.js';
export type { Cell, Column, ColumnType, StoredRow, TableDump, TableInfo, TableRef } from './model.js';
export { type ConfirmedDelete, confirmPending, keepPending, type PendingTap } from './pending-deletes.js';
export { type PlanContext, type PlanResult, planQuery } from './plan-query.js';
export type {
  PlanAggregate,
  PlanFilter,
  PlanOutput,
  PlanSort,
  QueryPlan,
  QueryRows,
  RowsPlan,
  TotalsPlan,
  WhereOp,
} from './query-plan.js';
export { type RunLinesOptions, runLines } from './run-lines.js';
export {
  type CallContext,
  type LineFailure,
  type LineOk,
  type LinesAnswer,
  type OpLine,
  type PendingAnswer,
  pendingPrompt,
  type QueryOp,
  type QueryResult,
  runOps,
} from './run-ops.js';
export { type PlanRow, runPlan } from './run-plan.js';
export type { PendingDelete, TableStore } from './store.js';
export { createStoreLock, type StoreLock, storeLockOf } from './store-lock.js';
export { resolveNow, resolveToday } from './time-zone.js';
