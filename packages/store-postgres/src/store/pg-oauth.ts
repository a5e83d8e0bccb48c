// PostgreSQL OAuth clients, authorization requests and tokens. Every multi-row change is one transaction;
// every claim is a conditional UPDATE (or a row locked FOR UPDATE), so racing instances win it once.
import type { OAuthRepository, OAuthTokenRecord } from '@screen-service/registry/model';
import { changes, first, type PgDb, type Queryable } from './pg-db.js';
import {
  connectorValues,
  INSERT_CONNECTOR_SQL,
  toOAuthClient,
  toOAuthRequest,
  toOAuthToken,
} from './rows.js';

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

// The repository's own input and outcome types (the registry exports them only through the interface).
type RedeemCode = Parameters<OAuthRepository['redeemCode']>[0];
type RedeemOutcome = Awaited<ReturnType<OAuthRepository['redeemCode']>>;

/** Thrown inside a transaction to roll it back with an outcome. */
class Rollback extends Error {
  constructor(readonly outcome: 'not_pending') {
    super(outcome);
  }
}

export function createPgOAuth(db: PgDb): OAuthRepository {
  const redeem = (p: RedeemCode) =>
    db.tx(async (q): Promise<RedeemOutcome> => {
      // The request row stays locked to the end: a second redemption waits, then sees code_used_at.
      const row = await first(q, 'SELECT * FROM oauth_requests WHERE id = $1 FOR UPDATE', [p.requestId]);
      if (!row) return 'not_approved';
      const req = toOAuthRequest(row);
      if (req.status !== 'approved' || req.userId === null || req.finishedAt === null) return 'not_approved';
      if (req.codeUsedAt !== null) return 'code_used';
      if (req.codeExpiresAt === null || req.codeExpiresAt <= p.at) return 'code_expired';
      const useCode = (connectorId: string | null) =>
        q.query(
          'UPDATE oauth_requests SET code_used_at = $1, connector_id = $2 WHERE id = $3 AND code_used_at IS NULL',
          [p.at, connectorId, req.id],
        );
      const agent = req.agentId
        ? await first(q, 'SELECT id FROM agents WHERE id = $1 AND user_id = $2 FOR UPDATE', [
            req.agentId,
            req.userId,
          ])
        : undefined;
      if (!req.agentId || !agent) {
        await useCode(null);
        return 'agent_gone';
      }
      await q.query(INSERT_CONNECTOR_SQL, connectorValues(p.connector));
      await useCode(p.connector.id);
      // An agent served by a live connection (a paired host) keeps it; the sign-in serves it as well
      // (ADR 0091). A pending agent, or one whose connection was removed, moves to the sign-in.
      const live = await first(
        q,
        `SELECT c.id FROM agents a JOIN connectors c ON c.id = a.connector_id
         WHERE a.id = $1 AND c.revoked_at IS NULL AND c.suspended_at IS NULL`,
        [req.agentId],
      );
      if (live) {
        await q.query(
          `INSERT INTO agent_connections (agent_id, connector_id, user_id, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT DO NOTHING`,
          [req.agentId, p.connector.id, req.userId, p.at],
        );
      } else {
        await q.query(
          "UPDATE agents SET connector_id = $1, remote_ref = $2, kind = 'mcp', updated_at = $3 WHERE id = $4",
          [p.connector.id, p.remoteRef, p.at, req.agentId],
        );
      }
      for (const t of p.tokens) await insertToken(q, t);
      return 'ok';
    });

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
    async getRequest(id) {
      const r = await db.one('SELECT * FROM oauth_requests WHERE id = $1', [id]);
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
    async approveWithPairingCode(id, p) {
      try {
        return await db.tx(async (q) => {
          const claimed = await changes(
            q,
            'UPDATE pairing_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL AND expires_at > $1',
            [p.at, p.codeId],
          );
          if (claimed !== 1) return 'code_taken' as const;
          if ((await changes(q, DECIDE, [id, 'approved', p.userId, p.agentId, p.at])) !== 1) {
            throw new Rollback('not_pending');
          }
          return 'ok' as const;
        });
      } catch (err) {
        if (err instanceof Rollback) return err.outcome;
        throw err;
      }
    },
    async finish(id, input) {
      const n = await db.run(
        `UPDATE oauth_requests SET finished_at = $2, code_hash = $3, code_expires_at = $4
         WHERE id = $1 AND status <> 'pending' AND finished_at IS NULL`,
        [id, input.at, input.codeHash, input.codeExpiresAt],
      );
      return n === 1;
    },
    async redeemCode(input) {
      return redeem(input);
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
