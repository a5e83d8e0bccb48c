// Rows the conformance cases start from, written through the store under test.
import { hashSecret, newId, ServiceError } from '@screen-service/registry/kernel';
import type { ConnectorRecord, OAuthTokenRecord, Store } from '@screen-service/registry/model';

/** The writes every case builds on, bound to one store. */
export function fixtures(store: Store) {
  // Page versions for the writes that take one: distinct within a case, as the rules' fresh draws are.
  let versions = 1_000;
  const version = () => ++versions;
  const user = (extra: { suspendedAt?: number | null } = {}) =>
    store.users.create({
      id: newId('usr_'),
      email: `${newId()}@example.com`.toLowerCase(),
      passwordHash: 'x',
      firstName: null,
      createdAt: 1,
      suspendedAt: extra.suspendedAt ?? null,
    });
  // Stored as given: not the default, first in the order, unless the case says otherwise.
  const agent = (
    userId: string,
    handle: string,
    extra: { isDefault?: boolean; sort?: number; connectorId?: string; remoteRef?: string } = {},
  ) =>
    store.agents.create({
      id: newId('agt_'),
      userId,
      name: handle,
      handle,
      color: 'mint',
      kind: 'mcp',
      createdAt: Date.now(),
      isDefault: false,
      sort: 0,
      ...extra,
    });
  const connector = (userId: string, extra: Partial<ConnectorRecord> = {}) =>
    store.connectors.create({
      id: newId('con_'),
      userId,
      name: 'h',
      kind: 'mcp',
      tokenHash: hashSecret(newId()),
      createdAt: 1,
      lastSeenAt: null,
      revokedAt: null,
      suspendedAt: null,
      ...extra,
    });
  const message = (
    key: { agentId: string; userId: string },
    sender: 'agent' | 'person' = 'agent',
    body = 'hi',
    createdAt = 1,
  ) => ({ id: newId('msg_'), ...key, sender, kind: 'text' as const, body, createdAt });
  const client = () =>
    store.oauth.createClient({
      id: newId('cl_'),
      secretHash: null,
      authMethod: 'none',
      name: 'Test client',
      redirectUris: ['http://127.0.0.1/cb'],
      metadata: { client_uri: 'https://example.com' },
      createdAt: 1,
    });
  const request = (clientId: string, expiresAt = Date.now() + 600_000) =>
    store.oauth.createRequest({
      id: newId('ar_'),
      clientId,
      redirectUri: 'http://127.0.0.1/cb',
      state: 's',
      codeChallenge: 'c'.repeat(43),
      scope: 'svc',
      resource: 'http://h/mcp',
      browserHash: hashSecret('browser'),
      createdAt: 1,
      expiresAt,
      status: 'pending',
      userId: null,
      agentId: null,
      decidedAt: null,
      finishedAt: null,
      codeHash: null,
      codeExpiresAt: null,
      codeUsedAt: null,
      connectorId: null,
    });
  const token = (
    kind: 'access' | 'refresh',
    connectorId: string,
    userId: string,
    clientId: string,
  ): OAuthTokenRecord => ({
    id: newId('tok_'),
    kind,
    tokenHash: hashSecret(newId()),
    connectorId,
    userId,
    clientId,
    createdAt: 1,
    expiresAt: Date.now() + 3_600_000,
    usedAt: null,
    revokedAt: null,
  });
  const oauthConnector = (userId: string): ConnectorRecord => ({
    id: newId('con_'),
    userId,
    name: 'Test client',
    kind: 'mcp',
    tokenHash: hashSecret(newId()),
    createdAt: 1,
    lastSeenAt: null,
    revokedAt: null,
    suspendedAt: null,
    via: 'oauth',
  });
  const pairingCode = (userId: string, agentId: string, secret: string, expiresAt = Date.now() + 60_000) => ({
    id: newId('pc_'),
    userId,
    agentId,
    codeHash: hashSecret(secret),
    createdAt: 1,
    expiresAt,
    usedAt: null,
    connectorId: null,
  });
  return { user, agent, connector, message, client, request, token, oauthConnector, pairingCode, version };
}

/** The error code a promise rejects with (`ok` when it resolves), for one-line expectations. */
export function outcome(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? e.code : ((e as { code?: string })?.code ?? String(e))),
  );
}
