// Who may touch an agent's thread and settings (doc2 "Authentication", shared-thread rules): the owner, or
// a person holding a live grant. Also the small pure rules of shared threads: session keys, owner-only taps,
// mentions.
import { ServiceError } from '../kernel/errors.js';
import type { AgentRecord, GrantRecord } from '../model/records.js';
import type { Store } from '../model/repositories.js';

/** The agent and, when the caller is not its owner, the live grant they hold. */
export interface AgentAccess {
  agent: AgentRecord;
  grant: GrantRecord | null;
}

/**
 * The caller's access to an agent's thread. An agent nobody gave them looks like a missing one
 * (`AGENT_NOT_FOUND`), except that a person whose grant was revoked hears `AGENT_NOT_YOURS` (doc2), so the
 * app can close the thread with the right line.
 *
 * @example
 * ```ts
 * const { agent, grant } = await threadAccess(store, userId, agentId);
 * ```
 */
export async function threadAccess(store: Store, userId: string, agentId: string): Promise<AgentAccess> {
  const agent = await store.agents.get(agentId);
  if (agent && agent.userId === userId) return { agent, grant: null };
  if (agent) {
    const grant = await store.shares.liveGrant(agentId, userId);
    if (grant) return { agent, grant };
    if (await store.shares.latestGrant(agentId, userId)) {
      throw new ServiceError(
        'AGENT_NOT_YOURS',
        `${agent.name} is no longer shared with you: its owner took it back.`,
        { field: 'agent_id' },
      );
    }
  }
  throw new ServiceError('AGENT_NOT_FOUND', `No agent ${agentId} in your account.`, { field: 'agent_id' });
}

/** Refuses a setting a holder may not change (rename, look, default, delete, pair): `SHARED_AGENT`. */
export function sharedAgentRefusal(what: string): ServiceError {
  return new ServiceError(
    'SHARED_AGENT',
    `This agent is shared with you: only its owner can ${what}. You can mute it or move it in your list.`,
  );
}

/** The host-side session key of a thread: `<agent_id>` for the owner's, `<agent_id>~<user_id>` for a holder's. */
export function sessionKey(agent: { id: string; userId: string }, threadUserId: string): string {
  return threadUserId === agent.userId ? agent.id : `${agent.id}~${threadUserId}`;
}

/** Splits a session key back into its agent and (for a shared thread) the holder; null when malformed. */
export function parseSessionKey(session: string): { agentId: string; userId: string | null } | null {
  const m = /^([A-Za-z0-9_-]{1,64})(?:~([A-Za-z0-9_-]{1,64}))?$/.exec(session);
  if (!m) return null;
  return { agentId: m[1]!, userId: m[2] ?? null };
}

/**
 * Owner-only features of doc2 (war-room taps, invite approvals, board reorders, `choose@need-...` answers),
 * recognised by the tapped component's id or preset. A holder's tap on one is ignored.
 *
 * @example
 * ```ts
 * isOwnerOnlyTap({ id: 'need-budget', preset: 'choose' }); // true
 * ```
 */
export function isOwnerOnlyTap(event: { id: string; preset: string }): boolean {
  const id = event.id.toLowerCase();
  if (id.startsWith('need-')) return true;
  if (/^(war-?room|invite|approve-invite|board)(?:[-_.]|$)/.test(id)) return true;
  return ['warroom', 'war-room', 'invite', 'board'].includes(event.preset.toLowerCase());
}

/** An `@handle` mention (not an email address): a shared thread takes none (`NOT_IN_A_SHARED_THREAD`). */
export function hasMention(text: string): boolean {
  return /(^|[\s(])@[a-z0-9][a-z0-9-]{0,39}\b/i.test(text);
}

/** Drops `@handle` mentions from an agent's answer in a shared thread (doc2: they are dropped). */
export function dropMentions(text: string): string {
  return text.replace(/(^|[\s(])@([a-z0-9][a-z0-9-]{0,39})\b/gi, '$1$2');
}
