// The person's own agents and connections: list with derived status and unread counts, create (with a
// pairing code), edit, reorder, set default, mute, delete; list and remove connections.

import type { MintedCode, Pairing } from '../hosts/pairing.js';
import { newId as defaultNewId } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import type { Notifier } from '../kernel/notifier.js';
import { type Random, systemClock, systemRandom } from '../kernel/system.js';
import type {
  AgentRecord,
  ConnectorKind,
  ConnectorRecord,
  ConnectorVia,
  MessageRecord,
} from '../model/records.js';
import type { AgentPatch, Store } from '../model/repositories.js';
import { freeHandle, profileNaming } from './agent-naming.js';
import { addAgent, makeDefaultAgent, removeAgent, reorderAgents } from './agent-order.js';
import { type AgentView, colorFromName, toAgentView } from './agent-status.js';
import { type AgentAccess, sharedAgentRefusal, threadAccess } from './shared-access.js';
import { grantedView, ownedFields, type SharedFields } from './shared-rows.js';
import { previewOf } from './thread-preview.js';
import * as check from './validate.js';

export interface PersonAgentsOptions {
  store: Store;
  pairing: Pairing;
  notifier?: Notifier;
  now?: () => number;
  /** Randomness for ids (default: the OS CSPRNG). */
  random?: Random;
  newId?: (prefix: string) => string;
}

/** An agent in the person's list: the view plus unread count, the newest row's time and a preview of it. */
export interface AgentListItem extends AgentView, SharedFields {
  unread: number;
  last_message_at: string | null;
  /** The newest row as one line (a screen by its chat line or title, a tap by its echo); null: no rows. */
  last_message: { sender: MessageRecord['sender']; text: string } | null;
}

export interface CreateAgentInput {
  name: unknown;
  color?: unknown;
  /** Mint a pairing code with the new agent (default true). */
  pair?: boolean;
  kind?: ConnectorKind;
}

/** Binds a new agent to one of the person's existing connectors (doc2 management `create` with `connector_id`). */
export interface BindAgentInput {
  connector_id: unknown;
  remote_ref: unknown;
  /** Default: the profile name (`remote_ref`). */
  name?: unknown;
  /** Default: a stable pastel from the name. */
  color?: unknown;
}

export interface UpdateAgentInput {
  name?: unknown;
  color?: unknown;
  avatar?: unknown;
  theme?: unknown;
  push_muted?: unknown;
  sort?: unknown;
  is_default?: unknown;
}

export interface ConnectionView {
  id: string;
  name: string;
  kind: ConnectorKind;
  /** `pairing` (a connection token) or `oauth` (a sign-in approval). */
  via: ConnectorVia;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
  /** The agents it serves, with the host profile (`remote_ref`) each one is. */
  agents: { id: string; name: string; handle: string; remote_ref: string | null }[];
}

export interface PersonAgents {
  /** The person's own agents, then the agents shared with them (live grants), each with unread counts. */
  list(userId: string): Promise<AgentListItem[]>;
  get(userId: string, agentId: string): Promise<AgentView & Partial<SharedFields>>;
  create(userId: string, input: CreateAgentInput): Promise<{ agent: AgentView; pairing: MintedCode | null }>;
  /**
   * Creates an agent bound at once to the person's connector `connector_id` as profile `remote_ref`.
   *
   * @throws {ServiceError} `CONNECTOR_NOT_FOUND` (not the person's), `CONNECTOR_REVOKED`,
   * `PROFILE_ALREADY_ADDED` (the connector already serves that profile), `INVALID_INPUT`.
   */
  bind(userId: string, input: BindAgentInput): Promise<AgentView>;
  mintCode(userId: string, agentId: string): Promise<MintedCode>;
  /** On a shared agent only `push_muted` and `sort` (the holder's own) change; anything else is `SHARED_AGENT`. */
  update(
    userId: string,
    agentId: string,
    input: UpdateAgentInput,
  ): Promise<AgentView & Partial<SharedFields>>;
  reorder(userId: string, ids: unknown): Promise<AgentListItem[]>;
  delete(userId: string, agentId: string): Promise<void>;
  connections(userId: string): Promise<ConnectionView[]>;
  /** Revokes a connection: its tokens stop at once; its agents show offline. */
  removeConnection(userId: string, connectorId: string): Promise<void>;
}

/**
 * @example
 * ```ts
 * const agents = createPersonAgents({ store, pairing: createPairing({ store }) });
 * const { agent, pairing } = await agents.create(userId, { name: 'Claude Desktop' });
 * ```
 */
export function createPersonAgents(options: PersonAgentsOptions): PersonAgents {
  const { store, pairing, notifier } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const newId = options.newId ?? ((prefix: string) => defaultNewId(prefix, random));
  const changed = (userId: string) => notifier?.publish({ type: 'agents', userId });

  // An agent the person owns, or one held through a live grant (settings refuse the rest as not found).
  // A person whose grant was revoked hears the agent's name (`AGENT_NOT_YOURS`), not "no agent agt_...".
  const access = (userId: string, agentId: string): Promise<AgentAccess> =>
    threadAccess(store, userId, agentId);
  const own = async (userId: string, agentId: string, what: string) => {
    const a = await access(userId, agentId);
    if (a.grant) throw sharedAgentRefusal(what);
    return a.agent;
  };
  async function view(a: AgentRecord): Promise<AgentView> {
    return toAgentView(a, a.connectorId ? await store.connectors.get(a.connectorId) : null, now());
  }

  const api: PersonAgents = {
    list: (userId) => listAgents(store, userId, now()),

    async get(userId, agentId) {
      const a = await access(userId, agentId);
      if (!a.grant) return { ...(await view(a.agent)), ...ownedFields(a.agent) };
      const c = a.agent.connectorId ? await store.connectors.get(a.agent.connectorId) : null;
      return grantedView(a.agent, a.grant, c, now());
    },

    async create(userId, input) {
      const name = check.agentName(input.name);
      const color = input.color === undefined ? colorFromName(name) : check.agentColor(input.color);
      const agent = await addAgent(store, {
        id: newId('agt_'),
        userId,
        name,
        handle: await freeHandle(store.agents, userId, name),
        color,
        kind: input.kind ?? 'mcp',
        createdAt: now(),
      });
      const code = input.pair === false ? null : await pairing.mintCode(userId, agent.id);
      changed(userId);
      return { agent: await view(agent), pairing: code };
    },

    async bind(userId, input) {
      if (typeof input.connector_id !== 'string' || input.connector_id === '') {
        throw new ServiceError('INVALID_INPUT', 'connector_id must be one of your connectors (from list).', {
          field: 'connector_id',
        });
      }
      const ref = check.remoteRef(input.remote_ref);
      const connector = await store.connectors.get(input.connector_id);
      if (!connector || connector.userId !== userId) {
        throw new ServiceError('CONNECTOR_NOT_FOUND', `No connector ${input.connector_id} in your account.`, {
          field: 'connector_id',
        });
      }
      if (connector.revokedAt !== null) {
        throw new ServiceError('CONNECTOR_REVOKED', 'This connector was removed; pair the host again.', {
          field: 'connector_id',
        });
      }
      if (await store.agents.findByRemoteRef(connector.id, ref)) {
        throw new ServiceError(
          'PROFILE_ALREADY_ADDED',
          `The host already serves profile ${ref} as an agent.`,
          { field: 'remote_ref' },
        );
      }
      const { name, color } = profileNaming(ref, input);
      const agent = await addAgent(store, {
        id: newId('agt_'),
        userId,
        name,
        handle: await freeHandle(store.agents, userId, name),
        color,
        kind: connector.kind,
        connectorId: connector.id,
        remoteRef: ref,
        createdAt: now(),
      });
      changed(userId);
      return view(agent);
    },

    async mintCode(userId, agentId) {
      await own(userId, agentId, 'pair it');
      return pairing.mintCode(userId, agentId);
    },

    async update(userId, agentId, input) {
      const held = await access(userId, agentId);
      if (held.grant) {
        const keys = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
        const refused = keys.filter((k) => k !== 'push_muted' && k !== 'sort');
        if (refused.length > 0) throw sharedAgentRefusal(`change ${refused.join(', ')}`);
        if (input.sort !== undefined && !Number.isInteger(input.sort)) {
          throw new ServiceError('INVALID_INPUT', 'sort must be a whole number.', { field: 'sort' });
        }
        const g = await store.shares.updateHeld(held.grant.id, {
          ...(input.push_muted !== undefined ? { pushMuted: bool(input.push_muted, 'push_muted') } : {}),
          ...(input.sort !== undefined ? { sort: input.sort as number } : {}),
        });
        changed(userId);
        const c = held.agent.connectorId ? await store.connectors.get(held.agent.connectorId) : null;
        return grantedView(held.agent, g ?? held.grant, c, now());
      }
      const current = held.agent;
      const patch: AgentPatch = {};
      if (input.name !== undefined) patch.name = check.agentName(input.name);
      if (input.color !== undefined) patch.color = check.agentColor(input.color);
      if (input.avatar !== undefined) {
        if (input.avatar !== null && input.avatar !== 'svc') {
          throw new ServiceError('INVALID_INPUT', 'avatar must be null (initial chip) or "svc".', {
            field: 'avatar',
          });
        }
        patch.avatar = input.avatar;
      }
      if (input.theme !== undefined) patch.theme = check.theme(input.theme);
      if (input.push_muted !== undefined) patch.pushMuted = bool(input.push_muted, 'push_muted');
      if (input.sort !== undefined) {
        if (!Number.isInteger(input.sort)) {
          throw new ServiceError('INVALID_INPUT', 'sort must be a whole number.', { field: 'sort' });
        }
        patch.sort = input.sort as number;
      }
      let updated = await store.agents.update(current.id, patch, now());
      if (input.is_default !== undefined) {
        if (input.is_default !== true) {
          throw new ServiceError(
            'INVALID_INPUT',
            'is_default can only be set to true: pick another agent instead.',
            { field: 'is_default' },
          );
        }
        updated = await makeDefaultAgent(store, userId, current.id, now());
      }
      changed(userId);
      return view(updated!);
    },

    async reorder(userId, ids) {
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
        throw new ServiceError('INVALID_INPUT', 'ids must be a list of agent ids.', { field: 'ids' });
      }
      await reorderAgents(store, userId, ids as string[], now());
      changed(userId);
      return api.list(userId);
    },

    async delete(userId, agentId) {
      await own(userId, agentId, 'delete it');
      await removeAgent(store, agentId, now());
      changed(userId);
    },

    ...personConnections(store, now, changed),
  };
  return api;
}

/** The person's agent list: owned agents first, then held ones, each with unread count and preview. */
async function listAgents(store: Store, userId: string, t: number): Promise<AgentListItem[]> {
  const [agents, connectors, unread, last] = await Promise.all([
    store.agents.listByUser(userId),
    store.connectors.listByUser(userId).then((cs) => new Map(cs.map((c) => [c.id, c]))),
    store.threads.unreadByAgent(userId),
    store.threads.lastByAgent(userId),
  ]);
  const screenIds = [...last.values()].flatMap((r) =>
    r.kind === 'screen' && r.screenId ? [r.screenId] : [],
  );
  const screens = new Map((await store.threads.listScreens(screenIds)).map((s) => [s.id, s]));
  const counts = (id: string) => {
    const lastRow = last.get(id);
    return {
      unread: unread.get(id) ?? 0,
      last_message_at: lastRow ? new Date(lastRow.createdAt).toISOString() : null,
      last_message: lastRow
        ? {
            sender: lastRow.sender,
            text: previewOf(lastRow, lastRow.screenId ? screens.get(lastRow.screenId) : undefined),
          }
        : null,
    };
  };
  const owned: AgentListItem[] = agents.map((a) => ({
    ...toAgentView(a, a.connectorId ? connectors.get(a.connectorId) : null, t),
    ...ownedFields(a),
    ...counts(a.id),
  }));
  const shared: AgentListItem[] = [];
  for (const g of await store.shares.listHeld(userId)) {
    const a = await store.agents.get(g.agentId);
    if (!a) continue;
    const c = a.connectorId ? await store.connectors.get(a.connectorId) : null;
    shared.push({ ...grantedView(a, g, c, t), ...counts(a.id) });
  }
  return [...owned, ...shared];
}

/** The connections the person made (paired hosts, sign-ins), and removing one. */
function personConnections(
  store: Store,
  now: () => number,
  changed: (userId: string) => void,
): Pick<PersonAgents, 'connections' | 'removeConnection'> {
  return {
    async connections(userId) {
      // The service's own runner of native agents is not a connection the person made (ADR 0200).
      const connectors = (await store.connectors.listByUser(userId)).filter((c) => c.kind !== 'hosted');
      const served = await Promise.all(connectors.map((c) => store.agents.listByConnector(c.id)));
      return connectors.map((c: ConnectorRecord, i) => ({
        id: c.id,
        name: c.name,
        kind: c.kind,
        via: c.via ?? 'pairing',
        created_at: new Date(c.createdAt).toISOString(),
        last_seen_at: c.lastSeenAt === null ? null : new Date(c.lastSeenAt).toISOString(),
        revoked_at: c.revokedAt === null ? null : new Date(c.revokedAt).toISOString(),
        agents: served[i]!.filter((a) => a.userId === userId).map((a) => ({
          id: a.id,
          name: a.name,
          handle: a.handle,
          remote_ref: a.remoteRef,
        })),
      }));
    },

    async removeConnection(userId, connectorId) {
      const c = await store.connectors.get(connectorId);
      if (!c || c.userId !== userId || c.kind === 'hosted') {
        throw new ServiceError('CONNECTOR_NOT_FOUND', `No connection ${connectorId} in your account.`, {
          field: 'connector_id',
        });
      }
      await store.connectors.revoke(connectorId, now());
      changed(userId);
    },
  };
}

function bool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean')
    throw new ServiceError('INVALID_INPUT', `${field} must be true or false.`, { field });
  return value;
}
