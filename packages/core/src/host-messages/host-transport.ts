// Message transport for hosts (ADR 0130): the person's rows owed to a connection as a resumable stream, turn
// starts (rows delivered, working row) and idempotent answers (rows handled, `meta.turn`), scoped to the
// agents the connector token serves. Answers go through the same thread ops as svc_show/svc_say.

import { createHash } from 'node:crypto';
import { dropMentions, parseSessionKey, sessionKey } from '@screen-service/registry/agents';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { MAX_TURN_ROWS } from '@screen-service/registry/hosts';
import type { Notifier } from '@screen-service/registry/kernel';
import { isServiceError, ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord, GrantRecord, MessageRecord } from '@screen-service/registry/model';
import type { WithdrawResult } from '../threads/screen-withdraw.js';
import { createThreadCore, type ThreadDeps } from '../threads/thread-core.js';
import type { ShowInput, ShowResult, ThreadOps } from '../threads/thread-ops.js';
import { openHostStream } from './host-stream.js';

/** How long a working row shows after a turn starts when no answer comes (a host that died mid-turn). */
export const WORKING_TTL_MS = 2 * 60 * 1000;

/** One row the person sent, as a host receives it. `seq` is the stream's cursor. */
export interface HostMessage {
  seq: number;
  id: string;
  agent: { id: string; handle: string; remote_ref: string | null };
  /** The host-side session key of the thread (doc2: `<agent_id>`, or `<agent_id>~<user_id>` for a holder's). */
  session: string;
  kind: 'text' | 'tap';
  /** The typed text, or the tap line (`[svc] <id> <preset> key=value` and the event JSON). */
  text: string;
  screen_id: string | null;
  /** The tap's event JSON (null for typed text). */
  event: Record<string, unknown> | null;
  /** Signed links to the photos sent with the row (valid for an hour). */
  photos: string[];
  at: string;
}

/** Why a stream ended from the service's side. */
export type StreamEnd = 'revoked' | 'shutdown';

export interface HostStreamHandlers {
  /** Rows after this seq are sent (0 or absent: every unhandled row). */
  after?: number;
  send(message: HostMessage): void;
  /** The connection was revoked (or suspended) or the service is stopping; the adapter closes. */
  end(reason: StreamEnd): void;
}

export interface TurnInput {
  agent_id: unknown;
  rows: unknown;
  /** The thread's session key from the stream (default: the owner's thread of `agent_id`). */
  session?: unknown;
}
export interface TurnResult {
  agent_id: string;
  /** The rows now marked delivered, oldest first. */
  rows: string[];
  working_until: string;
}

export interface ReplyInput {
  agent_id: unknown;
  /** The thread's session key from the stream (default: the owner's thread of `agent_id`). */
  session?: unknown;
  idempotency_key: unknown;
  text?: unknown;
  lines?: unknown;
  /** A screen's deadline (ADR 0260), as `svc_show` takes it; only with `lines`. */
  deadline?: unknown;
  /** The rows this answer answers (doc3 `meta.turn`); they are marked handled. */
  turn?: unknown;
  /** False keeps the working row (more answers follow); default true. */
  done?: unknown;
}
export interface ReplyResult {
  message_id: string;
  screen_id: string | null;
  tap_ids: string[];
  /** True when this key had been written before: nothing new was written. */
  replayed: boolean;
  /** Rows of the turn this call marked handled. */
  handled: number;
  /**
   * What the screen's table lines did (ADR 0250): refused lines with the same reasons the tables call gives,
   * deletes waiting for the person's tap. Only on the call that wrote the screen.
   */
  tables?: ShowResult['tables'];
  /** The screen's deadline as the service keeps it (ADR 0260: `due`, `defaults`, `escalate`), when it has one. */
  deadline?: Record<string, unknown>;
}

export interface HostTransport {
  /** Opens the stream: replays what is owed after `after`, then forwards new rows live. Returns `close`. */
  open(p: ConnectionPrincipal, handlers: HostStreamHandlers): Promise<() => void>;
  turn(p: ConnectionPrincipal, input: TurnInput): Promise<TurnResult>;
  reply(p: ConnectionPrincipal, input: ReplyInput): Promise<ReplyResult>;
  /** Ends a turn that will not be answered now (the host failed): clears the working row; rows stay owed. */
  end(p: ConnectionPrincipal, input: { agent_id: unknown }): Promise<void>;
  /** Takes back a screen this host's agent showed (ADR 0279), as `svc_withdraw` does. */
  withdraw(p: ConnectionPrincipal, input: { screen_id: unknown }): Promise<WithdrawResult>;
}

export interface HostTransportOptions extends ThreadDeps {
  threadOps: ThreadOps;
  served(p: ConnectionPrincipal): Promise<AgentRecord[]>;
}

const IDEM_KEY = /^[A-Za-z0-9._:~-]{1,128}$/;

/**
 * The key a reply is stored under: scoped to the connector (the column), the agent and the thread, so one
 * key reused for another agent or another holder's thread is a new answer, never someone else's replay.
 * `/` is not a key character, so the parts cannot run into each other.
 */
export function scopedIdemKey(agentId: string, userId: string, key: string): string {
  return `${agentId}/${userId}/${key}`;
}

/** What a reply said (text, lines, the rows it answers): a replay must say the same, or it is refused. */
export function replyFingerprint(
  input: { text?: unknown; lines?: unknown; deadline?: unknown },
  turn: string[],
): string {
  const said: unknown[] = [input.text ?? null, input.lines ?? null, turn];
  // The deadline is part of the ask (ADR 0260): a resend that changes it is another answer. A reply without
  // one keeps the fingerprint replies always had, so keys written before still replay.
  if (input.deadline !== undefined) said.push(input.deadline);
  return createHash('sha256').update(JSON.stringify(said)).digest('base64url').slice(0, 22);
}

/** A replay's body must match what the key first wrote (rows stored before fingerprints always match). */
function assertSameReply(earlier: MessageRecord, fingerprint: string, key: string): void {
  const stored = earlier.meta.idem;
  if (typeof stored === 'string' && stored !== fingerprint) {
    throw new ServiceError(
      'CONFLICT',
      `idempotency_key "${key}" was already used for a different answer in this thread; send a new key for a new answer, or the same body to resend.`,
      { field: 'idempotency_key' },
    );
  }
}

function rowIds(value: unknown, field: string, required: boolean): string[] {
  if (value === undefined || value === null) {
    if (!required) return [];
  } else if (
    Array.isArray(value) &&
    value.length <= MAX_TURN_ROWS &&
    value.every((v) => typeof v === 'string' && v !== '')
  ) {
    if (!required || value.length > 0) return [...new Set(value as string[])];
  }
  throw new ServiceError(
    'INVALID_INPUT',
    `${field} must be a list of 1 to ${MAX_TURN_ROWS} message ids the stream delivered.`,
    { field },
  );
}

function idemKeyOf(value: unknown): string {
  if (typeof value !== 'string' || !IDEM_KEY.test(value)) {
    throw new ServiceError(
      'INVALID_INPUT',
      'idempotency_key is required: 1 to 128 letters, digits or . _ : ~ - chosen by the host (the same key on a resend).',
      { field: 'idempotency_key' },
    );
  }
  return value;
}

async function servedAgent(
  served: HostTransportOptions['served'],
  p: ConnectionPrincipal,
  agentId: unknown,
): Promise<AgentRecord> {
  if (typeof agentId !== 'string' || agentId === '') {
    throw new ServiceError('INVALID_INPUT', 'agent_id is required (an id from heartbeat or session).', {
      field: 'agent_id',
    });
  }
  const agent = (await served(p)).find((a) => a.id === agentId);
  // Another connector's agent looks exactly like a missing one.
  if (!agent) throw new ServiceError('AGENT_NOT_FOUND', `No agent ${agentId} on this connector.`);
  return agent;
}

/** The thread a turn or answer is for: the owner's, or a holder's while its grant is live and the agent safe. */
async function threadOf(
  options: HostTransportOptions,
  p: ConnectionPrincipal,
  input: { agent_id: unknown; session?: unknown },
): Promise<{ agent: AgentRecord; userId: string; grant: GrantRecord | null }> {
  let agentId = input.agent_id;
  let userId = p.userId;
  if (input.session !== undefined && input.session !== null) {
    const parsed = typeof input.session === 'string' ? parseSessionKey(input.session) : null;
    if (!parsed || (agentId !== undefined && agentId !== parsed.agentId)) {
      throw new ServiceError(
        'INVALID_INPUT',
        'session must be the session key the stream sent (<agent_id> or <agent_id>~<user_id>) of agent_id.',
        { field: 'session' },
      );
    }
    agentId = parsed.agentId;
    userId = parsed.userId ?? p.userId;
  }
  const agent = await servedAgent(options.served, p, agentId);
  if (userId === p.userId) return { agent, userId, grant: null };
  const grant = await options.store.shares.liveGrant(agent.id, userId);
  if (!grant) {
    throw new ServiceError('AGENT_NOT_YOURS', `Agent ${agent.id} is not shared with ${userId} any more.`, {
      field: 'session',
    });
  }
  if (!agent.clientSafe) {
    throw new ServiceError(
      'FORBIDDEN',
      `Agent ${agent.handle} is paused for shared threads: it is not client-safe. Fix the profile; the next heartbeat re-checks it.`,
      { field: 'session' },
    );
  }
  return { agent, userId, grant };
}

/**
 * @example
 * ```ts
 * const close = await transport.open(principal, { after: 41, send: (m) => write(m), end: () => res.end() });
 * await transport.turn(principal, { agent_id, rows: ['msg_1'] });
 * await transport.reply(principal, { agent_id, idempotency_key: 'turn-msg_1', text: 'Hi', turn: ['msg_1'] });
 * ```
 */
export function createHostTransport(options: HostTransportOptions): HostTransport {
  const { store, threadOps, served } = options;
  const notifier: Notifier = options.notifier;
  const core = createThreadCore(options);

  async function toHostMessages(rows: MessageRecord[], agents: Map<string, AgentRecord>) {
    const answers = await core.toAnswers(rows);
    return rows.map((r, i): HostMessage => {
      const a = answers[i]!;
      const agent = agents.get(r.agentId)!;
      return {
        seq: r.seq,
        id: r.id,
        agent: { id: agent.id, handle: agent.handle, remote_ref: agent.remoteRef },
        session: sessionKey(agent, r.userId),
        kind: a.kind,
        text: a.text,
        screen_id: a.screen_id,
        event: a.event,
        photos: a.photos,
        at: a.at,
      };
    });
  }

  /** Marks the answered rows handled and clears the working row; the reply's answer. */
  async function settle(
    key: { agentId: string; userId: string },
    m: MessageRecord,
    replayed: boolean,
    done: unknown,
  ): Promise<ReplyResult> {
    const rows = Array.isArray(m.meta.turn) ? (m.meta.turn as string[]) : [];
    const handled =
      rows.length > 0 ? await store.threads.markRowsHandled(key, rows, core.now(), core.pageVersion()) : 0;
    if (done !== false && (await store.threads.getState(key)).workingUntil !== null) {
      await store.threads.setWorking(key, null, core.pageVersion());
      notifier.publish({ type: 'working', userId: key.userId, agentId: key.agentId, until: null });
    }
    const screen = m.screenId ? await store.threads.getScreen(m.screenId) : null;
    const deadline = m.meta.deadline;
    return {
      message_id: m.id,
      screen_id: m.screenId,
      tap_ids: screen ? screen.taps.map((t) => t.id) : [],
      replayed,
      handled,
      ...(deadline !== null && typeof deadline === 'object'
        ? { deadline: deadline as Record<string, unknown> }
        : {}),
    };
  }

  /** Writes the answer (a screen or a line) through the same thread ops as svc_show/svc_say. */
  async function write(
    p: ConnectionPrincipal,
    thread: { agent: AgentRecord; userId: string; grant: GrantRecord | null },
    input: ReplyInput,
    extras: { meta: Record<string, unknown>; idemKey: string },
  ): Promise<{ message: MessageRecord; tables: ShowResult['tables'] | undefined }> {
    const { agent, userId, grant } = thread;
    const all = { ...extras, ...(grant ? { target: { userId, grantMuted: grant.pushMuted } } : {}) };
    // doc2: the agent's @-mentions in a shared thread are dropped.
    const text = grant && typeof input.text === 'string' ? dropMentions(input.text) : input.text;
    const written =
      input.lines !== undefined && input.lines !== null
        ? await threadOps.show(
            p,
            {
              lines: input.lines as string,
              agent: agent.id,
              ...(text ? { text: text as string } : {}),
              ...(input.deadline !== undefined ? { deadline: input.deadline as ShowInput['deadline'] } : {}),
            },
            all,
          )
        : await threadOps.say(p, { text: text as string, agent: agent.id }, all);
    const message = (await store.threads.getMessage(written.message_id))!;
    // A screen's table lines ran on the relay store: their refusals go back with the answer (issue 37).
    return { message, tables: (written as Partial<ShowResult>).tables };
  }

  return {
    open: (p, handlers) =>
      openHostStream({ store, notifier, shutdown: options.shutdown, served, toHostMessages }, p, handlers),

    async turn(p, input) {
      const { agent, userId } = await threadOf(options, p, input);
      const ids = rowIds(input.rows, 'rows', true);
      const key = { agentId: agent.id, userId };
      const at = core.now();
      const rows = await store.threads.markRowsDelivered(key, ids, at, core.pageVersion());
      if (rows.length !== ids.length) {
        const known = new Set(rows.map((r) => r.id));
        throw new ServiceError(
          'INVALID_INPUT',
          `rows must be the person's rows of this agent's thread; not: ${ids.filter((id) => !known.has(id)).join(', ')}.`,
          { field: 'rows' },
        );
      }
      const until = at + WORKING_TTL_MS;
      await store.threads.setWorking(key, until, core.pageVersion());
      notifier.publish({ type: 'working', userId, agentId: agent.id, until });
      return {
        agent_id: agent.id,
        rows: rows.map((r) => r.id),
        working_until: new Date(until).toISOString(),
      };
    },

    withdraw: (p, input) => threadOps.withdraw(p, input),

    async end(p, input) {
      const agent = await servedAgent(served, p, input.agent_id);
      const key = { agentId: agent.id, userId: p.userId };
      if ((await store.threads.getState(key)).workingUntil === null) return;
      await store.threads.setWorking(key, null, core.pageVersion());
      notifier.publish({ type: 'working', userId: p.userId, agentId: agent.id, until: null });
    },

    async reply(p, input) {
      const thread = await threadOf(options, p, input);
      const given = idemKeyOf(input.idempotency_key);
      const turn = rowIds(input.turn, 'turn', false);
      if (input.done !== undefined && typeof input.done !== 'boolean') {
        throw new ServiceError('INVALID_INPUT', 'done must be true or false.', { field: 'done' });
      }
      const key = { agentId: thread.agent.id, userId: thread.userId };
      const idemKey = scopedIdemKey(thread.agent.id, thread.userId, given);
      const fingerprint = replyFingerprint(input, turn);
      const replay = async (m: MessageRecord) => {
        assertSameReply(m, fingerprint, given);
        return settle(key, m, true, input.done);
      };
      const earlier = await store.threads.findByIdemKey(p.connectorId, idemKey);
      if (earlier) return replay(earlier);
      if (turn.length > 0) {
        // The same check as a turn start: only the person's rows of this thread.
        const rows = await store.threads.markRowsDelivered(key, turn, core.now(), core.pageVersion());
        if (rows.length !== turn.length) {
          throw new ServiceError(
            'INVALID_INPUT',
            "turn must list the person's rows of this agent's thread.",
            { field: 'turn' },
          );
        }
      }
      const meta = { ...(turn.length > 0 ? { turn } : {}), idem: fingerprint };
      try {
        const w = await write(p, thread, input, { meta, idemKey });
        const settled = await settle(key, w.message, false, input.done);
        return w.tables ? { ...settled, tables: w.tables } : settled;
      } catch (err) {
        // A concurrent resend won the key: answer with what it wrote.
        if (!isServiceError(err, 'CONFLICT') || err.field !== 'idempotency_key') throw err;
        const won = await store.threads.findByIdemKey(p.connectorId, idemKey);
        if (!won) throw err;
        return replay(won);
      }
    },
  };
}
