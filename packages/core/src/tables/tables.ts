// The tables call (doc3 "Tables call") and the person's table controls: every adapter ends in these use cases.

import { parseSessionKey, pickAgent } from '@screen-service/registry/agents';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import type { Notifier, RateLimiter } from '@screen-service/registry/kernel';
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord, RelayTableKey, ScreenRecord, Store } from '@screen-service/registry/model';
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
import { drawPlain } from './draw-plain.js';
import { isReadOnly, splitReply } from './reply-split.js';

/** doc3 "Limits" rows the service enforces around the engine's own. */
export const TABLES_CALLS_PER_MINUTE = 60;
export const UNHELD_TABLE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const MAX_READS_IN_A_ROW = 2;
/** Characters of `lines` or `reply` one call may carry. */
export const MAX_TABLES_CALL_CHARS = 100_000;

/** The tables call's input: `lines`, or a whole `reply`, or neither (list what the agent holds). */
export interface TablesCallInput {
  agent?: string;
  lines?: unknown;
  reply?: unknown;
  /**
   * The thread the lines come from, as the host sees it (`<agent_id>`, or `<agent_id>~<user_id>` for a thread
   * shared with another person); default the owner's own. A shared thread never touches the owner's tables.
   */
  session?: unknown;
}

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

/** A refused write as the agent hears it (doc3 event 1), with the engine's stable code. */
export interface RefusedLine {
  op: 'row';
  table: string;
  key: string;
  error: string;
  line: string;
  code: string;
}

/** One query's rows. */
export interface TablesResult {
  id: string;
  table: string;
  cols: string[];
  rows: (string | number | boolean | null)[][];
  count: number;
  error?: string;
}

/** A delete that waits for the person's Delete / Keep card. */
export interface PendingView {
  id: string;
  prompt: string;
}

/** Answer for `lines`. */
export interface LinesCallResult {
  ok: { op: 'table' | 'put'; table: string; key?: string; line: string; note?: string }[];
  failed: RefusedLine[];
  results: TablesResult[];
  pending: PendingView[];
}

/** Answer for `reply`: the text to save, with refused writes to tell the agent once after the reply. */
export interface ReplyTextResult {
  text: string;
  events: Omit<RefusedLine, 'code'>[];
  pending: PendingView[];
}

/** Answer for a `reply` that only reads: give `note` to the agent as its next turn. */
export interface ReplyReadResult {
  read: true;
  note: string;
}

/** Answer for a call with no lines: what the agent holds. */
export interface HoldingsResult {
  held: { name: string; rows: number; cols: string[] }[];
  /** `[svc] tables <name>(<n> rows: <col>, ...) ...`, or '' when it holds none. */
  tables: string;
  pending: PendingView[];
}

export type TablesCallResult = LinesCallResult | ReplyTextResult | ReplyReadResult | HoldingsResult;

/** A relay table as the person's controls list it. */
export interface TableListItem {
  name: string;
  rows: number;
  cols: string[];
  /** The holding agent, or null when the table is unheld (kept after its agent was removed). */
  agent: { id: string; handle: string; name: string } | null;
  /** Opaque holder key to pass back to give / take / delete. */
  holder: string;
  last_read_at: string | null;
  /** When an unheld table is deleted unless given to an agent first. */
  expires_at: string | null;
}

/** Give a table to an agent (hand-over), optionally under a new name. */
export interface GiveInput {
  table: unknown;
  from: unknown;
  to: unknown;
  name?: unknown;
}

export interface GiveResult {
  table: string;
  agent: { id: string; handle: string; name: string };
  /** True when the name clashed and the table was given as `<name>-<agent>`. */
  renamed: boolean;
}

/** The relay-table use cases. */
export interface Tables {
  /** `POST {connect_url}/tables`, `svc_tables`, the host and bridge adapters. */
  call(p: ConnectionPrincipal, input: TablesCallInput): Promise<TablesCallResult>;
  /** The person's controls: every relay table with rows, holder and last read. */
  list(userId: string): Promise<TableListItem[]>;
  /** `svc_tables_give`: hands a table from its holder (or from unheld) to another agent of the person. */
  give(userId: string, input: GiveInput): Promise<GiveResult>;
  /** Takes a table away from its agent: unheld, deleted after 30 days unless given again. */
  takeAway(userId: string, input: { table: unknown; from: unknown }): Promise<void>;
  /** The person deletes a table (their own tap; no card). */
  remove(userId: string, input: { table: unknown; from: unknown }): Promise<void>;
  /** Before an agent is removed: keeps its tables unheld, or deletes them; drops its pending deletes. */
  releaseAgent(userId: string, agentId: string, keep: boolean): Promise<void>;
  /** Deletes unheld tables whose 30 days are over; returns how many. */
  sweep(): Promise<number>;
  /**
   * The person tapped a Delete / Keep card: settles it and returns fields for the tap event (so the agent
   * hears the outcome), or null when the screen is not a card of ours.
   */
  settleCard(screen: ScreenRecord, raw: unknown): Promise<Record<string, unknown> | null>;
}

/** What {@link createTables} is built from. */
export interface TablesDeps {
  store: Store;
  now: () => number;
  limiter: RateLimiter;
  /** IANA zone for `today` / `now` while the account has none (ADR 0253: the account's wins). Default UTC. */
  timeZone?: string;
  /** The pace of one account's calls: budget, per-call cap, yielding (ADR 0254; `createTableWork`). */
  work?: (userId: string) => CallPace;
  limits?: Partial<TableLimits>;
  /** Told when a user's tables change, so the person's controls redraw (the live stream's `tables`). */
  notifier?: Pick<Notifier, 'publish'>;
  /** Puts the Delete / Keep card in the agent's thread (a screen row marked as the service's card). */
  appendCard(agent: AgentRecord, lines: string, meta: Record<string, unknown>): Promise<void>;
}

const UNHELD = 'unheld:';
const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const CARD_META = 'tables_pending';
/** The card's one component is `confirm@tdel-<pending id>`: a screen without such a tap is no card. */
const CARD_TAP = 'tdel-';

/**
 * Outside a fenced block a line is a table line only when it parses as one and, for put, query and drop,
 * names a table the agent holds: "query me later" stays prose.
 */
function bareTableLine(held: Set<string>) {
  return (line: string): boolean => {
    const parsed = parse(line);
    if (parsed.errors.length > 0 || parsed.ops.length !== 1) return false;
    const op = parsed.ops[0]!;
    if (op.op === 'table') return true;
    if (op.op === 'put') return held.has(op.table);
    if (op.op === 'drop') return held.has(op.name);
    return (
      op.op === 'add' && op.preset === 'query' && held.has(String((op.props as { table?: unknown }).table))
    );
  };
}

function countLines(text: string): number {
  return text.split(/\r?\n/).filter((l) => l.trim() !== '').length;
}

/** `<name>(<n> rows: <col>, ...)`: one table in a tables line. */
function tablePart(t: TableInfo): string {
  return `${t.name}(${t.rowCount} rows: ${t.cols.map((c) => c.name).join(', ')})`;
}

function holdingLine(tables: TableInfo[]): string {
  return tables.length === 0 ? '' : `[svc] tables ${tables.map(tablePart).join(' ')}`;
}

const refused = (f: LineFailure): RefusedLine => ({
  op: 'row',
  table: f.table,
  key: f.key,
  error: f.error,
  line: f.line,
  code: f.code,
});
const eventOf = ({ code: _code, ...e }: RefusedLine) => e;
const pendingView = (p: PendingAnswer): PendingView => ({ id: p.id, prompt: p.prompt });

/**
 * Creates the relay-table use cases over the store's `relay` repository.
 *
 * @example
 * ```ts
 * const tables = createTables({ store, now, limiter, appendCard });
 * await tables.call(principal, { agent: 'coach', lines: 'table create Weights Date:date Weight:number:kg' });
 * ```
 */
export function createTables(deps: TablesDeps): Tables {
  const { store, now } = deps;
  const relay = store.relay;
  const engine = relay.tables;
  const limits: TableLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const fallbackZone = deps.timeZone ?? 'UTC';
  // `today` and `now` land in the person's zone, as their phone keeps it on the account (ADR 0253).
  const zoneOf = async (userId: string) => (await store.users.getTimeZone(userId))?.zone ?? fallbackZone;

  const run = async (agent: AgentRecord, lines: string): Promise<LinesAnswer> =>
    runLines(engine, {
      owner: agent.userId,
      agent: agent.id,
      lines,
      now,
      timeZone: await zoneOf(agent.userId),
      limits,
      ...(deps.work ? { pace: deps.work(agent.userId) } : {}),
    }).catch((error: unknown) => {
      // A store's statement timeout (PostgreSQL) undid the whole call: the agent hears why (ADR 0254).
      if (isTablesError(error) && error.code === 'LIMIT_TIME') {
        throw new ServiceError('LIMIT_EXCEEDED', error.message, { field: 'lines' });
      }
      throw error;
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

  async function afterRun(agent: AgentRecord, answer: LinesAnswer) {
    if (answer.ok.length > 0) changed(agent.userId);
    for (const p of answer.pending) {
      const prompt = p.prompt.replace(/"/g, "'");
      await deps.appendCard(agent, `confirm@${CARD_TAP}${p.id} "${prompt}" Delete|Keep`, {
        [CARD_META]: p.id,
        text: `${agent.name} asks to delete: ${p.line}`,
      });
    }
    const read = [...new Set(answer.results.filter((r) => r.error === undefined).map((r) => r.table))];
    if (read.length > 0) await relay.markRead(agent.userId, agent.id, read, now());
  }

  async function served(p: ConnectionPrincipal, ref: string | undefined) {
    const list = (await store.agents.listByConnector(p.connectorId)).filter((a) => a.userId === p.userId);
    return pickAgent(list, ref);
  }

  async function ownAgent(userId: string, id: unknown, field: string): Promise<AgentRecord> {
    const agent = typeof id === 'string' ? await store.agents.get(id) : null;
    if (!agent || agent.userId !== userId) {
      throw new ServiceError('AGENT_NOT_FOUND', `No agent ${String(id)} in this account.`, { field });
    }
    return agent;
  }

  async function findTable(userId: string, input: { table: unknown; from: unknown }): Promise<RelayTableKey> {
    if (typeof input.table !== 'string' || input.table === '') {
      throw new ServiceError('INVALID_INPUT', 'table is required: the table name as listed.', {
        field: 'table',
      });
    }
    if (typeof input.from !== 'string' || input.from === '') {
      throw new ServiceError('INVALID_INPUT', 'from is required: the holder as listed (an agent id).', {
        field: 'from',
      });
    }
    const key = { userId, holder: input.from, name: input.table };
    if (!(await engine.getTable({ owner: userId, holder: key.holder, name: key.name }))) {
      throw new ServiceError('TABLE_NOT_FOUND', `No table ${input.table} held by ${input.from}.`, {
        field: 'table',
      });
    }
    return key;
  }

  const changed = (userId: string) => deps.notifier?.publish({ type: 'tables', userId });

  async function sweep(): Promise<number> {
    const due = await relay.listUnheldBefore(now() - UNHELD_TABLE_TTL_MS);
    for (const key of due) await relay.drop(key);
    for (const userId of new Set(due.map((k) => k.userId))) changed(userId);
    return due.length;
  }

  /**
   * A shared thread's call (doc3: it never touches the owner's tables): `lines` are refused; a `reply` keeps
   * its prose and screens, and each table line in it is told to the agent as refused, nothing run or read.
   */
  async function sharedThreadCall(agent: AgentRecord, input: TablesCallInput): Promise<ReplyTextResult> {
    const why = `Tables live only in the owner's own thread; this thread is shared with another person.`;
    if (input.lines !== undefined && input.lines !== null && input.lines !== '') {
      throw new ServiceError('NOT_IN_A_SHARED_THREAD', `${why} Its table lines are not run.`, {
        field: 'lines',
      });
    }
    if (input.reply === undefined || input.reply === null) return { text: '', events: [], pending: [] };
    // Which bare lines are table lines is judged as in the owner's thread (by the names the agent holds).
    const held = new Set((await engine.listTables(agent.userId, agent.id)).map((t) => t.name));
    const split = splitReply(text(input.reply, 'reply'), bareTableLine(held));
    const out: string[] = [];
    for (const piece of split.pieces) {
      if (piece.kind === 'text') out.push(piece.text);
      else if (piece.kind === 'block') out.push('```svc', ...piece.lines, '```');
    }
    const events = split.lines.map((line) => ({
      op: 'row' as const,
      table: line.trim().split(/\s+/)[line.trim().startsWith('table') ? 2 : 1] ?? '',
      key: '',
      error: why,
      line,
    }));
    return { text: out.join('\n').trim(), events, pending: [] };
  }

  async function replyCall(agent: AgentRecord, reply: string): Promise<ReplyTextResult | ReplyReadResult> {
    const held = new Set((await engine.listTables(agent.userId, agent.id)).map((t) => t.name));
    const split = splitReply(reply, bareTableLine(held));
    if (split.lines.length === 0) {
      await relay.setReadsInRow(agent.id, agent.userId, 0);
      return { text: reply, events: [], pending: [] };
    }
    checkLineCount(split.lines.length, 'reply');
    const answer = await run(agent, split.lines.join('\n'));
    await afterRun(agent, answer);
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
    const events = answer.failed.map(refused).map(eventOf);
    const out: string[] = [];
    let q = 0;
    for (const piece of split.pieces) {
      if (piece.kind === 'text') out.push(piece.text);
      else if (piece.kind === 'block') out.push('```svc', ...piece.lines, '```');
      else if (piece.query) out.push(drawn[q++] ?? '');
    }
    let saved = out.join('\n').trim();
    if (saved === '' && answer.ok.length > 0) {
      const changed = [...new Set(answer.ok.map((o) => o.table))];
      const views = (await run(agent, changed.map((t) => `query ${t}`).join('\n'))).results.map(drawPlain);
      saved = ['Saved.', ...views].join('\n\n');
    } else if (saved === '' && answer.pending.length > 0) saved = 'Waiting for your tap to delete.';
    return { text: saved, events, pending: answer.pending.map(pendingView) };
  }

  return {
    async call(p, input) {
      const agent = await served(p, input.agent);
      if (sharedSession(agent, input.session)) return sharedThreadCall(agent, input);
      const decision = await deps.limiter.take(agent.id);
      if (!decision.ok) {
        throw new ServiceError(
          'RATE_LIMITED',
          `Agent ${agent.handle} made ${TABLES_CALLS_PER_MINUTE} tables calls in the last minute; wait ${decision.retryAfterS} s.`,
          { details: { retryAfterS: decision.retryAfterS } },
        );
      }
      await sweep();
      const hasLines = input.lines !== undefined && input.lines !== null && input.lines !== '';
      const hasReply = input.reply !== undefined && input.reply !== null;
      if (hasLines && hasReply) {
        throw new ServiceError('INVALID_INPUT', 'Send either lines or reply, not both.', { field: 'reply' });
      }
      if (hasReply) return replyCall(agent, text(input.reply, 'reply'));
      if (hasLines) {
        const lines = text(input.lines, 'lines');
        checkLineCount(countLines(lines), 'lines');
        const answer = await run(agent, lines);
        await afterRun(agent, answer);
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
    },

    async list(userId) {
      await sweep();
      const agents = new Map((await store.agents.listByUser(userId)).map((a) => [a.id, a]));
      const meta = new Map((await relay.listMeta(userId)).map((m) => [`${m.holder}\u0000${m.name}`, m]));
      return (await engine.listTables(userId)).map((t) => {
        const m = meta.get(`${t.holder}\u0000${t.name}`);
        const a = agents.get(t.holder);
        const iso = (ms: number | null | undefined) =>
          ms === null || ms === undefined ? null : new Date(ms).toISOString();
        return {
          name: t.name,
          rows: t.rowCount,
          cols: t.cols.map((c) => c.name),
          agent: a ? { id: a.id, handle: a.handle, name: a.name } : null,
          holder: t.holder,
          last_read_at: iso(m?.lastReadAt),
          expires_at: m?.unheldAt == null ? null : iso(m.unheldAt + UNHELD_TABLE_TTL_MS),
        };
      });
    },

    async give(userId, input) {
      const from = await findTable(userId, input);
      const to = await ownAgent(userId, input.to, 'to');
      if (to.id === from.holder) {
        throw new ServiceError('INVALID_INPUT', `${to.handle} already holds ${from.name}.`, { field: 'to' });
      }
      const held = await engine.listTables(userId, to.id);
      if (held.length >= limits.tablesPerAgent) {
        throw new ServiceError(
          'LIMIT_EXCEEDED',
          `${to.handle} holds ${held.length} tables, the most one agent may hold (${limits.tablesPerAgent}); delete or give one of its tables first.`,
          { field: 'to' },
        );
      }
      const taken = (name: string) => held.some((t) => t.name === name);
      let name = from.name;
      let renamed = false;
      if (input.name !== undefined && input.name !== null && input.name !== '') {
        if (
          typeof input.name !== 'string' ||
          !TABLE_NAME.test(input.name) ||
          input.name.length > limits.tableName
        ) {
          throw new ServiceError(
            'INVALID_INPUT',
            `name must be a letter, then letters, digits, _ or -, up to ${limits.tableName} characters.`,
            { field: 'name' },
          );
        }
        name = input.name;
        renamed = name !== from.name;
        if (taken(name)) {
          throw new ServiceError(
            'TABLE_NAME_TAKEN',
            `${to.handle} already has a table called ${name}; pick another name.`,
            {
              field: 'name',
            },
          );
        }
      } else if (taken(name)) {
        const giver = from.holder.startsWith(UNHELD)
          ? (from.holder.split(':')[2] ?? 'kept')
          : ((await store.agents.get(from.holder))?.handle ?? 'kept');
        name = `${from.name}-${giver}`;
        renamed = true;
        if (taken(name) || name.length > limits.tableName) {
          throw new ServiceError(
            'TABLE_NAME_TAKEN',
            `${to.handle} already has a table called ${from.name}; give it with a new name (name).`,
            { field: 'name' },
          );
        }
      }
      if (!(await relay.move(from, { holder: to.id, name }, null))) {
        throw new ServiceError('TABLE_NAME_TAKEN', `${to.handle} already has a table called ${name}.`, {
          field: 'name',
        });
      }
      const info = (await engine.getTable({ owner: userId, holder: to.id, name }))!;
      // Several hand-overs before the agent's next turn make one line: `[svc] tables A(...) B(...)`.
      await relay.addHandover(to.id, userId, tablePart(info));
      changed(userId);
      return { table: name, agent: { id: to.id, handle: to.handle, name: to.name }, renamed };
    },

    async takeAway(userId, input) {
      const from = await findTable(userId, input);
      if (from.holder.startsWith(UNHELD)) return;
      const agent = await store.agents.get(from.holder);
      const holder = `${UNHELD}${from.holder}:${agent?.handle ?? 'kept'}`;
      if (!(await relay.move(from, { holder, name: from.name }, now()))) {
        throw new ServiceError(
          'TABLE_NAME_TAKEN',
          `A kept table called ${from.name} is already waiting; delete it or give it first.`,
          {
            field: 'table',
          },
        );
      }
      changed(userId);
    },

    async remove(userId, input) {
      await relay.drop(await findTable(userId, input));
      changed(userId);
    },

    async releaseAgent(userId, agentId, keep) {
      const agent = await store.agents.get(agentId);
      for (const p of await engine.listPending(userId, agentId)) await engine.takePending(userId, p.id);
      for (const t of await engine.listTables(userId, agentId)) {
        const key = { userId, holder: agentId, name: t.name };
        if (keep)
          await relay.move(
            key,
            { holder: `${UNHELD}${agentId}:${agent?.handle ?? 'kept'}`, name: t.name },
            now(),
          );
        else await relay.drop(key);
      }
      changed(userId);
    },

    sweep,

    async settleCard(screen, raw) {
      // Most taps are on other screens: they skip reading the message (its meta still decides for cards).
      if (!screen.taps.some((t) => t.id.startsWith(CARD_TAP))) return null;
      const message = await store.threads.getMessage(screen.messageId);
      const id = message?.meta[CARD_META];
      if (typeof id !== 'string') return null;
      const value = (raw as { value?: unknown } | null)?.value;
      const pending = (await engine.listPending(screen.userId, screen.agentId)).find((x) => x.id === id);
      if (!pending) {
        throw new ServiceError('CONFLICT', 'This delete was already settled.', { field: 'event' });
      }
      await engine.takePending(screen.userId, id);
      const ref = { owner: pending.owner, holder: pending.holder, name: pending.table };
      const del = value === true || value === 'Delete';
      let deleted = false;
      if (del && pending.kind === 'row') deleted = await engine.deleteRow(ref, pending.key!);
      else if (del)
        deleted = await relay.drop({ userId: pending.owner, holder: pending.holder, name: pending.table });
      if (deleted) changed(screen.userId);
      return {
        op: pending.kind === 'row' ? 'delete' : 'drop',
        table: pending.table,
        ...(pending.key === undefined ? {} : { key: pending.key }),
        deleted,
      };
    },
  };
}
