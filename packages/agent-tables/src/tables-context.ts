// What the relay-table use cases share: the engine run for one agent, the call's limits, cards and change events.
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord } from '@screen-service/registry/model';
import { parse } from '@screen-service/screen-lines';
import {
  type CallPace,
  DEFAULT_LIMITS,
  isTablesError,
  type LineFailure,
  type LinesAnswer,
  type PendingAnswer,
  runLines,
  type TableInfo,
  type TableLimits,
} from '@screen-service/tables-engine';
import { RECEIPTS_TABLE, splitReceiptLines, withReceipts } from './receipts-table.js';
import {
  MAX_TABLES_CALL_CHARS,
  type PendingView,
  type RefusedLine,
  type TablesDeps,
  UNHELD_TABLE_TTL_MS,
} from './tables-model.js';

export const UNHELD = 'unheld:';
export const CARD_META = 'tables_pending';
/** The card's one component is `confirm@tdel-<pending id>`: a screen without such a tap is no card. */
export const CARD_TAP = 'tdel-';

/** `<name>(<n> rows: <col>, ...)`: one table in a tables line. */
export function tablePart(t: TableInfo): string {
  return `${t.name}(${t.rowCount} rows: ${t.cols.map((c) => c.name).join(', ')})`;
}

export const refused = (f: LineFailure): RefusedLine => ({
  op: 'row',
  table: f.table,
  key: f.key,
  error: f.error,
  line: f.line,
  code: f.code,
});
export const eventOf = ({ code: _code, ...e }: RefusedLine) => e;
export const pendingView = (p: PendingAnswer): PendingView => ({ id: p.id, prompt: p.prompt });

/**
 * Outside a fenced block a line is a table line only when it parses as one and, for put, query and drop,
 * names a table the agent holds: "query me later" stays prose.
 */
export function bareTableLine(held: Set<string>) {
  return (line: string): boolean => {
    const parsed = parse(line);
    if (parsed.errors.length > 0 || parsed.ops.length !== 1) return false;
    const op = parsed.ops[0]!;
    if (op.op === 'table') return true;
    if (op.op === 'put') return held.has(op.table);
    if (op.op === 'drop') return held.has(op.name);
    if (op.op !== 'add' || op.preset !== 'query') return false;
    // Every agent reads its thread's receipts: `query receipts ...` is a table line without being held.
    const table = String((op.props as { table?: unknown }).table);
    return held.has(table) || table === RECEIPTS_TABLE;
  };
}

/** The shared parts every relay-table use case is built on. */
export function createTablesContext(deps: TablesDeps) {
  const { store, now } = deps;
  const relay = store.relay;
  const engine = relay.tables;
  const limits: TableLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const fallbackZone = deps.timeZone ?? 'UTC';
  // `today` and `now` land in the person's zone, as their phone keeps it on the account (ADR 0253).
  const zoneOf = async (userId: string) => (await store.users.getTimeZone(userId))?.zone ?? fallbackZone;
  const paceOf = (userId: string): { pace?: CallPace } => (deps.work ? { pace: deps.work(userId) } : {});

  const run = async (agent: AgentRecord, text: string): Promise<LinesAnswer> => {
    // `receipts` is the service's read-only table of the thread's receipts (ADR 0273): writes to it are
    // refused here, reads see this agent's own thread only.
    const { lines, refused, reads } = splitReceiptLines(text);
    const tables = reads ? await withReceipts(engine, store, agent, limits.rowsPerTable) : engine;
    const answer = await runLines(tables, {
      owner: agent.userId,
      agent: agent.id,
      lines,
      now,
      timeZone: await zoneOf(agent.userId),
      limits,
      ...paceOf(agent.userId),
    }).catch((error: unknown) => {
      // A store's statement timeout (PostgreSQL) undid the whole call: the agent hears why (ADR 0254).
      if (isTablesError(error) && error.code === 'LIMIT_TIME') {
        throw new ServiceError('LIMIT_EXCEEDED', error.message, { field: 'lines' });
      }
      throw error;
    });
    if (refused.length === 0) return answer;
    const failed = [...refused, ...answer.failed].sort((a, b) => (a.lineNumber ?? 0) - (b.lineNumber ?? 0));
    return { ...answer, failed };
  };

  /** Tells the person's devices (their copies and controls) which of an agent's tables changed. */
  const changed = (userId: string, agentId?: string, tables?: string[]) =>
    deps.notifier?.publish({
      type: 'tables',
      userId,
      ...(agentId === undefined ? {} : { agentId }),
      ...(tables === undefined ? {} : { tables }),
    });

  function text(value: unknown, field: string): string {
    if (typeof value !== 'string') {
      throw new ServiceError('INVALID_INPUT', `${field} must be text: table lines, one per line.`, { field });
    }
    if (value.length > MAX_TABLES_CALL_CHARS) {
      throw new ServiceError(
        'LIMIT_EXCEEDED',
        `${field} is ${value.length} characters; at most ${MAX_TABLES_CALL_CHARS} per call.`,
        { field },
      );
    }
    return value;
  }

  function checkLineCount(count: number, field: string) {
    if (count > limits.linesPerCall) {
      throw new ServiceError(
        'LIMIT_EXCEEDED',
        `This call has ${count} table lines; at most ${limits.linesPerCall} per call. Nothing was written: send the rest in another call.`,
        { field },
      );
    }
  }

  /** The Delete / Keep cards of a run's deletes, in the agent's thread. */
  async function appendCards(agent: AgentRecord, pending: PendingAnswer[]) {
    for (const p of pending) {
      const prompt = p.prompt.replace(/"/g, "'");
      await deps.appendCard(agent, `confirm@${CARD_TAP}${p.id} "${prompt}" Delete|Keep`, {
        [CARD_META]: p.id,
        text: `${agent.name} asks to delete: ${p.line}`,
      });
    }
  }

  /** After a run: tell the devices what changed, mark reads; the cards unless the caller places them. */
  async function afterRun(agent: AgentRecord, answer: LinesAnswer, cards = true) {
    if (answer.ok.length > 0) changed(agent.userId, agent.id, [...new Set(answer.ok.map((o) => o.table))]);
    if (cards) await appendCards(agent, answer.pending);
    const read = [
      ...new Set(
        answer.results.filter((r) => r.error === undefined && r.table !== RECEIPTS_TABLE).map((r) => r.table),
      ),
    ];
    if (read.length > 0) await relay.markRead(agent.userId, agent.id, read, now());
  }

  async function sweep(): Promise<number> {
    const due = await relay.listUnheldBefore(now() - UNHELD_TABLE_TTL_MS);
    for (const key of due) await relay.drop(key);
    for (const userId of new Set(due.map((k) => k.userId))) changed(userId);
    return due.length;
  }

  return {
    deps,
    store,
    now,
    relay,
    engine,
    limits,
    run,
    changed,
    text,
    checkLineCount,
    appendCards,
    afterRun,
    sweep,
  };
}

/** The shared parts of the relay-table use cases. */
export type TablesContext = ReturnType<typeof createTablesContext>;
