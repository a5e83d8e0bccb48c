// Which agent is a person's default, and in what order their agents list (doc2 Agent `is_default`, `sort`):
// each rule reads, decides and writes in one Store.transaction, the person's row locked first (ADR 0241).
import { ServiceError } from '../kernel/errors.js';
import type { AgentRecord } from '../model/records.js';
import type { NewAgent, Repositories, Store } from '../model/repositories.js';

/**
 * Agents one account may have, of every kind (the app, the host `add` action, `bind`, native agents):
 * enough for a person's hosts and profiles, and a stop to a script that adds agents in a loop (issue 46).
 */
export const MAX_AGENTS_PER_ACCOUNT = 50;

/** A new agent as a caller asks for it: its default flag and place are decided by {@link addAgent}. */
export type AddAgentInput = Omit<NewAgent, 'isDefault' | 'sort'> & {
  /** Make it the default even when the person has others (the first agent always is). */
  isDefault?: boolean;
};

/**
 * The person's agents, read with their account's row locked: two rules deciding for one person at once
 * (two instances adding a first agent) run one after the other, the second seeing what the first wrote.
 */
async function agentsOf(tx: Repositories, userId: string): Promise<AgentRecord[]> {
  await tx.users.findById(userId, { forUpdate: true });
  return tx.agents.listByUser(userId);
}

/** Clears the default flag of the person's agents but `keep`. */
async function clearDefaults(tx: Repositories, agents: AgentRecord[], at: number, keep?: string) {
  for (const a of agents) if (a.isDefault && a.id !== keep) await tx.agents.markDefault(a.id, false, at);
}

/**
 * Adds an agent at the end of the person's order; the person's first agent, or one asked for as
 * `isDefault`, becomes the default (the old one's flag cleared in the same transaction).
 *
 * @throws {ServiceError} `LIMIT_EXCEEDED` past {@link MAX_AGENTS_PER_ACCOUNT}; `HANDLE_TAKEN`,
 * `PROFILE_ALREADY_ADDED` (from the store's unique indexes).
 * @example
 * ```ts
 * const agent = await addAgent(store, { id, userId, name: 'Coach', handle: 'coach', color: 'mint', kind: 'mcp', createdAt: now() });
 * ```
 */
export function addAgent(store: Store, input: AddAgentInput): Promise<AgentRecord> {
  return store.transaction(async (tx) => {
    const mine = await agentsOf(tx, input.userId);
    // Counted under the account's lock: two adds at once cannot both take the last place.
    if (mine.length >= MAX_AGENTS_PER_ACCOUNT) {
      throw new ServiceError(
        'LIMIT_EXCEEDED',
        `This account has ${mine.length} agents, the most it may have (${MAX_AGENTS_PER_ACCOUNT}); delete one in the app before adding another.`,
        { field: 'agents' },
      );
    }
    const isDefault = input.isDefault === true || mine.length === 0;
    if (isDefault) await clearDefaults(tx, mine, input.createdAt);
    const sort = mine.reduce((max, a) => Math.max(max, a.sort), -1) + 1;
    return tx.agents.create({ ...input, isDefault, sort });
  });
}

/** Makes the person's agent their default (the old one's flag cleared); null when it is not theirs. */
export function makeDefaultAgent(
  store: Store,
  userId: string,
  agentId: string,
  at: number,
): Promise<AgentRecord | null> {
  return store.transaction(async (tx) => {
    const mine = await agentsOf(tx, userId);
    if (!mine.some((a) => a.id === agentId)) return null;
    await clearDefaults(tx, mine, at, agentId);
    await tx.agents.markDefault(agentId, true, at);
    return tx.agents.get(agentId);
  });
}

/**
 * Puts the person's agents in the order `ids` lists them.
 *
 * @throws {ServiceError} `INVALID_INPUT` (field `ids`) unless `ids` names each of their agents exactly once.
 */
export function reorderAgents(store: Store, userId: string, ids: string[], at: number): Promise<void> {
  return store.transaction(async (tx) => {
    const mine = (await agentsOf(tx, userId)).map((a) => a.id);
    const given = new Set(ids);
    if (given.size !== ids.length || mine.length !== ids.length || mine.some((id) => !given.has(id))) {
      throw new ServiceError(
        'INVALID_INPUT',
        'ids must list each of your agents exactly once, in the new order.',
        { field: 'ids' },
      );
    }
    await tx.agents.setOrder(userId, ids, at);
  });
}

/**
 * Deletes an agent (its thread, codes and settings go with it); when it was the default, the first agent
 * left in the person's order takes the default. False when there was no such agent.
 */
export function removeAgent(store: Store, agentId: string, at: number): Promise<boolean> {
  return store.transaction(async (tx) => {
    const agent = await tx.agents.get(agentId);
    if (!agent) return false;
    await tx.users.findById(agent.userId, { forUpdate: true });
    if (!(await tx.agents.delete(agentId))) return false;
    if (agent.isDefault) {
      const [next] = await tx.agents.listByUser(agent.userId);
      if (next) await tx.agents.markDefault(next.id, true, at);
    }
    return true;
  });
}
