// The person's native-agent use cases: what the service offers, add one (a starter in one tap, or a blank
// agent with the person's own instructions), read and edit its instructions.

import type { Core } from '@screen-service/core';
import { type AgentView, addAgent, freeHandle, toAgentView } from '@screen-service/registry/agents';
import { hashSecret, mintToken, newId, ServiceError } from '@screen-service/registry/kernel';
import type { ConnectorRecord } from '@screen-service/registry/model';
import { nativePrincipal } from './runtime.js';
import type { StarterTemplate } from './starters.js';

/** Longest instructions (system prompt) a person may write. */
export const MAX_INSTRUCTIONS_CHARS = 8_000;

/** A starter as the app shows it on the add card. */
export interface StarterView {
  id: string;
  name: string;
  description: string;
  color: StarterTemplate['color'];
  theme: Record<string, unknown>;
  /** The starter tables' names. */
  tables: string[];
}

/** What `GET /native` answers. */
export interface NativeOffer {
  starters: StarterView[];
}

/** `POST /native/agents`: `starter`, or `name` and `instructions` for a blank agent. */
export interface AddNativeInput {
  starter?: unknown;
  name?: unknown;
  instructions?: unknown;
}

/** A native agent's instructions. */
export interface NativeInstructions {
  agent_id: string;
  /** The starter it was added from, or null for a blank agent. */
  template: string | null;
  instructions: string;
  updated_at: string;
}

export interface NativeAgents {
  offer(): NativeOffer;
  add(userId: string, input: AddNativeInput): Promise<AgentView>;
  instructions(userId: string, agentId: string): Promise<NativeInstructions>;
  setInstructions(userId: string, agentId: string, instructions: unknown): Promise<NativeInstructions>;
}

export interface NativeAgentsOptions {
  core: Pick<Core, 'store' | 'notifier' | 'hostTransport' | 'tables' | 'clock' | 'random'>;
  /** The starters the operator enabled. */
  starters: readonly StarterTemplate[];
}

const HOSTED_NAME = 'Screen Service';

function instructionsText(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_INSTRUCTIONS_CHARS) {
    throw new ServiceError(
      'INVALID_INPUT',
      `instructions must be 1 to ${MAX_INSTRUCTIONS_CHARS} characters: what the agent is for and how it answers.`,
      { field: 'instructions' },
    );
  }
  return value.trim();
}

/**
 * @example
 * ```ts
 * const native = createNativeAgents({ core, starters: pickStarters('all') });
 * const agent = await native.add(userId, { starter: 'habit-coach' });
 * ```
 */
export function createNativeAgents(options: NativeAgentsOptions): NativeAgents {
  const { core, starters } = options;
  const { store } = core;
  const now = core.clock;

  /** The user's one `hosted` connection: the service's own runner of their native agents. */
  async function runnerOf(userId: string): Promise<ConnectorRecord> {
    const live = (await store.connectors.listByUser(userId)).find(
      (c) => c.kind === 'hosted' && c.revokedAt === null,
    );
    if (live) return live;
    return store.connectors.create({
      id: newId('con_', core.random),
      userId,
      name: HOSTED_NAME,
      kind: 'hosted',
      // No bearer ever holds this token: the hash is of a secret that is thrown away at once.
      tokenHash: hashSecret(mintToken('svc_ct_', core.random)),
      createdAt: now(),
      lastSeenAt: null,
      revokedAt: null,
      suspendedAt: null,
    });
  }

  async function nativeOf(userId: string, agentId: string) {
    const agent = await store.agents.get(agentId);
    const native = agent && agent.userId === userId ? await store.nativeAgents.get(agentId) : null;
    if (!agent || !native) {
      throw new ServiceError('AGENT_NOT_FOUND', `No native agent ${agentId} in this account.`, {
        field: 'agent_id',
      });
    }
    return native;
  }

  const view = (n: {
    agentId: string;
    template: string | null;
    instructions: string;
    updatedAt: number;
  }): NativeInstructions => ({
    agent_id: n.agentId,
    template: n.template,
    instructions: n.instructions,
    updated_at: new Date(n.updatedAt).toISOString(),
  });

  return {
    offer() {
      return {
        starters: starters.map((s) => ({
          id: s.id,
          name: s.name,
          description: s.description,
          color: s.color,
          theme: s.theme,
          tables: s.tables
            .split('\n')
            .map((l) => /^table create (\S+)/.exec(l.trim())?.[1])
            .filter((n): n is string => n !== undefined),
        })),
      };
    },

    async add(userId, input) {
      let starter: StarterTemplate | null = null;
      let name: string;
      let instructions: string;
      if (input.starter !== undefined && input.starter !== null) {
        starter = starters.find((s) => s.id === input.starter) ?? null;
        if (!starter) {
          throw new ServiceError(
            'INVALID_INPUT',
            `starter must be one of: ${starters.map((s) => s.id).join(', ') || '(none enabled)'}.`,
            { field: 'starter' },
          );
        }
        name = starter.name;
        instructions = starter.instructions;
      } else {
        if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.trim().length > 40) {
          throw new ServiceError('INVALID_INPUT', 'name must be 1 to 40 characters.', { field: 'name' });
        }
        name = input.name.trim();
        instructions = instructionsText(input.instructions);
      }
      const runner = await runnerOf(userId);
      const handle = await freeHandle(store.agents, userId, name);
      const at = now();
      const agent = await addAgent(store, {
        id: newId('agt_', core.random),
        userId,
        name,
        handle,
        color: starter?.color ?? 'brand',
        kind: 'hosted',
        theme: starter?.theme ?? {},
        connectorId: runner.id,
        remoteRef: handle,
        createdAt: at,
      });
      await store.nativeAgents.save({
        agentId: agent.id,
        userId,
        template: starter?.id ?? null,
        instructions,
        createdAt: at,
        updatedAt: at,
      });
      if (starter) {
        const p = nativePrincipal(agent);
        await core.tables.call(p, { agent: agent.id, lines: starter.tables });
        await core.hostTransport.reply(p, {
          agent_id: agent.id,
          idempotency_key: `native-first-${agent.id}`,
          text: starter.first.text,
          lines: starter.first.lines,
        });
      }
      core.notifier.publish({ type: 'agents', userId });
      return toAgentView((await store.agents.get(agent.id)) ?? agent, runner, now());
    },

    async instructions(userId, agentId) {
      return view(await nativeOf(userId, agentId));
    },

    async setInstructions(userId, agentId, instructions) {
      await nativeOf(userId, agentId);
      const text = instructionsText(instructions);
      const saved = await store.nativeAgents.setInstructions(agentId, text, now());
      return view(saved!);
    },
  };
}
