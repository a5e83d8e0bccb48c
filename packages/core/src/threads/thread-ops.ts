// The thread operations every tool adapter uses, scoped by a connection principal: show, say, answers,
// threads, tap. Adapters parse their wire format, call these, and map ServiceError codes at the boundary.

import type { PendingView, RefusedLine } from '@screen-service/agent-tables';
import { type AgentRef, pickAgent, toAgentRef } from '@screen-service/registry/agents';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { type RateLimiter, ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord, ScreenTap } from '@screen-service/registry/model';
import type { DeadlineInput, DeadlinePlan } from '@screen-service/screen-rules';
import { defaultScreenLines, requireText } from '@screen-service/screen-rules';
import { acknowledgeAnswers, answersCursor } from './answer-cursor.js';
import { type AnswerTasks, createAnswerTasks, resolveAnswersTarget } from './answer-tasks.js';
import { whileLive } from './claim-guard.js';
import { countHostWrite, keptServedAgents, type RowGuard, writeGuarded } from './host-rows.js';
import type { WithdrawResult } from './screen-withdraw.js';
import { type ShowContext, showScreen } from './show-screen.js';
import { type Answer, createThreadCore, type ThreadDeps, type ThreadTarget } from './thread-core.js';
import { waitForAnswers } from './wait-for-answers.js';

export const MAX_WAIT_SECONDS = 25;
export const MAX_LINES_CHARS = 20_000;
export const MAX_TEXT_CHARS = 4_000;
/**
 * The host message limit (doc1: what a connection writes counts against it): rows one connection may write
 * into one thread, a burst and then a sustained rate, whether by svc_show/svc_say or a host's reply.
 */
export const HOST_MESSAGE_RATE = { burst: 60, perMinute: 60 } as const;
const MAX_ANSWERS = 50;

export interface ShowInput {
  /** Screen Lines, one component per line, no code fence. */
  lines: string;
  /** Optional chat line shown with the screen. */
  text?: string;
  /** Agent id or handle; default: the connection's first (default) agent. */
  agent?: string;
  /**
   * When the screen decides without the person (ADR 0260): a duration (`"10m"`) or `{in | at, default,
   * escalate}`. Absent: the screen waits for as long as it takes.
   */
  deadline?: DeadlineInput | string;
  /** An urgent ask: it buzzes in the person's quiet hours when they allow urgent asks (issue 39). */
  urgent?: boolean;
}
export interface ShowResult {
  screen_id: string;
  message_id: string;
  agent: AgentRef;
  /** Tap ids the screen's taps carry, in order. */
  tap_ids: string[];
  taps: ScreenTap[];
  lines: string;
  ops: unknown[];
  /**
   * What the screen's table lines did, when it had any (ADR 0250): how many landed, each refused line with
   * the same reason `svc_tables` gives, and the deletes waiting for the person's Delete / Keep tap.
   */
  tables?: { wrote: number; failed: RefusedLine[]; pending: PendingView[] };
  /** The checked deadline, when the screen has one: its time, the defaults and the steps. */
  deadline?: DeadlinePlan;
}
export interface SayInput {
  text: string;
  agent?: string;
}
export interface SayResult {
  message_id: string;
  agent: AgentRef;
}
export interface AnswersInput {
  /** Only items after this screen (the screen's agent is used when `agent` is omitted). */
  screen_id?: string;
  /** Seconds to hold the call open while nothing is there: integer 0 to 25; default 0. */
  wait?: number;
  agent?: string;
  /** Abort when the caller goes away (HTTP request closed): the call returns [] and claims nothing. */
  signal?: AbortSignal;
  /**
   * The resumable wait (ADR 0274): `''` first, then the previous result's `cursor`. Nothing is claimed: the
   * rows the cursor names are acknowledged and the others returned, so a result lost on the way comes again.
   */
  cursor?: string;
}
export interface AnswersResult {
  agent: AgentRef;
  answers: Answer[];
  /** With a cursor call: pass it to the next call to acknowledge these answers. */
  cursor?: string;
}
export interface ThreadSummary extends AgentRef {
  color: AgentRecord['color'];
  is_default: boolean;
  /** Items the person sent that no `answers` call has returned yet. */
  unread: number;
}
export interface ThreadsResult {
  agents: ThreadSummary[];
}
export interface TapInput {
  screen_id: string;
  /** The view's event: `{ id: <tap id>, value, ... }`; preset, line and echo are computed here. */
  event: unknown;
  /** True when the host took the tap line as the person's message (the row is then written handled). */
  told_model?: boolean;
}
export interface TapResult {
  message_id: string;
  agent: AgentRef;
  line: string;
  echo: string;
  handled: boolean;
}

/**
 * What a host's answer adds to a write (ADR 0130): extra `meta` (e.g. `turn`, the rows it answers) and the
 * host's idempotency key. Tool calls never pass it.
 */
export interface WriteExtras {
  meta?: Record<string, unknown>;
  idemKey?: string;
  /** A grant holder's thread (doc2 shared threads); default the owner's. */
  target?: ThreadTarget;
}

/** The operations, each taking the caller's principal first. */
export interface ThreadOps {
  show(p: ConnectionPrincipal, input: ShowInput, extras?: WriteExtras): Promise<ShowResult>;
  say(p: ConnectionPrincipal, input: SayInput, extras?: WriteExtras): Promise<SayResult>;
  answers(p: ConnectionPrincipal, input: AnswersInput): Promise<AnswersResult>;
  threads(p: ConnectionPrincipal): Promise<ThreadsResult>;
  tap(p: ConnectionPrincipal, input: TapInput): Promise<TapResult>;
  /** `answers` as a task (MCP Tasks extension, ADR 0265). */
  tasks: AnswerTasks;
  /** Takes back a screen an agent of this connection showed (ADR 0279); see {@link withdrawScreen}. */
  withdraw(p: ConnectionPrincipal, input: { screen_id?: unknown }): Promise<WithdrawResult>;
}

/**
 * Creates the thread operations over a Store.
 *
 * @example
 * ```ts
 * const ops = createThreadOps({ store, notifier }); // parses with @screen-service/screen-lines
 * const principal = await auth.verify(req.headers.authorization);
 * const { screen_id } = await ops.show(principal, { lines: 'choose@lunch "Lunch?" Pasta|Salad' });
 * const { answers } = await ops.answers(principal, { screen_id, wait: 25, signal });
 * ```
 */
export function createThreadOps(
  deps: ThreadDeps & {
    messageRate?: RateLimiter;
    /** A task's TTL and poll interval (ADR 0265); default a day and 2 s. */
    answerTasks?: { ttlMs?: number; pollMs?: number };
  },
): ThreadOps {
  const { store, notifier } = deps;
  const countWrite = (p: ConnectionPrincipal, agent: AgentRecord, extras: WriteExtras) =>
    countHostWrite(deps.messageRate, p, agent, extras.target?.userId);
  const screenLines = deps.screenLines ?? defaultScreenLines;
  const core = createThreadCore(deps);

  const served = async (p: ConnectionPrincipal) =>
    (await store.agents.listByConnector(p.connectorId)).filter((a) => a.userId === p.userId);
  // A guarded row (ADR 0291) picks its agent from the list this process last read; its statement checks it.
  const kept = keptServedAgents(notifier, served);
  const agentFor = async (p: ConnectionPrincipal, ref: string | undefined, guarded = false) =>
    pickAgent(await (guarded ? kept.get(p) : served(p)), ref);
  const ctx: ShowContext = { deps, core, screenLines, countWrite, agentFor, kept };
  const sayRow = async (
    p: ConnectionPrincipal,
    input: SayInput,
    extras: WriteExtras,
    guarded: boolean,
  ): Promise<SayResult> => {
    const text = requireText(input.text, 'text', MAX_TEXT_CHARS);
    const agent = await agentFor(p, input.agent, guarded);
    await countWrite(p, agent, extras);
    const write = async (guard?: RowGuard): Promise<SayResult> => {
      const meta = { ...extras.meta };
      const m = await core.appendAgentText(
        agent,
        text,
        meta,
        p.connectorId,
        extras.idemKey,
        extras.target,
        guard,
      );
      return { message_id: m.id, agent: toAgentRef(agent) };
    };
    return guarded ? writeGuarded(p, kept, write, () => sayRow(p, input, extras, false)) : write();
  };
  const answersTarget = (p: ConnectionPrincipal, input: { screen_id?: string; agent?: string }) =>
    resolveAnswersTarget(store, served, p, input);
  const tasks = createAnswerTasks({
    ...deps.answerTasks,
    store,
    now: core.now,
    newId: core.newId,
    pageVersion: core.pageVersion,
    target: answersTarget,
    toAnswers: (rows) => core.toAnswers(rows),
    limit: MAX_ANSWERS,
  });

  return {
    show: (p, input, extras = {}) => showScreen(ctx, p, input, extras),

    say: (p, input, extras = {}) => sayRow(p, input, extras, true),

    async answers(p, input) {
      const wait = input.wait ?? 0;
      if (!Number.isInteger(wait) || wait < 0 || wait > MAX_WAIT_SECONDS) {
        throw new ServiceError(
          'INVALID_INPUT',
          `wait must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}.`,
          { field: 'wait' },
        );
      }
      const { agent, afterSeq } = await answersTarget(p, input);
      const key = { agentId: agent.id, userId: p.userId };
      // With a cursor (ADR 0274) nothing is claimed: the rows it names are acknowledged, the rest read.
      const read =
        input.cursor === undefined
          ? undefined
          : await acknowledgeAnswers({
              store,
              key,
              connectorId: p.connectorId,
              cursor: input.cursor,
              limit: MAX_ANSWERS,
              at: core.now(),
              version: core.pageVersion(),
            });
      const rows = await waitForAnswers({
        notifier,
        key,
        waitMs: wait * 1000,
        now: core.now,
        signal: anySignal(input.signal, deps.shutdown),
        // A connection removed while it waits must not take (and so hide) what the person sends next, nor
        // see it: the guard of the claim (ADR 0298) or of the cursor's read (ADR 0301) checks it in that
        // statement itself, and a refusal answers CONNECTOR_REVOKED or SUSPENDED (`whileLive`).
        claim: async () => {
          if (read) return read(afterSeq);
          return whileLive(() =>
            store.threads.claimAnswers({
              ...key,
              afterSeq,
              limit: MAX_ANSWERS,
              at: core.now(),
              version: core.pageVersion(),
              guard: { connectorId: p.connectorId },
            }),
          );
        },
      });
      const answers = await core.toAnswers(rows);
      return { agent: toAgentRef(agent), answers, ...(read ? { cursor: answersCursor(rows) } : {}) };
    },

    tasks,

    async threads(p) {
      // The served agents and their counts in one read (on PostgreSQL one round trip, ADR 0289).
      const list = await store.agents.listByConnectorWithUnhandled(p.connectorId, p.userId);
      const agents = list
        .filter(({ agent: a }) => a.userId === p.userId)
        .map(({ agent: a, unhandled }) => ({
          ...toAgentRef(a),
          color: a.color,
          is_default: a.isDefault,
          unread: unhandled,
        }));
      return { agents };
    },

    async withdraw(p, input) {
      if (typeof input.screen_id !== 'string' || input.screen_id === '') {
        throw new ServiceError('INVALID_INPUT', 'screen_id is required (the id svc_show returned).', {
          field: 'screen_id',
        });
      }
      const screen = await store.threads.getScreen(input.screen_id);
      // Any thread of an agent this connection serves: the owner's, or a holder's it showed the screen in.
      if (!screen || !(await served(p)).some((a) => a.id === screen.agentId)) {
        throw new ServiceError(
          'SCREEN_NOT_FOUND',
          `No screen ${input.screen_id} of an agent this connection serves.`,
          { field: 'screen_id' },
        );
      }
      const { message: _m, ...result } = await core.withdraw(screen);
      return result;
    },

    async tap(p, input) {
      if (typeof input.screen_id !== 'string' || input.screen_id === '') {
        throw new ServiceError('INVALID_INPUT', 'screen_id is required (the id svc_show returned).', {
          field: 'screen_id',
        });
      }
      const screen = await store.threads.getScreen(input.screen_id);
      const agent =
        screen && (await served(p)).find((a) => a.id === screen.agentId && screen.userId === p.userId);
      if (!screen || !agent) {
        throw new ServiceError(
          'SCREEN_NOT_FOUND',
          `No screen ${input.screen_id} in a thread this connection serves.`,
          { field: 'screen_id' },
        );
      }
      const w = await core.recordTap(screen, input.event, {
        via: 'mcp-app',
        handled: input.told_model === true,
        connectorId: p.connectorId,
      });
      return {
        message_id: w.message.id,
        agent: toAgentRef(agent),
        line: w.line,
        echo: w.echo,
        handled: w.handled,
      };
    },
  };
}

function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((x): x is AbortSignal => x !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}
