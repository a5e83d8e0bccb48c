// SQLite OAuth clients, authorization requests and tokens. Every multi-row change is one transaction; a
// code's redemption is the OAuth rules' (packages/oauth), in a Store.transaction (ADR 0241).
import type { OAuthRepository, OAuthTokenRecord } from '@screen-service/registry/model';
import { toOAuthClient, toOAuthRequest, toOAuthToken } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

export function createSqliteOAuth(db: SqliteDb): OAuthRepository {
  const insertClient = db.prepare(
    `INSERT INTO oauth_clients (id, secret_hash, auth_method, name, redirect_uris, metadata, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const clientById = db.prepare('SELECT * FROM oauth_clients WHERE id = ?');
  const updateClient = db.prepare(
    'UPDATE oauth_clients SET name = ?, redirect_uris = ?, metadata = ? WHERE id = ?',
  );
  const insertRequest = db.prepare(
    `INSERT INTO oauth_requests (id, client_id, redirect_uri, state, code_challenge, scope, resource,
       browser_hash, created_at, expires_at)
     VALUES (@id, @clientId, @redirectUri, @state, @codeChallenge, @scope, @resource, @browserHash,
       @createdAt, @expiresAt)`,
  );
  const requestById = db.prepare('SELECT * FROM oauth_requests WHERE id = ?');
  const requestByCode = db.prepare('SELECT * FROM oauth_requests WHERE code_hash = ?');
  const decide = db.prepare(
    `UPDATE oauth_requests SET status = @status, user_id = @userId, agent_id = @agentId, decided_at = @at
     WHERE id = @id AND status = 'pending' AND expires_at > @at`,
  );
  const finish = db.prepare(
    `UPDATE oauth_requests SET finished_at = @at, code_hash = @codeHash, code_expires_at = @codeExpiresAt
     WHERE id = @id AND status <> 'pending' AND finished_at IS NULL`,
  );
  const useCode = db.prepare(
    'UPDATE oauth_requests SET code_used_at = ?, connector_id = ? WHERE id = ? AND code_used_at IS NULL',
  );
  const insertToken = db.prepare(
    `INSERT INTO oauth_tokens (id, kind, token_hash, connector_id, user_id, client_id, created_at, expires_at,
       used_at, revoked_at)
     VALUES (@id, @kind, @tokenHash, @connectorId, @userId, @clientId, @createdAt, @expiresAt, @usedAt,
       @revokedAt)`,
  );
  const tokenByHash = db.prepare('SELECT * FROM oauth_tokens WHERE token_hash = ?');
  const useRefresh = db.prepare(
    `UPDATE oauth_tokens SET used_at = ? WHERE id = ? AND kind = 'refresh' AND used_at IS NULL
       AND revoked_at IS NULL AND expires_at > ?`,
  );
  const revokeToken = db.prepare(
    'UPDATE oauth_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const revokeTokensOf = db.prepare(
    'UPDATE oauth_tokens SET revoked_at = ? WHERE connector_id = ? AND revoked_at IS NULL',
  );
  const revokeConnector = db.prepare(
    'UPDATE connectors SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const pruneRequests = db.prepare(
    'DELETE FROM oauth_requests WHERE expires_at < @before AND (code_expires_at IS NULL OR code_expires_at < @before)',
  );
  const pruneTokens = db.prepare('DELETE FROM oauth_tokens WHERE expires_at < ?');

  const addTokens = db.transaction((tokens: OAuthTokenRecord[]) => {
    for (const t of tokens) insertToken.run(t);
  });

  const rotate = db.transaction((usedId: string, next: OAuthTokenRecord[], at: number) => {
    if (useRefresh.run(at, usedId, at).changes !== 1) return false;
    for (const t of next) insertToken.run(t);
    return true;
  });

  const revokeConnection = db.transaction((connectorId: string, at: number) => {
    revokeTokensOf.run(at, connectorId);
    revokeConnector.run(at, connectorId);
  });

  return {
    async createClient(c) {
      insertClient.run(
        c.id,
        c.secretHash,
        c.authMethod,
        c.name,
        JSON.stringify(c.redirectUris),
        JSON.stringify(c.metadata),
        c.createdAt,
      );
      return c;
    },
    async getClient(id) {
      const r = clientById.get(id) as Row | undefined;
      return r ? toOAuthClient(r) : null;
    },
    async updateClient(id, f) {
      const run = updateClient.run(f.name, JSON.stringify(f.redirectUris), JSON.stringify(f.metadata), id);
      return run.changes > 0;
    },
    async createRequest(r) {
      insertRequest.run(r);
      return r;
    },
    async getRequest(id) {
      const r = requestById.get(id) as Row | undefined;
      return r ? toOAuthRequest(r) : null;
    },
    async findRequestByCodeHash(hash) {
      const r = requestByCode.get(hash) as Row | undefined;
      return r ? toOAuthRequest(r) : null;
    },
    async decide(id, d) {
      const changed = decide.run({ id, status: d.status, userId: d.userId, agentId: d.agentId, at: d.at });
      if (changed.changes !== 1) return null;
      return toOAuthRequest(requestById.get(id) as Row);
    },
    async finish(id, input) {
      return finish.run({ id, ...input }).changes === 1;
    },
    async useCode(id, at, connectorId) {
      return useCode.run(at, connectorId, id).changes === 1;
    },
    async addTokens(tokens) {
      addTokens(tokens);
    },
    async findToken(hash) {
      const r = tokenByHash.get(hash) as Row | undefined;
      return r ? toOAuthToken(r) : null;
    },
    async rotateRefresh(usedId, next, at) {
      return rotate(usedId, next, at);
    },
    async revokeToken(id, at) {
      revokeToken.run(at, id);
    },
    async revokeConnection(connectorId, at) {
      revokeConnection(connectorId, at);
    },
    async prune(before) {
      pruneRequests.run({ before });
      pruneTokens.run(before);
    },
  };
}
