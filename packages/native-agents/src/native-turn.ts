// One native-agent turn: the owed rows taken, the model asked (its reads fed back), the reply written, or one line in the thread when the model is down.

import type { ReplyReadResult, ReplyTextResult } from '@screen-service/agent-tables';
import { type ConnectionPrincipal, MAX_TURN_ROWS } from '@screen-service/registry/hosts';
import { isServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord } from '@screen-service/registry/model';
import { parse } from '@screen-service/screen-lines';
import { ModelError } from './errors.js';
import type { ChatMessage, ModelClient } from './model-client.js';
import { buildMessages, SERVICE_LINE_PREFIX, splitScreen, systemPrompt } from './prompt.js';
import type { RuntimeCore } from './runtime.js';
import type { createLimits } from './usage.js';

/** Model calls one turn may make: the answer, plus at most two reads fed back (doc3). */
const MAX_CALLS_PER_TURN = 3;

/** A thread's run state, kept by the runtime between turns. */
export interface ThreadRun {
  running: boolean;
  again: boolean;
  failures: number;
  cancel: (() => void) | null;
  /** Told to the model once, at the top of its next turn (refused writes, bad lines). */
  notes: string[];
}

/** What a turn needs of the runtime (options resolved to their defaults). */
export interface TurnContext {
  core: RuntimeCore;
  model: ModelClient;
  guide: string;
  limits: ReturnType<typeof createLimits>;
  history: number;
  retryMs: number[];
  onError?: (err: unknown, agentId: string) => void;
  /** Runs the agent's owed rows again after `ms`. */
  later: (agentId: string, userId: string, ms: number) => void;
}

/** The connection principal of the service's own runner of this agent. */
export function nativePrincipal(agent: AgentRecord): ConnectionPrincipal {
  return {
    userId: agent.userId,
    connectorId: agent.connectorId!,
    connectorKind: 'hosted',
    via: 'connector_token',
  };
}

/**
 * The words, screen and deadline of a reply from the model's answer. Refused writes, a screen that did not
 * parse and a deadline without a screen go into `notes`, for the model's next turn; the person still reads
 * the words.
 */
function replyBody(
  answer: ReplyTextResult,
  notes: string[],
): { text: string; screen: string | undefined; deadline: unknown } {
  for (const e of answer.events) notes.push(`[svc] refused: ${JSON.stringify(e)}`);
  const split = splitScreen(answer.text);
  let text = split.prose;
  let screen: string | undefined;
  if (split.lines !== '') {
    const parsed = parse(split.lines);
    const drawable = parsed.ops.some((op) => op.op !== 'table' && op.op !== 'put');
    if (parsed.errors.length > 0) {
      notes.push(
        `[svc] Your last screen was not shown: ${parsed.errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`,
      );
      if (text === '') text = split.lines;
    } else if (drawable) screen = split.lines;
  }
  if (text === '' && screen === undefined) text = '…';
  let deadline: unknown;
  if (split.deadline !== null) {
    if (screen === undefined) notes.push('[svc] Your deadline was not set: a deadline goes with a screen.');
    else deadline = deadlineOf(split.deadline, notes);
  }
  return { text, screen, deadline };
}

/**
 * A `deadline` block's text as `svc_show` takes the argument (ADR 0305): a JSON object, or a bare duration
 * (`10m`); undefined, with a note for the model, when it is neither. The core's rule checks what it says.
 */
function deadlineOf(text: string, notes: string[]): unknown {
  if (!text.startsWith('{')) {
    if (/^\S+$/.test(text)) return text;
    notes.push('[svc] Your deadline was not set: write it as {"in": "10m", "default": {...}} or a duration.');
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    notes.push(`[svc] Your deadline was not set: it is not JSON (${(err as Error).message}).`);
    return undefined;
  }
}

/**
 * Builds the turn runner: `turn(agentId, userId, run)` answers the agent's owed rows once, on the hosts'
 * turn machinery (rows delivered, working row, answer with `meta.turn`, rows handled).
 */
export function createTurn(
  ctx: TurnContext,
): (agentId: string, userId: string, r: ThreadRun) => Promise<void> {
  const { core, model, limits, retryMs, later } = ctx;
  const { store, hostTransport, tables } = core;
  const now = core.clock;
  let turnSeq = 0;

  /** Calls the model; a reply of only reads is fed back, at most twice in a row (the tables call counts). */
  async function answerWithReads(
    p: ConnectionPrincipal,
    agentId: string,
    userId: string,
    messages: ChatMessage[],
  ): Promise<ReplyTextResult> {
    for (let call = 1; ; call++) {
      const answer = await model.complete(messages);
      limits.record(userId, answer.tokens);
      const result = (await tables.call(p, { agent: agentId, reply: answer.text })) as
        | ReplyTextResult
        | ReplyReadResult;
      if (!('read' in result)) return result;
      if (call >= MAX_CALLS_PER_TURN) return { text: result.note, events: [], pending: [] };
      messages.push({ role: 'assistant', content: answer.text }, { role: 'user', content: result.note });
    }
  }

  async function write(
    p: ConnectionPrincipal,
    agent: AgentRecord,
    key: string,
    ids: string[],
    answer: ReplyTextResult,
    r: ThreadRun,
  ) {
    const { text, screen, deadline } = replyBody(answer, r.notes);
    const input = {
      agent_id: agent.id,
      idempotency_key: key,
      ...(text !== '' ? { text } : {}),
      ...(screen !== undefined ? { lines: screen } : {}),
      turn: ids,
    };
    if (deadline === undefined) {
      await hostTransport.reply(p, input);
      return;
    }
    try {
      await hostTransport.reply(p, { ...input, deadline });
    } catch (err) {
      // A deadline the core refused (it names the field): the screen is shown without it, nothing was written
      // by the refused reply, and the model reads why at its next turn.
      if (!isServiceError(err, 'INVALID_INPUT') || !err.field?.startsWith('deadline')) throw err;
      r.notes.push(`[svc] Your deadline was not set: ${err.message}`);
      await hostTransport.reply(p, input);
    }
  }

  async function failed(p: ConnectionPrincipal, agent: AgentRecord, key: string, err: unknown, r: ThreadRun) {
    if (!(err instanceof ModelError)) ctx.onError?.(err, agent.id);
    const reason = err instanceof Error ? err.message : String(err);
    // One line per outage, not one per retry; the rows stay unhandled and run when the model is back.
    if (r.failures === 0) {
      await hostTransport
        .reply(p, {
          agent_id: agent.id,
          idempotency_key: `${key}-down`,
          text: `${SERVICE_LINE_PREFIX}${agent.name} could not answer: ${reason} Your message is kept; it will be answered when the model is back.`,
        })
        .catch((e) => ctx.onError?.(e, agent.id));
    } else {
      await hostTransport.end(p, { agent_id: agent.id }).catch((e) => ctx.onError?.(e, agent.id));
    }
    const wait = retryMs[Math.min(r.failures, retryMs.length - 1)]!;
    r.failures += 1;
    later(agent.id, agent.userId, wait);
  }

  return async function turn(agentId: string, userId: string, r: ThreadRun) {
    const agent = await store.agents.get(agentId);
    const native = await store.nativeAgents.get(agentId);
    if (!agent || !native || agent.kind !== 'hosted' || !agent.connectorId) return;
    const rows = await store.threads.pendingForHost({
      userId,
      agentIds: [agentId],
      afterSeq: 0,
      limit: MAX_TURN_ROWS,
    });
    if (rows.length === 0) return;
    const p = nativePrincipal(agent);
    const ids = rows.map((row) => row.id);
    const key = `native-${agentId}-${now()}-${++turnSeq}`;
    const verdict = await limits.check(userId);
    if (!verdict.ok && verdict.kind === 'turns') {
      later(agentId, userId, verdict.retryAfterMs);
      return;
    }
    if (!verdict.ok) {
      // Answered with the limit line: the rows stay in the thread the model reads tomorrow.
      await hostTransport.reply(p, {
        agent_id: agentId,
        idempotency_key: key,
        text: `${SERVICE_LINE_PREFIX}${verdict.line}`,
        turn: ids,
      });
      return;
    }
    await hostTransport.turn(p, { agent_id: agentId, rows: ids });
    try {
      const held = await tables.call(p, { agent: agentId });
      const page = await store.threads.page({ agentId, userId, limit: ctx.history });
      const messages = buildMessages({
        system: systemPrompt({
          name: agent.name,
          instructions: native.instructions,
          guide: ctx.guide,
          tables: 'tables' in held ? held.tables : '',
        }),
        rows: [...page].reverse(),
        turn: ids,
        notes: r.notes,
      });
      const answer = await answerWithReads(p, agentId, userId, messages);
      r.notes = [];
      r.failures = 0;
      await write(p, agent, key, ids, answer, r);
    } catch (err) {
      await failed(p, agent, key, err, r);
    }
  };
}
