// PostgreSQL OAuth clients, authorization requests and tokens. Every multi-row change is one transaction;
// every claim is a conditional UPDATE, so racing instances win it once. A code's redemption is the OAuth
// rules' (packages/oauth), in a Store.transaction that reads the request FOR UPDATE (ADR 0241).
import type { OAuthRepository, OAuthTokenRecord } from '@screen-service/registry/model';
import { toOAuthClient, toOAuthRequest, toOAuthToken } from '@screen-service/registry/model';
import { changes, forUpdate, type PgDb, type Queryable } from './pg-db.js';

const DECIDE = `UPDATE oauth_requests SET status = $2, user_id = $3, agent_id = $4, decided_at = $5
  WHERE id = $1 AND status = 'pending' AND expires_at > $5`;

const insertToken = (q: Queryable, t: OAuthTokenRecord) =>
  q.query(
    `INSERT INTO oauth_tokens (id, kind, token_hash, connector_id, user_id, client_id, created_at, expires_at,
       used_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      t.id,
      t.kind,
      t.tokenHash,
      t.connectorId,
      t.userId,
      t.clientId,
      t.createdAt,
      t.expiresAt,
      t.usedAt,
      t.revokedAt,
    ],
  );

export function createPgOAuth(db: PgDb): OAuthRepository {
  return {
    async createClient(c) {
      await db.run(
        `INSERT INTO oauth_clients (id, secret_hash, auth_method, name, redirect_uris, metadata, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          c.id,
          c.secretHash,
          c.authMethod,
          c.name,
          JSON.stringify(c.redirectUris),
          JSON.stringify(c.metadata),
          c.createdAt,
        ],
      );
      return c;
    },
    async getClient(id) {
      const r = await db.one('SELECT * FROM oauth_clients WHERE id = $1', [id]);
      return r ? toOAuthClient(r) : null;
    },
    async updateClient(id, f) {
      const n = await db.run(
        'UPDATE oauth_clients SET name = $1, redirect_uris = $2, metadata = $3 WHERE id = $4',
        [f.name, JSON.stringify(f.redirectUris), JSON.stringify(f.metadata), id],
      );
      return n > 0;
    },
    async createRequest(r) {
      await db.run(
        `INSERT INTO oauth_requests (id, client_id, redirect_uri, state, code_challenge, scope, resource,
           browser_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          r.id,
          r.clientId,
          r.redirectUri,
          r.state,
          r.codeChallenge,
          r.scope,
          r.resource,
          r.browserHash,
          r.createdAt,
          r.expiresAt,
        ],
      );
      return r;
    },
    async getRequest(id, options) {
      const r = await db.one(`SELECT * FROM oauth_requests WHERE id = $1${forUpdate(options)}`, [id]);
      return r ? toOAuthRequest(r) : null;
    },
    async findRequestByCodeHash(hash) {
      const r = await db.one('SELECT * FROM oauth_requests WHERE code_hash = $1', [hash]);
      return r ? toOAuthRequest(r) : null;
    },
    async decide(id, d) {
      const r = await db.one(`${DECIDE} RETURNING *`, [id, d.status, d.userId, d.agentId, d.at]);
      return r ? toOAuthRequest(r) : null;
    },
    async finish(id, input) {
      const n = await db.run(
        `UPDATE oauth_requests SET finished_at = $2, code_hash = $3, code_expires_at = $4
         WHERE id = $1 AND status <> 'pending' AND finished_at IS NULL`,
        [id, input.at, input.codeHash, input.codeExpiresAt],
      );
      return n === 1;
    },
    async useCode(id, at, connectorId) {
      const n = await db.run(
        'UPDATE oauth_requests SET code_used_at = $1, connector_id = $2 WHERE id = $3 AND code_used_at IS NULL',
        [at, connectorId, id],
      );
      return n === 1;
    },
    async addTokens(tokens) {
      if (tokens.length === 0) return;
      // One statement for every token (one round trip).
      await db.run(
        `INSERT INTO oauth_tokens (id, kind, token_hash, connector_id, user_id, client_id, created_at, expires_at,
           used_at, revoked_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
           $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])`,
        [
          tokens.map((t) => t.id),
          tokens.map((t) => t.kind),
          tokens.map((t) => t.tokenHash),
          tokens.map((t) => t.connectorId),
          tokens.map((t) => t.userId),
          tokens.map((t) => t.clientId),
          tokens.map((t) => t.createdAt),
          tokens.map((t) => t.expiresAt),
          tokens.map((t) => t.usedAt),
          tokens.map((t) => t.revokedAt),
        ],
      );
    },
    async findToken(hash) {
      const r = await db.one('SELECT * FROM oauth_tokens WHERE token_hash = $1', [hash]);
      return r ? toOAuthToken(r) : null;
    },
    async rotateRefresh(usedId, next, at) {
      return db.tx(async (q) => {
        const used = await changes(
          q,
          `UPDATE oauth_tokens SET used_at = $1 WHERE id = $2 AND kind = 'refresh' AND used_at IS NULL
             AND revoked_at IS NULL AND expires_at > $1`,
          [at, usedId],
        );
        if (used !== 1) return false;
        for (const t of next) await insertToken(q, t);
        return true;
      });
    },
    async revokeToken(id, at) {
      await db.run('UPDATE oauth_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]);
    },
    async revokeConnection(connectorId, at) {
      await db.tx(async (q) => {
        await q.query(
          'UPDATE oauth_tokens SET revoked_at = $1 WHERE connector_id = $2 AND revoked_at IS NULL',
          [at, connectorId],
        );
        await q.query('UPDATE connectors SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
          at,
          connectorId,
        ]);
      });
    },
    async prune(before) {
      await db.tx(async (q) => {
        await q.query(
          'DELETE FROM oauth_requests WHERE expires_at < $1 AND (code_expires_at IS NULL OR code_expires_at < $1)',
          [before],
        );
        await q.query('DELETE FROM oauth_tokens WHERE expires_at < $1', [before]);
      });
    },
  };
}
