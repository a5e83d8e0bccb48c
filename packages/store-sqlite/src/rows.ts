// Row <-> record mapping for the SQLite implementation (0/1 booleans, JSON text columns).

import type {
  AgentRecord,
  CommandEntry,
  ConnectorRecord,
  MessageRecord,
  OAuthClientRecord,
  OAuthRequestRecord,
  OAuthTokenRecord,
  PairingCodeRecord,
  PhotoRecord,
  ScreenRecord,
  SessionRecord,
  UserRecord,
} from '@screen-service/registry/model';
import type Database from 'better-sqlite3';

export type SqliteDb = Database.Database;
type Row = Record<string, unknown>;

const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : null);
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function toUser(r: Row): UserRecord {
  return {
    id: r.id as string,
    email: r.email as string,
    passwordHash: r.password_hash as string,
    firstName: (r.first_name as string | null) ?? null,
    createdAt: r.created_at as number,
    suspendedAt: num(r.suspended_at),
  };
}

export function toSession(r: Row): SessionRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    familyId: r.family_id as string,
    refreshHash: r.refresh_hash as string,
    createdAt: r.created_at as number,
    expiresAt: r.expires_at as number,
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
    createdAt: r.created_at as number,
    lastSeenAt: num(r.last_seen_at),
    revokedAt: num(r.revoked_at),
    suspendedAt: num(r.suspended_at),
    via: (r.via as ConnectorRecord['via']) ?? 'pairing',
  };
}

export function toAgent(r: Row): AgentRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    name: r.name as string,
    handle: r.handle as string,
    color: r.color as AgentRecord['color'],
    avatar: (r.avatar as string | null) ?? null,
    theme: (json(r.theme) as Record<string, unknown>) ?? {},
    pushMuted: r.push_muted === 1,
    kind: r.kind as AgentRecord['kind'],
    connectorId: (r.connector_id as string | null) ?? null,
    remoteRef: (r.remote_ref as string | null) ?? null,
    isDefault: r.is_default === 1,
    sort: r.sort as number,
    commands: json(r.commands) as CommandEntry[] | null,
    commandsAt: num(r.commands_at),
    card: (json(r.card) as AgentRecord['card']) ?? null,
    clientSafe: r.client_safe === 1,
    sandbox: json(r.sandbox),
    clientSafeAt: num(r.client_safe_at),
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
  };
}

export function toPairingCode(r: Row): PairingCodeRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    codeHash: r.code_hash as string,
    createdAt: r.created_at as number,
    expiresAt: r.expires_at as number,
    usedAt: num(r.used_at),
    connectorId: (r.connector_id as string | null) ?? null,
  };
}

export function toMessage(r: Row): MessageRecord {
  return {
    seq: r.seq as number,
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    sender: r.sender as MessageRecord['sender'],
    kind: r.kind as MessageRecord['kind'],
    body: r.body as string,
    meta: (json(r.meta) as Record<string, unknown>) ?? {},
    screenId: (r.screen_id as string | null) ?? null,
    connectorId: (r.connector_id as string | null) ?? null,
    createdAt: r.created_at as number,
    deliveredAt: num(r.delivered_at),
    handledAt: num(r.handled_at),
  };
}

export function toScreen(r: Row): ScreenRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    messageId: r.message_id as string,
    messageSeq: r.message_seq as number,
    lines: r.lines as string,
    ops: json(r.ops) as unknown[],
    taps: json(r.taps) as ScreenRecord['taps'],
    createdAt: r.created_at as number,
  };
}

export function toPhoto(r: Row): PhotoRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    messageId: (r.message_id as string | null) ?? null,
    file: r.file as string,
    contentType: r.content_type as string,
    bytes: r.bytes as number,
    width: (r.width as number | null) ?? null,
    height: (r.height as number | null) ?? null,
    createdAt: r.created_at as number,
  };
}

/** True when better-sqlite3 reports a UNIQUE constraint failure (optionally on a given column list). */
export function isUniqueViolation(err: unknown, columns?: string): boolean {
  const e = err as { code?: string; message?: string };
  if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE') return false;
  return columns === undefined || (e.message ?? '').includes(columns);
}

/** The connector INSERT, shared by the connector repository and pairing's one-transaction claim. */
export const INSERT_CONNECTOR_SQL = `INSERT INTO connectors
  (id, user_id, name, kind, token_hash, created_at, last_seen_at, revoked_at, suspended_at, via)
  VALUES (@id, @userId, @name, @kind, @tokenHash, @createdAt, @lastSeenAt, @revokedAt, @suspendedAt, @via)`;

/** The named parameters of INSERT_CONNECTOR_SQL (`via` defaults to pairing). */
export function connectorParams(c: ConnectorRecord): ConnectorRecord & { via: string } {
  return { ...c, via: c.via ?? 'pairing' };
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function toOAuthClient(r: Row): OAuthClientRecord {
  return {
    id: r.id as string,
    secretHash: str(r.secret_hash),
    authMethod: r.auth_method as OAuthClientRecord['authMethod'],
    name: r.name as string,
    redirectUris: JSON.parse(r.redirect_uris as string) as string[],
    metadata: JSON.parse(r.metadata as string) as Record<string, unknown>,
    createdAt: r.created_at as number,
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
    createdAt: r.created_at as number,
    expiresAt: r.expires_at as number,
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
    createdAt: r.created_at as number,
    expiresAt: r.expires_at as number,
    usedAt: num(r.used_at),
    revokedAt: num(r.revoked_at),
  };
}
