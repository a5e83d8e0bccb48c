// Derived agent status (doc2 "States"), the person-facing agent view, and the defaults a new agent gets.
import { seedColor } from '@screen-service/theme';
import { isConnectionLive } from '../hosts/connection-live.js';
import type {
  AgentCardSummary,
  AgentColor,
  AgentRecord,
  CommandEntry,
  ConnectorRecord,
} from '../model/records.js';

export type AgentStatus = 'pending' | 'connected' | 'offline';

/** A host counts as connected while its last heartbeat (or tool call) is at most this old. */
export const CONNECTED_WINDOW_MS = 2 * 60 * 1000;

/**
 * `pending` until a connector claims the agent; `connected` while the connector is unrevoked and was seen
 * in the last 2 minutes; `offline` otherwise.
 *
 * @example
 * ```ts
 * deriveStatus(agent, connector, Date.now()); // 'connected'
 * ```
 */
export function deriveStatus(
  agent: AgentRecord,
  connector: ConnectorRecord | null | undefined,
  now: number,
): AgentStatus {
  if (agent.connectorId === null || !connector) return 'pending';
  if (!isConnectionLive(connector)) return 'offline';
  // The service runs `hosted` agents itself (ADR 0200): there is no host whose heartbeat could lapse.
  if (connector.kind === 'hosted') return 'connected';
  if (connector.lastSeenAt !== null && now - connector.lastSeenAt <= CONNECTED_WINDOW_MS) return 'connected';
  return 'offline';
}

/** An agent as the person's app and the host API show it (never a hash, never another user's data). */
export interface AgentView {
  id: string;
  name: string;
  handle: string;
  color: AgentColor;
  avatar: string | null;
  theme: Record<string, unknown>;
  push_muted: boolean;
  kind: AgentRecord['kind'];
  status: AgentStatus;
  is_default: boolean;
  sort: number;
  remote_ref: string | null;
  /**
   * `last_seen_at`: its last heartbeat or call (an MCP connection has no heartbeat: this is its last call);
   * `removed_at`: when the person removed the connection (the agent must be paired again).
   */
  connector: {
    id: string;
    name: string;
    kind: ConnectorRecord['kind'];
    last_seen_at: string | null;
    removed_at: string | null;
  } | null;
  commands: CommandEntry[] | null;
  /** A bridged agent's card summary (doc3): the app shows its name and skills in the agent's settings. */
  card: AgentCardSummary | null;
  client_safe: boolean;
  created_at: string;
  updated_at: string;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toAgentView(
  agent: AgentRecord,
  connector: ConnectorRecord | null | undefined,
  now: number,
): AgentView {
  return {
    id: agent.id,
    name: agent.name,
    handle: agent.handle,
    color: agent.color,
    avatar: agent.avatar,
    theme: agent.theme,
    push_muted: agent.pushMuted,
    kind: agent.kind,
    status: deriveStatus(agent, connector, now),
    is_default: agent.isDefault,
    sort: agent.sort,
    remote_ref: agent.remoteRef,
    connector: connector
      ? {
          id: connector.id,
          name: connector.name,
          kind: connector.kind,
          last_seen_at: isoOrNull(connector.lastSeenAt),
          removed_at: isoOrNull(connector.revokedAt),
        }
      : null,
    commands: agent.commands,
    card: agent.card ?? null,
    client_safe: agent.clientSafe,
    created_at: new Date(agent.createdAt).toISOString(),
    updated_at: new Date(agent.updatedAt).toISOString(),
  };
}

/**
 * The colour a new agent gets from its name: theme's `seedColor`, the colour name nearest the hue of the
 * accent `seedAccent` seeds for the same name, so the pill and the seeded look agree (doc2).
 *
 * @example
 * ```ts
 * colorFromName('Weather'); // the same name every time: 'lavender', 'mint' or 'butter'
 * ```
 */
export function colorFromName(name: string): AgentColor {
  return seedColor(name);
}

/** A handle slug from a name: lower-case letters, digits and dashes, at most 40 characters. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug === '' ? 'agent' : slug;
}

/** Handle rule: a slug of 1 to 40 characters starting with a letter or digit. */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
