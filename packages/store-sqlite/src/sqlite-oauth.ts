// SQLite OAuth clients, authorization requests and tokens. Every multi-row change is one transaction.
import type {
  OAuthRepository,
  OAuthTokenRecord,
  RedeemCode,
  RedeemOutcome,
} from '@screen-service/registry/model';
import {
  connectorParams,
  INSERT_CONNECTOR_SQL,
  type SqliteDb,
  toOAuthClient,
  toOAuthRequest,
  toOAuthToken,
} from './rows.js';

type Row = Record<string, unknown>;

export function createSqliteOAuth(db: SqliteDb): OAuthRepository {
  const insertClient = db.prepare(
    `INSERT INTO oauth_clients (id, secret_hash, auth_method, name, redirect_uris, metadata, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const clientById = db.prepare('SELECT * FROM oauth_clients WHERE id = ?');
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
  const claimPairingCode = db.prepare(
    'UPDATE pairing_codes SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?',
  );
  const finish = db.prepare(
    `UPDATE oauth_requests SET finished_at = @at, code_hash = @codeHash, code_expires_at = @codeExpiresAt
     WHERE id = @id AND status <> 'pending' AND finished_at IS NULL`,
  );
  const useCode = db.prepare(
    'UPDATE oauth_requests SET code_used_at = ?, connector_id = ? WHERE id = ? AND code_used_at IS NULL',
  );
  const agentOf = db.prepare('SELECT id FROM agents WHERE id = ? AND user_id = ?');
  const insertConnector = db.prepare(INSERT_CONNECTOR_SQL);
  const bind = db.prepare(
    "UPDATE agents SET connector_id = ?, remote_ref = ?, kind = 'mcp', updated_at = ? WHERE id = ?",
  );
  // The agent's primary connection, when it is live (unrevoked, unsuspended): then the agent keeps it.
  const livePrimary = db.prepare(
    `SELECT c.id FROM agents a JOIN connectors c ON c.id = a.connector_id
     WHERE a.id = ? AND c.revoked_at IS NULL AND c.suspended_at IS NULL`,
  );
  const bindExtra = db.prepare(
    'INSERT OR IGNORE INTO agent_connections (agent_id, connector_id, user_id, created_at) VALUES (?, ?, ?, ?)',
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

  const approveWithCode = db.transaction(
    (id: string, p: { codeId: string; userId: string; agentId: string; at: number }) => {
      if (claimPairingCode.run(p.at, p.codeId, p.at).changes !== 1) return 'code_taken' as const;
      const changed = decide.run({ id, status: 'approved', userId: p.userId, agentId: p.agentId, at: p.at });
      if (changed.changes !== 1) throw new Rollback('not_pending');
      return 'ok' as const;
    },
  );

  const redeem = db.transaction((p: RedeemCode): RedeemOutcome => {
    const row = requestById.get(p.requestId) as Row | undefined;
    if (!row) return 'not_approved';
    const req = toOAuthRequest(row);
    if (req.status !== 'approved' || req.userId === null || req.finishedAt === null) return 'not_approved';
    if (req.codeUsedAt !== null) return 'code_used';
    if (req.codeExpiresAt === null || req.codeExpiresAt <= p.at) return 'code_expired';
    if (!req.agentId || !agentOf.get(req.agentId, req.userId)) {
      useCode.run(p.at, null, req.id);
      return 'agent_gone';
    }
    insertConnector.run(connectorParams(p.connector));
    useCode.run(p.at, p.connector.id, req.id);
    // An agent served by a live connection (a paired host) keeps it; the sign-in serves it as well
    // (ADR 0091). A pending agent, or one whose connection was removed, moves to the sign-in.
    if (livePrimary.get(req.agentId)) bindExtra.run(req.agentId, p.connector.id, req.userId, p.at);
    else bind.run(p.connector.id, p.remoteRef, p.at, req.agentId);
    for (const t of p.tokens) insertToken.run(t);
    return 'ok';
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
    async approveWithPairingCode(id, input) {
      try {
        return approveWithCode(id, input);
      } catch (err) {
        if (err instanceof Rollback) return err.outcome;
        throw err;
      }
    },
    async finish(id, input) {
      return finish.run({ id, ...input }).changes === 1;
    },
    async redeemCode(input) {
      return redeem(input);
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

/** Thrown inside a transaction to roll it back with an outcome. */
class Rollback extends Error {
  constructor(readonly outcome: 'not_pending') {
    super(outcome);
  }
}
