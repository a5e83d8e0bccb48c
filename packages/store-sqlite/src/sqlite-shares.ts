// SQLite shared agents: templates, invites and grants as stored; a second live grant (a unique index) is
// CONFLICT. Which agent may be shared is the core's rule (ADR 0241).

import { ServiceError } from '@screen-service/registry/kernel';
import type { ShareRepository, ShareTemplateRecord } from '@screen-service/registry/model';
import { toGrant, toShareInvite } from '@screen-service/registry/model';
import { isUniqueViolation, type SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

const _num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function createSqliteShares(db: SqliteDb): ShareRepository {
  const upsertTemplate = db.prepare(
    `INSERT INTO share_templates (id, user_id, name, title, shared_by, created_at, updated_at)
     VALUES (@id, @ownerId, @name, @title, @sharedBy, @updatedAt, @updatedAt)
     ON CONFLICT (user_id, name) DO UPDATE SET title = excluded.title, shared_by = excluded.shared_by,
       updated_at = excluded.updated_at
     RETURNING id`,
  );
  const clearItems = db.prepare('DELETE FROM share_template_items WHERE template_id = ?');
  const insertItem = db.prepare(
    `INSERT INTO share_template_items (template_id, agent_id, user_id, theme, first_message, sort)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const templateByName = db.prepare('SELECT * FROM share_templates WHERE user_id = ? AND name = ?');
  const templateById = db.prepare('SELECT * FROM share_templates WHERE id = ?');
  const templatesOf = db.prepare('SELECT * FROM share_templates WHERE user_id = ? ORDER BY name');
  const itemsOf = db.prepare(
    'SELECT * FROM share_template_items WHERE template_id = ? ORDER BY sort, agent_id',
  );
  const deleteTemplate = db.prepare('DELETE FROM share_templates WHERE user_id = ? AND name = ?');
  const insertInvite = db.prepare(
    `INSERT INTO share_invites (id, user_id, template_id, token_hash, first_name, created_at, approved_at, claimed_at, claimed_by)
     VALUES (@id, @ownerId, @templateId, @tokenHash, @firstName, @createdAt, @approvedAt, @claimedAt, @claimedBy)`,
  );
  const inviteByHash = db.prepare('SELECT * FROM share_invites WHERE token_hash = ?');
  const approveInvite = db.prepare(
    'UPDATE share_invites SET approved_at = ? WHERE id = ? AND user_id = ? AND approved_at IS NULL',
  );
  const claimInvite = db.prepare(
    `UPDATE share_invites SET claimed_at = ?, claimed_by = ?
     WHERE id = ? AND approved_at IS NOT NULL AND claimed_at IS NULL`,
  );
  const insertGrant = db.prepare(
    `INSERT INTO grants (id, agent_id, owner_id, user_id, role, theme, first_message, template, invite_id,
       push_muted, sort, shared_by, granted_at, revoked_at)
     VALUES (@id, @agentId, @ownerId, @userId, 'user', @theme, @firstMessage, @template, @inviteId,
       @pushMuted, @sort, @sharedBy, @grantedAt, NULL)
     RETURNING *`,
  );
  const live = db.prepare('SELECT * FROM grants WHERE agent_id = ? AND user_id = ? AND revoked_at IS NULL');
  const latest = db.prepare(
    'SELECT * FROM grants WHERE agent_id = ? AND user_id = ? ORDER BY granted_at DESC, id DESC LIMIT 1',
  );
  const held = db.prepare(
    'SELECT * FROM grants WHERE user_id = ? AND revoked_at IS NULL ORDER BY sort, granted_at, id',
  );
  const given = db.prepare('SELECT * FROM grants WHERE owner_id = ? ORDER BY granted_at DESC, id');
  const liveFor = db.prepare(
    'SELECT * FROM grants WHERE revoked_at IS NULL AND agent_id IN (SELECT value FROM json_each(?))',
  );
  const updateHeld = db.prepare(
    `UPDATE grants SET push_muted = COALESCE(@pushMuted, push_muted), sort = COALESCE(@sort, sort)
     WHERE id = @id AND revoked_at IS NULL RETURNING *`,
  );
  const revoke = db.prepare(
    `UPDATE grants SET revoked_at = ? WHERE owner_id = ? AND agent_id = ? AND user_id = ? AND revoked_at IS NULL
     RETURNING *`,
  );
  const deleteRevoked = db.prepare(
    'DELETE FROM grants WHERE revoked_at IS NOT NULL AND revoked_at < ? RETURNING *',
  );
  const setFirstName = db.prepare('UPDATE users SET first_name = ? WHERE id = ? AND first_name IS NULL');

  function withItems(r: Row | undefined): ShareTemplateRecord | null {
    if (!r) return null;
    return {
      id: r.id as string,
      ownerId: r.user_id as string,
      name: r.name as string,
      title: r.title as string,
      sharedBy: r.shared_by as string,
      createdAt: r.created_at as number,
      updatedAt: r.updated_at as number,
      items: (itemsOf.all(r.id) as Row[]).map((i) => ({
        agentId: i.agent_id as string,
        theme: JSON.parse(i.theme as string) as Record<string, unknown>,
        firstMessage: i.first_message as string,
        sort: i.sort as number,
      })),
    };
  }

  const saveTemplate = db.transaction((t: Omit<ShareTemplateRecord, 'createdAt'>) => {
    const { id } = upsertTemplate.get(t) as { id: string };
    clearItems.run(id);
    for (const item of t.items) {
      insertItem.run(id, item.agentId, t.ownerId, JSON.stringify(item.theme), item.firstMessage, item.sort);
    }
    return id;
  });

  const createGrant = (g: Parameters<ShareRepository['createGrant']>[0]) => {
    try {
      return toGrant(
        insertGrant.get({
          ...g,
          theme: JSON.stringify(g.theme),
          pushMuted: g.pushMuted ? 1 : 0,
        }) as Row,
      );
    } catch (err) {
      if (isUniqueViolation(err, 'grants.agent_id, grants.user_id')) {
        throw new ServiceError('CONFLICT', 'This person already holds a live grant for this agent.', {
          field: 'user_id',
        });
      }
      throw err;
    }
  };

  return {
    async saveTemplate(t) {
      return withItems(templateById.get(saveTemplate(t)) as Row)!;
    },
    async getTemplate(ownerId, name) {
      return withItems(templateByName.get(ownerId, name) as Row | undefined);
    },
    async getTemplateById(id) {
      return withItems(templateById.get(id) as Row | undefined);
    },
    async listTemplates(ownerId) {
      return (templatesOf.all(ownerId) as Row[]).map((r) => withItems(r)!);
    },
    async deleteTemplate(ownerId, name) {
      return deleteTemplate.run(ownerId, name).changes > 0;
    },
    async createInvite(invite) {
      insertInvite.run(invite);
      return invite;
    },
    async findInviteByHash(hash) {
      const r = inviteByHash.get(hash) as Row | undefined;
      return r ? toShareInvite(r) : null;
    },
    async approveInvite(ownerId, id, at) {
      return approveInvite.run(at, id, ownerId).changes > 0;
    },
    async claimInvite(id, userId, at) {
      return claimInvite.run(at, userId, id).changes > 0;
    },
    async createGrant(grant) {
      return createGrant(grant);
    },
    async liveGrant(agentId, userId) {
      const r = live.get(agentId, userId) as Row | undefined;
      return r ? toGrant(r) : null;
    },
    async latestGrant(agentId, userId) {
      const r = latest.get(agentId, userId) as Row | undefined;
      return r ? toGrant(r) : null;
    },
    async listHeld(userId) {
      return (held.all(userId) as Row[]).map(toGrant);
    },
    async listGiven(ownerId) {
      return (given.all(ownerId) as Row[]).map(toGrant);
    },
    async liveForAgents(agentIds) {
      if (agentIds.length === 0) return [];
      return (liveFor.all(JSON.stringify(agentIds)) as Row[]).map(toGrant);
    },
    async updateHeld(id, patch) {
      const r = updateHeld.get({
        id,
        pushMuted: patch.pushMuted === undefined ? null : patch.pushMuted ? 1 : 0,
        sort: patch.sort ?? null,
      }) as Row | undefined;
      return r ? toGrant(r) : null;
    },
    async revoke(ownerId, agentId, userId, at) {
      const r = revoke.get(at, ownerId, agentId, userId) as Row | undefined;
      return r ? toGrant(r) : null;
    },
    async deleteRevokedBefore(before) {
      return (deleteRevoked.all(before) as Row[]).map(toGrant);
    },
    async setFirstName(userId, firstName) {
      setFirstName.run(firstName, userId);
    },
  };
}
