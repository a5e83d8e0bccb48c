// A connection's rows into a thread (svc_show, svc_say, a host's reply): the host message limit, and the
// guarded write of ADR 0291, where the agent comes from the served agents this process last read and the
// row's own statement checks that the connection still serves it.

import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { type Notifier, type RateLimiter, ServiceError } from '@screen-service/registry/kernel';
import { type AgentRecord, AgentRowRefused, type AgentRowWrite } from '@screen-service/registry/model';

/** What a guarded row's write checks in its own statement (see `AgentRowWrite`). */
export type RowGuard = Pick<AgentRowWrite, 'servedBy'>;

/** Counts one row against the thread's host message limit; past it, a 429 that says when to retry. */
export async function countHostWrite(
  limiter: RateLimiter | undefined,
  p: ConnectionPrincipal,
  agent: AgentRecord,
  targetUserId: string | undefined,
): Promise<void> {
  if (!limiter) return;
  const decision = await limiter.take(`${p.connectorId} ${agent.id} ${targetUserId ?? p.userId}`);
  if (!decision.ok) {
    throw new ServiceError(
      'RATE_LIMITED',
      `Too many messages into this thread from this connection; retry in ${decision.retryAfterS} s.`,
      { details: { retryAfterS: decision.retryAfterS } },
    );
  }
}

/**
 * The agents each connection serves, as this process last read them (ADR 0291): forgotten at any `agents`
 * or `resync` event (this instance's, or another's through a shared notifier). Only for guarded writes,
 * whose statement checks the agent again: reads of a thread (svc_answers, svc_threads) read afresh.
 */
export function keptServedAgents(
  notifier: Notifier,
  read: (p: ConnectionPrincipal) => Promise<AgentRecord[]>,
) {
  const kept = new Map<string, Promise<AgentRecord[]>>();
  notifier.subscribeAll((e) => {
    if (e.type === 'agents' || e.type === 'resync') kept.clear();
  });
  const keyOf = (p: ConnectionPrincipal) => `${p.connectorId} ${p.userId}`;
  return {
    get(p: ConnectionPrincipal): Promise<AgentRecord[]> {
      const key = keyOf(p);
      let list = kept.get(key);
      if (!list) {
        if (kept.size >= 10_000) kept.clear();
        list = read(p);
        kept.set(key, list);
        list.catch(() => kept.delete(key));
      }
      return list;
    },
    forget(p: ConnectionPrincipal): void {
      kept.delete(keyOf(p));
    },
  };
}

/**
 * Runs a guarded row's write (`write(guard)`); a row refused because the connection no longer serves the
 * agent forgets the kept list and runs `again` once, which reads the served agents afresh.
 */
export async function writeGuarded<T>(
  p: ConnectionPrincipal,
  kept: ReturnType<typeof keptServedAgents>,
  write: (guard: RowGuard) => Promise<T>,
  again: () => Promise<T>,
): Promise<T> {
  try {
    return await write({ servedBy: { connectorId: p.connectorId, userId: p.userId } });
  } catch (err) {
    if (!(err instanceof AgentRowRefused)) throw err;
    kept.forget(p);
    return again();
  }
}
