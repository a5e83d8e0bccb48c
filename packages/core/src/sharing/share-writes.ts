// The writes of shared agents that decide as they write (doc2 "Client-safe", "Grant"): each reads what it
// decides on, decides and writes in one Store.transaction, on either store (ADR 0241).
import { notClientSafe } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import type {
  AgentRecord,
  GrantRecord,
  NewGrant,
  Repositories,
  ShareTemplateRecord,
  Store,
} from '@screen-service/registry/model';

/** Revoked grants and their threads are deleted this long after the revoke (doc2 Limits). */
export const REVOKED_GRANT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The client-safe rule (doc2): a grant or a template item only for the owner's own agent whose host
 * reports a safe sandbox (the service's verdict, `clientSafe`). Read in the write's transaction, with the
 * agent's row locked on PostgreSQL, so a heartbeat that turns the agent unsafe waits for the write and
 * cannot slip between the check and it.
 *
 * @throws {ServiceError} `NOT_CLIENT_SAFE` naming the broken rules, or when the agent is not the owner's.
 */
export async function requireShareable(
  tx: Repositories,
  ownerId: string,
  agentId: string,
): Promise<AgentRecord> {
  const agent = await tx.agents.get(agentId, { forUpdate: true });
  if (agent && agent.userId === ownerId) {
    if (agent.clientSafe) return agent;
    throw notClientSafe(agent);
  }
  throw new ServiceError(
    'NOT_CLIENT_SAFE',
    `Agent ${agentId} is not one of the sharer's agents: only an owner's own client-safe agents can be shared.`,
    { field: agentId },
  );
}

const liveGrantTaken = () =>
  new ServiceError('CONFLICT', 'This person already holds a live grant for this agent.', {
    field: 'user_id',
  });

/**
 * Gives a grant: the agent must be shareable now, (agent, person) holds no live grant, the grant sorts
 * after the person's others, and it starts a new empty thread (whatever a revoked grant left goes).
 *
 * @throws {ServiceError} `NOT_CLIENT_SAFE`, `CONFLICT` (a live grant exists).
 * @example
 * ```ts
 * const grant = await writeGrant(store, { id, agentId, ownerId, userId, role: 'user', ... });
 * ```
 */
export function writeGrant(store: Store, grant: Omit<NewGrant, 'sort'>): Promise<GrantRecord> {
  return store.transaction(async (tx) => {
    await requireShareable(tx, grant.ownerId, grant.agentId);
    if (await tx.shares.liveGrant(grant.agentId, grant.userId)) throw liveGrantTaken();
    const held = await tx.shares.listHeld(grant.userId);
    await tx.threads.deleteThread({ agentId: grant.agentId, userId: grant.userId });
    return tx.shares.createGrant({ ...grant, sort: held.length });
  });
}

/**
 * Saves the owner's template `name` with exactly these items (its id kept when it exists), each item's
 * agent checked shareable in the same transaction.
 *
 * @throws {ServiceError} `NOT_CLIENT_SAFE` for the first item whose agent is not: nothing is written.
 */
export function writeTemplate(
  store: Store,
  template: Omit<ShareTemplateRecord, 'createdAt' | 'id'>,
  newId: () => string,
): Promise<ShareTemplateRecord> {
  return store.transaction(async (tx) => {
    for (const item of template.items) await requireShareable(tx, template.ownerId, item.agentId);
    const existing = await tx.shares.getTemplate(template.ownerId, template.name);
    return tx.shares.saveTemplate({ ...template, id: existing?.id ?? newId() });
  });
}

/**
 * Deletes the grants revoked before `before` and, where no live grant took their place, their threads;
 * returns how many grants went.
 */
export function purgeRevokedGrants(store: Store, before: number): Promise<number> {
  return store.transaction(async (tx) => {
    const gone = await tx.shares.deleteRevokedBefore(before);
    for (const g of gone) {
      if (!(await tx.shares.liveGrant(g.agentId, g.userId))) {
        await tx.threads.deleteThread({ agentId: g.agentId, userId: g.userId });
      }
    }
    return gone.length;
  });
}

/**
 * The housekeeping job that deletes revoked grants and their threads 30 days after the revoke (doc2
 * Limits). The ops scheduler runs it; `run(now)` returns how many grants went.
 *
 * @example
 * ```ts
 * const job = createRevokedGrantsJob(store);
 * await job.run(Date.now()); // 0 or more
 * ```
 */
export function createRevokedGrantsJob(store: Store, retentionMs = REVOKED_GRANT_RETENTION_MS) {
  return {
    name: 'revoked-grants' as const,
    run: (now: number) => purgeRevokedGrants(store, now - retentionMs),
  };
}
