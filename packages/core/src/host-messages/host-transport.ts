// Message transport for hosts (ADR 0130): the person's rows owed to a connection as a resumable stream, turn
// starts (rows delivered, working row) and idempotent answers (rows handled, `meta.turn`), scoped to the
// agents the connector token serves. Answers go through the same thread ops as svc_show/svc_say.

import { dropMentions, parseSessionKey, sessionKey } from '@screen-service/registry/agents';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { connectionState, MAX_TURN_ROWS } from '@screen-service/registry/hosts';
import type { Notifier } from '@screen-service/registry/kernel';
import { isServiceError, ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord, GrantRecord, MessageRecord, Store } from '@screen-service/registry/model';
import { createThreadCore, type ThreadDeps } from '../threads/thread-core.js';
import type { ShowResult, ThreadOps } from '../threads/thread-ops.js';

/** How long a working row shows after a turn starts when no answer comes (a host that died mid-turn). */
export const WORKING_TTL_MS = 2 * 60 * 1000;
/** Rows read per page when a stream replays what it owes. */
const REPLAY_PAGE = 100;

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
}

export interface HostTransport {
  /** Opens the stream: replays what is owed after `after`, then forwards new rows live. Returns `close`. */
  open(p: ConnectionPrincipal, handlers: HostStreamHandlers): Promise<() => void>;
  turn(p: ConnectionPrincipal, input: TurnInput): Promise<TurnResult>;
  reply(p: ConnectionPrincipal, input: ReplyInput): Promise<ReplyResult>;
  /** Ends a turn that will not be answered now (the host failed): clears the working row; rows stay owed. */
  end(p: ConnectionPrincipal, input: { agent_id: unknown }): Promise<void>;
}

export interface HostTransportOptions extends ThreadDeps {
  threadOps: ThreadOps;
  served(p: ConnectionPrincipal): Promise<AgentRecord[]>;
}

const IDEM_KEY = /^[A-Za-z0-9._:~-]{1,128}$/;

/**
 * The shared threads a connection serves besides its owner's (doc2): live grants of its agents, only while
 * the agent is client-safe. Keyed by session key.
 */
async function sharedThreads(
  store: Store,
  agents: Map<string, AgentRecord>,
): Promise<Map<string, GrantRecord>> {
  const safe = [...agents.values()].filter((a) => a.clientSafe).map((a) => a.id);
  const grants = await store.shares.liveForAgents(safe);
  return new Map(grants.map((g) => [`${g.agentId}~${g.userId}`, g]));
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

  async function servedAgent(p: ConnectionPrincipal, agentId: unknown): Promise<AgentRecord> {
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
  async function threadOf(p: ConnectionPrincipal, input: { agent_id: unknown; session?: unknown }) {
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
    const agent = await servedAgent(p, agentId);
    if (userId === p.userId) return { agent, userId, grant: null };
    const grant = await store.shares.liveGrant(agent.id, userId);
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

  return {
    async open(p, handlers) {
      let agents = new Map((await served(p)).map((a) => [a.id, a]));
      let shared = await sharedThreads(store, agents);
      let cursor = handlers.after ?? 0;
      let replaying = true;
      let ended = false;
      const held: MessageRecord[] = [];
      let chain = Promise.resolve();

      const finish = (reason: StreamEnd) => {
        if (ended) return;
        ended = true;
        stop();
        handlers.end(reason);
      };
      // A row of the owner's thread, or of a shared thread served now.
      const allowed = (r: MessageRecord) =>
        agents.has(r.agentId) && (r.userId === p.userId || shared.has(`${r.agentId}~${r.userId}`));
      const deliver = async (rows: MessageRecord[]) => {
        const fresh = rows.filter((r) => r.seq > cursor && allowed(r)).sort((a, b) => a.seq - b.seq);
        if (fresh.length === 0 || ended) return;
        for (const m of await toHostMessages(fresh, agents)) {
          if (ended || m.seq <= cursor) continue;
          cursor = m.seq;
          handlers.send(m);
        }
      };
      // Events are handled one after another so rows leave in seq order.
      const queue = (task: () => Promise<void>) => {
        chain = chain.then(task).catch(() => {});
      };
      // A live row is a wake-up: what is owed after the cursor is read back and sent in seq order. Events
      // from other instances can arrive out of seq order (seq n+1's before seq n's); the store commits one
      // connection's rows in seq order, so reading at n+1's event finds n too. One read is queued at a time.
      let pullQueued = false;
      const pull = () => {
        if (pullQueued) return;
        pullQueued = true;
        queue(async () => {
          pullQueued = false;
          await deliver(await owedAfter(cursor));
        });
      };
      const listener = (e: Parameters<Parameters<Notifier['subscribe']>[1]>[0]) => {
        if (ended) return;
        if (e.type === 'message') {
          const m = e.message;
          if (m.sender !== 'person' || m.handledAt !== null || !allowed(m)) return;
          if (replaying) held.push(m);
          else pull();
        } else if (e.type === 'agents') {
          // Removing a connection publishes `agents`: check at once, so a revoked stream closes now. Grants
          // and client-safe changes publish it too: the shared threads served are read again.
          queue(async () => {
            const c = await store.connectors.get(p.connectorId);
            if (connectionState(c) !== 'live') return finish('revoked');
            agents = new Map((await served(p)).map((a) => [a.id, a]));
            const before = shared;
            shared = await sharedThreads(store, agents);
            follow();
            // A thread served again (agent safe again) or anew owes what its holder wrote meanwhile, even
            // below the cursor: those rows were held back, never sent.
            for (const [key, g] of shared) {
              if (before.has(key)) continue;
              const owed = await store.threads.pendingForHost({
                userId: g.userId,
                agentIds: [g.agentId],
                afterSeq: 0,
                limit: REPLAY_PAGE,
              });
              for (const m of await toHostMessages(owed, agents)) {
                if (ended) return;
                cursor = Math.max(cursor, m.seq);
                handlers.send(m);
              }
            }
          });
        } else if (e.type === 'resync') {
          // Events may have been lost between instances: whatever is owed after the cursor goes out now.
          if (!replaying) queue(async () => deliver(await owedAfter(cursor)));
        }
      };
      // What the owner's thread and each shared thread owe after `after`, merged so rows leave in seq order.
      const owedAfter = async (after: number) => {
        const threads = new Map<string, string[]>([[p.userId, [...agents.keys()]]]);
        for (const g of shared.values()) threads.set(g.userId, [...(threads.get(g.userId) ?? []), g.agentId]);
        const owed: MessageRecord[] = [];
        for (const [userId, agentIds] of threads) {
          let from = after;
          for (;;) {
            const page = await store.threads.pendingForHost({
              userId,
              agentIds,
              afterSeq: from,
              limit: REPLAY_PAGE,
            });
            owed.push(...page);
            if (page.length < REPLAY_PAGE || ended) break;
            from = page[page.length - 1]!.seq;
          }
        }
        return owed;
      };
      // The owner's events, and each holder's (their rows are published under their own user id).
      const subs = new Map<string, () => void>([[p.userId, notifier.subscribe(p.userId, listener)]]);
      const follow = () => {
        const holders = new Set([p.userId, ...[...shared.values()].map((g) => g.userId)]);
        for (const [u, off] of subs) {
          if (holders.has(u)) continue;
          off();
          subs.delete(u);
        }
        for (const u of holders) if (!subs.has(u)) subs.set(u, notifier.subscribe(u, listener));
      };
      follow();
      const unsubscribe = () => {
        for (const off of subs.values()) off();
        subs.clear();
      };
      const onShutdown = () => finish('shutdown');
      options.shutdown?.addEventListener('abort', onShutdown);
      function stop() {
        unsubscribe();
        options.shutdown?.removeEventListener('abort', onShutdown);
      }
      try {
        await deliver(await owedAfter(cursor));
        replaying = false;
        // Rows written during the replay: read back after their events, like live ones.
        if (held.splice(0).length > 0) pull();
      } catch (err) {
        stop();
        throw err;
      }
      if (options.shutdown?.aborted) finish('shutdown');
      return () => {
        ended = true;
        stop();
      };
    },

    async turn(p, input) {
      const { agent, userId } = await threadOf(p, input);
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

    async end(p, input) {
      const agent = await servedAgent(p, input.agent_id);
      const key = { agentId: agent.id, userId: p.userId };
      if ((await store.threads.getState(key)).workingUntil === null) return;
      await store.threads.setWorking(key, null, core.pageVersion());
      notifier.publish({ type: 'working', userId: p.userId, agentId: agent.id, until: null });
    },

    async reply(p, input) {
      const { agent, userId, grant } = await threadOf(p, input);
      if (typeof input.idempotency_key !== 'string' || !IDEM_KEY.test(input.idempotency_key)) {
        throw new ServiceError(
          'INVALID_INPUT',
          'idempotency_key is required: 1 to 128 letters, digits or . _ : ~ - chosen by the host (the same key on a resend).',
          { field: 'idempotency_key' },
        );
      }
      const idemKey = input.idempotency_key;
      const turn = rowIds(input.turn, 'turn', false);
      if (input.done !== undefined && typeof input.done !== 'boolean') {
        throw new ServiceError('INVALID_INPUT', 'done must be true or false.', { field: 'done' });
      }
      const key = { agentId: agent.id, userId };
      const settle = async (m: MessageRecord, replayed: boolean): Promise<ReplyResult> => {
        const rows = Array.isArray(m.meta.turn) ? (m.meta.turn as string[]) : [];
        const handled =
          rows.length > 0
            ? await store.threads.markRowsHandled(key, rows, core.now(), core.pageVersion())
            : 0;
        if (input.done !== false && (await store.threads.getState(key)).workingUntil !== null) {
          await store.threads.setWorking(key, null, core.pageVersion());
          notifier.publish({ type: 'working', userId, agentId: agent.id, until: null });
        }
        const screen = m.screenId ? await store.threads.getScreen(m.screenId) : null;
        return {
          message_id: m.id,
          screen_id: m.screenId,
          tap_ids: screen ? screen.taps.map((t) => t.id) : [],
          replayed,
          handled,
        };
      };
      const earlier = await store.threads.findByIdemKey(p.connectorId, idemKey);
      if (earlier) return settle(earlier, true);
      if (turn.length > 0) {
        // The same check as a turn start: only the person's rows of this thread.
        const rows = await store.threads.markRowsDelivered(key, turn, core.now(), core.pageVersion());
        if (rows.length !== turn.length) {
          throw new ServiceError(
            'INVALID_INPUT',
            "turn must list the person's rows of this agent's thread.",
            {
              field: 'turn',
            },
          );
        }
      }
      const extras = {
        meta: turn.length > 0 ? { turn } : {},
        idemKey,
        ...(grant ? { target: { userId, grantMuted: grant.pushMuted } } : {}),
      };
      // doc2: the agent's @-mentions in a shared thread are dropped.
      const text = grant && typeof input.text === 'string' ? dropMentions(input.text) : input.text;
      try {
        const written =
          input.lines !== undefined && input.lines !== null
            ? await threadOps.show(
                p,
                {
                  lines: input.lines as string,
                  agent: agent.id,
                  ...(text ? { text: text as string } : {}),
                },
                extras,
              )
            : await threadOps.say(p, { text: text as string, agent: agent.id }, extras);
        const m = await store.threads.getMessage(written.message_id);
        const tables = (written as Partial<ShowResult>).tables;
        return { ...(await settle(m!, false)), ...(tables ? { tables } : {}) };
      } catch (err) {
        // A concurrent resend won the key: answer with what it wrote.
        if (!isServiceError(err, 'CONFLICT') || err.field !== 'idempotency_key') throw err;
        const won = await store.threads.findByIdemKey(p.connectorId, idemKey);
        if (!won) throw err;
        return settle(won, true);
      }
    },
  };
}
