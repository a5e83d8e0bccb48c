// The agent list's shared fields (doc2 "Agent", list view): the owner's rows say which rules they break;
// a holder's granted rows say who shared them and whether the owner's agent is paused, and carry no
// remote_ref, connector or commands.

import { type ShareWhy, shareWhy } from '../hosts/sandbox-report.js';
import type { AgentRecord, ConnectorRecord, GrantRecord } from '../model/records.js';
import { type AgentView, toAgentView } from './agent-status.js';

/** What a shared (or shareable) row adds to the agent view. */
export interface SharedFields {
  /** True on a granted row (the agent is someone else's). */
  shared: boolean;
  /** The name the owner shares under (granted rows only). */
  shared_by?: string;
  /** The grant's first message (granted rows only). */
  first_message?: string | null;
  /** `paused` while the owner's agent is not client-safe (granted rows only). */
  presence?: 'live' | 'paused';
  /** The rules an owned agent breaks (empty when safe); null on a granted row. */
  share_why: ShareWhy[] | null;
}

/** An owned row's shared fields. */
export function ownedFields(agent: AgentRecord): SharedFields {
  return { shared: false, share_why: shareWhy(agent) };
}

/**
 * A holder's view of a granted agent: the owner's connector lends only its status; the grant's look (when
 * set), mute and order are the holder's.
 */
export function grantedView(
  agent: AgentRecord,
  grant: GrantRecord,
  connector: ConnectorRecord | null,
  now: number,
): AgentView & SharedFields {
  const base = toAgentView(agent, connector, now);
  return {
    ...base,
    theme: Object.keys(grant.theme).length > 0 ? grant.theme : agent.theme,
    push_muted: grant.pushMuted,
    is_default: false,
    sort: grant.sort,
    remote_ref: null,
    connector: null,
    commands: null,
    shared: true,
    shared_by: grant.sharedBy,
    first_message: grant.firstMessage,
    presence: agent.clientSafe ? 'live' : 'paused',
    share_why: null,
  };
}
