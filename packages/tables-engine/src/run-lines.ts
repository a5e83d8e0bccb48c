// runLines: the tables call every adapter ends in; parses table lines and answers doc3's `{ok, failed, results}`.
import { isTableRuleCode, type Op, parse } from '@screen-service/screen-lines';
import {
  type CallContext,
  checkCall,
  type LineFailure,
  type LinesAnswer,
  type OpLine,
  type QueryOp,
  runOps,
} from './run-ops.js';
import type { TableStore } from './store.js';

/** The tables call: who, when, where, and the table lines as the agent wrote them. */
export interface RunLinesOptions extends CallContext {
  /** Table lines: `table create`, `table drop`, `put` and `query`, one per line. */
  lines: string;
  /** Copied onto the parsed ops (the screen the lines came with). */
  screen?: string;
}

const TABLE_OF = /^\s*(?:put|query|table\s+(?:create|drop))\s+"?([^\s"]+)/;

function failure(line: string, code: LineFailure['code'], error: string, lineNumber?: number): LineFailure {
  const table = TABLE_OF.exec(line)?.[1] ?? '';
  return { op: 'row', table, key: '', error, line, code, ...(lineNumber ? { lineNumber } : {}) };
}

function tableOp(op: Op): OpLine['op'] | undefined {
  if (op.op === 'table' || op.op === 'drop' || op.op === 'put') return op;
  // The parser gives query props the QueryProps shape (screen-lines contract); AddOp types them loosely.
  if (op.op === 'add' && op.preset === 'query') return op as unknown as QueryOp;
  return undefined;
}

/**
 * Runs an agent's table lines against a store for one person and agent: writes land line by line (each
 * all or nothing), deletes come back pending until the person taps, queries answer with rows and a view.
 * Throws only on misuse (empty owner/agent, unknown time zone); every line problem is in `failed`.
 *
 * @example
 * ```ts
 * const answer = await runLines(store, {
 *   owner: 'person-1', agent: 'coach', now: Date.now(), timeZone: 'Europe/Berlin',
 *   lines: 'table create Weights Date:date Weight:number:kg\nput Weights Date=today Weight=72.5\nquery Weights as stat',
 * });
 * // answer.ok: 2 writes; answer.results[0].view: { kind: 'stat', value: 72.5, ... }
 * ```
 */
export async function runLines(store: TableStore, options: RunLinesOptions): Promise<LinesAnswer> {
  const limits = checkCall(options);
  const source = options.lines.split(/\r?\n/);
  const count = source.filter((l) => l.trim() !== '').length;
  if (count > limits.linesPerCall) {
    const error = `this call has ${count} lines; at most ${limits.linesPerCall} per call; send the rest in another call`;
    return { ok: [], failed: [failure('', 'LIMIT_LINES', error)], results: [], pending: [] };
  }
  const parsed = parse(options.lines, options.screen === undefined ? {} : { screen: options.screen });
  // A table rule the parser caught keeps its code (the engine refuses the same rule with the same code);
  // any other parse problem is PARSE_ERROR with the parser's message.
  const failed: LineFailure[] = parsed.errors.map((e) =>
    failure(source[e.line - 1] ?? '', isTableRuleCode(e.code) ? e.code : 'PARSE_ERROR', e.message, e.line),
  );
  const ops: OpLine[] = [];
  parsed.ops.forEach((op, i) => {
    const { line: lineNumber, text: line } = parsed.spans[i]!;
    const table = tableOp(op);
    if (table) ops.push({ op: table, line, lineNumber });
    else {
      failed.push(
        failure(
          line,
          'LINE_NOT_TABLE',
          `only table create, table drop, put and query lines go in a tables call; '${line.trim().split(/\s+/)[0]}' is not one`,
          lineNumber,
        ),
      );
    }
  });
  const answer = await runOps(store, { ...options, ops });
  // Refusals in the order of the lines, whichever step refused them.
  const all = [...failed, ...answer.failed].sort((a, b) => (a.lineNumber ?? 0) - (b.lineNumber ?? 0));
  return { ...answer, failed: all };
}
