// The tables call on parsed ops: writes, queries and pending deletes, answered as doc3 "Answer for lines".

import type { DropOp, PutOp, QueryProps, TableOp } from '@screen-service/screen-lines';
import { applyWrite, type WriteContext } from './apply-writes.js';
import { buildView, type QueryView } from './build-view.js';
import { type CallPace, paceMeter } from './call-pace.js';
import type { TablesErrorCode } from './errors.js';
import { TablesError } from './errors.js';
import { DEFAULT_LIMITS, type TableLimits } from './limits.js';
import type { Cell } from './model.js';
import { planQuery } from './plan-query.js';
import type { PlanOutput } from './query-plan.js';
import type { PendingDelete, TableStore } from './store.js';
import { assertTimeZone } from './time-zone.js';

/** Who calls and when: the person, the agent holding the tables, the clock and the person's time zone. */
export interface CallContext {
  owner: string;
  agent: string;
  /** The moment lines land; a function is asked once per line. */
  now: Date | number | (() => Date | number);
  /** IANA zone that `today`, `today±N` and `now` resolve in, e.g. `Europe/Berlin`. */
  timeZone: string;
  /** Overrides of doc3's limits (phone limits may grow). */
  limits?: Partial<TableLimits>;
  /** Yielding, a cap on the call's work and a budget for queries (ADR 0254); default: none. */
  pace?: CallPace;
}

/** A `query` line as the parser gives it. */
export interface QueryOp {
  op: 'add';
  preset: 'query';
  id: string;
  props: QueryProps;
  group?: string;
}

/** A table op with the line it came from. */
export interface OpLine {
  op: TableOp | DropOp | PutOp | QueryOp;
  line: string;
  /** 1-based line number in the call's text, copied onto a refusal. */
  lineNumber?: number;
}

/** A write that landed. */
export interface LineOk {
  op: 'table' | 'put';
  table: string;
  key?: string;
  line: string;
  note?: string;
}

/** A refused line in doc3's event shape, plus its stable code. */
export interface LineFailure {
  op: 'row';
  table: string;
  key: string;
  error: string;
  line: string;
  code: TablesErrorCode;
  /** 1-based line number in the call's text, when known. */
  lineNumber?: number;
}

/** A delete waiting for the person's Delete or Keep tap. */
export interface PendingAnswer extends PendingDelete {
  /** The question on the Delete / Keep card. */
  prompt: string;
}

/** One query's answer: `{cols, rows, count}` plus the view to draw, or the reason in place of the view. */
export interface QueryResult {
  id: string;
  table: string;
  cols: string[];
  rows: Cell[][];
  count: number;
  keys: string[];
  columns: PlanOutput[];
  view?: QueryView;
  error?: string;
  code?: TablesErrorCode;
}

/** doc3 "Answer for lines". */
export interface LinesAnswer {
  ok: LineOk[];
  failed: LineFailure[];
  results: QueryResult[];
  pending: PendingAnswer[];
}

function clock(now: CallContext['now']): () => Date {
  return () => {
    const value = typeof now === 'function' ? now() : now;
    return value instanceof Date ? value : new Date(value);
  };
}

/** The question a Delete / Keep card asks. */
export function pendingPrompt(p: PendingDelete): string {
  return p.kind === 'row'
    ? `Delete row ${p.key} from ${p.table}?`
    : `Delete table ${p.table} and all its rows?`;
}

/** Checks the call's identity and zone; throws INVALID_OPTIONS / INVALID_TIME_ZONE on misuse. */
export function checkCall(ctx: CallContext): TableLimits {
  if (!ctx.owner || !ctx.agent)
    throw new TablesError('INVALID_OPTIONS', 'owner and agent must be non-empty strings');
  assertTimeZone(ctx.timeZone);
  return { ...DEFAULT_LIMITS, ...ctx.limits };
}

function emptyResult(id: string, table: string, code: TablesErrorCode, error: string): QueryResult {
  return { id, table, cols: [], rows: [], count: 0, keys: [], columns: [], error, code };
}

async function runQuery(
  store: TableStore,
  op: QueryOp,
  ctx: WriteContext,
  rowsLeft: number,
  admit: CallPace['admit'],
): Promise<QueryResult> {
  const props = op.props;
  const ref = { owner: ctx.owner, holder: ctx.agent, name: props.table };
  const table = await store.getTable(ref);
  if (!table)
    return emptyResult(op.id, props.table, 'TABLE_NOT_FOUND', `No table called ${props.table} yet.`);
  const planned = planQuery(props, table.cols, ctx);
  if (!planned.ok) return emptyResult(op.id, props.table, planned.code, planned.message);
  const admitted = admit ? await admit(table.rowCount) : true;
  if (admitted !== true) return emptyResult(op.id, props.table, 'LIMIT_BUDGET', admitted);
  const answer = await store.query(ref, planned.plan);
  if (answer.rows.length > rowsLeft) {
    return emptyResult(
      op.id,
      props.table,
      'LIMIT_ROWS_BACK',
      `this query gives ${answer.rows.length} rows but the call may hand back only ${rowsLeft} more (${ctx.limits.rowsPerCall} per call); lower limit= or split the queries across calls`,
    );
  }
  let columns = planned.plan.output;
  let rows = answer.rows;
  if (planned.keep) {
    const indexes = planned.keep.map((name) => columns.findIndex((c) => c.name === name));
    columns = indexes.map((i) => columns[i]!);
    rows = rows.map((r) => indexes.map((i) => r[i]!));
  }
  const input = { cols: columns, rows, keys: answer.keys, count: answer.count };
  const view = buildView(props, props.table, input);
  const base = { id: op.id, table: props.table, cols: columns.map((c) => c.name), rows, count: answer.count };
  if (!view.ok)
    return {
      ...emptyResult(op.id, props.table, 'INVALID_QUERY', view.message),
      ...base,
      keys: answer.keys,
      columns,
    };
  return { ...base, keys: answer.keys, columns, view: view.view };
}

/**
 * Runs parsed table ops in order: each write lands whole or is refused, deletes wait for the person,
 * queries answer with rows and a view.
 *
 * @example
 * ```ts
 * const answer = await runOps(store, { owner: 'u1', agent: 'coach', now: Date.now(), timeZone: 'Europe/Berlin', ops });
 * ```
 */
export async function runOps(store: TableStore, ctx: CallContext & { ops: OpLine[] }): Promise<LinesAnswer> {
  const limits = checkCall(ctx);
  const answer: LinesAnswer = { ok: [], failed: [], results: [], pending: [] };
  if (ctx.ops.length > limits.linesPerCall) {
    answer.failed.push({
      op: 'row',
      table: '',
      key: '',
      code: 'LIMIT_LINES',
      error: `this call has ${ctx.ops.length} lines; at most ${limits.linesPerCall} per call; send the rest in another call`,
      line: '',
    });
    return answer;
  }
  await store.batch(() => runEach(store, ctx, limits, answer));
  return answer;
}

async function runEach(
  store: TableStore,
  ctx: CallContext & { ops: OpLine[] },
  limits: TableLimits,
  answer: LinesAnswer,
) {
  const now = clock(ctx.now);
  const meter = paceMeter(ctx.pace);
  let rowsLeft = limits.rowsPerCall;
  for (const { op, line, lineNumber } of ctx.ops) {
    if (!(await meter.beforeLine())) {
      refuseOverTime(answer, op, line, lineNumber, meter.overMessage);
      continue;
    }
    const wctx: WriteContext = {
      owner: ctx.owner,
      agent: ctx.agent,
      now: now(),
      timeZone: ctx.timeZone,
      limits,
    };
    if (op.op === 'add') {
      const result = await runQuery(store, op, wctx, rowsLeft, ctx.pace?.admit);
      meter.afterLine();
      rowsLeft -= result.rows.length;
      answer.results.push(result);
      continue;
    }
    const outcome = await applyWrite(store, op, line, wctx);
    meter.afterLine();
    if (outcome.kind === 'refused') {
      const { table, key, code, error } = outcome;
      answer.failed.push({ op: 'row', table, key, error, line, code, ...(lineNumber ? { lineNumber } : {}) });
    } else if (outcome.kind === 'pending') {
      answer.pending.push({ ...outcome.pending, prompt: pendingPrompt(outcome.pending) });
    } else {
      const { table, key, note } = outcome;
      answer.ok.push({
        op: op.op === 'put' ? 'put' : 'table',
        table,
        ...(key === undefined ? {} : { key }),
        line,
        ...(note ? { note } : {}),
      });
    }
  }
}

/** A line the call had no time left for: a query answers with the reason, a write is refused. */
function refuseOverTime(
  answer: LinesAnswer,
  op: OpLine['op'],
  line: string,
  lineNumber: number | undefined,
  error: string,
) {
  if (op.op === 'add') {
    answer.results.push(emptyResult(op.id, op.props.table, 'LIMIT_TIME', error));
    return;
  }
  const table = op.op === 'put' ? op.table : op.name;
  const key = op.op === 'put' ? (op.key ?? '') : '';
  answer.failed.push({
    op: 'row',
    table,
    key,
    error,
    line,
    code: 'LIMIT_TIME',
    ...(lineNumber ? { lineNumber } : {}),
  });
}
