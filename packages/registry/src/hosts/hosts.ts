// The host API's use cases (doc2 "Host API"): add a profile, heartbeat with sandbox reports, report
// commands, and the session a host starts from. Each takes the connection principal of a connector token.
import { cleanCommands } from '@screen-service/theme';
import { freeHandle, profileNaming } from '../agents/agent-naming.js';
import { addAgent } from '../agents/agent-order.js';
import { type AgentView, toAgentView } from '../agents/agent-status.js';
import { cleanCardSummary } from '../agents/card-summary.js';
import * as check from '../agents/validate.js';
import { newId as defaultNewId } from '../kernel/crypto.js';
import { isServiceError, ServiceError } from '../kernel/errors.js';
import type { Notifier } from '../kernel/notifier.js';
import type { RateLimiter } from '../kernel/rate-limiter.js';
import { type Clock, type Random, systemClock, systemRandom } from '../kernel/system.js';
import type { AgentCardSummary, AgentRecord, CommandEntry, ConnectorRecord } from '../model/records.js';
import type { Store } from '../model/repositories.js';
import type { ConnectionPrincipal } from './connection-auth.js';
import { type ClientSafeRule, checkClientSafe, cleanSandboxReport } from './sandbox-report.js';

/** One agent as the host sees it in `heartbeat` and `session` answers. */
export interface HostAgent {
  id: string;
  name: string;
  handle: string;
  remote_ref: string | null;
  color: AgentRecord['color'];
  /** The agent's look (doc2 "Look"); `{}` = seeded from the handle. */
  theme: Record<string, unknown>;
  /** The host-side session key of the owner's thread (doc2: `<agent_id>`). */
  session: string;
  client_safe: boolean;
  /** The client-safe rules the last report broke (empty when safe or when no report was sent). */
  share_why: ClientSafeRule[];
}

export interface HeartbeatResult {
  connector: { id: string; name: string; kind: ConnectorRecord['kind'] };
  seen_at: string;
  agents: HostAgent[];
}

export interface CommandsResult {
  /** Rows updated: 1 when the profile is registered on this connector, 0 when not (yet). */
  agents: number;
  /** The list as kept after cleaning (null = cleared). */
  commands: CommandEntry[] | null;
  at: string;
}

export interface CardResult {
  /** 1 when the profile is registered on this connector, 0 when not (yet). */
  agents: number;
  /** The summary as kept (null = cleared). */
  card: AgentCardSummary | null;
}

/** What a host needs to serve its agents: who it is, its agents, and where the message transport lives. */
export interface SessionResult {
  connector: { id: string; name: string; kind: ConnectorRecord['kind'] };
  user_id: string;
  agents: HostAgent[];
  /** Builds of the person's app the service serves, by name (the host may show or check them). */
  app_builds: Record<string, string>;
  transport: {
    /** `GET`: the person's rows as Server-Sent Events (`Last-Event-ID` resumes). */
    messages_url: string;
    /** `POST`: a turn starts (rows delivered, working row shown). */
    turn_url: string;
    /** `POST`: an answer (text or screen) with an idempotency key. */
    reply_url: string;
    heartbeat_every_s: number;
    offline_after_s: number;
  };
  limits: { text_chars: number; lines_chars: number; turn_rows: number };
}

/** The host `add` throttle the core builds (`addLimiter`): a burst of 10, then 10 a minute per account. */
export const HOST_ADDS_PER_MINUTE = 10;

export interface HostsOptions {
  store: Store;
  notifier?: Notifier;
  now?: Clock;
  random?: Random;
  /** The connect URL (`{base}/functions/v1/svc-connect`) the session answer points the transport at. */
  connectUrl: string;
  /** Builds of the person's app (default `{}`). */
  appBuilds?: Record<string, string>;
  /** Told of each heartbeat (the live status watch). */
  onSeen?: (connector: ConnectorRecord, at: number) => void;
  /** Throttles `add` per account (keyed by user id); without it `add` is only capped by the agent limit. */
  addLimiter?: RateLimiter;
}

export interface AddInput {
  remote_ref: unknown;
  name?: unknown;
  color?: unknown;
}

export interface Hosts {
  /** `add`: registers a profile of this host as an agent; an existing profile answers `created: false`. */
  add(p: ConnectionPrincipal, input: AddInput): Promise<{ created: boolean; agent: AgentView }>;
  /** `heartbeat`: marks the host seen, stores each profile's sandbox report and verdict. */
  heartbeat(p: ConnectionPrincipal, input: { sandbox?: unknown }): Promise<HeartbeatResult>;
  /** `commands`: stores a profile's cleaned commands list (`null` clears). */
  commands(
    p: ConnectionPrincipal,
    input: { remote_ref: unknown; commands: unknown },
  ): Promise<CommandsResult>;
  /** `card`: stores a bridged profile's card summary (name, skills) for the agent's settings; `null` clears. */
  card(p: ConnectionPrincipal, input: { remote_ref: unknown; card: unknown }): Promise<CardResult>;
  /** `session`: the host's agents with their looks, the app builds and the transport's addresses. */
  session(p: ConnectionPrincipal): Promise<SessionResult>;
  /** The agents this connection serves, owned by its user (the transport scopes by the same list). */
  served(p: ConnectionPrincipal): Promise<AgentRecord[]>;
}

/** At most this many rows of a turn in one `turn` or `reply` call. */
export const MAX_TURN_ROWS = 100;

/**
 * @example
 * ```ts
 * const hosts = createHosts({ store, connectUrl: urls.connectUrl });
 * const p = await hostAuth.verify(bearerToken(req.headers.authorization));
 * await hosts.heartbeat(p, { sandbox: { main: { terminal: 'off', ... } } });
 * ```
 */
export function createHosts(options: HostsOptions): Hosts {
  const { store, notifier } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const newId = (prefix: string) => defaultNewId(prefix, random);

  async function connectorOf(p: ConnectionPrincipal): Promise<ConnectorRecord> {
    const c = await store.connectors.get(p.connectorId);
    if (!c || c.userId !== p.userId)
      throw new ServiceError('CONNECTOR_NOT_FOUND', 'This connector no longer exists; pair again.');
    return c;
  }
  const served = async (p: ConnectionPrincipal) =>
    (await store.agents.listByConnector(p.connectorId)).filter((a) => a.userId === p.userId);

  function hostAgent(a: AgentRecord): HostAgent {
    const report = a.sandbox as Record<string, unknown> | null;
    return {
      id: a.id,
      name: a.name,
      handle: a.handle,
      remote_ref: a.remoteRef,
      color: a.color,
      theme: a.theme,
      session: a.id,
      client_safe: a.clientSafe,
      share_why: report ? checkClientSafe(report).broken : [],
    };
  }

  return {
    served,

    async add(p, input) {
      const ref = check.remoteRef(input.remote_ref);
      const { name, color } = profileNaming(ref, input);
      const connector = await connectorOf(p);
      const existing = await store.agents.findByRemoteRef(connector.id, ref);
      if (existing) return { created: false, agent: toAgentView(existing, connector, now()) };
      // Only adds that would create an agent count: a host repeating its profiles at start costs nothing.
      const decision = (await options.addLimiter?.take(p.userId)) ?? { ok: true };
      if (!decision.ok) {
        throw new ServiceError(
          'RATE_LIMITED',
          `Hosts add at most ${HOST_ADDS_PER_MINUTE} agents a minute to one account; wait ${decision.retryAfterS} s before adding ${ref}.`,
          { details: { retryAfterS: decision.retryAfterS } },
        );
      }
      const at = now();
      let agent: AgentRecord;
      try {
        agent = await addAgent(store, {
          id: newId('agt_'),
          userId: p.userId,
          name,
          handle: await freeHandle(store.agents, p.userId, name),
          color,
          kind: connector.kind,
          connectorId: connector.id,
          remoteRef: ref,
          createdAt: at,
        });
      } catch (err) {
        // Two adds of one profile at once: the loser answers with the winner's row.
        if (!isServiceError(err, 'PROFILE_ALREADY_ADDED') && !isServiceError(err, 'HANDLE_TAKEN')) throw err;
        const won = await store.agents.findByRemoteRef(connector.id, ref);
        if (!won) throw err;
        return { created: false, agent: toAgentView(won, connector, now()) };
      }
      notifier?.publish({ type: 'agents', userId: p.userId });
      return { created: true, agent: toAgentView(agent, connector, at) };
    },

    async heartbeat(p, input) {
      const reports = input.sandbox;
      if (
        reports !== undefined &&
        reports !== null &&
        (typeof reports !== 'object' || Array.isArray(reports))
      ) {
        throw new ServiceError(
          'INVALID_INPUT',
          'sandbox must be an object keyed by profile name (remote_ref), each value a sandbox report.',
          { field: 'sandbox' },
        );
      }
      const byRef = (reports ?? {}) as Record<string, unknown>;
      const cleaned = new Map(
        Object.entries(byRef).map(([ref, r]) => [ref, cleanSandboxReport(r, `sandbox.${ref}`)]),
      );
      const connector = await connectorOf(p);
      const at = now();
      await store.connectors.touch(connector.id, at);
      options.onSeen?.(connector, at);
      const agents = await served(p);
      const flipped: string[] = [];
      const out: HostAgent[] = [];
      for (const a of agents) {
        const report = a.remoteRef === null ? undefined : cleaned.get(a.remoteRef);
        // doc2: a gateway that serves a profile and sends no report clears the mark.
        const verdict = report ? checkClientSafe(report) : null;
        const next = {
          sandbox: (report ?? null) as Record<string, unknown> | null,
          clientSafe: verdict?.client_safe ?? false,
          clientSafeAt: verdict ? at : null,
        };
        // Written only when the report or the verdict changed: `client_safe_at` is when the verdict was reached.
        const same =
          JSON.stringify(next.sandbox) === JSON.stringify(a.sandbox ?? null) &&
          next.clientSafe === a.clientSafe;
        if (same) next.clientSafeAt = a.clientSafeAt;
        else {
          await store.agents.setSandbox(a.id, next);
          if (next.clientSafe !== a.clientSafe) flipped.push(a.id);
        }
        out.push(hostAgent({ ...a, ...next, sandbox: next.sandbox }));
      }
      if (flipped.length > 0) {
        notifier?.publish({ type: 'agents', userId: p.userId });
        // Holders see the agent paused or back at once (doc2 presence).
        const holders = new Set((await store.shares.liveForAgents(flipped)).map((g) => g.userId));
        for (const userId of holders) notifier?.publish({ type: 'agents', userId });
      }
      return {
        connector: { id: connector.id, name: connector.name, kind: connector.kind },
        seen_at: new Date(at).toISOString(),
        agents: out,
      };
    },

    async commands(p, input) {
      const ref = check.remoteRef(input.remote_ref);
      const cleaned = cleanCommands(input.commands);
      if (!cleaned.ok) throw new ServiceError('INVALID_INPUT', cleaned.message, { field: 'commands' });
      const connector = await connectorOf(p);
      const at = now();
      const agent = await store.agents.findByRemoteRef(connector.id, ref);
      const updated =
        agent && agent.userId === p.userId
          ? await store.agents.setCommands(agent.id, cleaned.commands, at)
          : false;
      if (updated) notifier?.publish({ type: 'agents', userId: p.userId });
      return { agents: updated ? 1 : 0, commands: cleaned.commands, at: new Date(at).toISOString() };
    },

    async card(p, input) {
      const ref = check.remoteRef(input.remote_ref);
      const card = cleanCardSummary(input.card);
      const connector = await connectorOf(p);
      const agent = await store.agents.findByRemoteRef(connector.id, ref);
      const updated =
        agent && agent.userId === p.userId ? await store.agents.setCard(agent.id, card, now()) : false;
      if (updated) notifier?.publish({ type: 'agents', userId: p.userId });
      return { agents: updated ? 1 : 0, card };
    },

    async session(p) {
      const connector = await connectorOf(p);
      const agents = await served(p);
      const base = options.connectUrl.replace(/\/+$/, '');
      return {
        connector: { id: connector.id, name: connector.name, kind: connector.kind },
        user_id: p.userId,
        agents: agents.map(hostAgent),
        app_builds: { ...(options.appBuilds ?? {}) },
        transport: {
          messages_url: `${base}/messages`,
          turn_url: `${base}/messages/turn`,
          reply_url: `${base}/messages/reply`,
          heartbeat_every_s: 60,
          offline_after_s: 120,
        },
        limits: { text_chars: 4000, lines_chars: 20_000, turn_rows: MAX_TURN_ROWS },
      };
    },
  };
}
