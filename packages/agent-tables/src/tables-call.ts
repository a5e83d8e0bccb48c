// The tables call (doc3 "Tables call"): lines, a whole reply, or the holdings; and a screen's table lines alike.
import { parseSessionKey, pickAgent } from '@screen-service/registry/agents';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord } from '@screen-service/registry/model';
import type { TableInfo } from '@screen-service/tables-engine';
import { drawPlain } from './draw-plain.js';
import { isReadOnly, splitReply } from './reply-split.js';
import {
  bareTableLine,
  eventOf,
  pendingView,
  refused,
  type TablesContext,
  tablePart,
} from './tables-context.js';
import {
  type HoldingsResult,
  type LinesCallResult,
  MAX_READS_IN_A_ROW,
  type ReplyReadResult,
  type ReplyTextResult,
  type ScreenWrites,
  TABLES_CALLS_PER_MINUTE,
  type TablesCallInput,
  type TablesCallResult,
} from './tables-model.js';

const SHARED_WHY = `Tables live only in the owner's own thread; this thread is shared with another person.`;

/**
 * True when `session` names a thread of `agent` shared with another person (`<agent_id>~<user_id>`).
 *
 * @throws {ServiceError} INVALID_INPUT when it is not a session of this agent.
 */
function sharedSession(agent: AgentRecord, session: unknown): boolean {
  if (session === undefined || session === null || session === '') return false;
  const parsed = typeof session === 'string' ? parseSessionKey(session) : null;
  if (!parsed || parsed.agentId !== agent.id) {
    throw new ServiceError(
      'INVALID_INPUT',
      `session must be this agent's thread as the host sees it: "${agent.id}" or "${agent.id}~<user id>".`,
      { field: 'session' },
    );
  }
  return parsed.userId !== null && parsed.userId !== agent.userId;
}

function countLines(text: string): number {
  return text.split(/\r?\n/).filter((l) => l.trim() !== '').length;
}

function holdingLine(tables: TableInfo[]): string {
  return tables.length === 0 ? '' : `[svc] tables ${tables.map(tablePart).join(' ')}`;
}

/** A line refused because it came from a thread shared with another person. */
function sharedRefusal(line: string) {
  const words = line.trim().split(/\s+/);
  return {
    op: 'row' as const,
    table: words[words[0] === 'table' ? 2 : 1] ?? '',
    key: '',
    error: SHARED_WHY,
    line,
  };
}

/** The tables call and a screen's table lines, over the shared context. */
export function createTablesCall(ctx: TablesContext) {
  const { store, relay, engine } = ctx;

  async function served(p: ConnectionPrincipal, ref: string | undefined) {
    const list = (await store.agents.listByConnector(p.connectorId)).filter((a) => a.userId === p.userId);
    return pickAgent(list, ref);
  }

  /**
   * A shared thread's call (doc3: it never touches the owner's tables): `lines` are refused; a `reply` keeps
   * its prose and screens, and each table line in it is told to the agent as refused, nothing run or read.
   */
  async function sharedThreadCall(agent: AgentRecord, input: TablesCallInput): Promise<ReplyTextResult> {
    if (input.lines !== undefined && input.lines !== null && input.lines !== '') {
      throw new ServiceError('NOT_IN_A_SHARED_THREAD', `${SHARED_WHY} Its table lines are not run.`, {
        field: 'lines',
      });
    }
    if (input.reply === undefined || input.reply === null) return { text: '', events: [], pending: [] };
    // Which bare lines are table lines is judged as in the owner's thread (by the names the agent holds).
    const held = new Set((await engine.listTables(agent.userId, agent.id)).map((t) => t.name));
    const split = splitReply(ctx.text(input.reply, 'reply'), bareTableLine(held));
    const out: string[] = [];
    for (const piece of split.pieces) {
      if (piece.kind === 'text') out.push(piece.text);
      else if (piece.kind === 'block') out.push('```svc', ...piece.lines, '```');
    }
    return { text: out.join('\n').trim(), events: split.lines.map(sharedRefusal), pending: [] };
  }

  /** The reply's text with each query drawn in place; `Saved.` over the changed tables for writes alone. */
  async function savedText(
    agent: AgentRecord,
    split: ReturnType<typeof splitReply>,
    answer: Awaited<ReturnType<typeof ctx.run>>,
    drawn: string[],
  ): Promise<string> {
    const out: string[] = [];
    let q = 0;
    for (const piece of split.pieces) {
      if (piece.kind === 'text') out.push(piece.text);
      else if (piece.kind === 'block') out.push('```svc', ...piece.lines, '```');
      else if (piece.query) out.push(drawn[q++] ?? '');
    }
    const saved = out.join('\n').trim();
    if (saved === '' && answer.ok.length > 0) {
      const changed = [...new Set(answer.ok.map((o) => o.table))];
      const views = (await ctx.run(agent, changed.map((t) => `query ${t}`).join('\n'))).results.map(
        drawPlain,
      );
      return ['Saved.', ...views].join('\n\n');
    }
    if (saved === '' && answer.pending.length > 0) return 'Waiting for your tap to delete.';
    return saved;
  }

  async function replyCall(agent: AgentRecord, reply: string): Promise<ReplyTextResult | ReplyReadResult> {
    const held = new Set((await engine.listTables(agent.userId, agent.id)).map((t) => t.name));
    const split = splitReply(reply, bareTableLine(held));
    if (split.lines.length === 0) {
      await relay.setReadsInRow(agent.id, agent.userId, 0);
      return { text: reply, events: [], pending: [] };
    }
    ctx.checkLineCount(split.lines.length, 'reply');
    const answer = await ctx.run(agent, split.lines.join('\n'));
    await ctx.afterRun(agent, answer);
    const drawn = answer.results.map(drawPlain);
    if (isReadOnly(split)) {
      const reads = await relay.readsInRow(agent.id);
      if (reads < MAX_READS_IN_A_ROW) {
        await relay.setReadsInRow(agent.id, agent.userId, reads + 1);
        const parts = answer.results.map((r, i) =>
          r.error === undefined ? `${r.table} (${r.rows.length} of ${r.count} rows)\n${drawn[i]}` : drawn[i],
        );
        return { read: true, note: `[svc] Your tables: ${parts.join('\n\n')}` };
      }
    }
    await relay.setReadsInRow(agent.id, agent.userId, 0);
    return {
      text: await savedText(agent, split, answer, drawn),
      events: answer.failed.map(refused).map(eventOf),
      pending: answer.pending.map(pendingView),
    };
  }

  async function linesCall(agent: AgentRecord, lines: string): Promise<LinesCallResult> {
    ctx.checkLineCount(countLines(lines), 'lines');
    const answer = await ctx.run(agent, lines);
    await ctx.afterRun(agent, answer);
    return {
      ok: answer.ok,
      failed: answer.failed.map(refused),
      results: answer.results.map((r) => ({
        id: r.id,
        table: r.table,
        cols: r.cols,
        rows: r.rows,
        count: r.count,
        ...(r.error === undefined ? {} : { error: r.error }),
      })),
      pending: answer.pending.map(pendingView),
    };
  }

  async function holdings(agent: AgentRecord): Promise<HoldingsResult> {
    const held = await engine.listTables(agent.userId, agent.id);
    return {
      held: held.map((t) => ({ name: t.name, rows: t.rowCount, cols: t.cols.map((c) => c.name) })),
      tables: holdingLine(held),
      pending: (await engine.listPending(agent.userId, agent.id)).map((x) => ({
        id: x.id,
        prompt:
          x.kind === 'row'
            ? `Delete row ${x.key} from ${x.table}?`
            : `Delete table ${x.table} and all its rows?`,
      })),
    };
  }

  async function call(p: ConnectionPrincipal, input: TablesCallInput): Promise<TablesCallResult> {
    const agent = await served(p, input.agent);
    if (sharedSession(agent, input.session)) return sharedThreadCall(agent, input);
    const decision = await ctx.deps.limiter.take(agent.id);
    if (!decision.ok) {
      throw new ServiceError(
        'RATE_LIMITED',
        `Agent ${agent.handle} made ${TABLES_CALLS_PER_MINUTE} tables calls in the last minute; wait ${decision.retryAfterS} s.`,
        { details: { retryAfterS: decision.retryAfterS } },
      );
    }
    await ctx.sweep();
    const hasLines = input.lines !== undefined && input.lines !== null && input.lines !== '';
    const hasReply = input.reply !== undefined && input.reply !== null;
    if (hasLines && hasReply) {
      throw new ServiceError('INVALID_INPUT', 'Send either lines or reply, not both.', { field: 'reply' });
    }
    if (hasReply) return replyCall(agent, ctx.text(input.reply, 'reply'));
    if (hasLines) return linesCall(agent, ctx.text(input.lines, 'lines'));
    return holdings(agent);
  }

  /**
   * A screen's table lines: the same run as `lines` (one logical set of tables per agent, ADR 0250). Over the
   * per-call line limit is refused whole before anything is shown; the cards wait for the screen to be written.
   */
  async function screenWrites(agent: AgentRecord, lines: string[], shared: boolean): Promise<ScreenWrites> {
    const none = async () => {};
    if (lines.length === 0) return { wrote: 0, failed: [], pending: [], appendCards: none };
    if (shared) {
      const failed = lines.map((l) => ({ ...sharedRefusal(l), code: 'NOT_IN_A_SHARED_THREAD' }));
      return { wrote: 0, failed, pending: [], appendCards: none };
    }
    ctx.checkLineCount(lines.length, 'lines');
    const answer = await ctx.run(agent, lines.join('\n'));
    await ctx.afterRun(agent, answer, false);
    return {
      wrote: answer.ok.length,
      failed: answer.failed.map(refused),
      pending: answer.pending.map(pendingView),
      appendCards: () => ctx.appendCards(agent, answer.pending),
    };
  }

  return { call, screenWrites };
}
