// Records read from rows of the service schema: both SQL stores (SQLite, PostgreSQL) name their columns
// alike, so one reader per record serves both; the differences (0/1 or BOOLEAN flags, BIGINT as text) are
// absorbed by the column readers below. Part of the model because a store of one's own on SQL may use it too.
import type {
  AgentRecord,
  AgentSummary,
  CommandEntry,
  ConnectorRecord,
  GrantRecord,
  ManagementTokenRecord,
  MessageRecord,
  NativeAgentRecord,
  OAuthClientRecord,
  OAuthRequestRecord,
  OAuthTokenRecord,
  PairingCodeRecord,
  PhotoRecord,
  PushDeliveryRecord,
  PushNoticeRecord,
  PushSettingsRecord,
  PushSubscriptionRecord,
  ScreenRecord,
  SessionRecord,
  ShareInviteRecord,
  UserRecord,
} from './records.js';
import type { RelayTableMeta } from './repositories.js';

/** A row as a SQL driver returns it: column name to value. */
export type Row = Record<string, unknown>;

/** A JSON text column, parsed; null when the column is null. */
export const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : null);
/** A nullable number column (PostgreSQL's BIGINT may arrive as a string). */
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** A nullable text column. */
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** A flag column: SQLite stores 0/1, PostgreSQL a BOOLEAN. */
export const flag = (v: unknown): boolean => v === true || v === 1;

export function toUser(r: Row): UserRecord {
  return {
    id: r.id as string,
    email: r.email as string,
    passwordHash: r.password_hash as string,
    firstName: str(r.first_name),
    createdAt: Number(r.created_at),
    suspendedAt: num(r.suspended_at),
  };
}

export function toSession(r: Row): SessionRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    familyId: r.family_id as string,
    refreshHash: r.refresh_hash as string,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: num(r.used_at),
    revokedAt: num(r.revoked_at),
  };
}

export function toConnector(r: Row): ConnectorRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    name: r.name as string,
    kind: r.kind as ConnectorRecord['kind'],
    tokenHash: r.token_hash as string,
    createdAt: Number(r.created_at),
    lastSeenAt: num(r.last_seen_at),
    revokedAt: num(r.revoked_at),
    suspendedAt: num(r.suspended_at),
    via: (r.via as ConnectorRecord['via']) ?? 'pairing',
  };
}

/** The agent list's order (doc2): the default first, then `sort`, then age, then id (ties never left to chance). */
export function byListOrder(a: AgentSummary, b: AgentSummary): number {
  return (
    Number(b.isDefault) - Number(a.isDefault) ||
    a.sort - b.sort ||
    a.createdAt - b.createdAt ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** An agent's row as an {@link AgentSummary} (the columns `AGENT_SUMMARY_COLUMNS` reads). */
export function toAgentSummary(r: Row): AgentSummary {
  const { id, user_id, name, handle, color } = r as Record<string, string>;
  const [isDefault, sort, createdAt] = [flag(r.is_default), Number(r.sort), Number(r.created_at)];
  return {
    id: id!,
    userId: user_id!,
    name: name!,
    handle: handle!,
    color: color as AgentSummary['color'],
    isDefault,
    sort,
    createdAt,
  };
}

/** The columns of an {@link AgentSummary}, for `SELECT` (table alias `a`). */
export const AGENT_SUMMARY_COLUMNS =
  'a.id, a.user_id, a.name, a.handle, a.color, a.is_default, a.sort, a.created_at';

export function toAgent(r: Row): AgentRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    name: r.name as string,
    handle: r.handle as string,
    color: r.color as AgentRecord['color'],
    avatar: str(r.avatar),
    theme: (json(r.theme) as Record<string, unknown>) ?? {},
    pushMuted: flag(r.push_muted),
    kind: r.kind as AgentRecord['kind'],
    connectorId: str(r.connector_id),
    remoteRef: str(r.remote_ref),
    isDefault: flag(r.is_default),
    sort: Number(r.sort),
    commands: json(r.commands) as CommandEntry[] | null,
    commandsAt: num(r.commands_at),
    card: (json(r.card) as AgentRecord['card']) ?? null,
    clientSafe: flag(r.client_safe),
    sandbox: json(r.sandbox),
    clientSafeAt: num(r.client_safe_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function toPairingCode(r: Row): PairingCodeRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    codeHash: r.code_hash as string,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: num(r.used_at),
    connectorId: str(r.connector_id),
  };
}

export function toMessage(r: Row): MessageRecord {
  return {
    seq: Number(r.seq),
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    sender: r.sender as MessageRecord['sender'],
    kind: r.kind as MessageRecord['kind'],
    body: r.body as string,
    meta: (json(r.meta) as Record<string, unknown>) ?? {},
    screenId: str(r.screen_id),
    connectorId: str(r.connector_id),
    createdAt: Number(r.created_at),
    deliveredAt: num(r.delivered_at),
    handledAt: num(r.handled_at),
  };
}

/** The screen a store writes with its message row, as it reads back: its thread, message and time are the row's. */
export function screenOfRow(
  s: Pick<ScreenRecord, 'id' | 'lines' | 'ops' | 'taps'>,
  message: Pick<MessageRecord, 'id' | 'seq' | 'userId' | 'agentId' | 'createdAt'>,
): ScreenRecord {
  const { userId, agentId, createdAt } = message;
  const [messageId, messageSeq] = [message.id, message.seq];
  return {
    id: s.id,
    userId,
    agentId,
    messageId,
    messageSeq,
    lines: s.lines,
    ops: s.ops,
    taps: s.taps,
    createdAt,
  };
}

export function toScreen(r: Row): ScreenRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    messageId: r.message_id as string,
    messageSeq: Number(r.message_seq),
    lines: r.lines as string,
    ops: json(r.ops) as unknown[],
    taps: json(r.taps) as ScreenRecord['taps'],
    createdAt: Number(r.created_at),
  };
}

export function toPhoto(r: Row): PhotoRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    messageId: str(r.message_id),
    file: r.file as string,
    contentType: r.content_type as string,
    bytes: Number(r.bytes),
    width: num(r.width),
    height: num(r.height),
    idemKey: str(r.idem_key),
    createdAt: Number(r.created_at),
  };
}

export function toOAuthClient(r: Row): OAuthClientRecord {
  return {
    id: r.id as string,
    secretHash: str(r.secret_hash),
    authMethod: r.auth_method as OAuthClientRecord['authMethod'],
    name: r.name as string,
    redirectUris: JSON.parse(r.redirect_uris as string) as string[],
    metadata: JSON.parse(r.metadata as string) as Record<string, unknown>,
    createdAt: Number(r.created_at),
  };
}

export function toOAuthRequest(r: Row): OAuthRequestRecord {
  return {
    id: r.id as string,
    clientId: r.client_id as string,
    redirectUri: r.redirect_uri as string,
    state: str(r.state),
    codeChallenge: r.code_challenge as string,
    scope: r.scope as string,
    resource: r.resource as string,
    browserHash: r.browser_hash as string,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    status: r.status as OAuthRequestRecord['status'],
    userId: str(r.user_id),
    agentId: str(r.agent_id),
    decidedAt: num(r.decided_at),
    finishedAt: num(r.finished_at),
    codeHash: str(r.code_hash),
    codeExpiresAt: num(r.code_expires_at),
    codeUsedAt: num(r.code_used_at),
    connectorId: str(r.connector_id),
  };
}

export function toOAuthToken(r: Row): OAuthTokenRecord {
  return {
    id: r.id as string,
    kind: r.kind as OAuthTokenRecord['kind'],
    tokenHash: r.token_hash as string,
    connectorId: r.connector_id as string,
    userId: r.user_id as string,
    clientId: r.client_id as string,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: num(r.used_at),
    revokedAt: num(r.revoked_at),
  };
}

export function toManagementToken(r: Row): ManagementTokenRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    name: r.name as string,
    tokenHash: r.token_hash as string,
    scope: 'agents:manage',
    createdAt: Number(r.created_at),
    lastUsedAt: num(r.last_used_at),
    revokedAt: num(r.revoked_at),
  };
}

export const toNativeAgent = (r: Row): NativeAgentRecord => ({
  agentId: r.agent_id as string,
  userId: r.user_id as string,
  template: str(r.template),
  instructions: r.instructions as string,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export function toPushSubscription(r: Row, prefix = ''): PushSubscriptionRecord {
  return {
    id: r[`${prefix}id`] as string,
    userId: r[`${prefix}user_id`] as string,
    endpoint: r[`${prefix}endpoint`] as string,
    p256dh: r[`${prefix}p256dh`] as string,
    auth: r[`${prefix}auth`] as string,
    device: (r[`${prefix}device`] as string | null) ?? null,
    createdAt: Number(r[`${prefix}created_at`]),
  };
}

export function toPushDelivery(r: Row): PushDeliveryRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    subscriptionId: r.subscription_id as string,
    kind: r.kind as PushDeliveryRecord['kind'],
    messageId: str(r.message_id),
    createdAt: Number(r.created_at),
    attempts: Number(r.attempts),
    nextAt: Number(r.next_at),
  };
}

export function toPushNotice(r: Row): PushNoticeRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    subscriptionId: r.subscription_id as string,
    messageId: r.message_id as string,
    screenId: str(r.screen_id),
    tokenHash: str(r.token_hash),
    tapId: str(r.tap_id),
    choices: JSON.parse(r.choices as string) as unknown[],
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: num(r.used_at),
    closedAt: num(r.closed_at),
  };
}

export const toPushSettings = (r: Row): PushSettingsRecord => ({
  userId: r.user_id as string,
  quietStart: num(r.quiet_start),
  quietEnd: num(r.quiet_end),
  allowUrgent: flag(r.allow_urgent),
  plainPerHour: Number(r.plain_per_hour),
  updatedAt: Number(r.updated_at),
});

export const toRelayMeta = (r: Row): RelayTableMeta => ({
  userId: r.user_id as string,
  holder: r.holder as string,
  name: r.name as string,
  lastReadAt: num(r.last_read_at),
  unheldAt: num(r.unheld_at),
});

export function toGrant(r: Row): GrantRecord {
  return {
    id: r.id as string,
    agentId: r.agent_id as string,
    ownerId: r.owner_id as string,
    userId: r.user_id as string,
    role: 'user',
    theme: JSON.parse(r.theme as string) as Record<string, unknown>,
    firstMessage: str(r.first_message),
    template: str(r.template),
    inviteId: str(r.invite_id),
    pushMuted: flag(r.push_muted),
    sort: Number(r.sort),
    sharedBy: r.shared_by as string,
    grantedAt: Number(r.granted_at),
    revokedAt: num(r.revoked_at),
  };
}

export function toShareInvite(r: Row): ShareInviteRecord {
  return {
    id: r.id as string,
    ownerId: r.user_id as string,
    templateId: r.template_id as string,
    tokenHash: r.token_hash as string,
    firstName: str(r.first_name),
    createdAt: Number(r.created_at),
    approvedAt: num(r.approved_at),
    claimedAt: num(r.claimed_at),
    claimedBy: str(r.claimed_by),
  };
}
