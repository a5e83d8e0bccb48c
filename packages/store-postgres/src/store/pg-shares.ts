// PostgreSQL shared agents: templates, invites and grants as stored; a second live grant (a unique index) is
// CONFLICT. Which agent may be shared is the core's rule (ADR 0241).

import { ServiceError } from '@screen-service/registry/kernel';
import type { NewGrant, ShareRepository, ShareTemplateRecord } from '@screen-service/registry/model';
import { toGrant, toShareInvite } from '@screen-service/registry/model';
import { first, isUniqueViolation, type PgDb, type Queryable, type Row } from './pg-db.js';

const liveTaken = () =>
  new ServiceError('CONFLICT', 'This person already holds a live grant for this agent.', {
    field: 'user_id',
  });

// A template with its items, read in the same connection or transaction as the template row.
async function withItems(q: Queryable, r: Row | undefined): Promise<ShareTemplateRecord | null> {
  if (!r) return null;
  const items = await q.query(
    'SELECT * FROM share_template_items WHERE template_id = $1 ORDER BY sort, agent_id COLLATE "C"',
    [r.id],
  );
  return {
    id: r.id as string,
    ownerId: r.user_id as string,
    name: r.name as string,
    title: r.title as string,
    sharedBy: r.shared_by as string,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    items: items.rows.map((i) => ({
      agentId: i.agent_id as string,
      theme: JSON.parse(i.theme as string) as Record<string, unknown>,
      firstMessage: i.first_message as string,
      sort: Number(i.sort),
    })),
  };
}

type Part<K extends keyof ShareRepository> = Pick<ShareRepository, K>;

/** Templates and their items. */
function templateOps(
  db: PgDb,
): Part<'saveTemplate' | 'getTemplate' | 'getTemplateById' | 'listTemplates' | 'deleteTemplate'> {
  return {
    async saveTemplate(t) {
      return db.tx(async (q) => {
        const row = await first(
          q,
          `INSERT INTO share_templates (id, user_id, name, title, shared_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6)
           ON CONFLICT (user_id, name) DO UPDATE SET title = excluded.title, shared_by = excluded.shared_by,
             updated_at = excluded.updated_at
           RETURNING *`,
          [t.id, t.ownerId, t.name, t.title, t.sharedBy, t.updatedAt],
        );
        await q.query('DELETE FROM share_template_items WHERE template_id = $1', [row!.id]);
        // Every item in one statement (one round trip, whatever their number).
        await q.query(
          `INSERT INTO share_template_items (template_id, agent_id, user_id, theme, first_message, sort)
           SELECT $1, i.agent_id, $2, i.theme, i.first_message, i.sort
           FROM unnest($3::text[], $4::text[], $5::text[], $6::int[]) AS i(agent_id, theme, first_message, sort)`,
          [
            row!.id,
            t.ownerId,
            t.items.map((i) => i.agentId),
            t.items.map((i) => JSON.stringify(i.theme)),
            t.items.map((i) => i.firstMessage),
            t.items.map((i) => i.sort),
          ],
        );
        return (await withItems(q, row))!;
      });
    },
    async getTemplate(ownerId, name) {
      return withItems(
        db,
        await db.one('SELECT * FROM share_templates WHERE user_id = $1 AND name = $2', [ownerId, name]),
      );
    },
    async getTemplateById(id) {
      return withItems(db, await db.one('SELECT * FROM share_templates WHERE id = $1', [id]));
    },
    async listTemplates(ownerId) {
      const rows = await db.all(
        'SELECT * FROM share_templates WHERE user_id = $1 ORDER BY name COLLATE "C"',
        [ownerId],
      );
      const out: ShareTemplateRecord[] = [];
      for (const r of rows) out.push((await withItems(db, r))!);
      return out;
    },
    async deleteTemplate(ownerId, name) {
      return (
        (await db.run('DELETE FROM share_templates WHERE user_id = $1 AND name = $2', [ownerId, name])) > 0
      );
    },
  };
}

/** Invites: created, found by token hash, approved, claimed once; and the claimer's first name. */
function inviteOps(
  db: PgDb,
): Part<'createInvite' | 'findInviteByHash' | 'approveInvite' | 'claimInvite' | 'setFirstName'> {
  return {
    async createInvite(i) {
      await db.run(
        `INSERT INTO share_invites (id, user_id, template_id, token_hash, first_name, created_at, approved_at, claimed_at, claimed_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          i.id,
          i.ownerId,
          i.templateId,
          i.tokenHash,
          i.firstName,
          i.createdAt,
          i.approvedAt,
          i.claimedAt,
          i.claimedBy,
        ],
      );
      return i;
    },
    async findInviteByHash(hash) {
      const r = await db.one('SELECT * FROM share_invites WHERE token_hash = $1', [hash]);
      return r ? toShareInvite(r) : null;
    },
    async approveInvite(ownerId, id, at) {
      const n = await db.run(
        'UPDATE share_invites SET approved_at = $1 WHERE id = $2 AND user_id = $3 AND approved_at IS NULL',
        [at, id, ownerId],
      );
      return n > 0;
    },
    async claimInvite(id, userId, at) {
      const n = await db.run(
        `UPDATE share_invites SET claimed_at = $1, claimed_by = $2
         WHERE id = $3 AND approved_at IS NOT NULL AND claimed_at IS NULL`,
        [at, userId, id],
      );
      return n > 0;
    },
    async setFirstName(userId, firstName) {
      await db.run('UPDATE users SET first_name = $1 WHERE id = $2 AND first_name IS NULL', [
        firstName,
        userId,
      ]);
    },
  };
}

/** Grants: one live per (agent, person), read by holder and giver, revoked, and swept after 30 days. */
function grantOps(
  db: PgDb,
): Omit<ShareRepository, keyof ReturnType<typeof templateOps> | keyof ReturnType<typeof inviteOps>> {
  return {
    async createGrant(g: NewGrant) {
      try {
        const r = await db.one(
          `INSERT INTO grants (id, agent_id, owner_id, user_id, role, theme, first_message, template, invite_id,
             push_muted, sort, shared_by, granted_at, revoked_at)
           VALUES ($1, $2, $3, $4, 'user', $5, $6, $7, $8, $9, $10, $11, $12, NULL)
           RETURNING *`,
          [
            g.id,
            g.agentId,
            g.ownerId,
            g.userId,
            JSON.stringify(g.theme),
            g.firstMessage,
            g.template,
            g.inviteId,
            g.pushMuted,
            g.sort,
            g.sharedBy,
            g.grantedAt,
          ],
        );
        return toGrant(r!);
      } catch (err) {
        // Two instances granting at once: the partial unique index refuses the second.
        if (isUniqueViolation(err, 'grants_live')) throw liveTaken();
        throw err;
      }
    },
    async liveGrant(agentId, userId) {
      const r = await db.one(
        'SELECT * FROM grants WHERE agent_id = $1 AND user_id = $2 AND revoked_at IS NULL',
        [agentId, userId],
      );
      return r ? toGrant(r) : null;
    },
    async latestGrant(agentId, userId) {
      const r = await db.one(
        'SELECT * FROM grants WHERE agent_id = $1 AND user_id = $2 ORDER BY granted_at DESC, id COLLATE "C" DESC LIMIT 1',
        [agentId, userId],
      );
      return r ? toGrant(r) : null;
    },
    async listHeld(userId) {
      const rows = await db.all(
        'SELECT * FROM grants WHERE user_id = $1 AND revoked_at IS NULL ORDER BY sort, granted_at, id COLLATE "C"',
        [userId],
      );
      return rows.map(toGrant);
    },
    async listGiven(ownerId) {
      const rows = await db.all(
        'SELECT * FROM grants WHERE owner_id = $1 ORDER BY granted_at DESC, id COLLATE "C"',
        [ownerId],
      );
      return rows.map(toGrant);
    },
    async liveForAgents(agentIds) {
      if (agentIds.length === 0) return [];
      const rows = await db.all(
        'SELECT * FROM grants WHERE revoked_at IS NULL AND agent_id = ANY($1::text[])',
        [agentIds],
      );
      return rows.map(toGrant);
    },
    async updateHeld(id, patch) {
      const r = await db.one(
        `UPDATE grants SET push_muted = COALESCE($2, push_muted), sort = COALESCE($3, sort)
         WHERE id = $1 AND revoked_at IS NULL RETURNING *`,
        [id, patch.pushMuted ?? null, patch.sort ?? null],
      );
      return r ? toGrant(r) : null;
    },
    async revoke(ownerId, agentId, userId, at) {
      const r = await db.one(
        `UPDATE grants SET revoked_at = $1 WHERE owner_id = $2 AND agent_id = $3 AND user_id = $4 AND revoked_at IS NULL
         RETURNING *`,
        [at, ownerId, agentId, userId],
      );
      return r ? toGrant(r) : null;
    },
    async deleteRevokedBefore(before) {
      const rows = await db.all(
        'DELETE FROM grants WHERE revoked_at IS NOT NULL AND revoked_at < $1 RETURNING *',
        [before],
      );
      return rows.map(toGrant);
    },
  };
}

export function createPgShares(db: PgDb): ShareRepository {
  return { ...templateOps(db), ...inviteOps(db), ...grantOps(db) };
}
