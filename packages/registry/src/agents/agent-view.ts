// The public shape of an agent as tools see it, and how a tool call's `agent` argument picks one.
import { ServiceError } from '../kernel/errors.js';
import type { AgentRecord } from '../model/records.js';

/** How a tool result names the agent it acted as. */
export interface AgentRef {
  id: string;
  handle: string;
  name: string;
}

export function toAgentRef(a: Pick<AgentRecord, 'id' | 'handle' | 'name'>): AgentRef {
  return { id: a.id, handle: a.handle, name: a.name };
}

/**
 * Picks the agent a call acts as from the agents a connection serves (default first): none given means
 * the first; otherwise the one whose id or handle equals `ref` (handles compare case-insensitively).
 */
export function pickAgent(served: AgentRecord[], ref: string | undefined | null): AgentRecord {
  if (served.length === 0) {
    throw new ServiceError(
      'NO_AGENT',
      'This connection serves no agent yet: add an agent in the app and pair its code with this token.',
    );
  }
  if (ref === undefined || ref === null || ref === '') return served[0]!;
  const wanted = ref.trim().replace(/^@/, '');
  const hit = served.find((a) => a.id === wanted || a.handle === wanted.toLowerCase());
  if (hit) return hit;
  throw new ServiceError(
    'AGENT_NOT_FOUND',
    `No agent "${ref}" on this connection; use one of: ${served.map((a) => a.handle).join(', ')}.`,
    { field: 'agent' },
  );
}
