// The person's own agent, or AGENT_NOT_FOUND: another person's agent looks exactly like a missing one.
import { ServiceError } from '../kernel/errors.js';
import type { AgentRecord } from '../model/records.js';
import type { Store } from '../model/repositories.js';

export async function ownAgent(store: Store, userId: string, agentId: string): Promise<AgentRecord> {
  const a = await store.agents.get(agentId);
  if (!a || a.userId !== userId) {
    throw new ServiceError('AGENT_NOT_FOUND', `No agent ${agentId} in your account.`, { field: 'agent_id' });
  }
  return a;
}
