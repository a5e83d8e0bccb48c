// Which connection serves an agent approved for a new one (ADR 0091): a live connection is kept, the new one
// serves the agent as well; an agent with none moves to the new one.
import type { AgentRecord } from '../model/records.js';
import type { Repositories } from '../model/repositories.js';
import { connectionState } from './connection-live.js';

/**
 * Binds `agent` to the connection `connectorId` it was just approved for (an OAuth sign-in as an existing
 * agent), inside the caller's transaction: an agent served by a live connection (a paired host: there,
 * not revoked, not suspended) keeps it and the new connection serves it too (`added`); a pending agent, or
 * one whose connection was removed, moves to the new connection as profile `remoteRef` (`moved`).
 *
 * @example
 * ```ts
 * await store.transaction((tx) => bindApprovedConnection(tx, agent, connector.id, 'oauth', now()));
 * ```
 */
export async function bindApprovedConnection(
  tx: Repositories,
  agent: AgentRecord,
  connectorId: string,
  remoteRef: string,
  at: number,
): Promise<'added' | 'moved'> {
  const primary = agent.connectorId ? await tx.connectors.get(agent.connectorId) : null;
  if (connectionState(primary) === 'live') {
    await tx.agents.addConnection(agent.id, connectorId, agent.userId, at);
    return 'added';
  }
  await tx.agents.bind(agent.id, { connectorId, remoteRef, kind: 'mcp' }, at);
  return 'moved';
}
