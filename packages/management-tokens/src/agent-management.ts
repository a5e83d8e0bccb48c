// The management API's rules (doc2 `POST {agents_url}`): who is calling (the app's access token or a
// management token) and what each caller may do. Agent rules are person-agents'; this only gates them.
import type { Accounts } from '@screen-service/registry/accounts';
import type {
  AgentListItem,
  AgentView,
  ConnectionView,
  PersonAgents,
  UpdateAgentInput,
} from '@screen-service/registry/agents';
import type { MintedCode } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import {
  MANAGEMENT_TOKEN_PREFIX,
  type ManagementTokens,
  type ManagementTokenView,
} from './management-tokens.js';

/** Who calls the management API: the person's app, or a program holding one of their management tokens. */
export type AgentsCaller =
  | { via: 'app'; userId: string }
  | { via: 'management_token'; userId: string; tokenId: string };

/** Actions a management token may not take (doc2: app-only). */
export const APP_ONLY_ACTIONS = ['token_create', 'token_list', 'token_revoke', 'connector_revoke'] as const;

/** Agent fields a management token may change with `update` (doc2's body fields); the app may change more. */
export const MANAGEMENT_UPDATE_FIELDS = ['name', 'color', 'sort', 'is_default'] as const;

/** The app's update fields beyond the management token's. */
const APP_UPDATE_FIELDS = ['avatar', 'theme', 'push_muted'] as const;

export interface AgentManagementOptions {
  store: Pick<Store, 'users'>;
  accounts: Pick<Accounts, 'verifyAccess'>;
  agents: PersonAgents;
  tokens: ManagementTokens;
  /** Deletes an agent, its thread and its stored files (the core's `deleteAgent`). */
  deleteAgent(userId: string, agentId: string): Promise<void>;
}

export interface CreateInput {
  name?: unknown;
  color?: unknown;
  pair?: unknown;
  remote_ref?: unknown;
  connector_id?: unknown;
}

/** The management API's use cases; every method takes the caller from {@link AgentManagement.authenticate}. */
export interface AgentManagement {
  /**
   * The caller behind a bearer token (read from the header by the adapter): a management token
   * (`svc_mt_...`) or the app's access token.
   *
   * @throws {ServiceError} `UNAUTHORIZED` when missing or not valid.
   */
  authenticate(token: string | undefined | null): Promise<AgentsCaller>;
  list(
    caller: AgentsCaller,
  ): Promise<{ agents: AgentListItem[]; connectors: ConnectionView[]; first_name?: string | null }>;
  /** `remote_ref` + `connector_id`: bound at once; else `name` (+ `pair`, default true): a pending agent and its code. */
  create(
    caller: AgentsCaller,
    input: CreateInput,
  ): Promise<{ agent: AgentView; pairing?: MintedCode | null }>;
  update(caller: AgentsCaller, id: unknown, input: UpdateAgentInput): Promise<{ agent: AgentView }>;
  reorder(caller: AgentsCaller, ids: unknown): Promise<{ agents: AgentListItem[] }>;
  pairCode(caller: AgentsCaller, agentId: unknown): Promise<{ agent_id: string; pairing: MintedCode }>;
  delete(caller: AgentsCaller, id: unknown): Promise<{ deleted: true; id: string }>;
  tokenCreate(caller: AgentsCaller, name: unknown): ReturnType<ManagementTokens['create']>;
  tokenList(caller: AgentsCaller): Promise<{ tokens: ManagementTokenView[] }>;
  tokenRevoke(caller: AgentsCaller, id: unknown): Promise<{ revoked: true; id: string }>;
  connectorRevoke(
    caller: AgentsCaller,
    connectorId: unknown,
  ): Promise<{ revoked: true; connector_id: string }>;
}

function idField(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ServiceError('INVALID_INPUT', `${field} must be an id from list.`, { field });
  }
  return value;
}

function appOnly(caller: AgentsCaller, action: (typeof APP_ONLY_ACTIONS)[number]): void {
  if (caller.via !== 'app') {
    throw new ServiceError(
      'FORBIDDEN',
      `${action} is for the app only: a management token cannot manage tokens or revoke hosts. Use the app's Agent access or Connections page.`,
    );
  }
}

/**
 * @example
 * ```ts
 * const mgmt = createAgentManagement({ store, accounts, agents, tokens, deleteAgent });
 * const caller = await mgmt.authenticate(bearerToken(req.headers.authorization));
 * await mgmt.create(caller, { name: 'Research', pair: true }); // { agent, pairing: { code, expires_at } }
 * ```
 */
export function createAgentManagement(options: AgentManagementOptions): AgentManagement {
  const { store, accounts, agents, tokens } = options;
  return {
    async authenticate(token) {
      if (!token) {
        throw new ServiceError(
          'UNAUTHORIZED',
          'Send Authorization: Bearer svc_mt_<token> (create one in the app under Agent access).',
        );
      }
      if (token.startsWith(MANAGEMENT_TOKEN_PREFIX)) {
        const p = await tokens.verify(token);
        return { via: 'management_token', userId: p.userId, tokenId: p.tokenId };
      }
      const p = await accounts.verifyAccess(token);
      return { via: 'app', userId: p.userId };
    },

    async list(caller) {
      const [list, connectors] = await Promise.all([
        agents.list(caller.userId),
        agents.connections(caller.userId),
      ]);
      if (caller.via !== 'app') return { agents: list, connectors };
      // doc2: the app (token role) also lists the person's first name.
      const user = await store.users.findById(caller.userId);
      return { agents: list, connectors, first_name: user?.firstName ?? null };
    },

    async create(caller, input) {
      if (input.connector_id !== undefined || input.remote_ref !== undefined) {
        if (input.pair === true) {
          throw new ServiceError(
            'INVALID_INPUT',
            'Send either remote_ref + connector_id (bind to a paired host) or name + pair: true (a code), not both.',
            { field: 'pair' },
          );
        }
        const bound = await agents.bind(caller.userId, {
          connector_id: input.connector_id,
          remote_ref: input.remote_ref,
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.color === undefined ? {} : { color: input.color }),
        });
        return { agent: bound };
      }
      if (input.pair !== undefined && typeof input.pair !== 'boolean') {
        throw new ServiceError('INVALID_INPUT', 'pair must be true or false.', { field: 'pair' });
      }
      return agents.create(caller.userId, {
        name: input.name,
        ...(input.color === undefined ? {} : { color: input.color }),
        pair: input.pair !== false,
      });
    },

    async update(caller, id, input) {
      const agentId = idField(id, 'id');
      if (caller.via !== 'app') {
        const extra = APP_UPDATE_FIELDS.find((f) => input[f] !== undefined);
        if (extra) {
          throw new ServiceError(
            'FORBIDDEN',
            `A management token may change only ${MANAGEMENT_UPDATE_FIELDS.join(', ')}; ${extra} is changed in the app.`,
            { field: extra },
          );
        }
      }
      return { agent: await agents.update(caller.userId, agentId, input) };
    },

    async reorder(caller, ids) {
      return { agents: await agents.reorder(caller.userId, ids) };
    },

    async pairCode(caller, agentId) {
      const id = idField(agentId, 'agent_id');
      return { agent_id: id, pairing: await agents.mintCode(caller.userId, id) };
    },

    async delete(caller, id) {
      const agentId = idField(id, 'id');
      await options.deleteAgent(caller.userId, agentId);
      return { deleted: true, id: agentId };
    },

    async tokenCreate(caller, name) {
      appOnly(caller, 'token_create');
      return tokens.create(caller.userId, name);
    },

    async tokenList(caller) {
      appOnly(caller, 'token_list');
      return { tokens: await tokens.list(caller.userId) };
    },

    async tokenRevoke(caller, id) {
      appOnly(caller, 'token_revoke');
      const tokenId = idField(id, 'id');
      await tokens.revoke(caller.userId, tokenId);
      return { revoked: true, id: tokenId };
    },

    async connectorRevoke(caller, connectorId) {
      appOnly(caller, 'connector_revoke');
      const id = idField(connectorId, 'connector_id');
      await agents.removeConnection(caller.userId, id);
      return { revoked: true, connector_id: id };
    },
  };
}
